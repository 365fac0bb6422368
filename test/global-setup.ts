import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: a plain script, shared with `npm run build`, with no types of its own
import { clearStamp, isBuildCurrent, writeStamp } from '../scripts/build-stamp.mjs';

/**
 * The end-to-end tests run ./bin/zhixing, which runs dist/, and the browser tests load dist/web:
 * build it (compile, bundle, web app) from the current sources, unless dist/ already is their build
 * (`npm ci` builds, and a second project's setup finds the first one's build).
 */
export default function setup(): void {
  if (process.env.ZHIXING_TEST_SKIP_BUILD === '1' || isBuildCurrent()) return;
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  clearStamp();
  execFileSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  execFileSync(process.execPath, [join(root, 'scripts/bundle.mjs')], { cwd: root, stdio: 'inherit' });
  execFileSync(
    process.execPath,
    [
      join(root, 'node_modules/vite/bin/vite.js'),
      'build',
      '--config',
      join(root, 'web/vite.config.ts'),
      '--logLevel',
      'warn',
    ],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  writeStamp();
}
