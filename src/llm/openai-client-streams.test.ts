/**
 * The model client against streams that are odd, flooding, or that echo the key back: the same
 * real client over real HTTP as openai-client.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  collect,
  failure,
  llmFor,
  parsedCalls,
  server,
  useOpenAiServer,
  WEATHER_TOOL,
} from '../../test/support/llm-client.js';
import { textCompletion, textReply, toolCallsReply } from '../../test/support/openai-server.js';
import { LlmError } from './openai-client.js';

useOpenAiServer();

function dataEvent(delta: object, finishReason: string | null = null, eol = '\n'): string {
  const chunk = {
    id: 'c',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
  return `data: ${JSON.stringify(chunk)}${eol}${eol}`;
}

describe('odd streams', () => {
  it('skips a ping event with no data, an empty data line, data: null and comments between chunks', async () => {
    server.enqueue({
      sse: [
        dataEvent({ role: 'assistant', content: '' }),
        'event: ping\n\n',
        dataEvent({ content: 'Hel' }),
        'data:\n\n',
        dataEvent({ content: 'lo' }),
        'data: null\n\n',
        ': OPENROUTER PROCESSING\n\n',
        'event: ping\ndata: \n\n',
        dataEvent({ content: '!' }),
        dataEvent({}, 'stop'),
        'data: [DONE]\n\n',
      ].join(''),
    });
    const result = await collect(llmFor());
    expect(result.text).toBe('Hello!');
    expect(result.finish).toBe('stop');
  });

  it('reads CRLF streams with odd blocks, lines split across packets, byte for byte', async () => {
    const body = [
      dataEvent({ role: 'assistant', content: '' }, null, '\r\n'),
      'event: ping\r\n\r\n',
      dataEvent({ content: '你好，' }, null, '\r\n'),
      'data: null\r\n\r\n',
      dataEvent({ content: 'world' }, null, '\r\n'),
      ': keep-alive\r\n\r\n',
      dataEvent({}, 'stop', '\r\n'),
      'data: [DONE]\r\n\r\n',
    ].join('');
    // Cut mid-line, between \r and \n, and inside a multi-byte character.
    const bytes = Buffer.from(body);
    const cuts = [
      7,
      bytes.indexOf('\r\n') + 1,
      bytes.indexOf('你') + 1,
      bytes.indexOf('ping') + 2,
      bytes.indexOf('null') + 5,
      bytes.length - 3,
    ];
    const writes: Buffer[] = [];
    let from = 0;
    for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
      writes.push(bytes.subarray(from, cut));
      from = cut;
    }
    writes.push(bytes.subarray(from));
    server.enqueue({ writes });
    const result = await collect(llmFor());
    expect(result.text).toBe('你好，world');
    expect(result.finish).toBe('stop');
  });

  it('counts dropped keep-alive pings as life: a long pause filled with pings is not silence', async () => {
    const pings = Array.from({ length: 6 }, (_, i) => (i % 2 ? 'event: ping\n\n' : ': ping\n\n'));
    server.enqueue({
      writes: [
        dataEvent({ content: 'before' }),
        ...pings,
        dataEvent({ content: ' after' }, 'stop'),
        'data: [DONE]\n\n',
      ],
      delayMs: 150,
    });
    const started = Date.now();
    const result = await collect(llmFor({ timeoutMs: 400, maxRetries: 0 }));
    expect(Date.now() - started).toBeGreaterThan(800);
    expect(result.text).toBe('before after');
  });

  it('keeps tool calls whole when odd blocks come between their deltas', async () => {
    server.enqueue({
      sse: [
        dataEvent({
          role: 'assistant',
          content: null,
          tool_calls: [{ index: 0, id: 'call_w', type: 'function', function: { name: 'weather', arguments: '' } }],
        }),
        'event: ping\n\n',
        dataEvent({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
        'data: null\n\n',
        dataEvent({ tool_calls: [{ index: 0, function: { arguments: '"上海"}' } }] }),
        'data:\n\n',
        dataEvent({}, 'tool_calls'),
        'data: [DONE]\n\n',
      ].join(''),
    });
    const result = await collect(llmFor(), { tools: [WEATHER_TOOL] });
    expect(parsedCalls(result.calls)).toEqual([{ id: 'call_w', name: 'weather', args: { city: '上海' } }]);
    expect(result.finish).toBe('tool_calls');
  });

  it('skips a chunk that is not an object, and choices in the wrong shape', async () => {
    const odd = ['data: 42\n\n', 'data: "hi"\n\n', 'data: {"choices":[null]}\n\n', 'data: {"choices":"abc"}\n\n'];
    server.enqueue({
      sse: [...odd, dataEvent({ content: 'fine' }), 'data: true\n\n', dataEvent({}, 'stop'), 'data: [DONE]\n\n'].join(
        '',
      ),
    });
    const result = await collect(llmFor());
    expect(result.text).toBe('fine');
    expect(result.finish).toBe('stop');
  });

  it('reports a malformed tool call as a model error, not as nameless calls', async () => {
    const bad: Array<[object, string]> = [
      [{ tool_calls: 'notarray' }, 'tool_calls is not a list'],
      [{ tool_calls: ['x'] }, 'a tool_calls entry is not an object'],
      [{ tool_calls: [{ index: 0, id: 'c', function: 'weather' }] }, 'function is not an object'],
    ];
    for (const [delta, why] of bad) {
      server.enqueue({
        sse: [
          dataEvent({ role: 'assistant', content: null }),
          dataEvent(delta),
          dataEvent({}, 'tool_calls'),
          'data: [DONE]\n\n',
        ].join(''),
      });
      const error = await failure(collect(llmFor(), { tools: [WEATHER_TOOL] }));
      expect(error.code).toBe('bad_response');
      expect(error.message).toBe(`The model sent a malformed tool call (${why}). Try again, or try another model.`);
    }
  });
});

/**
 * A stream that never stops growing must end in a clear model error, fast, with the connection
 * closed: each flood below once took gigabytes or minutes. The floods are bounded (the server
 * stops at `totalBytes`) and stay on loopback.
 */
