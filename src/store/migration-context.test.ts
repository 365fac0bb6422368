import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { contextMigration } from './migration-context.js';
import { MIGRATIONS } from './migrations.js';
import { createStore } from './store.js';

/** The schema version before the context migration (the memory change's 9 is ordered at merge). */
/** Schema 9: the version before the context migration. */
const BEFORE = MIGRATIONS.indexOf(contextMigration);
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A database as the previous version left it, with rows of every kind of part. */
function oldDatabase(): string {
  const dir = mkdtempSync(join(tmpdir(), 'zhixing-migrate-'));
  dirs.push(dir);
  const path = join(dir, 'z.db');
  const raw = new Database(path);
  raw.pragma('foreign_keys = ON');
  for (const m of MIGRATIONS.slice(0, BEFORE)) {
    if (typeof m !== 'string') throw new Error('an earlier migration is a function: build this database another way');
    raw.exec(m);
  }
  raw.pragma(`user_version = ${BEFORE}`);
  raw.exec(`INSERT INTO sessions (id, title, created_at, updated_at) VALUES ('s1', 'one', 1, 5), ('s2', 'two', 2, 3);
    INSERT INTO messages (id, session_id, turn_id, role, created_at, size) VALUES
      ('m1', 's1', 't1', 'user', 1, 5), ('m2', 's1', 't1', 'assistant', 2, 30), ('m3', 's1', 't2', 'user', 3, 2), ('m4', 's2', 't3', 'user', 4, 2);
    INSERT INTO parts (id, message_id, type, text, created_at) VALUES ('p1', 'm1', 'text', 'hello', 1), ('p3', 'm3', 'text', 'hi', 3), ('p4', 'm4', 'text', 'yo', 4);
    INSERT INTO parts (id, message_id, type, text, created_at) VALUES ('p2r', 'm2', 'reasoning', 'thinking', 2);
    INSERT INTO parts (id, message_id, type, call_id, tool, input, output, state, started_at, ended_at, ms, created_at, title, metadata, attachments)
      VALUES ('p2', 'm2', 'tool', 'c1', 'file_read', '{"path":"a.md"}', 'contents', 'completed', 2, 2, 1.5, 2, 'Read a.md', '{"lines":3}', '[{"name":"a.png","mimeType":"image/png","size":3,"data":"AAA="}]');`);
  raw.close();
  return path;
}

describe('the context migration', () => {
  it('keeps every part, column and index, and counts user messages without counting at read time', () => {
    const path = oldDatabase();
    const store = createStore(path);
    const history = store.messages.list('s1');
    expect(history.map((m) => m.id)).toEqual(['m1', 'm2', 'm3']);
    expect(history[1]!.parts).toEqual([
      { id: 'p2r', type: 'reasoning', text: 'thinking' },
      {
        id: 'p2',
        type: 'tool',
        callId: 'c1',
        tool: 'file_read',
        input: { path: 'a.md' },
        output: 'contents',
        state: 'completed',
        ms: 1.5,
        title: 'Read a.md',
        metadata: { lines: 3 },
        attachments: [{ name: 'a.png', mimeType: 'image/png', size: 3 }],
      },
    ]);
    expect(store.messages.attachment('p2', 0)).toMatchObject({ data: 'AAA=' });
    expect(store.sessions.list().map((s) => [s.id, s.messageCount])).toEqual([
      ['s1', 2],
      ['s2', 1],
    ]);
    store.close();

    const raw = new Database(path, { readonly: true });
    expect(raw.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    const indexes = raw
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'parts' AND sql IS NOT NULL")
      .pluck()
      .all();
    expect(indexes.sort()).toEqual(['parts_message', 'parts_summary']);
    expect(raw.pragma('foreign_key_check')).toEqual([]);
    expect(raw.prepare('SELECT started_at, ended_at, created_at FROM parts WHERE id = ?').get('p2')).toEqual({
      started_at: 2,
      ended_at: 2,
      created_at: 2,
    });
    raw.close();
  });

  it('lets summary parts in, keeps the count as messages come and go, and still cascades deletes', () => {
    const store = createStore(oldDatabase());
    const covers = { upTo: 'm2', upToCreatedAt: 2, messages: 2, model: 'rules' };
    store.messages.addMessage({ id: 'm5', sessionId: 's1', turnId: 't2', role: 'assistant', now: 6 }, [
      { id: 'p5', type: 'summary', text: '## Goal\n- x', covers, now: 6 },
    ]);
    expect(store.messages.latestSummary('s1')).toEqual({ id: 'p5', text: '## Goal\n- x', covers });
    expect(store.messages.latestSummary('s2')).toBeUndefined();
    store.messages.addMessage({ id: 'm6', sessionId: 's2', turnId: 't4', role: 'user', now: 7 }, [
      { id: 'p6', type: 'text', text: 'again', now: 7 },
    ]);
    expect(store.sessions.get('s2')!.messageCount).toBe(2);
    expect(store.sessions.delete('s1')).toBe(true);
    expect(store.messages.list('s1')).toEqual([]);
    expect(store.messages.latestSummary('s1')).toBeUndefined();
    store.close();
  });
});
