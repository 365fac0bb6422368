import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedLlm, gate } from './support/scripted-llm.js';
import { request, startTestServer, type TestServer } from './support/http.js';

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('POST /api/sessions/:id/undo', () => {
  it('undoes the last turn that changed files, says what it restored, and the history marks the turn undone', async () => {
    t = await startTestServer({
      env: { ZHIXING_LANG: 'en' },
      llm: createScriptedLlm([
        { calls: [{ name: 'file_write', args: { path: 'notes.md', content: 'new notes' } }] },
        { text: 'Saved.' },
      ]),
    });
    const ws = (p: string) => join(t!.app.workspace, p);
    writeFileSync(ws('notes.md'), 'old notes');
    const id = (await request(t.port, '/api/sessions', { body: {} })).json().id;
    const chat = await request(t.port, `/api/sessions/${id}/chat`, { body: { message: 'save my notes' } });
    expect(chat.status).toBe(200);
    const turnId = (await request(t.port, `/api/sessions/${id}/messages`)).json().messages[0].turnId;
    expect((await request(t.port, `/api/sessions/${id}/messages`)).json().undo).toEqual([
      { turnId, state: 'undoable' },
    ]);

    const r = await request(t.port, `/api/sessions/${id}/undo`, { method: 'POST' });
    expect(r.status).toBe(200);
    expect(r.json()).toEqual({
      session: id,
      turnId,
      restored: ['notes.md'],
      putBack: [],
      removed: [],
      conflicts: [],
      notCovered: [],
      failed: [],
      message: 'Restored notes.md.',
    });
    expect(readFileSync(ws('notes.md'), 'utf8')).toBe('old notes');
    expect((await request(t.port, `/api/sessions/${id}/messages`)).json().undo).toEqual([{ turnId, state: 'undone' }]);

    const again = await request(t.port, `/api/sessions/${id}/undo`, { method: 'POST' });
    expect(again.status).toBe(409);
    expect(again.json().error).toMatchObject({
      code: 'nothing_to_undo',
      message: expect.stringMatching(/^Nothing to undo/),
    });
    expect((await request(t.port, '/api/sessions/ses_none/undo', { method: 'POST' })).status).toBe(404);
  });

  it('answers 409 while a turn of the session runs', async () => {
    // The model holds its step until the test lets it go.
    const held = gate();
    let waiting!: () => void;
    const midTurn = new Promise<void>((resolve) => (waiting = resolve));
    t = await startTestServer({ llm: createScriptedLlm([{ text: 'slow', until: held.until, onWait: waiting }]) });
    const id = (await request(t.port, '/api/sessions', { body: {} })).json().id;
    const chat = request(t.port, `/api/sessions/${id}/chat`, { body: { message: 'hi' } });
    await midTurn;
    const r = await request(t.port, `/api/sessions/${id}/undo`, { method: 'POST' });
    held.open();
    expect(r.status).toBe(409);
    expect(r.json().error.code).toBe('busy');
    await chat;
  });
});