describe('a flooding stream', () => {
  const MB = 1024 * 1024;
  const WRITE_BYTES = 64 * 1024;
  const contentHead =
    'data: {"id":"c","object":"chat.completion.chunk","created":0,"model":"m","choices":[{"index":0,"delta":{"content":"';

  async function expectStopped(): Promise<LlmError> {
    const started = Date.now();
    const error = await failure(collect(llmFor({ maxRetries: 0 })));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(error.code).toBe('bad_response');
    const hungUp = await Promise.race([
      server.floods[0]!.ended,
      new Promise((resolve) => setTimeout(() => resolve('still open'), 2_000)),
    ]);
    expect(hungUp).toBe('hungUp');
    return error;
  }

  it('stops comment lines that never end their block, once the answer passes 256 MB', async () => {
    const line = `: ${'x'.repeat(997)}\n`;
    server.enqueue({
      flood: {
        head: dataEvent({ content: 'hi' }),
        repeat: line.repeat(WRITE_BYTES / line.length),
        totalBytes: 300 * MB,
      },
    });
    const error = await expectStopped();
    expect(error.message).toBe(
      'The model service sent more than 256 MB in one answer; it was stopped. Try again, or try another model.',
    );
    expect(server.floods[0]!.sent).toBeLessThan(300 * MB);
  }, 30_000);

  it('stops one data line that never ends, once it passes 24 MB', async () => {
    server.enqueue({ flood: { head: contentHead, repeat: 'x'.repeat(WRITE_BYTES), totalBytes: 100 * MB } });
    const error = await expectStopped();
    expect(error.message).toBe(
      'The model service sent an event larger than 24 MB; it was stopped. Try again, or try another model.',
    );
    expect(server.floods[0]!.sent).toBeLessThan(40 * MB);
  }, 30_000);

  it('stops a single 50 MB delta', async () => {
    server.enqueue({
      flood: {
        head: contentHead,
        repeat: 'x'.repeat(WRITE_BYTES),
        totalBytes: 50 * MB,
        tail: '"}}]}\n\ndata: [DONE]\n\n',
      },
    });
    const error = await expectStopped();
    expect(error.message).toContain('larger than 24 MB');
  }, 30_000);
});

const ODD_KEY = 'sk-te/st+key=abc_123';

/** The forms a server may echo a key in, computed here independently of the code under test. */
function echoedForms(key: string): string[] {
  const uri = encodeURIComponent(key);
  const form = new URLSearchParams({ k: key }).toString().slice(2);
  const lower = (text: string) => text.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase());
  const base64 = Buffer.from(key).toString('base64');
  return [
    key,
    uri,
    lower(uri),
    form,
    lower(form),
    base64,
    Buffer.from(key).toString('base64url'),
    JSON.stringify(key).slice(1, -1),
    key.replaceAll('/', '\\/'),
  ];
}

/** Forms a fixed list missed: Python's `quote()` (keeps `/`), an HTTP Basic header, base64 of a bearer header. `label` stays visible. */
function missedForms(key: string): Array<{ form: string; label: string }> {
  const b64 = (text: string, url = false) => Buffer.from(text).toString(url ? 'base64url' : 'base64');
  return [
    { form: encodeURIComponent(key).replaceAll('%2F', '/'), label: '' },
    { form: `Basic ${b64(`:${key}`)}`, label: 'Basic ' },
    { form: b64(`Bearer ${key}`), label: '' },
    { form: b64(`:${key}`, true), label: '' },
  ];
}

/** Base64 of the key in each alignment, less the characters a neighbour could change: present means the key leaked. */
function base64Cores(key: string): string[] {
  return [0, 1, 2].map((k) =>
    Buffer.from('\0'.repeat(k) + key)
      .toString('base64')
      .slice(Math.ceil((k * 8) / 6), Math.floor((k + key.length) / 3) * 4),
  );
}

