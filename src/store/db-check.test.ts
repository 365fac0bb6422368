import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreError } from './store-error.js';
import { createStore } from './store.js';

/** A damaged database is found when it is opened or used, said plainly, and never written into. */

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'zhixing-dbcheck-'));
  dirs.push(d);
  return d;
};
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** A closed database with a few sessions in it. */
function healthyDb(dir: string): string {
  const path = join(dir, 'zhixing.db');
  const store = createStore(path);
  for (let i = 0; i < 20; i++) store.sessions.create(`s_${i}`, `session ${i}`, i);
  store.close();
  return path;
}

/** Overwrites the cell pointers of the sessions table's root page: a torn page in the middle of the file. */
function tearSessionsPage(path: string): void {
  const raw = new Database(path, { readonly: true });
  const root = (raw.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'sessions'").get() as { rootpage: number })
    .rootpage;
  const pageSize = raw.pragma('page_size', { simple: true }) as number;
  raw.close();
  const fd = openSync(path, 'r+');
  writeSync(fd, Buffer.alloc(64, 0xee), 0, 64, (root - 1) * pageSize + 8);
  closeSync(fd);
}

function openError(path: string): StoreError {
  try {
    createStore(path).close();
  } catch (err) {
    if (err instanceof StoreError) return err;
    throw err;
  }
  throw new Error('the damaged database opened');
}

describe('opening a damaged database', () => {
  const damages: Array<[string, (path: string) => void, RegExp]> = [
    ['a torn table page', tearSessionsPage, /\(Tree \d+ page \d+ cell \d+: Offset \d+ out of range \d+\.\.\d+; Tree/],
    ['a truncated file', (p) => truncateSync(p, 5000), /\(database disk image is malformed\)/],
    [
      'a garbage header',
      (p) => {
        const fd = openSync(p, 'r+');
        writeSync(fd, Buffer.from('not sqlite at all'));
        closeSync(fd);
      },
      /\(file is not a database\)/,
    ],
    ['a text file', (p) => writeFileSync(p, 'my notes\n'.repeat(200)), /\(file is not a database\)/],
  ];

  it.each(damages)(
    '%s: refused with what is wrong and how to recover, its bytes unchanged, one copy kept',
    (_, damage, words) => {
      const dir = tempDir();
      const path = healthyDb(dir);
      damage(path);
      const before = sha(path);

      const err = openError(path);
      expect(err.code).toBe('damaged');
      expect(err.message).toMatch(words);
      const copy = /A copy of it as it was is at (\S+)\./.exec(err.message)?.[1];
      expect(copy).toMatch(/zhixing\.db\.damaged-\d{8}T\d{6}Z$/);
      expect(err.message).toBe(
        `The database at ${path} is damaged (${/\((.*)\)\. Nothing/.exec(err.message)![1]}). Nothing was written to it. ` +
          `A copy of it as it was is at ${copy}. To export what can still be read: sqlite3 ${copy} .recover > ${join(dir, 'zhixing-recovered.sql')} ` +
          `To start afresh, move zhixing.db and its -wal and -shm files out of ${dir}.`,
      );
      expect(err.zh).toContain(`${path} 处的数据库已损坏`);
      expect(err.zh).toContain('没有向它写入任何内容。');
      expect(sha(path)).toBe(before);
      expect(sha(copy!)).toBe(before);

      // Asked again, it says the same and makes no second copy of the same file.
      expect(openError(path).message).toBe(err.message);
      expect(readdirSync(dir).filter((n) => n.includes('.damaged-') && !n.endsWith('-wal'))).toHaveLength(1);
      expect(sha(path)).toBe(before);
    },
  );

  it('a zero-length file is a new database, not a damaged one', () => {
    const path = join(tempDir(), 'zhixing.db');
    writeFileSync(path, '');
    const store = createStore(path);
    expect(store.sessions.list()).toEqual([]);
    store.close();
  });

  it('a healthy database with the WAL a crash left behind opens with everything in it', () => {
    const dir = tempDir();
    const path = join(dir, 'zhixing.db');
    const store = createStore(path);
    store.sessions.create('s_1', 'kept in the WAL', 1);
    // The files as a killed process leaves them: the session is only in the WAL, not yet checkpointed.
    const crashed = join(tempDir(), 'zhixing.db');
    copyFileSync(path, crashed);
    copyFileSync(`${path}-wal`, `${crashed}-wal`);
    store.close();
    expect(readFileSync(`${crashed}-wal`).length).toBeGreaterThan(0);

    const reopened = createStore(crashed);
    expect(reopened.sessions.list().map((s) => s.title)).toEqual(['kept in the WAL']);
    reopened.close();
  });
});

describe('a database found damaged while running', () => {
  it('says the same plain thing as a StoreError, then neither reads nor writes it again', () => {
    const dir = tempDir();
    const path = healthyDb(dir);
    const store = createStore(path);
    // Damaged under the running program: the page is read (and found torn) only now.
    tearSessionsPage(path);
    const before = sha(path);

    let err: unknown;
    try {
      store.sessions.list();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe('damaged');
    // A copy as it was is kept the moment the damage is found.
    const copy = readdirSync(dir).find((n) => /^zhixing\.db\.damaged-\d{8}T\d{6}Z$/.test(n));
    expect(copy).toBeDefined();
    const copyPath = join(dir, copy!);
    expect((err as StoreError).message).toBe(
      `The database at ${path} is damaged (database disk image is malformed). What was being saved was not saved. ` +
        `A copy of it as it was is at ${copyPath}. To export what can still be read: sqlite3 ${copyPath} .recover > ${join(dir, 'zhixing-recovered.sql')} ` +
        `To start afresh, move zhixing.db and its -wal and -shm files out of ${dir}.`,
    );
    // A write that would have worked on a sound page is refused all the same.
    expect(() => store.prefs.set('name', '小明')).toThrow(err as StoreError);
    expect(() => store.transaction(() => store.prefs.set('name', '小明'))).toThrow(err as StoreError);
    const failed: unknown[] = [];
    store.defer(
      () => store.prefs.set('name', '小明'),
      (e) => failed.push(e),
    );
    store.flush();
    expect(failed).toEqual([err]);
    store.close();
    expect(sha(path)).toBe(before);
  });
});
