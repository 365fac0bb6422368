import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createIdGenerator } from './ids.js';
import { MIGRATIONS } from './migrations.js';
import { createStore, type Store } from './store.js';
import { createEventLog } from '../sessions/event-log.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const dbPath = () => {
  const d = mkdtempSync(join(tmpdir(), 'zhixing-store-'));
  dirs.push(d);
  return join(d, 'nested', 'z.db');
};

/** What the context migration added, taken away again: its table rebuild is made again on the way up. */
const UNDO_CONTEXT_MIGRATION = `DROP INDEX parts_summary; DROP INDEX sessions_recent;
  DROP TRIGGER messages_count_user; DROP TRIGGER messages_uncount_user; ALTER TABLE sessions DROP COLUMN user_messages;`;

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
    // Later migrations' tables go too, so they can be made again on the way up.
    raw.exec('ALTER TABLE turns DROP COLUMN outside;');
    raw.exec(UNDO_CONTEXT_MIGRATION);
    raw.exec(
      'DROP TABLE memories_fts; DROP TABLE memories_terms; DROP TABLE memory_vectors_gone; DROP TABLE memory_vector_indexes; DROP TABLE memory_vectors; DROP TABLE memories; DROP TABLE snapshot_refs; DROP TABLE snapshot_blobs; DROP TABLE snapshots;',
    );
    raw.exec('DROP INDEX todos_number; ALTER TABLE todos DROP COLUMN number;');
    raw.exec("INSERT INTO todos (id, content, created_at) VALUES (1, 'a', 1), (4, 'b', 2), (9, 'c', 3)");
    raw.pragma('user_version = 6');
    raw.close();
    const store = createStore(path);
    expect(store.todos.list().map((t) => [t.number, t.content])).toEqual([
      [1, 'a'],
      [2, 'b'],
      [3, 'c'],
    ]);
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
    store.messages.addPart({
      id: 'p1',
      messageId: 'm1',
      type: 'tool',
      callId: 'c1',
      tool: 'calculator',
      input: { expression: '1+1' },
      state: 'pending',
      now: 1,
    });
    expect(store.messages.list(s.id)[0]!.parts[0]).toMatchObject({ state: 'pending', output: null });
    store.messages.updateToolPart('p1', { state: 'running', now: 2 });
    store.messages.updateToolPart('p1', { state: 'completed', output: '2', ms: 0.3, now: 3 });
    expect(store.messages.list(s.id)[0]!.parts[0]).toEqual({
      id: 'p1',
      type: 'tool',
      callId: 'c1',
      tool: 'calculator',
      input: { expression: '1+1' },
      output: '2',
      state: 'completed',
      ms: 0.3,
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

describe('queued writes (group commit)', () => {
  /** A write of two rows whose second fails (the session it names does not exist); counts its runs. */
  const halfWrite =
    (store: Store, sessionId: string, runs = { n: 0 }) =>
    () => {
      runs.n++;
      store.messages.addMessage({ id: store.newId('msg'), sessionId, turnId: 't', role: 'user', now: 1 });
      store.messages.addMessage({ id: store.newId('msg'), sessionId: 'ses_gone', turnId: 't', role: 'user', now: 1 });
    };
  const message = (store: Store, id: string, sessionId: string) => () =>
    store.messages.addMessage({ id, sessionId, turnId: 't', role: 'user', now: 1 });

  it('commits at the end of the tick what was queued in it, all at once', async () => {
    const path = dbPath();
    const store = createStore(path);
    const s = store.sessions.create('ses_a', '', 1);
    const errors: unknown[] = [];
    for (let i = 0; i < 3; i++) store.defer(message(store, `m${i}`, s.id), (e) => errors.push(e));
    const onDisk = () => {
      const raw = new Database(path, { readonly: true });
      try {
        return (raw.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n;
      } finally {
        raw.close();
      }
    };
    expect(onDisk()).toBe(0);
    await new Promise((r) => setImmediate(r));
    expect(onDisk()).toBe(3);
    expect(errors).toEqual([]);
    store.close();
  });

  it('rolls back a failing write alone: the writes before and after it land once, and it leaves nothing half done', () => {
    const store = createStore(dbPath());
    const a = store.sessions.create('ses_a', '', 1);
    const b = store.sessions.create('ses_b', '', 1);
    const errors: unknown[] = [];
    store.defer(message(store, 'm_a', a.id), (e) => errors.push(['a', e]));
    store.defer(halfWrite(store, b.id), (e) => errors.push(['b', e]));
    store.defer(message(store, 'm_c', a.id), (e) => errors.push(['c', e]));
    store.flush();
    expect(errors).toEqual([
      ['b', expect.objectContaining({ message: expect.stringContaining('SQLITE_CONSTRAINT_FOREIGNKEY') })],
    ]);
    expect(store.messages.list(a.id).map((m) => m.id)).toEqual(['m_a', 'm_c']);
    // The failing write's first row went with it.
    expect(store.messages.list(b.id)).toEqual([]);
    expect(store.integrityCheck()).toBe('ok');
    store.close();
  });

  it("keeps each write atomic inside a caller's transaction too", () => {
    const store = createStore(dbPath());
    const a = store.sessions.create('ses_a', '', 1);
    const errors: unknown[] = [];
    store.transaction(() => {
      store.defer(message(store, 'm_a', a.id), (e) => errors.push(e));
      store.defer(halfWrite(store, a.id), (e) => errors.push(e));
      store.flush();
    });
    expect(errors).toHaveLength(1);
    expect(store.messages.list(a.id).map((m) => m.id)).toEqual(['m_a']);
    store.close();
  });

  it("writes a tick's events once, even when another write of the batch fails and the batch runs again", () => {
    const store = createStore(dbPath());
    const a = store.sessions.create('ses_a', '', 1);
    const log = createEventLog({ store, now: () => 1 });
    log.sync(a.id);
    log.stamp({ type: 'session.status', sessionId: a.id, status: 'busy' });
    const runs = { n: 0 };
    store.defer(halfWrite(store, a.id, runs), () => {});
    log.stamp({ type: 'session.status', sessionId: a.id, status: 'idle' });
    store.flush();
    expect(runs.n).toBe(2);
    expect(log.since(a.id, 0).map((e) => [e.seq, e.type])).toEqual([
      [1, 'session.status'],
      [2, 'session.status'],
    ]);
    store.close();
  });

  it('keeps the other events of a batch when one names a session that is gone', () => {
    const store = createStore(dbPath());
    const a = store.sessions.create('ses_a', '', 1);
    // 21 events: a statement of 16 rows, one of 4 and one of 1; the gone session's event is in the first.
    const events = Array.from({ length: 21 }, (_, i) => ({
      sessionId: i === 7 ? 'ses_gone' : a.id,
      seq: i + 1,
      type: 't',
      data: '{}',
      createdAt: 1,
    }));
    store.events.appendAll(events);
    expect(store.events.since(a.id, 0, 100).map((e) => e.seq)).toEqual(
      events.filter((_, i) => i !== 7).map((e) => e.seq),
    );
    store.close();
  });
});