function expectNoKey(text: string, key = ODD_KEY): void {
  for (const form of [...echoedForms(key), ...missedForms(key).map((m) => m.form.slice(m.label.length))])
    expect(text).not.toContain(form);
  for (const core of base64Cores(key)) {
    expect(text).not.toContain(core);
    expect(text).not.toContain(core.replaceAll('+', '-').replaceAll('/', '_'));
  }
  // The distinctive middle of the key, in case of a form nobody listed.
  expect(text).not.toContain('st+key');
  expect(text).not.toContain('st%2Bkey');
}

describe('the key echoed back in any encoding', () => {
  const forms = [...echoedForms(ODD_KEY).map((form) => ({ form, label: '' })), ...missedForms(ODD_KEY)];

  it('never reaches the streamed text or reasoning, even split across chunks', async () => {
    expect(new Set(forms.map((f) => f.form)).size).toBe(10);
    for (const { form, label } of forms) {
      const cut = Math.ceil(form.length / 2);
      server.enqueue({
        sse: [
          dataEvent({ role: 'assistant', content: '', reasoning_content: `I see ${form.slice(0, cut)}` }),
          dataEvent({ reasoning_content: `${form.slice(cut)} there.` }),
          dataEvent({ content: `Your key is ${form.slice(0, cut)}` }),
          dataEvent({ content: `${form.slice(cut)}, right?` }),
          dataEvent({}, 'stop'),
          'data: [DONE]\n\n',
        ].join(''),
      });
      const result = await collect(llmFor({ apiKey: ODD_KEY }));
      expect(result.text).toBe(`Your key is ${label}[key], right?`);
      expect(result.reasoning).toBe(`I see ${label}[key] there.`);
      expectNoKey(JSON.stringify(result.events));
    }
  });

  it('never reaches the streamed text split at every position, in the forms a fixed list missed', async () => {
    for (const { form, label } of missedForms(ODD_KEY)) {
      // One answer holds every cut: `(n) key=<form>.` with the delta boundary n characters in.
      const pieces = Array.from({ length: form.length + 1 }, (_, n) => [
        `(${n}) key=${form.slice(0, n)}`,
        `${form.slice(n)}. `,
      ]).flat();
      server.enqueue({
        sse: [...pieces.map((content) => dataEvent({ content })), dataEvent({}, 'stop'), 'data: [DONE]\n\n'].join(''),
      });
      const { text } = await collect(llmFor({ apiKey: ODD_KEY }));
      expectNoKey(text);
      // Where the base64 run starts, and where its characters stop mixing in the prefix ("Bearer ", ":").
      const runAt = label.length;
      const coreAt = runAt + (form.startsWith('sk-') ? 0 : form.startsWith('QmVhcmVy') ? 10 : 2);
      for (let n = 0; n <= form.length; n++) {
        const said = text.slice(text.indexOf(`(${n}) key=`) + `(${n}) key=`.length).split('. ')[0]!;
        // A cut inside the run may have let out its first characters before the key's own came: they say
        // only the prefix (and a few bits of the key's first byte, "s" of "sk-"). Never more than that.
        const allowed = Array.from(
          { length: Math.max(0, Math.min(n, coreAt) - runAt) + 1 },
          (_, m) => `${label}${form.slice(runAt, runAt + m)}[key]`,
        );
        expect(allowed, `cut at ${n}`).toContain(said);
      }
    }
  });

  it('never reaches a tool call or a title', async () => {
    const uri = encodeURIComponent(ODD_KEY);
    const basic = missedForms(ODD_KEY)[1]!.form;
    server.enqueue(
      toolCallsReply(
        [{ id: 'call_k', name: 'todo_add', args: { content: `rotate ${uri} and ${forms[5]!.form}; ${basic}` } }],
        { splitArgs: true },
      ),
    );
    const result = await collect(llmFor({ apiKey: ODD_KEY }), { tools: [WEATHER_TOOL] });
    expect(parsedCalls(result.calls)).toEqual([
      { id: 'call_k', name: 'todo_add', args: { content: 'rotate [key] and [key]; Basic [key]' } },
    ]);
    expectNoKey(JSON.stringify(result.events));
    server.enqueue(textCompletion(`Key ${uri}`));
    const title = await llmFor({ apiKey: ODD_KEY }).title!('hello');
    expect(title).toBe('Key [key]');
  });

  it('never reaches an error message, from an error reply or an error event in the stream', async () => {
    for (const { form, label } of forms) {
      server.enqueue({ status: 403, body: { error: { message: `Key ${form} may not use this model` } } });
      const refused = await failure(collect(llmFor({ apiKey: ODD_KEY })));
      expect(refused.message).toContain(`Key ${label}[key] may not use this model`);
      expectNoKey(refused.message);
      server.enqueue({ sse: `data: {"error":{"message":${JSON.stringify(`bad key ${form}`)}}}\n\n` });
      const inStream = await failure(collect(llmFor({ apiKey: ODD_KEY })));
      expect(inStream.message).toContain(`bad key ${label}[key]`);
      expectNoKey(inStream.message);
    }
  });

  it('leaves text without the key exactly as the model wrote it', async () => {
    const text = 'sk-te is not it; Bearer $TOKEN, ak-47 and c2st stay as written';
    server.enqueue(textReply(text));
    expect((await collect(llmFor({ apiKey: ODD_KEY }))).text).toBe(text);
  });
});
