import { afterEach, describe, expect, it } from 'vitest';
import { request, startTestServer, type TestServer } from './support/http.js';

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function withMemories() {
  t = await startTestServer();
  const a = (await request(t.port, '/api/sessions', { body: { title: 'A' } })).json().id as string;
  const b = (await request(t.port, '/api/sessions', { body: { title: 'B' } })).json().id as string;
  const coffee = await t.app.memory.save({
    sessionId: a,
    content: '我喜欢喝美式咖啡',
    kind: 'preference',
    tags: ['饮品'],
  });
  const allergy = await t.app.memory.save({ sessionId: b, content: 'Allergic to peanuts', tags: ['health'] });
  return { t, a, b, coffee, allergy };
}

describe('/api/memories', () => {
  it("lists every memory or one session's, and searches with a two-character Chinese query", async () => {
    const { t, a, coffee, allergy } = await withMemories();
    const all = (await request(t.port, '/api/memories')).json();
    expect(all.total).toBe(2);
    expect(all.memories.map((m: { id: string }) => m.id).sort()).toEqual([coffee.id, allergy.id].sort());
    expect((await request(t.port, `/api/memories?session=${a}`)).json()).toEqual({ memories: [coffee], total: 1 });
    const found = (await request(t.port, `/api/memories?q=${encodeURIComponent('咖啡')}`)).json();
    expect(found.memories.map((m: { id: string }) => m.id)).toEqual([coffee.id]);
    expect((await request(t.port, '/api/memories?limit=0')).status).toBe(400);
    expect((await request(t.port, `/api/memories/${allergy.id}`)).json()).toEqual(allergy);
  });

  it('edits a memory, refuses what cannot be kept with a sentence, and 404s unknown ids', async () => {
    const { t, coffee } = await withMemories();
    const edited = await request(t.port, `/api/memories/${coffee.id}`, {
      method: 'PATCH',
      body: { content: '我喜欢喝拿铁', tags: ['饮品', '咖啡'] },
    });
    expect(edited.status).toBe(200);
    expect(edited.json()).toMatchObject({
      id: coffee.id,
      content: '我喜欢喝拿铁',
      kind: 'preference',
      tags: ['饮品', '咖啡'],
    });
    const empty = await request(t.port, `/api/memories/${coffee.id}`, { method: 'PATCH', body: { content: '   ' } });
    expect(empty.status).toBe(400);
    expect(empty.json().error.message).toBe('A memory needs some content.');
    const kind = await request(t.port, `/api/memories/${coffee.id}`, { method: 'PATCH', body: { kind: 'secret' } });
    expect(kind.json().error.message).toMatch(/^kind must be one of fact, preference, note/);
    expect((await request(t.port, `/api/memories/${coffee.id}`, { method: 'PATCH', body: { tags: 'x' } })).status).toBe(
      400,
    );
    expect((await request(t.port, '/api/memories/mem_nope', { method: 'PATCH', body: { content: 'x' } })).status).toBe(
      404,
    );
    expect((await request(t.port, '/api/memories/mem_nope')).status).toBe(404);
  });

  it('deletes a memory once', async () => {
    const { t, coffee } = await withMemories();
    expect((await request(t.port, `/api/memories/${coffee.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await request(t.port, `/api/memories/${coffee.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await request(t.port, '/api/memories')).json().total).toBe(1);
  });

  it('deletes a session with its memories, and counts memories in the status', async () => {
    const { t, a, allergy } = await withMemories();
    expect((await request(t.port, '/api/status')).json().memory).toEqual({ count: 2, embeddings: { kind: 'none' } });
    expect((await request(t.port, `/api/sessions/${a}`, { method: 'DELETE' })).status).toBe(204);
    expect((await request(t.port, '/api/memories')).json()).toEqual({ memories: [allergy], total: 1 });
    expect((await request(t.port, '/api/status')).json().memory.count).toBe(1);
  });
});

describe('/api/preferences', () => {
  it('keeps standing instructions as a list, trimmed, without duplicates', async () => {
    t = await startTestServer();
    expect((await request(t.port, '/api/preferences')).json()).toEqual({ instructions: [] });
    const put = await request(t.port, '/api/preferences', {
      method: 'PUT',
      body: { instructions: [' 用中文回复 ', '', '回答简短', '用中文回复'] },
    });
    expect(put.json()).toEqual({ instructions: ['用中文回复', '回答简短'] });
    expect((await request(t.port, '/api/preferences')).json()).toEqual({ instructions: ['用中文回复', '回答简短'] });
  });

  it('refuses a list it cannot keep with a sentence, and saves nothing', async () => {
    t = await startTestServer();
    await request(t.port, '/api/preferences', { method: 'PUT', body: { instructions: ['回答简短'] } });
    const long = await request(t.port, '/api/preferences', {
      method: 'PUT',
      body: { instructions: ['x'.repeat(501)] },
    });
    expect(long.status).toBe(400);
    expect(long.json().error.message).toBe('An instruction is longer than 500 characters.');
    const many = await request(t.port, '/api/preferences', {
      method: 'PUT',
      body: { instructions: Array.from({ length: 31 }, (_, i) => `rule ${i}`) },
    });
    expect(many.json().error.message).toBe('At most 30 instructions.');
    expect((await request(t.port, '/api/preferences', { method: 'PUT', body: { instructions: [42] } })).status).toBe(
      400,
    );
    expect((await request(t.port, '/api/preferences', { method: 'PUT', body: {} })).status).toBe(400);
    expect((await request(t.port, '/api/preferences')).json()).toEqual({ instructions: ['回答简短'] });
  });

  it('still shows and clears a name stored by an earlier version', async () => {
    t = await startTestServer();
    t.app.store.prefs.set('user.name', '小明');
    expect((await request(t.port, '/api/preferences')).json()).toEqual({ instructions: [], name: '小明' });
    const cleared = await request(t.port, '/api/preferences', {
      method: 'PUT',
      body: { instructions: [], name: null },
    });
    expect(cleared.json()).toEqual({ instructions: [] });
  });
});
