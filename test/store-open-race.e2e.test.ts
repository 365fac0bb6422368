import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/cli.js';

const run = promisify(execFile);
const ROUNDS = 5;
const PROCESSES = 3;

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Opens (and so creates and migrates) the database at `path` in a process of its own, as the CLI and the server do. */
async function openInProcess(path: string): Promise<string> {
  const db = join(REPO_ROOT, 'dist', 'store', 'db.js');
  const script = `import { openDb } from ${JSON.stringify(db)}; try { openDb(${JSON.stringify(path)}).close(); console.log('ok'); } catch (e) { console.log(e.message); }`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script]);
  return stdout.trim();
}

describe('a new database opened by several processes at once', () => {
  it('is created and brought up to date once, without failing any of them', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const dir = mkdtempSync(join(tmpdir(), 'zhixing-race-'));
      dirs.push(dir);
      const path = join(dir, 'zhixing.db');
      const results = await Promise.all(Array.from({ length: PROCESSES }, () => openInProcess(path)));
      expect(results).toEqual(Array(PROCESSES).fill('ok'));
    }
  });
});
