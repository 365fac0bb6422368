import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { startOpenAiServer, textReply, type OpenAiServer } from './support/openai-server.js';
import { useTempHomes } from './support/temp-home.js';

const EN = 'en_US.UTF-8';
const ZH = 'zh_CN.UTF-8';

let server: OpenAiServer;
const newHome = useTempHomes();
beforeAll(async () => {
  server = await startOpenAiServer();
});
afterAll(() => server.close());

const offline = (LANG: string, extra: Record<string, string> = {}) => ({
  ZHIXING_HOME: newHome().home,
  ZHIXING_OFFLINE: '1',
  LANG,
  ...extra,
});

/** A home with one titled session on the stand-in model, so a scripted failure goes to the next turn, not to a title. */
async function modelHome(LANG: string, extra: Record<string, string> = {}) {
  const env = {
    ZHIXING_HOME: newHome().home,
    ZHIXING_BASE_URL: server.url,
    ZHIXING_API_KEY: 'sk-test',
    ZHIXING_MODEL: 'test-model',
    LANG,
    ...extra,
  };
  server.enqueue(textReply('Hi.'));
  expect((await runCli(['--new', 'hi'], env)).code).toBe(0);
  return env;
}

describe('one language per user: the one they write in', () => {
  it('answers a Chinese message in Chinese under an English locale, and an English one in English under a Chinese locale', async () => {
    const zh = await runCli(['--session', '9', '你好'], offline(EN));
    expect(zh.code).toBe(2);
    expect(zh.stderr).toBe('zhixing: 没有第 9 个会话（还没有会话）。用 zhixing sessions 查看。\n');
    const en = await runCli(['--session', '9', 'hello'], offline(ZH));
    expect(en.stderr).toBe('zhixing: There is no session number 9 (there are none yet). See zhixing sessions.\n');
  });

  it('lets ZHIXING_LANG decide over the message', async () => {
    const en = await runCli(['--session', '9', '你好'], offline(ZH, { ZHIXING_LANG: 'en' }));
    expect(en.stderr).toBe('zhixing: There is no session number 9 (there are none yet). See zhixing sessions.\n');
    const zh = await runCli(['--session', 'nope', 'hello'], offline(EN, { ZHIXING_LANG: 'zh' }));
    expect(zh.stderr).toBe('zhixing: 没有会话「nope」。用 zhixing sessions 查看。\n');
  });

  it('keeps the locale for a message with no words in it', async () => {
    const r = await runCli(['--session', '9', '1+1'], offline(ZH));
    expect(r.stderr).toContain('没有第 9 个会话');
  });

  it('says usage and configuration errors in the language of the message', async () => {
    const usage = await runCli(['--bogus', '天气怎么样'], offline(EN));
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe(
      'zhixing: 没有 --bogus 这个选项。要发送以 - 开头的消息，把它放在 -- 之后：zhixing -- "--bogus"。\n运行 zhixing --help 查看用法。\n',
    );
    const config = await runCli(['你好'], offline(EN, { ZHIXING_MAX_STEPS: 'abc' }));
    expect(config.code).toBe(2);
    expect(config.stderr).toBe('zhixing: ZHIXING_MAX_STEPS 必须是 1 到 100 之间的整数（收到的是「abc」）。\n');
    const english = await runCli(['hello'], offline(ZH, { ZHIXING_MAX_STEPS: 'abc' }));
    expect(english.stderr).toBe('zhixing: ZHIXING_MAX_STEPS must be a whole number from 1 to 100 (got "abc").\n');
  });

  it('says a model error and a retry in the language of the message', async () => {
    const env = await modelHome(EN, { ZHIXING_MAX_RETRIES: '1' });
    server.enqueue({ status: 503 }, { status: 401 });
    const zh = await runCli(['你好'], env);
    expect(zh.code).toBe(1);
    expect(zh.stderr).toMatch(/^模型服务暂时不可用（503），(\d+ 秒后)?重试（1\/1）…\n$/);
    expect(zh.stdout).toBe('出错了，没能完成：模型服务拒绝了这个 API 密钥（401）。请检查 ZHIXING_API_KEY。\n');
    const enEnv = await modelHome(ZH, { ZHIXING_MAX_RETRIES: '0' });
    server.enqueue({ status: 401 });
    const en = await runCli(['hello'], enEnv);
    expect(en.stdout).toBe(
      'Something went wrong and I could not finish: The model service rejected the API key (401). Check ZHIXING_API_KEY.\n',
    );
  });

  it('in the REPL, follows the language the user last typed, slash command names aside', async () => {
    const input = [
      '你好',
      '/switch 9',
      'hello there',
      '/switch 9',
      '/new 周报',
      '/switch 9',
      '/sessions',
      '/exit',
    ].join('\n');
    const r = await runCli(['chat'], offline(EN), { input });
    expect(r.code).toBe(0);
    // What /switch 9 said each time, in order: after 你好, after "hello there", after "/new 周报".
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      '没有第 9 个会话（一共 1 个），请用 /sessions 查看。',
      'There is no session number 9 (there is 1). See /sessions.',
      '没有第 9 个会话（一共 2 个），请用 /sessions 查看。',
    ]);
    expect(r.stdout).toContain('已新建会话：周报。');
    // /sessions has nothing to say of the language: it stays Chinese, dates included.
    expect(r.stdout).toMatch(/\* 1\. 周报 0 条消息 · \d{4}年\d{1,2}月\d{1,2}日 \d{2}:\d{2} · ses_/);
  });

  it('writes session times for the language', async () => {
    const env = offline(EN);
    expect((await runCli(['--new', '1+1'], env)).code).toBe(0);
    const zh = await runCli(['sessions'], { ...env, ZHIXING_LANG: 'zh' });
    expect(zh.stdout).toMatch(/ 1\. .* · \d{4}年\d{1,2}月\d{1,2}日 \d{2}:\d{2} · ses_/);
    const en = await runCli(['sessions'], env);
    expect(en.stdout).toMatch(/ 1\. .* · [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M · ses_/);
  });
});
