import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { normalise, openStream, request, startTestServer, type TestServer } from './support/http.js';
import { createScriptedLlm } from './support/scripted-llm.js';

const CALC = '帮我算一下 (3+5)*2';

/**
 * The exact wire text of the offline calculator turn, ids and timings normalised: each event with its
 * per-session number as the SSE id (1 was the session's busy status, sent on GET /api/events).
 */
const CALCULATOR_TURN = `id: 2
event: turn.start
data: {"type":"turn.start","sessionId":"ses_ID","turnId":"trn_ID","messageId":"msg_ID","text":"帮我算一下 (3+5)*2","seq":2}

id: 3
event: step.start
data: {"type":"step.start","sessionId":"ses_ID","turnId":"trn_ID","messageId":"msg_ID","step":0,"seq":3}

id: 4
event: step.end
data: {"type":"step.end","sessionId":"ses_ID","turnId":"trn_ID","messageId":"msg_ID","calls":1,"usage":{"promptTokens":230,"completionTokens":9,"totalTokens":239},"seq":4}

id: 5
event: tool.start
data: {"type":"tool.start","sessionId":"ses_ID","turnId":"trn_ID","messageId":"msg_ID","partId":"prt_ID","callId":"call_off_1","tool":"calculator","input":{"expression":"(3+5)*2"},"seq":5}

id: 6
event: tool.end
data: {"type":"tool.end","sessionId":"ses_ID","turnId":"trn_ID","messageId":"msg_ID","partId":"prt_ID","callId":"call_off_1","tool":"calculator","input":{"expression":"(3+5)*2"},"ok":true,"output":"16","ms":0,"title":"(3+5)*2 = 16","metadata":{"expression":"(3+5)*2","result":"16"},"seq":6}

id: 7
event: step.start
data: {"type":"step.start","sessionId":"ses_ID","turnId":"trn_ID","messageId":"msg_ID","step":1,"seq":7}

id: 8
event: text.delta
data: {"type":"text.delta","sessionId":"ses_ID","turnId":"trn_ID","messageId":"msg_ID","partId":"prt_ID","delta":"(3+5)*2 = 16","seq":8}

id: 9
event: step.end
data: {"type":"step.end","sessionId":"ses_ID","turnId":"trn_ID","messageId":"msg_ID","calls":0,"usage":{"promptTokens":240,"completionTokens":3,"totalTokens":243},"seq":9}

id: 10
event: turn.end
data: {"type":"turn.end","sessionId":"ses_ID","turnId":"trn_ID","reply":"(3+5)*2 = 16","stopReason":"done","seq":10}

`;

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const newSession = async (s: TestServer): Promise<string> =>
  (await request(s.port, '/api/sessions', { body: {} })).json().id;

