import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config/config.js';
import { createEmbeddingsClient } from '../src/llm/embeddings-client.js';
import { createMemoryService } from '../src/memory/service.js';
import { createStore, type Store } from '../src/store/store.js';
import { startEmbeddingsServer, type EmbeddingsServer } from './support/embeddings-server.js';
import { startOpenAiServer, textReply, toolCallsReply } from './support/openai-server.js';
import { tempHome } from './support/temp-home.js';

const MODEL = 'concepts';
let dir: string;
let dbPath: string;
let store: Store;
let server: EmbeddingsServer;
let a: string;
let b: string;
const closers: Array<() => unknown> = [];

function service(model = MODEL, extra: Partial<Parameters<typeof createMemoryService>[0]> = {}) {
  const s = createMemoryService({
    repo: store.memories,
    vectors: store.memoryVectors,
    embedder: createEmbeddingsClient({ baseUrl: server.url, model, maxRetries: 0, timeoutMs: 5_000 }),
    newId: () => store.newId('mem'),
    retryAfterMs: 100,
    ...extra,
  });
  closers.push(() => s.close());
  return s;
}

const until = async (check: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zx-memvec-'));
  dbPath = join(dir, 'zhixing.db');
  store = createStore(dbPath);
  server = await startEmbeddingsServer();
  a = store.sessions.create(store.newId('ses'), 'Health', 1).id;
  b = store.sessions.create(store.newId('ses'), 'Work', 2).id;
});
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
  store.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('hybrid memory search', () => {
  it('finds a paraphrase with no shared words through vectors, which words alone cannot', async () => {
    const memory = service();
    await memory.save({ sessionId: a, content: 'The user is allergic to peanuts' });
    await memory.save({ sessionId: a, content: 'The user has a cat called Mimi' });
    await memory.save({ sessionId: a, content: 'Flight to Tokyo on Friday' });
    await memory.embeddingsIdle();
    const lexicalOnly = createMemoryService({ repo: store.memories, newId: () => 'x' });
    expect(await lexicalOnly.search({ query: 'Which foods make me sick?', sessionId: a })).toEqual([]);
    const hits = await memory.search({ query: 'Which foods make me sick?', sessionId: a });
    expect(hits[0]?.content).toBe('The user is allergic to peanuts');
    expect(hits.map((h) => h.content)).not.toContain('Flight to Tokyo on Friday');
    expect(memory.embeddings()).toMatchObject({ kind: 'remote', model: MODEL, dimensions: 64 });
    expect(memory.embeddings().error).toBeUndefined();
  });

  it('answers Chinese of two characters and a whole sentence, and English, ranking the match first', async () => {
    const memory = service();
    await memory.save({ sessionId: a, content: '用户对花生过敏' });
    await memory.save({ sessionId: a, content: '用户喜欢喝美式咖啡' });
    await memory.save({ sessionId: a, content: 'allergic to peanuts' });
    await memory.embeddingsIdle();
    expect((await memory.search({ query: '过敏', sessionId: a }))[0]?.content).toBe('用户对花生过敏');
    expect((await memory.search({ query: '咖啡', sessionId: a }))[0]?.content).toBe('用户喜欢喝美式咖啡');
    expect((await memory.search({ query: '我对什么过敏？', sessionId: a }))[0]?.content).toBe('用户对花生过敏');
    expect((await memory.search({ query: 'what am I allergic to?', sessionId: a }))[0]?.content).toBe(
      'allergic to peanuts',
    );
    expect((await memory.search({ query: 'peanut', sessionId: a }))[0]?.content).toBe('allergic to peanuts');
  });

  it('keeps sessions apart in the vector search too', async () => {
    const memory = service();
    await memory.save({ sessionId: a, content: 'The user is allergic to peanuts' });
    await memory.embeddingsIdle();
    expect(await memory.search({ query: 'Which foods make me sick?', sessionId: b })).toEqual([]);
    expect(
      (await memory.search({ query: 'Which foods make me sick?', sessionId: b, scope: 'all' }))[0]?.sessionId,
    ).toBe(a);
    expect(await memory.recall({ sessionId: b, text: 'Which foods make me sick?', maxTokens: 500 })).toEqual([]);
  });

  it('deletes rows, word indexes and vectors with the session', async () => {
    const memory = service();
    await memory.save({ sessionId: a, content: 'allergic to peanuts 花生过敏' });
    await memory.save({ sessionId: b, content: 'likes coffee' });
    await memory.embeddingsIdle();
    expect(store.memoryVectors.count(MODEL)).toBe(2);
    expect(store.memoryVectors.indexed(MODEL)).toBe(2);
    store.sessions.delete(a);
    const raw = new Database(dbPath, { readonly: true });
    closers.push(() => raw.close());
    const count = (sql: string) => raw.prepare(sql).pluck().get() as number;
    expect(count("SELECT count(*) FROM memories_terms WHERE memories_terms MATCH '花生 OR peanuts'")).toBe(0);
    expect(count("SELECT count(*) FROM memories_fts WHERE memories_fts MATCH 'peanuts'")).toBe(0);
    expect(count('SELECT count(*) FROM memory_vectors')).toBe(1);
    // The sqlite-vec index is cleaned on its next use.
    expect(await memory.search({ query: 'Which foods make me sick?', sessionId: b, scope: 'all' })).toEqual([]);
    expect(store.memoryVectors.indexed(MODEL)).toBe(1);
    expect(count('SELECT count(*) FROM memory_vectors_gone')).toBe(0);
  });

  it('recalls several relevant memories of the session, dropping near-duplicates, within the budget', async () => {
    const memory = service();
    await memory.save({ sessionId: a, content: '用户对花生过敏' });
    await memory.save({ sessionId: a, content: '用户对花生过敏。' });
    await memory.save({ sessionId: a, content: '用户对海鲜也过敏' });
    await memory.save({ sessionId: a, content: '用户的女儿叫小雨' });
    await memory.embeddingsIdle();
    const hits = await memory.recall({ sessionId: a, text: '晚饭吃什么好？我有过敏', maxTokens: 100 });
    expect(hits.map((h) => h.content).sort()).toEqual(['用户对海鲜也过敏', '用户对花生过敏'].sort());
    expect(await memory.recall({ sessionId: a, text: '我有过敏', maxTokens: 5 })).toEqual([]);
  });
});

