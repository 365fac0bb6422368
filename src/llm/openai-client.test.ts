import { describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { inspect } from 'node:util';
import {
  fixture,
  LLM_FIXTURES_DIR,
  textCompletion,
  textReply,
  toolCallsReply,
} from '../../test/support/openai-server.js';
import { cleanTitle, createOpenAiLlm, type RetryInfo } from './openai-client.js';
import type { ChatMessage, LlmEvent } from './types.js';
import {
  collect,
  failure,
  FAKE_KEY,
  llmFor,
  parsedCalls,
  server,
  summarize,
  useOpenAiServer,
  WEATHER_TOOL,
} from '../../test/support/llm-client.js';

useOpenAiServer();

describe('streaming', () => {
  it('streams text deltas, usage and finish, and sends a well-formed request', async () => {
    server.enqueue(textReply('你好，我是知行。How can I help?'));
    const result = await collect(llmFor());
    expect(result.text).toBe('你好，我是知行。How can I help?');
    expect(result.events.filter((e) => e.type === 'text').length).toBeGreaterThan(3);
    expect(result.usage).toEqual({ promptTokens: 10, completionTokens: 6, totalTokens: 16 });
    expect(result.finish).toBe('stop');
    expect(result.events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });

    const [request] = server.requests;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe(`Bearer ${FAKE_KEY}`);
    expect(request.body).toEqual({
      model: 'test-model',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(request.body).not.toHaveProperty('tools');
  });

  it('reassembles two tool calls whose arguments are split across chunks, and sends the tools', async () => {
    server.enqueue(
      toolCallsReply(
        [
          { id: 'call_a', name: 'weather', args: { city: '北京' } },
          { id: 'call_b', name: 'calculator', args: { expression: '(3+5)*2' } },
        ],
        { splitArgs: true, text: 'Let me check.' },
      ),
    );
    const result = await collect(llmFor(), { tools: [WEATHER_TOOL] });
    expect(result.text).toBe('Let me check.');
    expect(parsedCalls(result.calls)).toEqual([
      { id: 'call_a', name: 'weather', args: { city: '北京' } },
      { id: 'call_b', name: 'calculator', args: { expression: '(3+5)*2' } },
    ]);
    expect(result.finish).toBe('tool_calls');
    expect(result.usage).toEqual({ promptTokens: 20, completionTokens: 10, totalTokens: 30 });
    expect(server.requests[0].body.tools).toEqual([{ type: 'function', function: WEATHER_TOOL }]);
  });

  it('sends a follow-up with tool results in the OpenAI shape', async () => {
    server.enqueue(textReply('北京晴，25°C。'));
    const messages: ChatMessage[] = [
      { role: 'system', content: 'You are Zhixing.' },
      { role: 'user', content: '北京天气？' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { id: 'call_a', name: 'weather', arguments: '{"city":"北京"}' },
          { id: 'call_b', name: 'current_time', arguments: '{"timezone":' },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: '晴，25°C' },
      { role: 'tool', tool_call_id: 'call_b', content: 'Error: invalid JSON' },
      { role: 'assistant', content: 'Done.' },
    ];
    await collect(llmFor(), { messages, tools: [WEATHER_TOOL] });
    expect(server.requests[0].body.messages).toEqual([
      { role: 'system', content: 'You are Zhixing.' },
      { role: 'user', content: '北京天气？' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'weather', arguments: '{"city":"北京"}' } },
          // Broken JSON from the model is not sent back: strict servers reject the whole history for it.
          { id: 'call_b', type: 'function', function: { name: 'current_time', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: '晴，25°C' },
      { role: 'tool', tool_call_id: 'call_b', content: 'Error: invalid JSON' },
      { role: 'assistant', content: 'Done.' },
    ]);
  });

  it("sends a tool result's data to no provider: the request is the same with or without it", async () => {
    const plain: ChatMessage[] = [
      { role: 'user', content: '看看待办' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_a', name: 'todo_list', arguments: '{}' }] },
      { role: 'tool', tool_call_id: 'call_a', content: '待办（1 条未完成）：\n1. [ ] 买牛奶' },
    ];
    const withData = plain.map((m): ChatMessage =>
      m.role === 'tool'
        ? {
            ...m,
            result: {
              ok: true,
              data: {
                kind: 'todo_list',
                status: 'pending',
                items: [{ number: 1, content: '买牛奶', done: false, due: null }],
              },
            },
          }
        : m,
    );
    server.enqueue(textReply('ok'));
    server.enqueue(textReply('ok'));
    await collect(llmFor(), { messages: plain });
    await collect(llmFor(), { messages: withData });
    const [a, b] = server.requests.map((r) => JSON.stringify(r.body));
    expect(b).toBe(a);
    expect(b).not.toContain('"kind"');
  });

  it('sends no Authorization header when no key is configured (Ollama, LM Studio)', async () => {
    server.enqueue(textReply('ok'));
    await collect(llmFor({ apiKey: '' }));
    expect(server.requests[0].headers.authorization).toBeUndefined();
  });

  it('ignores OPENAI_* variables meant for another provider', async () => {
    const saved = { org: process.env.OPENAI_ORG_ID, project: process.env.OPENAI_PROJECT_ID };
    process.env.OPENAI_ORG_ID = 'org-elsewhere';
    process.env.OPENAI_PROJECT_ID = 'proj-elsewhere';
    try {
      server.enqueue(textReply('ok'));
      await collect(llmFor());
    } finally {
      for (const [name, value] of [
        ['OPENAI_ORG_ID', saved.org],
        ['OPENAI_PROJECT_ID', saved.project],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    expect(server.requests[0].headers['openai-organization']).toBeUndefined();
    expect(server.requests[0].headers['openai-project']).toBeUndefined();
  });

  it('drops stream_options for good when the server rejects it', async () => {
    server.enqueue(
      {
        status: 400,
        body: {
          error: { message: 'Unrecognized request argument supplied: stream_options', type: 'invalid_request_error' },
        },
      },
      textReply('first'),
      textReply('second'),
    );
    const llm = llmFor();
    expect((await collect(llm)).text).toBe('first');
    expect((await collect(llm)).text).toBe('second');
    expect(server.requests.map((r) => 'stream_options' in r.body)).toEqual([true, false, false]);
  });

  it('treats a 200 with no data lines as a broken endpoint', async () => {
    server.enqueue({ sse: ': keep-alive\n\n' });
    const error = await failure(collect(llmFor()));
    expect(error.code).toBe('server');
    expect(error.message).toContain('ZHIXING_BASE_URL');
  });

  it('turns an error event inside the stream into a server error', async () => {
    server.enqueue({ sse: 'data: {"error":{"message":"model overloaded","type":"server_error"}}\n\n' });
    const error = await failure(collect(llmFor()));
    expect(error.code).toBe('server');
    expect(error.message).toContain('model overloaded');
  });
});

/** One `data:` event with a `chat.completion.chunk`, as a provider writes it. */
describe('recorded provider streams', () => {
  it('DeepSeek reasoner: reasoning_content then a tool call, usage on the finish chunk', async () => {
    server.enqueue(fixture('deepseek-reasoner-tool-call.chunks.txt'));
    const result = await collect(llmFor(), { tools: [WEATHER_TOOL] });
    expect(parsedCalls(result.calls)).toEqual([
      { id: 'call_00_ioIn7yN9p1ZOMNpDLwd4MgAF', name: 'weather', args: { location: 'San Francisco' } },
    ]);
    expect(result.reasoning.startsWith('The user is asking for the weather in San Francisco')).toBe(true);
    expect(result.text).toBe('');
    expect(result.usage).toEqual({ promptTokens: 339, completionTokens: 83, totalTokens: 422 });
    expect(result.finish).toBe('tool_calls');
  });

  it('DeepSeek reasoner: long reasoning, then the answer, never mixed', async () => {
    server.enqueue(fixture('deepseek-reasoner-reasoning.chunks.txt'));
    const result = await collect(llmFor());
    expect(result.text).toBe('The word "strawberry" contains three "r"s.');
    expect(result.reasoning.startsWith('We need to count the number of the letter "r"')).toBe(true);
    expect(result.reasoning).toBe(joinedReasoning('deepseek-reasoner-reasoning.chunks.txt'));
    expect(result.text).not.toContain('We need');
    expect(result.usage).toEqual({ promptTokens: 18, completionTokens: 219, totalTokens: 237 });
    expect(result.finish).toBe('stop');
  });

  it('Qwen3 (DashScope): later deltas with "id": "" keep the id; usage in a choices: [] chunk', async () => {
    server.enqueue(fixture('qwen3-max-tool-call.chunks.txt'));
    const result = await collect(llmFor(), { tools: [WEATHER_TOOL] });
    expect(parsedCalls(result.calls)).toEqual([
      { id: 'call_eee11723464a4b9eb8cee71d', name: 'weather', args: { location: 'San Francisco' } },
    ]);
    expect(result.usage).toEqual({ promptTokens: 295, completionTokens: 22, totalTokens: 317 });
    expect(result.finish).toBe('tool_calls');
  });

  it('Qwen3 (DashScope): reasoning stream, answer, usage after the finish chunk', async () => {
    server.enqueue(fixture('qwen3-max-reasoning.chunks.txt'));
    const result = await collect(llmFor());
    expect(result.text.startsWith('The word **"strawberry"** contains **3** instances')).toBe(true);
    expect(result.text.endsWith('**Answer: 3**')).toBe(true);
    expect(result.reasoning).toBe(joinedReasoning('qwen3-max-reasoning.chunks.txt'));
    expect(result.text).not.toContain('We are asked');
    expect(result.usage).toEqual({ promptTokens: 24, completionTokens: 1355, totalTokens: 1379 });
  });

  it('xAI grok-3-mini: reasoning then a whole tool call; chunks without finish_reason keys', async () => {
    server.enqueue(fixture('grok-3-mini-tool-call.chunks.txt'));
    const result = await collect(llmFor(), { tools: [WEATHER_TOOL] });
    expect(parsedCalls(result.calls)).toEqual([
      { id: 'call_79382389', name: 'weather', args: { location: 'San Francisco' } },
    ]);
    expect(result.reasoning.startsWith('First, the user is asking about the weather')).toBe(true);
    expect(result.text).toBe('');
    expect(result.usage).toEqual({ promptTokens: 307, completionTokens: 26, totalTokens: 560 });
  });

  it('Groq llama-3.3: the whole call in one delta, usage under x_groq', async () => {
    server.enqueue(fixture('groq-llama-3.3-tool-call.chunks.txt'));
    const result = await collect(llmFor(), { tools: [WEATHER_TOOL] });
    expect(parsedCalls(result.calls)).toEqual([{ id: 'tk85n1k4m', name: 'weather', args: {} }]);
    expect(result.usage).toEqual({ promptTokens: 210, completionTokens: 15, totalTokens: 225 });
    expect(result.finish).toBe('tool_calls');
  });

  it('Claude via an OpenAI-compatible gateway: text, then a call at index 1, no usage', async () => {
    server.enqueue(fixture('claude-haiku-openai-compat-tool-index1.sse'));
    const result = await collect(llmFor(), { tools: [WEATHER_TOOL] });
    expect(result.text).toBe('Reading it.');
    expect(parsedCalls(result.calls)).toEqual([{ id: 'toolu_sanitized', name: 'read_file', args: { path: 'a.txt' } }]);
    expect(result.usage).toBeUndefined();
    expect(result.events.map((e) => e.type)).toEqual(['text', 'text', 'tool_call', 'finish']);
  });
});

function joinedReasoning(name: string): string {
  return readFileSync(path.join(LLM_FIXTURES_DIR, name), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { choices: Array<{ delta?: { reasoning_content?: string | null } }> })
    .map((chunk) => chunk.choices[0]?.delta?.reasoning_content ?? '')
    .join('');
}

describe('retries', () => {
  it('waits for Retry-After on a 429 and then succeeds, telling onRetry', async () => {
    const retries: RetryInfo[] = [];
    server.enqueue({ status: 429, headers: { 'retry-after': '1' } }, textReply('after the wait'));
    const started = Date.now();
    const result = await collect(llmFor({ onRetry: (info) => retries.push(info) }));
    expect(result.text).toBe('after the wait');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1].headers['x-stainless-retry-count']).toBe('1');
    expect(retries).toEqual([{ attempt: 1, maxRetries: 3, reason: 'rate_limit', status: 429, delayMs: 1000 }]);
  });

  it('retries a 500 with backoff and then succeeds', async () => {
    server.enqueue({ status: 500 }, textReply('recovered'));
    expect((await collect(llmFor())).text).toBe('recovered');
    expect(server.requests).toHaveLength(2);
  });

  it('retries a dropped connection before any answer', async () => {
    server.enqueue({ reset: true }, textReply('second try'));
    expect((await collect(llmFor())).text).toBe('second try');
    expect(server.requests).toHaveLength(2);
  });

  it('gives up on a refused connection after 3 retries with a network error', async () => {
    const retries: RetryInfo[] = [];
    const port = await freePort();
    const llm = createOpenAiLlm({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      apiKey: FAKE_KEY,
      model: 'm',
      provider: 'test',
      onRetry: (info) => retries.push(info),
    });
    const error = await failure(collect(llm));
    expect(error.code).toBe('network');
    expect(error.message).toContain(`http://127.0.0.1:${port}/v1`);
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.message).toContain('ZHIXING_BASE_URL');
    expect(retries.map((r) => [r.attempt, r.reason])).toEqual([
      [1, 'network'],
      [2, 'network'],
      [3, 'network'],
    ]);
  });

  it('reports rate_limit once retries are used up', async () => {
    server.enqueue(...Array.from({ length: 2 }, () => ({ status: 429, headers: { 'retry-after-ms': '10' } })));
    const error = await failure(collect(llmFor({ maxRetries: 1 })));
    expect(error.code).toBe('rate_limit');
    expect(error.status).toBe(429);
    expect(error.message).toBe(
      'The model service is rate-limiting requests (429) after 1 retry. Wait a minute and try again.',
    );
    expect(server.requests).toHaveLength(2);
  });

  it('does not sit out a Retry-After of an hour: fails at once', async () => {
    server.enqueue({ status: 429, headers: { 'retry-after': '3600' } });
    const error = await failure(collect(llmFor()));
    expect(error.code).toBe('rate_limit');
    expect(error.message).toContain('3600 s');
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry an exhausted quota', async () => {
    server.enqueue({
      status: 429,
      body: {
        error: { message: 'You exceeded your current quota.', type: 'insufficient_quota', code: 'insufficient_quota' },
      },
    });
    const error = await failure(collect(llmFor()));
    expect(error.code).toBe('rate_limit');
    expect(error.message).toContain('no quota or balance left');
    expect(server.requests).toHaveLength(1);
  });

  it('never retries once the stream has started: a cut connection is a network error', async () => {
    server.enqueue(
      { chunks: textReply('half an answer').chunks.slice(0, 3), end: 'close' },
      textReply('must not be used'),
    );
    const events: LlmEvent[] = [];
    const error = await failure(
      (async () => {
        for await (const event of llmFor().stream({ messages: [{ role: 'user', content: 'hi' }], tools: [] }))
          events.push(event);
      })(),
    );
    expect(error.code).toBe('network');
    expect(summarize(events).text).toBe('half an ');
    expect(server.requests).toHaveLength(1);
    expect(server.pending()).toBe(1);
  });
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A key whose encodings all differ from it: `/`, `+` and `=` change under every one of them. */
describe('errors', () => {
  it('maps 401 to auth without ever showing or logging the key', async () => {
    const logged: string[] = [];
    const log = (...args: unknown[]) => void logged.push(args.map((a) => inspect(a, { depth: 8 })).join(' '));
    server.enqueue({
      status: 401,
      body: {
        error: {
          message: `Incorrect API key provided: ${FAKE_KEY}. Bearer ${FAKE_KEY}`,
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      },
    });
    const error = await failure(collect(llmFor({ logger: { debug: log, info: log, warn: log, error: log } })));
    expect(error.code).toBe('auth');
    expect(error.status).toBe(401);
    expect(error.message).toBe('The model service rejected the API key (401). Check ZHIXING_API_KEY.');
    expect(server.requests).toHaveLength(1);
    expect(logged.length).toBeGreaterThan(0);
    const everything = [
      error.message,
      String(error),
      error.stack ?? '',
      JSON.stringify(error),
      inspect(error, { depth: 8 }),
      ...logged,
    ].join('\n');
    expect(everything).not.toContain(FAKE_KEY);
    expect(everything).not.toContain('abcdefghijklmnop');
  });

  it('maps 403 to auth and redacts a key the provider echoes back', async () => {
    server.enqueue({ status: 403, body: { error: { message: `Key ${FAKE_KEY} may not use this model` } } });
    const error = await failure(collect(llmFor()));
    expect(error.code).toBe('auth');
    expect(error.message).not.toContain(FAKE_KEY);
    expect(error.message).toContain('may not use this model');
  });

  it('maps an unknown model (404) to bad_request, naming the model, without retrying', async () => {
    server.enqueue({
      status: 404,
      body: {
        error: { message: 'The model `gpt-9` does not exist', type: 'invalid_request_error', code: 'model_not_found' },
      },
    });
    const error = await failure(collect(llmFor({ model: 'gpt-9' })));
    expect(error.code).toBe('bad_request');
    expect(error.message).toBe(
      'The model service refused the request (404: The model `gpt-9` does not exist) for model "gpt-9". Check ZHIXING_MODEL and ZHIXING_BASE_URL.',
    );
    expect(server.requests).toHaveLength(1);
  });

  it('maps repeated 5xx to server after retries', async () => {
    server.enqueue(
      ...Array.from({ length: 2 }, () => ({
        status: 503,
        headers: { 'retry-after-ms': '10' },
        body: { error: { message: 'busy' } },
      })),
    );
    const error = await failure(collect(llmFor({ maxRetries: 1 })));
    expect(error.code).toBe('server');
    expect(error.message).toBe('The model service failed (503: busy) after 1 retry. Try again later.');
  });

  it('says so when the base URL is not a URL', async () => {
    const error = await failure(
      collect(createOpenAiLlm({ baseUrl: 'api.example.com', model: 'm', provider: 'custom', maxRetries: 0 })),
    );
    expect(error.code).toBe('bad_request');
    expect(error.message).toContain('ZHIXING_BASE_URL');
  });

  it('times out a server that never answers', async () => {
    server.enqueue({ hang: true });
    const error = await failure(collect(llmFor({ timeoutMs: 300, maxRetries: 0 })));
    expect(error.code).toBe('timeout');
    expect(error.message).toContain('did not answer within 0.3 s');
  });

  it('retries a timeout like the SDK does, then reports it', async () => {
    server.enqueue({ hang: true }, { hang: true });
    const retries: RetryInfo[] = [];
    const error = await failure(
      collect(llmFor({ timeoutMs: 200, maxRetries: 1, onRetry: (info) => retries.push(info) })),
    );
    expect(error.code).toBe('timeout');
    expect(server.requests).toHaveLength(2);
    expect(retries.map((r) => r.reason)).toEqual(['timeout']);
  });

  it('gives up on a server that accepts the request but never sends headers, without retrying it', async () => {
    server.enqueue({ hang: true }, { hang: true }, { hang: true }, { hang: true });
    const waited: number[] = [];
    const retries: RetryInfo[] = [];
    const started = Date.now();
    const error = await failure(
      collect(
        llmFor({
          headersTimeoutMs: 1_500,
          waitingNotice: { afterMs: 300, everyMs: 500 },
          onWaiting: (info) => waited.push(info.elapsedMs),
          onRetry: (info) => retries.push(info),
        }),
      ),
    );
    const took = Date.now() - started;
    expect(error.code).toBe('timeout');
    expect(error.message).toBe(
      `The model service at ${server.url} accepted the request but sent no answer within 1.5 s. Check that it is running and not overloaded, or try again.`,
    );
    expect(error.message).not.toContain('KEY');
    expect(took).toBeGreaterThanOrEqual(1_400);
    expect(server.requests).toHaveLength(1);
    expect(retries).toEqual([]);
    // After 0.3 s, then every 0.5 s while nothing came: about 0.3, 0.8, 1.3 s.
    expect(waited.length).toBe(3);
    expect(waited[0]).toBeGreaterThanOrEqual(290);
    expect(waited[0]).toBeLessThan(700);
    for (let i = 1; i < waited.length; i++) expect(waited[i]! - waited[i - 1]!).toBeGreaterThanOrEqual(400);
  });

  it('says nothing about waiting once the headers came, and never for a title', async () => {
    server.enqueue({ ...textReply('slow but there'), delayMs: 150 }, textCompletion('A title'));
    const waited: number[] = [];
    const llm = llmFor({
      headersTimeoutMs: 1_000,
      waitingNotice: { afterMs: 100, everyMs: 100 },
      onWaiting: (info) => waited.push(info.elapsedMs),
    });
    expect((await collect(llm)).text).toBe('slow but there');
    expect(await llm.title!('hello')).toBe('A title');
    expect(waited).toEqual([]);
  });

  it('lets a slow but steady stream run longer than the timeout (the limit is on silence)', async () => {
    server.enqueue({ ...textReply('one two three four'), delayMs: 150 });
    const started = Date.now();
    const result = await collect(llmFor({ timeoutMs: 400, maxRetries: 0 }));
    expect(result.text).toBe('one two three four');
    expect(Date.now() - started).toBeGreaterThan(400);
  });

  it('times out a stream that goes silent midway, after the events already received', async () => {
    server.enqueue({ chunks: textReply('partial answer').chunks.slice(0, 2), end: 'hang' });
    const events: LlmEvent[] = [];
    const started = Date.now();
    const error = await failure(
      (async () => {
        for await (const event of llmFor({ timeoutMs: 300 }).stream({
          messages: [{ role: 'user', content: 'hi' }],
          tools: [],
        }))
          events.push(event);
      })(),
    );
    expect(error.code).toBe('timeout');
    expect(error.message).toContain('went silent');
    expect(summarize(events).text).toBe('part');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(server.requests).toHaveLength(1);
  });
});

describe('abort', () => {
  it('stops mid-stream when the signal fires', async () => {
    server.enqueue({ chunks: textReply('streaming slowly').chunks.slice(0, 3), end: 'hang' });
    const controller = new AbortController();
    const events: LlmEvent[] = [];
    const error = await failure(
      (async () => {
        for await (const event of llmFor().stream({
          messages: [{ role: 'user', content: 'hi' }],
          tools: [],
          signal: controller.signal,
        })) {
          events.push(event);
          if (events.length === 1) controller.abort();
        }
      })(),
    );
    expect(error.code).toBe('aborted');
    expect(error.message).toBe('The request to the model was cancelled.');
    expect(events[0]).toEqual({ type: 'text', delta: 'stre' });
    expect(events.some((e) => e.type === 'finish')).toBe(false);
  });

  it('stops while waiting for the first byte', async () => {
    server.enqueue({ hang: true });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await failure(collect(llmFor(), { signal: controller.signal }));
    expect(error.code).toBe('aborted');
  });

  it('stops during a long Retry-After wait without sitting it out', async () => {
    server.enqueue({ status: 429, headers: { 'retry-after': '30' } }, textReply('too late'));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    const error = await failure(collect(llmFor(), { signal: controller.signal }));
    expect(error.code).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('does not even connect when the signal has already fired', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await failure(collect(llmFor(), { signal: controller.signal }));
    expect(error.code).toBe('aborted');
    expect(server.requests).toHaveLength(0);
  });
});

describe('title', () => {
  it('asks without streaming and returns one clean line', async () => {
    server.enqueue(textCompletion('"北京天气查询。"\nThis title covers the question.'));
    const title = await llmFor().title!('北京今天天气怎么样？');
    expect(title).toBe('北京天气查询');
    const body = server.requests[0].body;
    expect(body.stream).toBe(false);
    expect(body.messages.at(-1)).toEqual({ role: 'user', content: '北京今天天气怎么样？' });
  });

  it('throws when the model cannot give one, so the caller falls back', async () => {
    server.enqueue({ status: 500 }, { status: 500 });
    const error = await failure(llmFor().title!('hello'));
    expect(error.code).toBe('server');
    server.enqueue(textCompletion('   '));
    expect((await failure(llmFor().title!('hello'))).code).toBe('bad_request');
  });

  it('cleans labels, quotes and thinking blocks', () => {
    expect(cleanTitle('<think>The user wants…</think>\n\nTitle: “Weather in Beijing”.')).toBe('Weather in Beijing');
    expect(cleanTitle('**标题：** 《周末计划》')).toBe('周末计划');
    expect(cleanTitle('# Trip planning')).toBe('Trip planning');
  });
});

describe('test server', () => {
  it('serves the non-stream fixtures as JSON bodies, byte-equal in content', async () => {
    for (const name of ['deepseek-tool-call.json', 'qwen3-max-tool-call.json', 'grok-3-mini-tool-call.json']) {
      server.enqueue(fixture(name));
      const response = await fetch(`${server.url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'x', messages: [], stream: false }),
      });
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(await response.json()).toEqual(JSON.parse(readFileSync(path.join(LLM_FIXTURES_DIR, name), 'utf8')));
    }
    expect(server.requests.map((r) => r.body.stream)).toEqual([false, false, false]);
  });

  it('streams .chunks.txt fixtures with data: prefixes and a final [DONE]', async () => {
    server.enqueue(fixture('groq-llama-3.3-tool-call.chunks.txt'));
    const response = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: '{}' });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const body = await response.text();
    const lines = readFileSync(path.join(LLM_FIXTURES_DIR, 'groq-llama-3.3-tool-call.chunks.txt'), 'utf8')
      .trim()
      .split('\n');
    expect(body).toBe(lines.map((line) => `data: ${line}\n\n`).join('') + 'data: [DONE]\n\n');
  });

  it('answers 500 with a clear message when the script runs out, and 404 off the route', async () => {
    const response = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(500);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain('script ran out');
    const other = await fetch(`${server.url}/nowhere`);
    expect(other.status).toBe(404);
  });
});
