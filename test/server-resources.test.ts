import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStream, request, startTestServer, type TestServer } from './support/http.js';
import { createScriptedLlm } from './support/scripted-llm.js';
import { bwrapWorks } from './support/shell.js';

const HAVE_BWRAP = bwrapWorks();

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('sessions, status, preferences and permissions', () => {
  it('creates, lists, shows, renames and deletes sessions', async () => {
    t = await startTestServer();
    const created = await request(t.port, '/api/sessions', { body: { title: '  周报  ' } });
    expect(created.status).toBe(201);
    const session = created.json();
    expect(session).toEqual({
      id: expect.stringMatching(/^ses_/),
      title: '周报',
      createdAt: expect.any(Number),
      updatedAt: expect.any(Number),
      messageCount: 0,
      status: 'idle',
    });
    const untitled = (await request(t.port, '/api/sessions', { method: 'POST' })).json();
    expect(untitled.title).toBe('');

    const list = (await request(t.port, '/api/sessions')).json().sessions;
    expect(list.map((s: { id: string }) => s.id).sort()).toEqual([session.id, untitled.id].sort());
    expect((await request(t.port, `/api/sessions/${session.id}`)).json()).toEqual(session);

    const renamed = await request(t.port, `/api/sessions/${session.id}`, {
      method: 'PATCH',
      body: { title: 'Weekly report' },
    });
    expect(renamed.json()).toMatchObject({ id: session.id, title: 'Weekly report' });
    const blank = await request(t.port, `/api/sessions/${session.id}`, { method: 'PATCH', body: { title: '  ' } });
    expect(blank.status).toBe(400);
    expect(blank.json().error.code).toBe('bad_request');
    expect(
      (await request(t.port, `/api/sessions/${session.id}`, { method: 'PATCH', body: {} })).json().error.message,
    ).toMatch(/^body\.title: /);

    const deleted = await request(t.port, `/api/sessions/${session.id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBe('');
    for (const [method, path] of [
      ['GET', ''],
      ['GET', '/messages'],
      ['DELETE', ''],
      ['PATCH', ''],
    ] as const) {
      const r = await request(t.port, `/api/sessions/${session.id}${path}`, {
        method,
        body: method === 'PATCH' ? { title: 'x' } : undefined,
      });
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.json().error.code).toBe('not_found');
    }
  });

  it('reports mode, model, tools and the running limit, never a key', async () => {
    t = await startTestServer();
    const status = (await request(t.port, '/api/status')).json();
    expect(status).toEqual({
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      mode: 'offline',
      provider: 'offline',
      model: 'rules',
      tools: expect.arrayContaining(['calculator', 'current_time', 'todo_add', 'file_write', 'weather', 'shell']),
      mcp: [],
      sessions: { running: [], limit: 10 },
      // What a trial run finds here: bubblewrap where it works (CI installs it), else why not.
      sandbox: HAVE_BWRAP
        ? { kind: 'bwrap', ok: true, network: 'off' }
        : { kind: expect.any(String), ok: false, reason: expect.any(String), network: expect.any(String) },
      memory: { count: 0, embeddings: { kind: 'none' } },
      search: null,
    });
    expect((await request(t.port, '/api/health')).json()).toEqual({ ok: true, version: status.version });
  });

  it('says plainly when shell commands have no sandbox to run in', async () => {
    t = await startTestServer({ env: { PATH: '/nonexistent' } });
    expect((await request(t.port, '/api/status')).json().sandbox).toEqual({
      kind: 'none',
      ok: false,
      reason: 'bubblewrap (bwrap) is not installed',
      network: 'host',
    });
  });

  it('validates a permission answer, and 404s an ask that does not exist', async () => {
    t = await startTestServer();
    const bad = await request(t.port, '/api/permissions/ask_1', { body: { decision: 'maybe' } });
    expect(bad.status).toBe(400);
    expect(bad.json().error.message).toMatch(/^body\.decision: /);
    const unknown = await request(t.port, '/api/permissions/ask_1', { body: { decision: 'once' } });
    expect(unknown.status).toBe(404);
    expect(unknown.json().error.code).toBe('not_found');
  });

  it('a permission round trip: the ask streams on the turn and on /api/events, the answer lets the call go on', async () => {
    const llm = createScriptedLlm([
      { calls: [{ name: 'file_write', args: { path: 'notes/a.txt', content: 'hello' } }] },
      { text: 'Saved.' },
      { calls: [{ name: 'file_write', args: { path: 'notes/b.txt', content: 'no' } }] },
      { text: 'Not saved.' },
    ]);
    t = await startTestServer({ llm });
    t.app.permission.setRules({ file_write: 'ask' });
    const feed = await openStream(t.port, '/api/events');
    const id = (await request(t.port, '/api/sessions', { body: {} })).json().id;
    const turn = await openStream(t.port, `/api/sessions/${id}/chat`, { body: { message: 'save hello' } });
    await turn.waitFor('event: permission.asked');
    await feed.waitFor('event: permission.asked');
    const asked = JSON.parse(/event: permission\.asked\ndata: (.*)\n/.exec(turn.text())![1]!);
    // A client that connects (or reloads) while the question is open is shown it.
    const late = await openStream(t.port, '/api/events');
    await late.waitFor(`"id":"${asked.id}"`);
    late.leave();
    expect(asked).toMatchObject({ type: 'permission.asked', sessionId: id, tool: 'file_write', action: 'file.write' });
    expect(asked.target).toMatch(/notes\/a\.txt$/);
    const answered = await request(t.port, `/api/permissions/${asked.id}`, { body: { decision: 'once' } });
    expect(answered.json()).toEqual({ ok: true });
    const text = await turn.ended();
    expect(text).toContain('event: permission.replied');
    expect(text).toMatch(/"tool":"file_write".*"ok":true/);
    expect(readFileSync(join(t.app.config.workspace, 'notes/a.txt'), 'utf8')).toBe('hello');
    // Answered already: a second answer finds nothing to answer.
    expect((await request(t.port, `/api/permissions/${asked.id}`, { body: { decision: 'deny' } })).status).toBe(404);

    const refused = await openStream(t.port, `/api/sessions/${id}/chat`, { body: { message: 'save no' } });
    const next = JSON.parse(
      /event: permission\.asked\ndata: (.*)\n/.exec(await refused.waitFor('event: permission.asked'))![1]!,
    );
    await request(t.port, `/api/permissions/${next.id}`, { body: { decision: 'deny' } });
    expect(await refused.ended()).toMatch(/"tool":"file_write".*"ok":false/);
    expect(existsSync(join(t.app.config.workspace, 'notes/b.txt'))).toBe(false);
    feed.leave();
  });
});
