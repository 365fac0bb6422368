import type Database from 'better-sqlite3';

/** An open SQLite connection, as every repository and migration takes it; db.ts opens it. */
export type Db = Database.Database;
