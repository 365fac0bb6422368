import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createBlobFiles, removeBlobFile } from './blobs.js';

const HOUR_MS = 60 * 60 * 1000;
const cleanups: Array<() => void> = [];
afterEach(() =>
  cleanups
    .splice(0)
    .reverse()
    .forEach((c) => c()),
);

describe('sweeping the blobs folder', () => {
  it('removes old blobs and its own leftover temps, and nothing else, wherever the process runs', () => {
    const root = mkdtempSync(join(tmpdir(), 'zhixing-blobs-'));
    const cwd = process.cwd();
    cleanups.push(
      () => rmSync(root, { recursive: true, force: true }),
      () => process.chdir(cwd),
    );
    const dir = join(root, 'blobs');
    const blobs = createBlobFiles(dir);
    const hash = 'ab' + 'c'.repeat(62);
    blobs.write(hash, Buffer.from('blob'));
    const folder = join(dir, 'ab');
    // A write's temp left by a crash, and a stray file that is no blob (a sync tool's, a user's).
    writeFileSync(join(folder, '.tmp-0123456789ab'), 'partial');
    writeFileSync(join(folder, 'notes.txt'), 'stray');
    const old = new Date(Date.now() - 2 * HOUR_MS);
    for (const name of [hash.slice(2), '.tmp-0123456789ab', 'notes.txt']) utimesSync(join(folder, name), old, old);
    // The user's own file in the folder zhixing was started from, named as folder + stray name.
    mkdirSync(join(root, 'work'));
    process.chdir(join(root, 'work'));
    writeFileSync('abnotes.txt', 'mine');

    const listed = blobs.files(Date.now() - HOUR_MS);
    expect(listed.sort()).toEqual([hash, join(folder, '.tmp-0123456789ab')].sort());
    for (const entry of [...listed, 'abnotes.txt']) removeBlobFile(blobs, entry);

    expect(readFileSync(join(root, 'work', 'abnotes.txt'), 'utf8')).toBe('mine');
    expect(readFileSync(join(folder, 'notes.txt'), 'utf8')).toBe('stray');
    expect(() => blobs.read(hash)).toThrow(/ENOENT/);
  });
});
