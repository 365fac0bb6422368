import Database from 'better-sqlite3';
import { accessSync, chmodSync, closeSync, constants, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { checkExistingDb } from './db-check.js';
import type { Db } from './db-type.js';
import { MIGRATIONS } from './migrations.js';
import { isStorageFailure, toStoreError } from './store-error.js';

/** How long a writer waits for another process (the server, a second CLI) to finish its write. */
const BUSY_TIMEOUT_MS = 5_000;
const PRIVATE_DIR_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;

/**
 * Opens the database in WAL mode with foreign keys on and brings the schema up to date. An existing
 * file is checked first, and a damaged one is refused untouched (a StoreError 'damaged').
 * Migrations are numbered; `user_version` records the last one applied, each in its own transaction.
 */
export function openDb(path: string): Db {
  if (path === ':memory:') return prepare(new Database(path));
  try {
    mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
    // Read-only folders are found before SQLite's vaguer "unable to open database file". Root passes
    // permission bits, but not a read-only mount.
    accessSync(dirname(path), constants.W_OK);
    makePrivateFile(path);
    return openPrepared(path);
  } catch (err) {
    if (!isStorageFailure(err)) throw err;
    // SQLite's complaints are about the database file; the file system's about its folder.
    const code = String((err as { code?: unknown }).code ?? '');
    throw toStoreError(err, code.startsWith('SQLITE_') ? path : dirname(path));
  }
}

/**
 * The database holds every conversation: only its owner may read it. SQLite gives its -wal and -shm
 * files the database file's own permissions, so creating it 0600 covers them too.
 */
function makePrivateFile(path: string): void {
  try {
    closeSync(openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, PRIVATE_FILE_MODE));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // An older version created it world-readable; it is ours to tighten.
    const mode = statSync(path).mode & 0o777;
    if (mode & 0o077) {
      try {
        chmodSync(path, PRIVATE_FILE_MODE);
      } catch {
        // Someone else's file: not ours to change, and no reason to refuse to start.
      }
    }
  }
}

/**
 * Several processes opening a new database at once can meet SQLite's busy answers that skip the busy
 * handler (switching to WAL, the first read of a WAL being recovered): those are retried until the same
 * deadline a writer waits for, rather than failing a start-up that only had to wait its turn.
 */
function openPrepared(path: string): Db {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (let attempt = 0; ; attempt++) {
    let db: Db | undefined;
    try {
      // Before the read-write open: switching to WAL, migrating and even closing (a checkpoint) write
      // to the file, and a damaged file must keep its bytes for whatever can be recovered from it.
      const damaged = checkExistingDb(path);
      if (damaged) throw damaged;
      db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
      return prepare(db);
    } catch (err) {
      db?.close();
      const code = String((err as { code?: unknown }).code ?? '');
      const busy = code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED');
      if (!busy || Date.now() >= deadline) throw err;
      sleepSync(Math.min(200, 10 * 2 ** attempt) * (0.5 + Math.random()));
    }
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function prepare(db: Db): Db {
  db.pragma('journal_mode = WAL');
  // NORMAL is durable across process crashes in WAL mode; only a power loss may drop the last commits.
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  migrate(db);
  return db;
}

function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(
      `The database was written by a newer Zhixing (schema ${current}, this version knows ${MIGRATIONS.length}). Upgrade Zhixing.`,
    );
  }
  for (let v = current; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      // Another process opening the same new database may have applied it since the version was read.
      if ((db.pragma('user_version', { simple: true }) as number) > v) return;
      const migration = MIGRATIONS[v]!;
      if (typeof migration === 'string') db.exec(migration);
      else migration(db);
      db.pragma(`user_version = ${v + 1}`);
    }).immediate();
  }
}
