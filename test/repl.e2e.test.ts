import { describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { startOpenAiServer, textReply, type OpenAiServer } from './support/openai-server.js';
import { tempHome } from './support/temp-home.js';

describe('the REPL (lines piped to ./bin/zhixing chat)', () => {
  it('chats with a trace line per action and runs every slash command', async () => {
    const home = tempHome();
    const input = [
      '帮我算一下 (3+5)*2',
      '/new Groceries',
      '记一下 买菜',
      '/sessions',
      '/switch 2',
      '/history',
      '/rename 计算',
      '/model',
      '/delete 1',
      'y',
      '/delete 1',
      '/sessions',
      '/nope',
      '/help',
      '/exit',
      'never read',
    ].join('\n');
    // The messages are Chinese and the checks read English: the language is fixed, not followed.
    const r = await runCli(['chat'], { ZHIXING_HOME: home.home, ZHIXING_LANG: 'en' }, { input });
    home.cleanup();
    expect(r.code).toBe(0);
    // What went wrong goes to stderr; everything else is the REPL's answer, on stdout.
    expect(r.stderr).toBe('Session 1 no longer exists. See /sessions.\nUnknown command /nope. Type /help.\n');
    const out = r.stdout;
    expect(out).toMatch(/^🔧 calculator \{"expression":"\(3\+5\)\*2"\} ✓ 16 \(\d+(\.\d)? ms\)\n\(3\+5\)\*2 = 16\n/);
    expect(out).toContain('New session: Groceries.');
    expect(out).toMatch(/\* 1\. Groceries 1 msg .*\n {2}2\. 帮我算一下 \(3\+5\)\*2 1 msg/);
    expect(out).toContain('Switched to 帮我算一下 (3+5)*2.');
    expect(out).toContain('› 帮我算一下 (3+5)*2');
    expect(out).toContain('Renamed to 计算.');
    expect(out).toContain('Offline: the rule-based planner');
    // "1" is the Groceries the user saw in /sessions, though the list order has changed since.
    expect(out).toContain('Delete "Groceries" and its 1 message (and its memories)? [y/N] \nDeleted Groceries.\n');
    expect(out).toMatch(/\* 1\. 计算 1 msg/);
    expect(out).toContain('/history [N]');
    expect(out).not.toContain('never read');
  });

  it('continues the most recent session, across runs', async () => {
    const home = tempHome();
    await runCli(['北京天气怎么样'], {
      ZHIXING_HOME: home.home,
      ZHIXING_GEOCODING_URL: 'http://127.0.0.1:9/x',
      ZHIXING_WEATHER_URL: 'http://127.0.0.1:9/y',
    });
    const r = await runCli(
      ['chat'],
      {
        ZHIXING_HOME: home.home,
        ZHIXING_GEOCODING_URL: 'http://127.0.0.1:9/x',
        ZHIXING_WEATHER_URL: 'http://127.0.0.1:9/y',
      },
      { input: '/history 1\n那上海呢\n' },
    );
    home.cleanup();
    expect(r.stdout).toContain('🔧 weather {"city":"北京"}');
    expect(r.stdout).toContain('🔧 weather {"city":"上海"} ✗');
    expect(r.stdout).toContain('天气服务暂时连不上');
  });
});

describe('piped lines', () => {
  it('take """ on a line of its own to open a block of lines sent as one message', async () => {
    const { env, server, cleanup } = await modelHome('Block received.', 'Rest received.');
    const input = ['"""', 'line a', '  line b', '', '/not a command', '"""', '"""', 'never closed'].join('\n');
    const r = await runCli(['chat'], env, { input });
    await cleanup();
    expect(r.code).toBe(0);
    expect(userMessages(server)).toEqual(['line a\n  line b\n\n/not a command', 'never closed']);
    expect(r.stderr).toBe('Input ended inside a """ block: what it holds is sent as it is.\n');
    expect(r.stdout).toBe('Block received.\nRest received.\n');
  });

  it("answer /delete's question: anything but y keeps the session, and so does the end of input", async () => {
    const home = tempHome();
    const env = { ZHIXING_HOME: home.home, ZHIXING_LANG: 'zh' };
    await runCli(['--new', '帮我算一下 1+1'], env);
    const r = await runCli(['chat'], env, { input: '/delete 1\nno\n/sessions\n/delete 1\n' });
    home.cleanup();
    expect(r.stdout).toEqual(
      expect.stringMatching(
        /^删除会话「帮我算一下 1\+1」和它的 1 条消息（连同它的记忆）吗？\[y\/N\] \n没有删除。\n\* 1\. 帮我算一下 1\+1 .*\n删除会话「帮我算一下 1\+1」和它的 1 条消息（连同它的记忆）吗？\[y\/N\] \n没有删除。\n$/,
      ),
    );
    expect(r.stderr).toBe('');
  });
});

describe('/model', () => {
  it("lists the provider's models with the current one marked, and switches for this REPL only", async () => {
    const { env, server, cleanup } = await modelHome('From alpha.');
    server.setModels(['test-model', 'alpha', 'beta']);
    const r = await runCli(['chat'], env, { input: '/model\n/model alpha\nhello\n/model\n' });
    const config = await runCli(['config', '--json'], env);
    await cleanup();
    expect(r.stderr).toBe('');
    // A key this short is masked whole.
    const header = `custom · test-model · ${server.url} · key …`;
    expect(r.stdout.split('\n').slice(0, 6)).toEqual([
      header,
      '  alpha',
      '  beta',
      '* test-model',
      'Now using alpha in this REPL (the configuration is unchanged).',
      'From alpha.',
    ]);
    expect(r.stdout).toContain('* alpha\n  beta\n  test-model\n');
    const chat = server.requests.filter((q) => q.path === '/v1/chat/completions' && q.body?.stream);
    expect(chat.map((q) => q.body.model)).toEqual(['alpha']);
    // Nothing was saved: the next run starts with the configured model.
    expect(config.stdout).toContain('test-model');
    expect(config.stdout).not.toContain('alpha');
  });

  it('says offline that there is no model, and how to use one', async () => {
    const home = tempHome();
    const r = await runCli(
      ['chat'],
      { ZHIXING_HOME: home.home, ZHIXING_LANG: 'en' },
      { input: '/model\n/model gpt-4o\n' },
    );
    home.cleanup();
    expect(r.stdout).toBe(
      'Offline: the rule-based planner (set ZHIXING_BASE_URL / ZHIXING_API_KEY or ZHIXING_PROVIDER to use a model).\n',
    );
    expect(r.stderr).toBe(
      'Offline mode (the rule-based planner) has no model to switch. Set ZHIXING_BASE_URL / ZHIXING_API_KEY or ZHIXING_PROVIDER and start again to use one.\n',
    );
  });
});

describe('zhixing chat --session', () => {
  it('takes what /sessions shows: the number, the id, or the start of the id', async () => {
    const home = tempHome();
    const env = { ZHIXING_HOME: home.home, ZHIXING_LANG: 'en' };
    await runCli(['--new', 'what is 1+1'], env);
    await runCli(['--new', 'what is 2+2'], env);
    const list = JSON.parse((await runCli(['sessions', '--json'], env)).stdout).sessions as Array<{
      id: string;
      title: string;
    }>;
    const older = list[1]!;
    const marked = async (ref: string) => {
      const r = await runCli(['chat', '--session', ref], env, { input: '/sessions\n' });
      expect(r.stderr).toBe('');
      return r.stdout.split('\n').find((l) => l.startsWith('*'));
    };
    expect(await marked('2')).toMatch(/^\* 2\. what is 1\+1 /);
    expect(await marked(older.id)).toMatch(/^\* 2\. what is 1\+1 /);
    // The id's start, as long as only one id starts so (ids made apart in time differ early on).
    const prefix = older.id.slice(0, older.id.length - 4);
    expect(await marked(prefix)).toMatch(/^\* 2\. what is 1\+1 /);

    const missing = await runCli(['chat', '--session', '3'], env, { input: '' });
    expect(missing).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'zhixing: There is no session number 3 (there are 2). See zhixing sessions.\n',
    });
    const common = list[0]!.id.slice(0, 6);
    const ambiguous = await runCli(['chat', '--session', common], env, { input: '' });
    expect(ambiguous).toMatchObject({
      code: 2,
      stderr: `zhixing: 2 sessions have an id starting "${common}": give more of it. See zhixing sessions.\n`,
    });
    home.cleanup();
  });
});

/** A home whose model is a local OpenAI-format server answering `replies` in turn. */
async function modelHome(...replies: string[]) {
  const home = tempHome();
  const server = await startOpenAiServer();
  server.enqueue(...replies.map((r) => textReply(r)));
  const env = {
    ZHIXING_HOME: home.home,
    ZHIXING_LANG: 'en',
    ZHIXING_BASE_URL: server.url,
    ZHIXING_API_KEY: 'k-test',
    ZHIXING_MODEL: 'test-model',
  };
  return { env, server, cleanup: async () => (await server.close(), home.cleanup()) };
}

const userMessages = (server: OpenAiServer) =>
  server.requests
    .filter((q) => q.path === '/v1/chat/completions' && q.body?.stream)
    .map((q) => q.body.messages.filter((m: { role: string }) => m.role === 'user').at(-1).content as string);
