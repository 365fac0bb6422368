import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { BusEvent } from '../src/bus/bus.js';
import { defineTool, ToolError } from '../src/tools/tool.js';
import { openStream, request, startTestServer, until, type TestServer } from './support/http.js';
import { createScriptedLlm } from './support/scripted-llm.js';

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const newSession = async (s: TestServer): Promise<string> => (await request(s.port, '/api/sessions', { body: {} })).json().id;

/** A tool that runs until it is told to stop, and says so. */
function slowTool() {
  const seen = { started: 0, aborted: 0 };
  const tool = defineTool({
    name: 'slow_job',
    description: 'Takes a long time.',
    parameters: z.object({ what: z.string().describe('the job') }),
    execute: (_args, ctx) =>
      new Promise<string>((_resolve, reject) => {
        seen.started++;
        ctx.progress('working…');
        ctx.signal.addEventListener('abort', () => {
          seen.aborted++;
          reject(new ToolError('Stopped; nothing was done.'));
        });
      }),
  });
  return { tool, seen };
}

/** The SSE frames of a stream, as [event, data] pairs. */
const frames = (text: string) =>
  text
    .split('\n\n')
    .filter((f) => f.includes('event: '))
    .map((f) => ({ event: /event: (.*)/.exec(f)![1], data: JSON.parse(/data: (.*)/.exec(f)![1]!) }));

