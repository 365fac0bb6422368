import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedLlm } from './support/scripted-llm.js';
import { request, startTestServer, type TestServer } from './support/http.js';

let running: TestServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** A DELETE with a JSON body: node sends a DELETE's body only with its length given. */
const deleteWith = (port: number, path: string, body: object) => {
  const text = JSON.stringify(body);
  return request(port, path, {
    method: 'DELETE',
    body: text,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
  });
};

const configOf = (s: TestServer) =>
  JSON.parse(readFileSync(join(s.home, 'config.json'), 'utf8')) as { permissions?: unknown; [k: string]: unknown };

describe('the permission rules over HTTP', () => {
  it("GET lists the user's rules, the defaults, the two combined and the remembered answers", async () => {
    const s = (running = await startTestServer({ config: { permissions: { file_write: 'ask' } } }));
    const r = await request(s.port, '/api/permissions');
    expect(r.status).toBe(200);
    const body = r.json();
    expect(body.rules).toEqual({ file_write: 'ask' });
    expect(body.defaults).toMatchObject({ shell: 'ask' });
    expect(body.defaults.file_write).toBeUndefined();
    expect(body.effective).toMatchObject({ shell: 'ask', file_write: 'ask' });
    expect(body.remembered).toEqual([]);
  });

  it('PUT checks, applies and saves the rules to config.json, keeping its other settings', async () => {
    const s = (running = await startTestServer({ config: { maxSteps: 7 } }));
    const rules = { shell: { 'git status*': 'allow', 'curl *': 'deny', '*': 'ask' }, file_write: 'deny' };
    const r = await request(s.port, '/api/permissions', { method: 'PUT', body: { rules } });
    expect(r.status).toBe(200);
    expect(r.json().rules).toEqual(rules);
    expect(configOf(s)).toEqual({ maxSteps: 7, permissions: rules });
    expect((await request(s.port, '/api/permissions')).json().effective).toMatchObject(rules);
  });

  it('a PUT the rules engine refuses is a 400 saying why, and nothing is saved or applied', async () => {
    const s = (running = await startTestServer({ config: { permissions: { file_write: 'ask' } } }));
    const before = readFileSync(join(s.home, 'config.json'), 'utf8');
    const bad = await request(s.port, '/api/permissions', {
      method: 'PUT',
      body: { rules: { shell: { '': 'deny' } } },
    });
    expect(bad.status).toBe(400);
    expect(bad.json()).toEqual({
      error: { code: 'invalid_permissions', message: expect.stringContaining('the pattern "" is empty or too long') },
    });
    const wrongShape = await request(s.port, '/api/permissions', {
      method: 'PUT',
      body: { rules: { shell: 'maybe' } },
    });
    expect(wrongShape.status).toBe(400);
    // The same sentence config.json's check gives: which entry, and what it should be.
    expect(wrongShape.json().error).toMatchObject({
      code: 'invalid_permissions',
      message: expect.stringContaining(`"shell" must be "allow", "ask", "deny" or a map`),
    });
    const notAnObject = await request(s.port, '/api/permissions', {
      method: 'PUT',
      body: { rules: 'allow everything' },
    });
    expect(notAnObject.json().error.code).toBe('bad_request');
    expect(readFileSync(join(s.home, 'config.json'), 'utf8')).toBe(before);
    expect((await request(s.port, '/api/permissions')).json().rules).toEqual({ file_write: 'ask' });
  });

  it('DELETE /api/permissions/remembered forgets an "always" answer, and 404s on one that is not kept', async () => {
    const llm = createScriptedLlm([
      { calls: [{ id: 'c1', name: 'file_write', args: { path: 'a.txt', content: 'x' } }] },
      { text: 'Done.' },
    ]);
    const s = (running = await startTestServer({ llm, config: { permissions: { file_write: 'ask' } } }));
    s.app.bus.on('permission.asked', (e) => s.app.permission.reply(e.id, 'always'));
    const session = s.app.sessions.create();
    await s.app.sessions.send(session.id, 'write a.txt');
    const kept = (await request(s.port, '/api/permissions')).json().remembered;
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ tool: 'file_write', decision: 'allow' });
    const gone = await deleteWith(s.port, '/api/permissions/remembered', {
      tool: 'file_write',
      pattern: kept[0].pattern,
    });
    expect(gone.status).toBe(200);
    expect(gone.json().remembered).toEqual([]);
    const again = await deleteWith(s.port, '/api/permissions/remembered', {
      tool: 'file_write',
      pattern: kept[0].pattern,
    });
    expect(again.status).toBe(404);
    expect(again.json().error.code).toBe('not_found');
  });

  it("each call's decisions come back with its part in the messages, and in tool.end", async () => {
    const llm = createScriptedLlm([
      { calls: [{ id: 'c1', name: 'file_write', args: { path: 'a.txt', content: 'x' } }] },
      { calls: [{ id: 'c2', name: 'file_write', args: { path: 'a.txt', content: 'y' } }] },
      { text: 'Done.' },
    ]);
    const s = (running = await startTestServer({
      llm,
      config: { permissions: { file_write: { '*': 'allow', '*/a.txt': 'ask' } } },
    }));
    let answer: 'once' | 'deny' = 'once';
    s.app.bus.on('permission.asked', (e) => {
      s.app.permission.reply(e.id, answer);
      answer = 'deny';
    });
    const ends: unknown[] = [];
    s.app.bus.on('tool.end', (e) => ends.push(e.permission));
    const session = s.app.sessions.create();
    await s.app.sessions.send(session.id, 'write a.txt twice');
    const parts = (await request(s.port, `/api/sessions/${session.id}/messages`))
      .json()
      .messages.flatMap((m: { parts: unknown[] }) => m.parts);
    const tools = parts.filter((p: { type: string }) => p.type === 'tool');
    expect(
      tools.map((p: { permission?: Array<{ by: string; decision: string }> }) =>
        p.permission?.map((r) => `${r.decision} by ${r.by}`),
      ),
    ).toEqual([['allow by user'], ['deny by user']]);
    expect(tools[0].permission[0]).toMatchObject({ action: 'file.write', rule: 'file_write › */a.txt' });
    expect(tools[0].metadata).toEqual({ path: 'a.txt', bytes: 1, created: true });
    expect(ends).toEqual(tools.map((p: { permission: unknown }) => p.permission));
  });
});
