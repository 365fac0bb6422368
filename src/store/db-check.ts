import Database from 'better-sqlite3';
import { constants, copyFileSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { damagedError, type StoreError } from './store-error.js';

/**
 * `quick_check` rather than `integrity_check`: it finds torn pages, bad headers and broken b-trees but
 * skips matching indexes to their tables, which keeps it to ~45 ms on a 15 MB database of 10,000
 * messages (integrity_check: ~50 ms there, but growing faster with indexes). SQLite stops after
 * this many problems: two are enough to say what is wrong, and a badly torn file is not read to its end.
 */
const QUICK_CHECK_MAX_ERRORS = 2;
/** SQLite's own words, cut to what fits a one-line error. */
const MAX_DETAIL_CHARS = 200;
/** The suffix of the copy a damaged database is saved under before anything else happens. */
const DAMAGED_COPY_SUFFIX = '.damaged-';
/** A copy's time is set from the original's, but through seconds as a float: it may land a hair off. */
const MTIME_SLACK_MS = 2;

/**
 * Checks an existing database before anything writes to it: a read-only connection (which neither
 * migrates, switches journal modes nor checkpoints its WAL on close, so the file's bytes stay as
 * they are) runs `quick_check`. A WAL left by a crash is read through as SQLite always does; it is
 * normal, not damage. Returns the StoreError to throw when the file is damaged or not a database at
 * all, after keeping a copy of it as it was; undefined when it is sound, new or empty.
 * Other failures (a busy file, a permission) are thrown for the caller to treat as it always has.
 */
export function checkExistingDb(path: string): StoreError | undefined {
  const size = fileSize(path);
  // A new database, or the empty file made for one: nothing in it to lose or to check.
  if (size === undefined || (size === 0 && !fileSize(`${path}-wal`))) return undefined;
  const problem = findProblem(path);
  if (problem === undefined) return undefined;
  return damagedError(path, problem, { untouched: true, copy: keepCopy(path) });
}

function fileSize(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** SQLite's description of what is wrong, or undefined when the file is sound. */
function findProblem(path: string): string | undefined {
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    const result = db.pragma(`quick_check(${QUICK_CHECK_MAX_ERRORS})`, { simple: true });
    if (result === 'ok') return undefined;
    return describe(String(result));
  } catch (err) {
    const code = String((err as { code?: unknown }).code ?? '');
    if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT_')) {
      return describe((err as Error).message);
    }
    throw err;
  } finally {
    db?.close();
  }
}

/** The problems on one line, without SQLite's "*** in database main ***" banner. */
function describe(text: string): string {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^\*\*\*.*\*\*\*$/.test(l));
  const joined = lines.join('; ') || text.trim();
  return joined.length > MAX_DETAIL_CHARS ? `${joined.slice(0, MAX_DETAIL_CHARS - 1)}…` : joined;
}

/**
 * Copies the damaged file (and its WAL, which may hold the latest conversations) to
 * `<name>.damaged-<time>`, so whatever the user tries next, a copy as it was found remains.
 * One copy per state of the file: a start that finds an earlier copy of the same size and time does
 * not make another. Returns the copy's path, or undefined when none could be made (a full disk).
 */
export function keepCopy(path: string): string | undefined {
  try {
    const info = statSync(path);
    const earlier = findEarlierCopy(path, info.size, info.mtimeMs);
    if (earlier) return earlier;
    const stamp = new Date()
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z');
    const copy = `${path}${DAMAGED_COPY_SUFFIX}${stamp}`;
    try {
      // EXCL: a file of that name is someone's; it is never overwritten.
      copyFileSync(path, copy, constants.COPYFILE_EXCL);
      if (fileSize(`${path}-wal`)) copyFileSync(`${path}-wal`, `${copy}-wal`, constants.COPYFILE_EXCL);
      utimesSync(copy, info.atime, info.mtime);
    } catch (err) {
      // Half a copy is not one to point the user at; what was made here (and only that) goes.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        rmSync(copy, { force: true });
        rmSync(`${copy}-wal`, { force: true });
      }
      return undefined;
    }
    return copy;
  } catch {
    return undefined;
  }
}

function findEarlierCopy(path: string, size: number, mtimeMs: number): string | undefined {
  const prefix = `${basename(path)}${DAMAGED_COPY_SUFFIX}`;
  for (const name of readdirSync(dirname(path))) {
    if (!name.startsWith(prefix) || name.endsWith('-wal') || name.endsWith('-shm')) continue;
    const full = join(dirname(path), name);
    const info = statSync(full, { throwIfNoEntry: false });
    if (info?.isFile() && info.size === size && Math.abs(info.mtimeMs - mtimeMs) < MTIME_SLACK_MS) return full;
  }
  return undefined;
}
