import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStore, type Store } from '../store/store.js';
import { createMemoryService, MemoryError } from './service.js';
import { createPreferences } from './preferences.js';
import { queryTerms } from './terms.js';
import type { MemoryService } from './types.js';

let dir: string;
let store: Store;
let memory: MemoryService;
let a: string;
let b: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'zx-mem-'));
  store = createStore(join(dir, 'zhixing.db'));
  memory = createMemoryService({ repo: store.memories, newId: () => store.newId('mem') });
  a = store.sessions.create(store.newId('ses'), 'a', 1).id;
  b = store.sessions.create(store.newId('ses'), 'b', 2).id;
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('lexical memory', () => {
  it('finds a fact from a natural question and from a two-character word', async () => {
    await memory.save({ sessionId: a, content: '用户对花生过敏', kind: 'fact' });
    await memory.save({ sessionId: a, content: '用户喜欢喝美式咖啡', kind: 'preference' });
    expect((await memory.search({ query: '我对什么过敏？', sessionId: a }))[0]?.content).toBe('用户对花生过敏');
    expect((await memory.search({ query: '咖啡', sessionId: a })).map((h) => h.content)).toEqual([
      '用户喜欢喝美式咖啡',
    ]);
    expect(await memory.search({ query: 'peanut', sessionId: a })).toEqual([]);
  });

  it('keeps sessions apart unless all are asked for, and deletes with its session', async () => {
    await memory.save({ sessionId: a, content: 'The dentist is on Friday' });
    expect(await memory.search({ query: 'dentist', sessionId: b })).toEqual([]);
    expect((await memory.search({ query: 'dentist', sessionId: b, scope: 'all' }))[0]?.sessionId).toBe(a);
    store.sessions.delete(a);
    expect(await memory.search({ query: 'dentist', sessionId: b, scope: 'all' })).toEqual([]);
    expect(memory.list().total).toBe(0);
  });

  it('edits and removes, keeping the index in step', async () => {
    const m = await memory.save({ sessionId: a, content: 'likes green tea', tags: ['drink'] });
    await memory.update(m.id, { content: 'likes black coffee' });
    expect(await memory.search({ query: 'green tea', sessionId: a })).toEqual([]);
    expect((await memory.search({ query: 'coffee', sessionId: a }))[0]?.id).toBe(m.id);
    expect(memory.remove(m.id)).toBe(true);
    expect(await memory.search({ query: 'coffee', sessionId: a })).toEqual([]);
  });

  it('refuses empty, oversized and badly tagged memories plainly', async () => {
    await expect(memory.save({ sessionId: a, content: '   ' })).rejects.toBeInstanceOf(MemoryError);
    await expect(memory.save({ sessionId: a, content: 'x'.repeat(5000) })).rejects.toThrow(/at most/);
    await expect(
      memory.save({ sessionId: a, content: 'ok', tags: Array.from({ length: 40 }, (_, i) => `t${i}`) }),
    ).rejects.toThrow(/tags/);
  });

  it('treats query syntax as text', async () => {
    await memory.save({ sessionId: a, content: 'he said "NEAR(x y)" OR AND * ^' });
    expect((await memory.search({ query: '"NEAR(x y)" OR AND *', sessionId: a })).length).toBe(1);
  });

  it('recalls several within a budget, without repeats', async () => {
    for (let i = 0; i < 3; i++) await memory.save({ sessionId: a, content: `咖啡 fact ${i} ${'x'.repeat(200)}` });
    await memory.save({ sessionId: a, content: `咖啡 fact 0 ${'x'.repeat(200)}` });
    const hits = await memory.recall({ sessionId: a, text: '我想喝咖啡', maxTokens: 200 });
    expect(hits.length).toBe(3);
    expect(new Set(hits.map((h) => h.content)).size).toBe(3);
    expect((await memory.recall({ sessionId: a, text: '我想喝咖啡', maxTokens: 100 })).length).toBe(1);
  });
});

describe('query terms', () => {
  it('splits Chinese into pairs without filler and keeps words', () => {
    expect(queryTerms('我对什么过敏？')).toContain('过敏');
    expect(queryTerms('我对什么过敏？')).not.toContain('什么');
    expect(queryTerms('What am I allergic to?')).toEqual(['allergic']);
  });
});

describe('preferences', () => {
  it('keeps standing instructions as one line each, without repeats', () => {
    const prefs = createPreferences(store.prefs);
    expect(prefs.list()).toEqual([]);
    expect(prefs.set([' 用中文回复 ', '', '回答简短', '用中文回复', 'a\nb'])).toEqual([
      '用中文回复',
      '回答简短',
      'a b',
    ]);
    expect(prefs.list()).toEqual(['用中文回复', '回答简短', 'a b']);
    expect(() => prefs.set(['x'.repeat(600)])).toThrow(/500/);
  });
});