describe('POST /api/sessions/:id/chat', () => {
  it('streams a calculator turn as SSE, event by event, and ends after turn.end', async () => {
    t = await startTestServer();
    const id = await newSession(t);
    const stream = await openStream(t.port, `/api/sessions/${id}/chat`, {
      body: { message: CALC },
      headers: { 'content-type': 'application/json' },
    });
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(normalise(await stream.ended())).toBe(CALCULATOR_TURN);
    expect(stream.text()).toContain(`"sessionId":"${id}"`);
  });

  it("takes curl's -d as it comes: a JSON body sent as a form, no content-type fix needed", async () => {
    t = await startTestServer();
    const id = await newSession(t);
    // What `curl -N -X POST URL -H 'accept: text/event-stream' -d '{"message":"…"}'` sends.
    const stream = await openStream(t.port, `/api/sessions/${id}/chat`, {
      body: JSON.stringify({ message: CALC }),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'user-agent': 'curl/8.14.1',
        accept: 'text/event-stream',
      },
    });
    expect(normalise(await stream.ended())).toBe(CALCULATOR_TURN);
  });

  it.skipIf(spawnSync('curl', ['--version']).status !== 0)(
    'answers the real curl command from the README',
    async () => {
      t = await startTestServer();
      const id = await newSession(t);
      // Asynchronously: the server answering it runs in this process.
      const { stdout } = await promisify(execFile)('curl', [
        '-sN',
        '-X',
        'POST',
        `${t.url}/api/sessions/${id}/chat`,
        '-H',
        'accept: text/event-stream',
        '-d',
        JSON.stringify({ message: CALC }),
      ]);
      expect(normalise(stdout)).toBe(CALCULATOR_TURN);
    },
  );

  it('without Accept: text/event-stream returns the CLI --json object; a body without content-type is JSON too', async () => {
    t = await startTestServer();
    const id = await newSession(t);
    const r = await request(t.port, `/api/sessions/${id}/chat`, { body: { message: CALC } });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    const result = r.json();
    expect(result.actions[0].ms).toBeTypeOf('number');
    expect({ ...result, actions: result.actions.map((a: object) => ({ ...a, ms: 0 })) }).toEqual({
      session: id,
      mode: 'offline',
      reply: '(3+5)*2 = 16',
      actions: [{ tool: 'calculator', input: { expression: '(3+5)*2' }, ok: true, output: '16', ms: 0 }],
    });
    const history = (await request(t.port, `/api/sessions/${id}/messages`)).json().messages;
    expect(history.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'assistant']);
    expect(history[2].parts).toEqual([expect.objectContaining({ type: 'text', text: '(3+5)*2 = 16' })]);
    expect(history[1].parts).toContainEqual(
      expect.objectContaining({
        type: 'tool',
        tool: 'calculator',
        input: { expression: '(3+5)*2' },
        output: '16',
        state: 'completed',
      }),
    );
  });

  it('refuses with a JSON error and a fitting status: 404 no session, 400 bad or empty message, 400 bad JSON', async () => {
    t = await startTestServer();
    const id = await newSession(t);
    const missing = await request(t.port, '/api/sessions/ses_nope/chat', {
      body: { message: 'hi' },
      headers: { accept: 'text/event-stream' },
    });
    expect(missing.status).toBe(404);
    expect(missing.json()).toEqual({ error: { code: 'not_found', message: expect.stringContaining('ses_nope') } });
    const noMessage = await request(t.port, `/api/sessions/${id}/chat`, { body: {} });
    expect(noMessage.status).toBe(400);
    expect(noMessage.json().error).toEqual({ code: 'bad_request', message: expect.stringContaining('body.message') });
    const blank = await request(t.port, `/api/sessions/${id}/chat`, {
      body: { message: '   ' },
      headers: { accept: 'text/event-stream' },
    });
    expect(blank.status).toBe(400);
    expect(blank.json().error.code).toBe('bad_request');
    const broken = await request(t.port, `/api/sessions/${id}/chat`, {
      body: '{"message": "unfinished',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.status).toBe(400);
    expect(broken.json().error.code).toBe('bad_json');
  });

  it('a second message to a busy session is a 409; past the running limit a 429', async () => {
    const llm = createScriptedLlm(Array.from({ length: 12 }, () => ({ text: 'thinking…', delayMs: 30_000 })));
    t = await startTestServer({ llm });
    const { limit } = t.app.sessions.running();
    const ids = await Promise.all(Array.from({ length: limit + 1 }, () => newSession(t!)));
    const streams = await Promise.all(
      ids
        .slice(0, limit)
        .map((id) => openStream(t!.port, `/api/sessions/${id}/chat`, { body: { message: 'take your time' } })),
    );
    await Promise.all(streams.map((s) => s.waitFor('event: text.delta')));

    const busy = await request(t.port, `/api/sessions/${ids[0]}/chat`, { body: { message: 'and another thing' } });
    expect(busy.status).toBe(409);
    expect(busy.json().error).toEqual({ code: 'busy', message: expect.stringContaining('still working') });
    const full = await request(t.port, `/api/sessions/${ids[limit]}/chat`, {
      body: { message: 'me too' },
      headers: { accept: 'text/event-stream' },
    });
    expect(full.status).toBe(429);
    expect(full.json().error).toEqual({ code: 'too_many', message: expect.stringContaining(`the limit is ${limit}`) });
    const status = (await request(t.port, '/api/status')).json();
    expect(status.sessions.running).toHaveLength(limit);
    expect(status.sessions.limit).toBe(limit);
  });
});