describe('when the embeddings service fails', () => {
  it('saves at once on a 500, searches by words, says so, and embeds once the service is back', async () => {
    const memory = service();
    server.failWith = 500;
    const t0 = Date.now();
    await memory.save({ sessionId: a, content: '用户对花生过敏' });
    expect(Date.now() - t0).toBeLessThan(200);
    await memory.embeddingsIdle();
    expect(memory.embeddings().error).toMatch(/HTTP 500.*words only/);
    expect((await memory.search({ query: '过敏', sessionId: a }))[0]?.content).toBe('用户对花生过敏');
    expect(store.memoryVectors.count(MODEL)).toBe(0);
    server.failWith = undefined;
    await until(() => store.memoryVectors.count(MODEL) === 1);
    await memory.embeddingsIdle();
    expect(memory.embeddings().error).toBeUndefined();
  });

  it('does not wait on a slow service: saving returns at once, a search falls back within its bound', async () => {
    const memory = service();
    server.delayMs = 4_000;
    const t0 = Date.now();
    await memory.save({ sessionId: a, content: 'likes green tea' });
    expect(Date.now() - t0).toBeLessThan(200);
    const t1 = Date.now();
    expect((await memory.search({ query: 'tea', sessionId: a }))[0]?.content).toBe('likes green tea');
    expect(Date.now() - t1).toBeLessThan(3_000);
    expect(memory.embeddings().error).toMatch(/did not answer in time|stopped|reached/);
  }, 15_000);

  it('works by words when the service is down, and says it cannot be reached', async () => {
    await server.close();
    const memory = service();
    await memory.save({ sessionId: a, content: 'likes green tea' });
    await memory.embeddingsIdle();
    expect((await memory.search({ query: 'green tea', sessionId: a }))[0]?.content).toBe('likes green tea');
    expect(memory.embeddings().error).toMatch(/could not be reached/);
  });
});

