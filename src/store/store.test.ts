import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createIdGenerator } from './ids.js';
import { MIGRATIONS } from './migrations.js';
import { createStore } from './store.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const dbPath = () => {
  const d = mkdtempSync(join(tmpdir(), 'zhixing-store-'));
  dirs.push(d);
  return join(d, 'nested', 'z.db');
};

describe('store', () => {
  it('opens in WAL mode with foreign keys, at the latest schema version', () => {
    const path = dbPath();
    createStore(path).close();
    const raw = new Database(path);
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(raw.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    raw.close();
  });

  it('gives todos of an older database the numbers they were shown with', () => {
    const path = dbPath();
    createStore(path).close();
    const raw = new Database(path);
    // As schema 6 left them: numbered by place, with a gap where one was deleted.
    raw.exec('DROP INDEX todos_number; ALTER TABLE todos DROP COLUMN number;');
    raw.exec("INSERT INTO todos (id, content, created_at) VALUES (1, 'a', 1), (4, 'b', 2), (9, 'c', 3)");
    raw.pragma('user_version = 6');
    raw.close();
    const store = createStore(path);
    expect(store.todos.list().map((t) => [t.number, t.content])).toEqual([[1, 'a'], [2, 'b'], [3, 'c']]);
    expect(store.todos.add('d', null, 4).number).toBe(4);
    store.close();
  });

  it('refuses a database from a newer version instead of guessing', () => {
    const path = dbPath();
    createStore(path).close();
    const raw = new Database(path);
    raw.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    raw.close();
    expect(() => createStore(path)).toThrow(/newer Zhixing/);
  });

  it('keeps a tool part through pending → running → completed with input, output and duration', () => {
    const store = createStore(dbPath());
    const s = store.sessions.create(store.newId('ses'), 't', 1);
    store.messages.addMessage({ id: 'm1', sessionId: s.id, turnId: 't1', role: 'assistant', now: 1 });
    store.messages.addPart({ id: 'p1', messageId: 'm1', type: 'tool', callId: 'c1', tool: 'calculator', input: { expression: '1+1' }, state: 'pending', now: 1 });
    expect(store.messages.list(s.id)[0]!.parts[0]).toMatchObject({ state: 'pending', output: null });
    store.messages.updateToolPart('p1', { state: 'running', now: 2 });
    store.messages.updateToolPart('p1', { state: 'completed', output: '2', ms: 0.3, now: 3 });
    expect(store.messages.list(s.id)[0]!.parts[0]).toEqual({
      id: 'p1', type: 'tool', callId: 'c1', tool: 'calculator', input: { expression: '1+1' }, output: '2', state: 'completed', ms: 0.3,
    });
    store.close();
  });

  it('deletes a session with its messages, parts and turns', () => {
    const store = createStore(dbPath());
    const s = store.sessions.create('ses_1', '', 1);
    store.turns.start({ id: 't1', sessionId: s.id, mode: 'offline', model: 'rules', now: 1 });
    store.messages.addMessage({ id: 'm1', sessionId: s.id, turnId: 't1', role: 'user', now: 1 });
    store.messages.addPart({ id: 'p1', messageId: 'm1', type: 'text', text: 'hi', now: 1 });
    expect(store.sessions.get(s.id)!.messageCount).toBe(1);
    expect(store.sessions.delete(s.id)).toBe(true);
    expect(store.messages.list(s.id)).toEqual([]);
    expect(store.turns.get('t1')).toBeUndefined();
    expect(store.integrityCheck()).toBe('ok');
    store.close();
  });

  it('makes ids that sort in creation order within one millisecond', () => {
    const newId = createIdGenerator(() => 1_700_000_000_000);
    const ids = Array.from({ length: 50 }, () => newId('msg'));
    expect([...ids].sort()).toEqual(ids);
    expect(ids[0]).toMatch(/^msg_[0-9a-z]{21}$/);
  });
});
