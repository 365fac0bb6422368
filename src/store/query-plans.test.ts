import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createStore } from './store.js';

const dir = mkdtempSync(join(tmpdir(), 'zhixing-plans-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** SQLite's plan for a query, one line per step. */
function plan(db: Database.Database, sql: string, ...params: unknown[]): string {
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>)
    .map((r) => r.detail)
    .join('\n');
}

/**
 * The queries a turn and a listing make, as the repositories write them: each must go through an
 * index, so a session of 50,000 messages costs what a small one does.
 */
describe('query plans', () => {
  const path = join(dir, 'z.db');
  createStore(path).close();
  const db = new Database(path, { readonly: true });

  it('reads a context window from the newest end of the session index, stopping at a summary', () => {
    const p = plan(
      db,
      `SELECT id, role, size FROM messages WHERE session_id = @session
      AND rowid > coalesce((SELECT rowid FROM messages WHERE id = @after), 0) ORDER BY rowid DESC`,
      { session: 's', after: 'm' },
    );
    expect(p).toMatch(/SEARCH messages USING (COVERING )?INDEX messages_session \(session_id=\? AND rowid>\?\)/);
    expect(p).not.toMatch(/TEMP B-TREE|SCAN messages/);
  });

  it('finds the latest summary among summary parts only', () => {
    const p = plan(
      db,
      `SELECT p.id, p.text, p.metadata FROM parts p INDEXED BY parts_summary CROSS JOIN messages m ON m.id = p.message_id
      WHERE p.type = 'summary' AND m.session_id = ? ORDER BY p.rowid DESC LIMIT 1`,
      's',
    );
    // Summary parts first (a handful in any database), then each one's message by its key: never the session's messages.
    expect(p).toMatch(/SCAN p USING INDEX parts_summary/);
    expect(p).toMatch(/SEARCH m USING INDEX sqlite_autoindex_messages_1 \(id=\?\)/);
  });

  it('lists sessions and finds the most recent by index, without counting messages', () => {
    const select = 'SELECT s.id, s.title, s.created_at, s.updated_at, s.user_messages FROM sessions s';
    for (const sql of [
      `${select} ORDER BY s.updated_at DESC, s.rowid DESC LIMIT 1`,
      `${select} ORDER BY s.updated_at DESC, s.rowid DESC`,
    ]) {
      const p = plan(db, sql);
      expect(p).toMatch(/SCAN s USING INDEX sessions_recent/);
      expect(p).not.toMatch(/messages|TEMP B-TREE/);
    }
  });
});
