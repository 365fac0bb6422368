import type { SessionRecord } from '../contract/session.js';
import type { Db } from './db-type.js';

export interface SessionsRepo {
  create(id: string, title: string, now: number): SessionRecord;
  get(id: string): SessionRecord | undefined;
  /** Most recently active first. */
  list(): SessionRecord[];
  mostRecent(): SessionRecord | undefined;
  rename(id: string, title: string): boolean;
  touch(id: string, now: number): void;
  /** Cascades to messages, parts and turns. */
  delete(id: string): boolean;
}

// The count is kept by triggers on messages (migration 10): a listing never counts a session's messages.
const SELECT = `SELECT s.id, s.title, s.created_at AS createdAt, s.updated_at AS updatedAt, s.user_messages AS messageCount
  FROM sessions s`;

export function createSessionsRepo(db: Db): SessionsRepo {
  const insert = db.prepare('INSERT INTO sessions (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)');
  const byId = db.prepare(`${SELECT} WHERE s.id = ?`);
  // rowid breaks ties between sessions touched in the same millisecond.
  const all = db.prepare(`${SELECT} ORDER BY s.updated_at DESC, s.rowid DESC`);
  const recent = db.prepare(`${SELECT} ORDER BY s.updated_at DESC, s.rowid DESC LIMIT 1`);
  // Renaming is not activity: it leaves the session's place in the list alone.
  const rename = db.prepare('UPDATE sessions SET title = ? WHERE id = ?');
  const touch = db.prepare('UPDATE sessions SET updated_at = ? WHERE id = ?');
  const del = db.prepare('DELETE FROM sessions WHERE id = ?');

  return {
    create(id, title, now) {
      insert.run(id, title, now, now);
      return { id, title, createdAt: now, updatedAt: now, messageCount: 0 };
    },
    get: (id) => byId.get(id) as SessionRecord | undefined,
    list: () => all.all() as SessionRecord[],
    mostRecent: () => recent.get() as SessionRecord | undefined,
    rename: (id, title) => rename.run(title, id).changes > 0,
    touch: (id, now) => void touch.run(now, id),
    delete: (id) => del.run(id).changes > 0,
  };
}
