import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { MIGRATIONS } from './migrations.js';

export type Db = Database.Database;

/** How long a writer waits for another process (the server, a second CLI) to finish its write. */
const BUSY_TIMEOUT_MS = 5_000;

/**
 * Opens the database in WAL mode with foreign keys on and brings the schema up to date.
 * Migrations are numbered; `user_version` records the last one applied, each in its own transaction.
 */
export function openDb(path: string): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
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
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    }).immediate();
  }
}