describe('changing the embedding model', () => {
  it('re-embeds every memory in the background with progress, and searches with the new vectors', async () => {
    const first = service(MODEL);
    for (const content of ['The user is allergic to peanuts', 'The user has a cat', 'Flight on Friday'])
      await first.save({ sessionId: a, content });
    await first.embeddingsIdle();
    first.close();
    server.delayMs = 100;
    const second = service('concepts-32', { embedOnStartAfterMs: 0 });
    const seen: Array<{ done: number; total: number }> = [];
    await until(() => {
      const p = second.embeddings().progress;
      if (p) seen.push(p);
      return store.memoryVectors.count('concepts-32') === 3;
    });
    await second.embeddingsIdle();
    expect(seen[0]).toEqual({ done: 0, total: 3 });
    expect(second.embeddings()).toMatchObject({ kind: 'remote', model: 'concepts-32', dimensions: 32 });
    expect(second.embeddings().progress).toBeUndefined();
    expect(store.memoryVectors.count(MODEL)).toBe(3);
    expect((await second.search({ query: 'Which foods make me sick?', sessionId: a }))[0]?.content).toBe(
      'The user is allergic to peanuts',
    );
  });
});

describe('the embeddings key', () => {
  it('goes only to the base URL it belongs to', async () => {
    const other = await startEmbeddingsServer();
    closers.push(() => other.close());
    const home = tempHome();
    closers.push(home.cleanup);
    const base = {
      ZHIXING_HOME: home.home,
      ZHIXING_BASE_URL: server.url,
      ZHIXING_API_KEY: 'sk-model-key-0000000000',
      ZHIXING_EMBEDDING_MODEL: MODEL,
    };
    const embedWith = async (env: Record<string, string>) => {
      const config = loadConfig({ env: { ...base, ...env }, cwd: home.home });
      await createEmbeddingsClient(config.embedding!).embed(['hello']);
      return config;
    };
    // Another base URL: the model's key stays home.
    await embedWith({ ZHIXING_EMBEDDING_BASE_URL: other.url });
    expect(other.requests.at(-1)!.headers.authorization).toBeUndefined();
    // The model's own base URL: its key goes with it.
    await embedWith({ ZHIXING_EMBEDDING_BASE_URL: `${server.url}/` });
    expect(server.requests.at(-1)!.headers.authorization).toBe('Bearer sk-model-key-0000000000');
    // Its own key goes to its own URL.
    const config = await embedWith({
      ZHIXING_EMBEDDING_BASE_URL: other.url,
      ZHIXING_EMBEDDING_API_KEY: 'sk-embed-key-1111111111',
    });
    expect(other.requests.at(-1)!.headers.authorization).toBe('Bearer sk-embed-key-1111111111');
    expect(JSON.stringify(config.embedding)).not.toContain('sk-model-key');
  });
});

describe('the memory tools in a model turn', () => {
  it('saves and searches through the real registry, over the OpenAI wire format', async () => {
    const model = await startOpenAiServer();
    closers.push(() => model.close());
    const t = tempHome({
      ZHIXING_BASE_URL: model.url,
      ZHIXING_API_KEY: 'sk-test-abcdefghijklmnop1234',
      ZHIXING_MODEL: 'test-model',
      ZHIXING_EMBEDDING_BASE_URL: server.url,
      ZHIXING_EMBEDDING_MODEL: MODEL,
      ZHIXING_LANG: 'en',
    });
    const app = await createApp(t.config);
    closers.push(t.cleanup, () => app.close());
    const session = app.sessions.create('Health');
    model.enqueue(
      toolCallsReply([
        { id: 'c1', name: 'memory_save', args: { content: 'The user is allergic to peanuts', tags: ['health'] } },
      ]),
      toolCallsReply([{ id: 'c2', name: 'memory_search', args: { query: 'what am I allergic to?', scope: 'all' } }]),
      textReply('You are allergic to peanuts.'),
    );
    const r = await app.sessions.send(
      session.id,
      'Remember that I am allergic to peanuts, then check what you know from all my chats',
    );
    expect(r.reply).toBe('You are allergic to peanuts.');
    expect(r.actions.map((x) => [x.tool, x.ok])).toEqual([
      ['memory_save', true],
      ['memory_search', true],
    ]);
    expect(r.actions[0]!.output).toBe('Remembered [fact] The user is allergic to peanuts (tags: health)');
    expect(r.actions[1]!.output).toContain('1. [fact] The user is allergic to peanuts (tags: health)');
    expect(r.actions[1]!.output).toContain(`session "Health" (${session.id}, this conversation)`);
    expect(app.memory.list({ sessionId: session.id }).total).toBe(1);
  });
});
