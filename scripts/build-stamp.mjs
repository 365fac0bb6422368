// What dist/ was built from: a hash of every file the build reads, kept in dist/.build-stamp.
// `node scripts/build-stamp.mjs clear` goes first in a build (a build cut short leaves no stamp),
// `write` records it after; `check` exits 0 when dist/ is still the build of today's sources. The test setup builds only when `check` fails,
// so `npm ci` (which builds) followed by `npm test` compiles once, and a rerun with no change
// compiles nothing. Content, not times: a fresh clone gives every file the same new time.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const stampFile = path.join(root, 'dist', '.build-stamp');

/** Folders whose files the build reads (tests excluded: tsc leaves them out), then single files. */
const folders = ['src', 'web/src', 'web/public'];
const files = [
  'web/index.html',
  'web/vite.config.ts',
  'web/tsconfig.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'scripts/bundle.mjs',
  'package-lock.json',
];

function listFiles(folder) {
  const out = [];
  for (const entry of readdirSync(path.join(root, folder), { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const rel = path.relative(root, path.join(entry.parentPath, entry.name));
    if (!rel.endsWith('.test.ts')) out.push(rel);
  }
  return out;
}

export function inputsHash() {
  const hash = createHash('sha256');
  const all = [...folders.flatMap(listFiles), ...files].sort();
  for (const rel of all) {
    hash.update(rel).update('\0');
    try {
      hash.update(readFileSync(path.join(root, rel)));
    } catch {
      hash.update('(missing)');
    }
    hash.update('\0');
  }
  return hash.digest('hex');
}

export function isBuildCurrent() {
  return recorded() === inputsHash();
}

export function clearStamp() {
  rmSync(stampFile, { force: true });
}

export function writeStamp() {
  writeFileSync(stampFile, inputsHash() + '\n');
}

function recorded() {
  try {
    return readFileSync(stampFile, 'utf8').trim();
  } catch {
    return undefined;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const command = process.argv[2];
  if (command === 'write') writeStamp();
  else if (command === 'clear') clearStamp();
  else if (command === 'check') process.exit(isBuildCurrent() ? 0 : 1);
  else {
    console.error('usage: node scripts/build-stamp.mjs write|check');
    process.exit(2);
  }
}
