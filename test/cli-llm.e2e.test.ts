import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_TITLE,
  startOpenAiServer,
  textReply,
  toolCallsReply,
  type OpenAiServer,
} from './support/openai-server.js';
import { runCli } from './support/cli.js';
import { tempHome } from './support/temp-home.js';

const KEY = 'sk-test-abcdefghijklmnop1234';
let server: OpenAiServer;
let home: ReturnType<typeof tempHome>;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startOpenAiServer();
  home = tempHome();
  env = {
    ZHIXING_HOME: home.home,
    ZHIXING_BASE_URL: server.url,
    ZHIXING_API_KEY: KEY,
    ZHIXING_MODEL: 'test-model',
    ZHIXING_LANG: 'en',
  };
});
afterAll(async () => {
  await server.close();
  home.cleanup();
});

const streamed = () => server.requests.filter((r) => r.body?.stream === true);

describe('./bin/zhixing against a local OpenAI-compatible server', () => {
  it('runs both calls of a two-call reply, sends both results back with matching ids, and answers', async () => {
    server.enqueue(
      toolCallsReply(
        [
          { id: 'call_calc', name: 'calculator', args: { expression: '(3+5)*2' } },
          { id: 'call_todo', name: 'todo_add', args: { content: 'buy milk' } },
        ],
        { splitArgs: true },
      ),
      textReply('(3+5)*2 is 16, and milk is on your list.'),
    );
    const r = await runCli(['--json', 'work out (3+5)*2 and remember to buy milk'], env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const out = JSON.parse(lines[0]!);
    expect(Object.keys(out)).toEqual(['session', 'mode', 'reply', 'actions']);
    expect(out).toMatchObject({
      mode: 'llm',
      reply: '(3+5)*2 is 16, and milk is on your list.',
      actions: [
        { tool: 'calculator', input: { expression: '(3+5)*2' }, ok: true, output: '16' },
        { tool: 'todo_add', input: { content: 'buy milk' }, ok: true, output: 'Added todo #1: buy milk' },
      ],
    });
    expect(out.session).toMatch(/^ses_/);
    for (const a of out.actions) expect(typeof a.ms).toBe('number');

    const [first, second] = streamed();
    expect(first!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(first!.body.tools.map((t: { function: { name: string } }) => t.function.name)).toContain('calculator');
    const tools = second!.body.messages.filter((m: { role: string }) => m.role === 'tool');
    expect(tools).toEqual([
      { role: 'tool', tool_call_id: 'call_calc', content: '16' },
      { role: 'tool', tool_call_id: 'call_todo', content: 'Added todo #1: buy milk' },
    ]);
  });

  it('continues the same session on the next call, with the history sent to the model', async () => {
    server.enqueue(textReply('You asked about (3+5)*2 and milk.'));
    const before = streamed().length;
    const r = await runCli(['--json', 'what did I just ask?'], env);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    const req = streamed()[before]!;
    const roles = req.body.messages.map((m: { role: string }) => m.role);
    expect(roles).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'assistant', 'user']);
    expect(req.body.messages.at(-1).content).toBe('what did I just ask?');
    expect(out.actions).toEqual([]);
    // --session picks a session explicitly, whatever was used last.
    server.enqueue(textReply('Welcome back.'));
    await runCli(['--new', 'something else'], { ...env, ZHIXING_OFFLINE: '1' });
    const again = await runCli(['--json', '--session', out.session, 'thanks'], env);
    expect(JSON.parse(again.stdout)).toMatchObject({ session: out.session, reply: 'Welcome back.' });
  });

  it('prints a trace line per action with --show-actions and streams the reply', async () => {
    server.enqueue(
      toolCallsReply([{ id: 'c1', name: 'calculator', args: { expression: '2^10' } }]),
      textReply('It is 1024.'),
    );
    const r = await runCli(['--new', '--show-actions', 'what is 2^10'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^🔧 calculator \{"expression":"2\^10"\} ✓ 1024 \(\d+(\.\d)? ms\)\nIt is 1024\.\n$/);
  });

  it('exits 1 with a plain sentence when the provider rejects the key, and the key appears nowhere', async () => {
    const rejected = {
      status: 401,
      body: {
        error: {
          message: `Incorrect API key provided: ${KEY}`,
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      },
    };
    server.enqueue(rejected, rejected);
    // The most recent session already has a title, so the only request is the turn's.
    const r = await runCli(['hello'], env);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/API key/);
    expect(r.stdout + r.stderr).not.toContain(KEY);
    const json = await runCli(['--json', 'hello again'], { ...env });
    expect(json.stdout + json.stderr).not.toContain(KEY);
    // Nothing written under ZHIXING_HOME holds the key: not the database, not its journal.
    for (const f of readdirSync(home.home)) {
      if (f.startsWith('zhixing.db')) expect(readFileSync(join(home.home, f)).includes(KEY)).toBe(false);
    }
  });

  it('says on stderr that it is retrying when the provider is rate-limited, then answers', async () => {
    server.enqueue({ status: 429, headers: { 'retry-after': '1' } }, textReply('Here I am.'));
    const r = await runCli(['still there?'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Here I am.\n');
    expect(r.stderr).toBe('The model service is unavailable for now (429); retrying in 1 s (1/3)…\n');
  });

  it('titles a new session with the model', async () => {
    server.enqueue(textReply('Hi!'));
    const r = await runCli(['--json', '--new', 'hello there'], env);
    const id = JSON.parse(r.stdout).session;
    const { createStore } = await import('../src/store/store.js');
    const store = createStore(join(home.home, 'zhixing.db'));
    expect(store.sessions.get(id)!.title).toBe(DEFAULT_TITLE);
    store.close();
  });
});

describe('a server that echoes the key back encoded', () => {
  it('lets no form of the key reach stdout, stderr or the database', async () => {
    const key = 'sk-te/st+key=abc_123';
    const uri = encodeURIComponent(key);
    const base64 = Buffer.from(key).toString('base64');
    const forms = [
      key,
      uri,
      uri.toLowerCase(),
      base64,
      Buffer.from(key).toString('base64url'),
      key.replaceAll('/', '\\/'),
    ];
    const t = tempHome();
    const keyEnv = { ...env, ZHIXING_HOME: t.home, ZHIXING_API_KEY: key };
    try {
      // textReply streams four characters a chunk: the encoded key arrives in pieces.
      server.enqueue(
        toolCallsReply([{ id: 'call_k', name: 'todo_add', args: { content: `rotate ${base64}` } }], { text: 'Noted.' }),
        textReply(`Your key ${uri} is saved as a todo.`),
      );
      const r = await runCli(['--json', '--new', 'remember my key'], keyEnv);
      expect(r.code).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out.reply).toBe('Your key [key] is saved as a todo.');
      expect(out.actions).toMatchObject([{ tool: 'todo_add', input: { content: 'rotate [key]' }, ok: true }]);
      server.enqueue(textReply(`Again: ${uri}`));
      const plain = await runCli(['and again?'], keyEnv);
      expect(plain.stdout).toBe('Again: [key]\n');
      server.enqueue(
        { status: 403, body: { error: { message: `Key ${uri} may not use this model` } } },
        { sse: `data: {"error":{"message":"bad key ${base64}"}}\n\n` },
      );
      const refused = await runCli(['--json', 'once more'], keyEnv);
      expect(refused.code).toBe(1);
      expect(JSON.parse(refused.stdout).error.message).toContain('Key [key] may not use this model');
      const streamedError = await runCli(['and once more'], keyEnv);
      expect(streamedError.code).toBe(1);
      expect(streamedError.stdout).toContain('bad key [key]');

      const printed = [r, plain, refused, streamedError].map((x) => x.stdout + x.stderr).join('\n');
      const files = readdirSync(t.home).filter((f) => f.startsWith('zhixing.db'));
      expect(files).toContain('zhixing.db');
      const stored = files.map((f) => readFileSync(join(t.home, f)).toString('latin1')).join('\n');
      expect(stored).toContain('[key]');
      for (const form of forms) {
        expect(printed).not.toContain(form);
        expect(stored).not.toContain(form);
      }
    } finally {
      t.cleanup();
    }
  });
});

describe('a model service that takes the request and does not answer', () => {
  it('gives up after ZHIXING_HEADERS_TIMEOUT_MS with one clear line, and the --json object', async () => {
    const t = tempHome();
    const silentEnv = { ...env, ZHIXING_HOME: t.home, ZHIXING_HEADERS_TIMEOUT_MS: '1500' };
    const sentence = `The model service at ${server.url} accepted the request but sent no answer within 1.5 s. Check that it is running and not overloaded, or try again.`;
    try {
      for (const json of [false, true]) {
        // Two each: the new session's title request takes one.
        server.enqueue({ hang: true }, { hang: true });
        const before = streamed().length;
        const started = Date.now();
        const r = await runCli([...(json ? ['--json'] : []), '--new', 'hello?'], silentEnv);
        expect(Date.now() - started).toBeLessThan(6_000);
        expect(r.code).toBe(1);
        expect(streamed().length - before).toBe(1);
        expect(server.pending()).toBe(0);
        expect(r.stderr).toBe('');
        if (!json) {
          expect(r.stdout).toBe(`Something went wrong and I could not finish: ${sentence}\n`);
          continue;
        }
        const lines = r.stdout.trim().split('\n');
        expect(lines).toHaveLength(1);
        expect(JSON.parse(lines[0]!)).toMatchObject({
          mode: 'llm',
          actions: [],
          error: { code: 'timeout', message: sentence },
        });
      }
    } finally {
      t.cleanup();
    }
  });

  it('says on stderr that it is still waiting, then answers', async () => {
    server.enqueue({ ...textReply('Sorry for the wait.'), headersAfterMs: 5_600 });
    const r = await runCli(['still there?'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Sorry for the wait.\n');
    expect(r.stderr).toBe('Waiting for the model service (5 s)…\n');
    const { cliText } = await import('../src/cli/messages.js');
    expect(cliText('zh').waiting(20_000)).toBe('正在等待模型服务响应（20 秒）…');
  });
});

describe('bounded waits', () => {
  const stoppedReply =
    'I stopped: The turn ran past its time limit of 1.5 s and was stopped (ZHIXING_TURN_TIMEOUT_MS sets it).\nNo action was taken in this turn.';

  it('ends a turn at ZHIXING_TURN_TIMEOUT_MS when the service accepts the request and never answers', async () => {
    const t = tempHome();
    try {
      const deadlineEnv = { ...env, ZHIXING_HOME: t.home, ZHIXING_TURN_TIMEOUT_MS: '1500' };
      // The session exists and has a title: the turn's request is the only one.
      server.enqueue(textReply('First.'));
      expect((await runCli(['--new', 'first'], deadlineEnv)).code).toBe(0);
      for (const json of [false, true]) {
        server.enqueue({ hang: true });
        const before = streamed().length;
        const started = Date.now();
        const r = await runCli([...(json ? ['--json'] : []), 'hello?'], deadlineEnv, { timeoutMs: 20_000 });
        const took = Date.now() - started;
        expect(took).toBeGreaterThanOrEqual(1_500);
        expect(took).toBeLessThan(6_000);
        expect(r.code).toBe(1);
        // Given up, not retried.
        expect(streamed().length - before).toBe(1);
        expect(r.stderr).toBe('');
        if (json) {
          expect(JSON.parse(r.stdout)).toMatchObject({
            mode: 'llm',
            reply: stoppedReply,
            actions: [],
            error: {
              code: 'turn_timeout',
              message: 'The turn ran past its time limit of 1.5 s and was stopped (ZHIXING_TURN_TIMEOUT_MS sets it).',
            },
          });
        } else expect(r.stdout).toBe(`${stoppedReply}\n`);
      }
    } finally {
      t.cleanup();
    }
  });

  it('ends a turn whose answer started but only ever sends keep-alive pings, which no silence timer catches', async () => {
    const t = tempHome();
    try {
      const deadlineEnv = {
        ...env,
        ZHIXING_HOME: t.home,
        ZHIXING_TURN_TIMEOUT_MS: '1500',
        ZHIXING_REQUEST_TIMEOUT_MS: '1000',
      };
      server.enqueue(textReply('First.'));
      await runCli(['--new', 'first'], deadlineEnv);
      // A ping every 200 ms for a minute: each one is a sign of life to the 1 s silence timer.
      server.enqueue({ writes: Array.from({ length: 300 }, () => ': keep-alive\n\n'), delayMs: 200 });
      const started = Date.now();
      const r = await runCli(['still there?'], deadlineEnv, { timeoutMs: 20_000 });
      expect(Date.now() - started).toBeLessThan(6_000);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe(`${stoppedReply}\n`);
    } finally {
      t.cleanup();
    }
  });

  it('retries as often as ZHIXING_MAX_RETRIES says, and not at all with 0', async () => {
    const t = tempHome();
    try {
      const retryEnv = { ...env, ZHIXING_HOME: t.home };
      server.enqueue(textReply('First.'));
      await runCli(['--new', 'first'], retryEnv);
      const failed = { status: 503 };
      server.enqueue(failed);
      let before = streamed().length;
      const none = await runCli(['hello'], { ...retryEnv, ZHIXING_MAX_RETRIES: '0' });
      expect(none.code).toBe(1);
      expect(streamed().length - before).toBe(1);
      expect(none.stderr).toBe('');
      expect(none.stdout).toBe(
        'Something went wrong and I could not finish: The model service failed (503: Scripted error 503). Try again later.\n',
      );
      server.enqueue(failed, failed);
      before = streamed().length;
      const one = await runCli(['hello'], { ...retryEnv, ZHIXING_MAX_RETRIES: '1' });
      expect(one.code).toBe(1);
      expect(streamed().length - before).toBe(2);
      expect(one.stderr).toMatch(/^The model service is unavailable for now \(503\); retrying \(1\/1\)…\n$/);
      expect(one.stdout).toContain('after 1 retry');
      expect(server.pending()).toBe(0);
    } finally {
      t.cleanup();
    }
  });
});

describe('a provider slow to give a title', () => {
  it('does not keep the one-shot waiting past a short grace', async () => {
    const { createServer } = await import('node:http');
    // Streams answers at once; never answers the (non-streamed) title request.
    const slow = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        if (!JSON.parse(body).stream) return;
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const chunk = (delta: object, finish: string | null = null) =>
          `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
        res.end(chunk({ role: 'assistant', content: 'Hello.' }) + chunk({}, 'stop') + 'data: [DONE]\n\n');
      });
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    const t = tempHome();
    try {
      const started = Date.now();
      const r = await runCli(['--new', 'hi there'], {
        ZHIXING_HOME: t.home,
        ZHIXING_BASE_URL: `http://127.0.0.1:${(slow.address() as { port: number }).port}/v1`,
      });
      expect(r.stdout).toBe('Hello.\n');
      expect(r.code).toBe(0);
      expect(Date.now() - started).toBeLessThan(6_000);
    } finally {
      slow.closeAllConnections();
      slow.close();
      t.cleanup();
    }
  });
});

describe('CLI usage', () => {
  it('answers --help and --version, and exits 2 on bad usage', async () => {
    const help = await runCli(['--help'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('zhixing "<message>"');
    const zh = await runCli(['--help'], { ...env, ZHIXING_LANG: '', LANG: 'zh_CN.UTF-8' });
    expect(zh.stdout).toContain('zhixing "<消息>"');
    const version = await runCli(['--version'], env);
    expect(version.stdout).toMatch(/^zhixing \d+\.\d+\.\d+\n$/);
    const bad = await runCli(['--frobnicate', 'x'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Unknown option --frobnicate.');
    const noSession = await runCli(['--session', 'ses_nope', 'hi'], env);
    expect(noSession.code).toBe(2);
    expect(noSession.stderr).toContain('There is no session "ses_nope"');
    expect((await runCli(['--json'], env)).code).toBe(2);
  });

  it('explains a database it cannot open in one line, without a stack trace', async () => {
    const t = tempHome();
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(join(t.home, 'zhixing.db'));
    db.pragma('user_version = 99');
    db.close();
    const r = await runCli(['hello'], { ZHIXING_HOME: t.home });
    t.cleanup();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^zhixing: The database was written by a newer Zhixing \(schema 99, this version knows \d+\)\. Upgrade Zhixing\.\n$/,
    );
  });

  it('takes a message that starts with a minus sign', async () => {
    const t = tempHome();
    const r = await runCli(['-3+5'], { ZHIXING_HOME: t.home });
    t.cleanup();
    expect(r.stdout).toBe('-3+5 = 2\n');
  });
});