describe('turns over HTTP', () => {
  it('POST …/abort mid-tool stops the tool and ends the turn as aborted, recorded', async () => {
    const { tool, seen } = slowTool();
    const llm = createScriptedLlm([{ calls: [{ name: 'slow_job', args: { what: 'report' } }] }, { text: 'never reached' }]);
    t = await startTestServer({ llm });
    t.app.tools.register(tool);
    const id = await newSession(t);
    const stream = await openStream(t.port, `/api/sessions/${id}/chat`, { body: { message: 'do the slow job' } });
    await stream.waitFor('event: tool.progress');

    const abort = await request(t.port, `/api/sessions/${id}/abort`, { method: 'POST' });
    expect(abort.status).toBe(200);
    expect(abort.json()).toEqual({ aborted: true });
    const events = frames(await stream.ended());
    expect(events.map((e) => e.event)).toEqual(['turn.start', 'tool.start', 'tool.progress', 'tool.end', 'turn.end']);
    expect(events[2]!.data).toMatchObject({ type: 'tool.progress', message: 'working…' });
    expect(events[3]!.data).toMatchObject({ tool: 'slow_job', input: { what: 'report' }, ok: false, output: expect.stringContaining('Stopped; nothing was done.') });
    expect(events[4]!.data).toMatchObject({ stopReason: 'aborted' });
    expect(seen).toEqual({ started: 1, aborted: 1 });
    expect(llm.requests).toHaveLength(1);
    expect(t.app.store.turns.get(events[0]!.data.turnId)?.stopReason).toBe('aborted');

    const again = await request(t.port, `/api/sessions/${id}/abort`, { method: 'POST' });
    expect(again.json()).toEqual({ aborted: false });
    expect((await request(t.port, '/api/sessions/ses_nope/abort', { method: 'POST' })).status).toBe(404);
  });

  it('POST …/abort while the model is answering stops the model request', async () => {
    const llm = createScriptedLlm([{ text: 'Let me think', delayMs: 30_000 }]);
    t = await startTestServer({ llm });
    const id = await newSession(t);
    const stream = await openStream(t.port, `/api/sessions/${id}/chat`, { body: { message: 'think hard' } });
    await stream.waitFor('event: text.delta');
    const started = Date.now();
    expect((await request(t.port, `/api/sessions/${id}/abort`, { method: 'POST' })).json()).toEqual({ aborted: true });
    const events = frames(await stream.ended());
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(events.at(-1)).toMatchObject({ event: 'turn.end', data: { stopReason: 'aborted' } });
    expect(llm.requests[0]!.signal?.aborted).toBe(true);
  });

  it('a client that leaves the chat stream does not stop the turn', async () => {
    const llm = createScriptedLlm([{ text: 'A long answer, ', delayMs: 300 }]);
    t = await startTestServer({ llm });
    const id = await newSession(t);
    const stream = await openStream(t.port, `/api/sessions/${id}/chat`, { body: { message: 'tell me something' } });
    await stream.waitFor('event: text.delta');
    stream.leave();
    await until(() => t!.app.sessions.status(id) === 'idle');
    const history = (await request(t.port, `/api/sessions/${id}/messages`)).json().messages;
    expect(history.at(-1).parts).toEqual([expect.objectContaining({ type: 'text', text: 'A long answer, ' })]);
    const turnId = history.at(-1).turnId;
    expect(t.app.store.turns.get(turnId)?.stopReason).toBe('done');
  });

  it('two sessions stream at once, each with only its own events', async () => {
    const llm = createScriptedLlm([
      { text: 'first answer', delayMs: 200 },
      { text: 'second answer', delayMs: 200 },
    ]);
    t = await startTestServer({ llm });
    const [a, b] = [await newSession(t), await newSession(t)];
    const [sa, sb] = await Promise.all([
      openStream(t.port, `/api/sessions/${a}/chat`, { body: { message: 'one' } }),
      openStream(t.port, `/api/sessions/${b}/chat`, { body: { message: 'two' } }),
    ]);
    await Promise.all([sa.waitFor('event: text.delta'), sb.waitFor('event: text.delta')]);
    // Both are running at the same time.
    expect(t.app.sessions.running().ids.sort()).toEqual([a, b].sort());
    const [ta, tb] = await Promise.all([sa.ended(), sb.ended()]);
    for (const [text, id, other] of [[ta, a, b], [tb, b, a]] as const) {
      const events = frames(text);
      expect(events.map((e) => e.event)).toEqual(['turn.start', 'text.delta', 'text.delta', 'turn.end']);
      expect(events.every((e) => e.data.sessionId === id)).toBe(true);
      expect(text).not.toContain(other);
    }
    expect(frames(ta).at(-1)!.data.reply === 'first answer' || frames(tb).at(-1)!.data.reply === 'first answer').toBe(true);
  });

  it('GET /api/events streams session status and permission events for every session', async () => {
    t = await startTestServer();
    const events = await openStream(t.port, '/api/events');
    expect(events.status).toBe(200);
    const id = await newSession(t);
    await request(t.port, `/api/sessions/${id}/chat`, { body: { message: '帮我算一下 1+1' } });
    await events.waitFor('"status":"idle"');
    t.app.bus.emit({ type: 'permission.asked', id: 'ask_1', sessionId: id, tool: 'shell', target: 'rm -rf /' } as unknown as BusEvent);
    await events.waitFor('event: permission.asked');
    expect(events.text()).toBe(
      `event: session.status\ndata: {"type":"session.status","sessionId":"${id}","status":"busy"}\n\n` +
        `event: session.status\ndata: {"type":"session.status","sessionId":"${id}","status":"idle"}\n\n` +
        `event: permission.asked\ndata: {"type":"permission.asked","id":"ask_1","sessionId":"${id}","tool":"shell","target":"rm -rf /"}\n\n`,
    );
  });

  it('writes id: from an event seq, and GET …/events resumes from Last-Event-ID when the core keeps an event log', async () => {
    t = await startTestServer();
    const id = await newSession(t);
    const past = [1, 2, 3].map((seq) => ({ type: 'text.delta', sessionId: id, turnId: 'trn_1', delta: `d${seq}`, seq }) as unknown as BusEvent);
    const asked: Array<[string, number]> = [];
    (t.app as unknown as { events: unknown }).events = {
      since: async (sessionId: string, seq: number) => (asked.push([sessionId, seq]), past.filter((e) => (e as unknown as { seq: number }).seq > seq)),
    };
    const follow = await openStream(t.port, `/api/sessions/${id}/events`, { headers: { 'last-event-id': '1' } });
    await follow.waitFor('d3');
    // A live event the replay already sent is not sent twice; a new one follows.
    t.app.bus.emit(past[2]!);
    t.app.bus.emit({ type: 'text.delta', sessionId: id, turnId: 'trn_1', delta: 'd4', seq: 4 } as unknown as BusEvent);
    await follow.waitFor('d4');
    expect(asked).toEqual([[id, 1]]);
    expect(follow.text()).toBe(
      [2, 3, 4].map((n) => `id: ${n}\nevent: text.delta\ndata: {"type":"text.delta","sessionId":"${id}","turnId":"trn_1","delta":"d${n}","seq":${n}}\n\n`).join(''),
    );
    expect((await request(t.port, '/api/sessions/ses_nope/events')).status).toBe(404);
  });

  it('without an event log, following a session streams live events only', async () => {
    t = await startTestServer();
    const id = await newSession(t);
    const follow = await openStream(t.port, `/api/sessions/${id}/events?after=5`);
    await request(t.port, `/api/sessions/${id}/chat`, { body: { message: '帮我算一下 2*3' } });
    const text = await follow.waitFor('"status":"idle"');
    expect(frames(text).map((e) => e.event)).toEqual(['session.status', 'turn.start', 'tool.start', 'tool.end', 'text.delta', 'turn.end', 'session.status']);
  });

  it('closing the server mid-turn aborts the turn, records it and ends the streams', async () => {
    const { tool, seen } = slowTool();
    const llm = createScriptedLlm([{ calls: [{ name: 'slow_job', args: { what: 'backup' } }] }]);
    t = await startTestServer({ llm });
    t.app.tools.register(tool);
    const id = await newSession(t);
    const events = await openStream(t.port, '/api/events');
    const chat = await openStream(t.port, `/api/sessions/${id}/chat`, { body: { message: 'back up everything' } });
    await chat.waitFor('event: tool.progress');
    await t.server.close();
    const turn = frames(await chat.ended()).at(-1)!;
    expect(turn).toMatchObject({ event: 'turn.end', data: { stopReason: 'aborted' } });
    await events.ended();
    expect(seen.aborted).toBe(1);
    expect(t.app.store.turns.get(turn.data.turnId)).toMatchObject({ stopReason: 'aborted', endedAt: expect.any(Number) });
    await expect(request(t.port, '/api/health')).rejects.toThrow();
  });
});
