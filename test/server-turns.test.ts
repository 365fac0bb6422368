import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../src/tools/tool.js';
import { ToolError } from '../src/contract/tool-error.js';
import { openStream, request, startTestServer, until, type TestServer } from './support/http.js';
import { createScriptedLlm } from './support/scripted-llm.js';

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const newSession = async (s: TestServer): Promise<string> =>
  (await request(s.port, '/api/sessions', { body: {} })).json().id;

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
    const llm = createScriptedLlm([
      { calls: [{ name: 'slow_job', args: { what: 'report' } }] },
      { text: 'never reached' },
    ]);
    t = await startTestServer({ llm });
    t.app.tools.register(tool);
    const id = await newSession(t);
    const stream = await openStream(t.port, `/api/sessions/${id}/chat`, { body: { message: 'do the slow job' } });
    await stream.waitFor('event: tool.progress');

    const abort = await request(t.port, `/api/sessions/${id}/abort`, { method: 'POST' });
    expect(abort.status).toBe(200);
    expect(abort.json()).toEqual({ aborted: true });
    const events = frames(await stream.ended());
    expect(events.map((e) => e.event)).toEqual([
      'turn.start',
      'step.start',
      'step.end',
      'tool.start',
      'tool.progress',
      'tool.end',
      'turn.end',
    ]);
    const byType = (type: string) => events.find((e) => e.event === type)!.data;
    expect(byType('tool.progress')).toMatchObject({ type: 'tool.progress', message: 'working…' });
    expect(byType('tool.end')).toMatchObject({
      tool: 'slow_job',
      input: { what: 'report' },
      ok: false,
      output: expect.stringContaining('Stopped; nothing was done.'),
    });
    expect(byType('turn.end')).toMatchObject({ stopReason: 'aborted' });
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
    for (const [text, id, other] of [
      [ta, a, b],
      [tb, b, a],
    ] as const) {
      const events = frames(text);
      expect(events.map((e) => e.event)).toEqual([
        'turn.start',
        'step.start',
        'text.delta',
        'text.delta',
        'step.end',
        'turn.end',
      ]);
      expect(events.every((e) => e.data.sessionId === id)).toBe(true);
      expect(text).not.toContain(other);
    }
    expect(frames(ta).at(-1)!.data.reply === 'first answer' || frames(tb).at(-1)!.data.reply === 'first answer').toBe(
      true,
    );
  });

  it('GET /api/events streams session status and permission events for every session', async () => {
    t = await startTestServer();
    const events = await openStream(t.port, '/api/events');
    expect(events.status).toBe(200);
    const id = await newSession(t);
    await request(t.port, `/api/sessions/${id}/chat`, { body: { message: '帮我算一下 1+1' } });
    await events.waitFor('"status":"idle"');
    const asked = {
      type: 'permission.asked',
      id: 'per_1',
      sessionId: id,
      turnId: 'trn_1',
      callId: 'c1',
      tool: 'shell',
      action: 'shell.run',
      target: 'rm -rf /',
    } as const;
    t.app.bus.emit(asked);
    await events.waitFor('event: permission.asked');
    const seqs = frames(events.text()).map((e) => e.data.seq);
    expect(events.text()).toBe(
      `id: ${seqs[0]}\nevent: session.status\ndata: {"type":"session.status","sessionId":"${id}","status":"busy","seq":${seqs[0]}}\n\n` +
        `id: ${seqs[1]}\nevent: session.status\ndata: {"type":"session.status","sessionId":"${id}","status":"idle","seq":${seqs[1]}}\n\n` +
        `id: ${seqs[2]}\nevent: permission.asked\ndata: ${JSON.stringify({ ...asked, seq: seqs[2] })}\n\n`,
    );
    expect(seqs[1]).toBeGreaterThan(seqs[0]);
  });

  it('GET …/events replays from the store what a client missed after Last-Event-ID, then goes on live, each event once', async () => {
    t = await startTestServer();
    const id = await newSession(t);
    const first = frames(
      await openStream(t.port, `/api/sessions/${id}/chat`, { body: { message: '帮我算一下 1+1' } }).then((s) =>
        s.ended(),
      ),
    );
    const seen = first.map((e) => e.data.seq as number);
    // A client that saw up to the third event of the turn reconnects.
    const from = seen[2]!;
    const follow = await openStream(t.port, `/api/sessions/${id}/events`, {
      headers: { 'last-event-id': String(from) },
    });
    await follow.waitFor(`"status":"idle"`);
    const replayed = frames(follow.text());
    expect(replayed.map((e) => e.data.seq)).toEqual(t.app.events.since(id, from).map((e) => e.seq));
    expect(replayed.map((e) => e.data)).toEqual(
      first
        .filter((e) => e.data.seq > from)
        .map((e) => e.data)
        .concat(replayed.slice(-1).map((e) => e.data)),
    );
    // Then the next turn arrives live, numbered on, no number twice.
    await request(t.port, `/api/sessions/${id}/chat`, { body: { message: '帮我算一下 2+2' } });
    await until(() => frames(follow.text()).filter((e) => e.event === 'turn.end').length === 2);
    const all = frames(follow.text()).map((e) => e.data.seq as number);
    expect(all).toEqual([...new Set(all)].sort((x, y) => x - y));
    expect(all[0]).toBe(from + 1);
    expect((await request(t.port, '/api/sessions/ses_nope/events')).status).toBe(404);
    follow.leave();
  });

  it('replays a backlog far past the stream buffer in full and in order, then goes live', async () => {
    t = await startTestServer();
    const id = await newSession(t);
    const piece = 'x'.repeat(1_000);
    // 3,000 events of 1 KB: three times what a slow client may leave unread.
    for (let i = 0; i < 3_000; i++)
      t.app.bus.emit({
        type: 'text.delta',
        sessionId: id,
        turnId: 'trn_x',
        messageId: 'msg_x',
        partId: 'prt_x',
        delta: piece,
      });
    const follow = await openStream(t.port, `/api/sessions/${id}/events?after=0`);
    await until(() => (follow.text().match(/event: text\.delta/g) ?? []).length === 3_000, 20_000);
    const seqs = frames(follow.text()).map((e) => e.data.seq);
    expect(seqs).toEqual(Array.from({ length: 3_000 }, (_, i) => i + 1));
    // A number from the future is taken as "now": live events still come.
    const ahead = await openStream(t.port, `/api/sessions/${id}/events`, { headers: { 'last-event-id': '999999' } });
    await request(t.port, `/api/sessions/${id}/chat`, { body: { message: '帮我算一下 1+2' } });
    await ahead.waitFor('event: turn.end');
    follow.leave();
    ahead.leave();
  });

  it('streams a turn that writes a 2 MB file whole: events carry a preview of long arguments', async () => {
    const content = 'y'.repeat(2_000_000);
    const llm = createScriptedLlm([
      { calls: [{ name: 'file_write', args: { path: 'big.txt', content } }] },
      { text: 'Written.' },
    ]);
    t = await startTestServer({ llm });
    const id = await newSession(t);
    const stream = await openStream(t.port, `/api/sessions/${id}/chat`, { body: { message: 'write a big file' } });
    const events = frames(await stream.ended());
    expect(events.map((e) => e.event)).toContain('turn.end');
    const start = events.find((e) => e.event === 'tool.start')!.data;
    expect(start.input.content).toMatch(/^y{10000}… \[1990000 more characters\]$/);
    expect(events.find((e) => e.event === 'tool.end')!.data).toMatchObject({ ok: true });
    // The store keeps the call whole.
    const history = (await request(t.port, `/api/sessions/${id}/messages`)).json().messages;
    const call = history
      .flatMap((m: { parts: Array<{ type: string; input?: { content: string } }> }) => m.parts)
      .find((p: { type: string }) => p.type === 'tool');
    expect(call.input.content).toHaveLength(2_000_000);
  });

  it('a client that reloads mid-answer gets the history and resumeAfter, and the replay brings the whole step in flight', async () => {
    const llm = {
      mode: 'llm' as const,
      provider: 'test',
      model: 'slow',
      async *stream() {
        for (const piece of ['One, ', 'two, ', 'three.']) {
          yield { type: 'text' as const, delta: piece };
          await new Promise((r) => setTimeout(r, 150));
        }
        yield { type: 'finish' as const, reason: 'stop' };
      },
    };
    t = await startTestServer({ llm });
    const id = await newSession(t);
    const first = await openStream(t.port, `/api/sessions/${id}/chat`, { body: { message: 'count' } });
    await first.waitFor('One, ');
    first.leave();
    // The reload: history first, then follow from where it says.
    const { messages, resumeAfter } = (await request(t.port, `/api/sessions/${id}/messages`)).json();
    expect(messages.map((m: { role: string }) => m.role)).toEqual(['user']);
    const follow = await openStream(t.port, `/api/sessions/${id}/events?after=${resumeAfter}`);
    await follow.waitFor('event: turn.end');
    const text = frames(follow.text())
      .filter((e) => e.event === 'text.delta')
      .map((e) => e.data.delta)
      .join('');
    expect(text).toBe('One, two, three.');
    const done = (await request(t.port, `/api/sessions/${id}/messages`)).json();
    expect(done.resumeAfter).toBe(t.app.events.lastSeq(id));
    follow.leave();
  });

  it('reads Last-Event-ID and ?after= as plain whole numbers only', async () => {
    t = await startTestServer();
    const id = await newSession(t);
    await request(t.port, `/api/sessions/${id}/chat`, { body: { message: '帮我算一下 1+1' } });
    // "1e1" is not a number here: nothing is replayed, the stream is live only.
    const odd = await openStream(t.port, `/api/sessions/${id}/events`, { headers: { 'last-event-id': '1e1' } });
    await new Promise((r) => setTimeout(r, 100));
    expect(odd.text()).not.toContain('event:');
    odd.leave();
    expect((await request(t.port, `/api/sessions/${id}/events?after=0x10`)).status).toBe(400);
    // HEAD answers with the headers and ends, rather than holding a stream open.
    const head = await request(t.port, `/api/sessions/${id}/events?after=1`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe('text/event-stream; charset=utf-8');
  });

  it('a session deleted while followed: /api/events says so and the follow stream ends', async () => {
    t = await startTestServer();
    const id = await newSession(t);
    const feed = await openStream(t.port, '/api/events');
    const follow = await openStream(t.port, `/api/sessions/${id}/events`);
    expect((await request(t.port, `/api/sessions/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await follow.ended()).toContain('event: session.deleted');
    await feed.waitFor(`"type":"session.deleted","sessionId":"${id}"`);
    feed.leave();
  });

  it('following a session without Last-Event-ID streams live events only', async () => {
    t = await startTestServer();
    const id = await newSession(t);
    await request(t.port, `/api/sessions/${id}/chat`, { body: { message: '帮我算一下 3*3' } });
    const follow = await openStream(t.port, `/api/sessions/${id}/events`);
    await request(t.port, `/api/sessions/${id}/chat`, { body: { message: '帮我算一下 2*3' } });
    const text = await follow.waitFor('"status":"idle"');
    expect(frames(text).map((e) => e.event)).toEqual([
      'session.status',
      'turn.start',
      'step.start',
      'step.end',
      'tool.start',
      'tool.end',
      'step.start',
      'text.delta',
      'step.end',
      'turn.end',
      'session.status',
    ]);
    follow.leave();
  });

  it('closing the server mid-turn interrupts the turn, records it and ends the streams', async () => {
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
    expect(turn).toMatchObject({ event: 'turn.end', data: { stopReason: 'interrupted' } });
    await events.ended();
    expect(seen.aborted).toBe(1);
    expect(t.app.store.turns.get(turn.data.turnId)).toMatchObject({
      stopReason: 'interrupted',
      endedAt: expect.any(Number),
    });
    await expect(request(t.port, '/api/health')).rejects.toThrow();
  });
});
