import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { startOpenAiServer, textReply, type OpenAiServer } from './support/openai-server.js';
import { useTempHomes } from './support/temp-home.js';

const KEY = 'sk-test-commands-Zq81xYw3abcd';
let server: OpenAiServer;
beforeAll(async () => {
  server = await startOpenAiServer();
});
afterAll(async () => {
  await server.close();
});

const home = useTempHomes();

const streamed = () => server.requests.filter((r) => r.body?.stream === true);

/** A port nothing listens on: connecting to it is refused at once. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('zhixing sessions', () => {
  it('lists sessions most recent first, numbered as --session N and /sessions take them, also as JSON', async () => {
    const env = { ZHIXING_HOME: home().home, ZHIXING_LANG: 'en' };
    expect(await runCli(['sessions'], env)).toEqual({ code: 0, stdout: 'No sessions yet.\n', stderr: '' });
    expect(JSON.parse((await runCli(['sessions', '--json'], env)).stdout)).toEqual({ sessions: [] });
    await runCli(['--new', 'what is 1+1'], env);
    await runCli(['--new', 'what is 2+2'], env);

    const list = await runCli(['sessions'], env);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(
      /^ {2}1\. what is 2\+2 1 msg · .+ · ses_\w+\n {2}2\. what is 1\+1 1 msg · .+ · ses_\w+\n$/,
    );
    const json = JSON.parse((await runCli(['sessions', '--json'], env)).stdout) as {
      sessions: Array<{
        number: number;
        id: string;
        title: string;
        messageCount: number;
        createdAt: number;
        updatedAt: number;
      }>;
    };
    expect(json.sessions.map((s) => [s.number, s.title, s.messageCount])).toEqual([
      [1, 'what is 2+2', 1],
      [2, 'what is 1+1', 1],
    ]);
    expect(json.sessions[0]!.updatedAt).toBeGreaterThanOrEqual(json.sessions[1]!.updatedAt);
    // The REPL's /sessions shows the same list, with its current session marked.
    const repl = await runCli(['chat'], env, { input: '/sessions\n' });
    expect(repl.stdout).toBe(list.stdout.replace(/^ /, '*'));

    // --session 2 is the second line: the older session, by number as by id.
    const r = await runCli(['--json', '--session', '2', 'what is 3+3'], env);
    expect(JSON.parse(r.stdout)).toMatchObject({ session: json.sessions[1]!.id, reply: '3+3 = 6' });
    const missing = await runCli(['--session', '7', 'hi'], env);
    expect(missing).toMatchObject({ code: 2, stdout: '' });
    expect(missing.stderr).toBe('zhixing: There is no session number 7 (there are 2). See zhixing sessions.\n');
  });

  it('does not create a home just to say there is nothing in it', async () => {
    const h = home();
    const fresh = join(h.home, 'not-yet');
    expect(await runCli(['sessions'], { ZHIXING_HOME: fresh, ZHIXING_LANG: 'zh' }, { cwd: h.home })).toEqual({
      code: 0,
      stdout: '还没有会话。\n',
      stderr: '',
    });
    expect((await runCli(['sessions'], { ZHIXING_HOME: fresh }, { cwd: h.home })).code).toBe(0);
  });
});

describe('zhixing config', () => {
  it('shows every setting in effect, where it came from, and the key masked', async () => {
    const h = home();
    writeFileSync(
      join(h.home, 'config.json'),
      JSON.stringify({ baseUrl: server.url, apiKey: KEY, maxSteps: 5, modle: 'x' }),
      { mode: 0o600 },
    );
    const env = { ZHIXING_HOME: h.home, ZHIXING_LANG: 'en', ZHIXING_TURN_TIMEOUT_MS: '90000' };
    const r = await runCli(['config'], env);
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(KEY);
    const file = join(h.home, 'config.json');
    expect(r.stderr).toBe(`zhixing: ${file}: unknown setting "modle", ignored. Did you mean "model"?\n`);
    const line = (name: string) =>
      r.stdout
        .split('\n')
        .find((l) => l.startsWith(`${name} `))
        ?.replace(/\s+/g, ' ');
    expect(line('mode')).toBe('mode llm — using the model service');
    expect(line('ZHIXING_BASE_URL')).toBe(`ZHIXING_BASE_URL ${server.url} ${file} ("baseUrl")`);
    expect(line('ZHIXING_API_KEY')).toBe(`ZHIXING_API_KEY sk-…abcd ${file} ("apiKey")`);
    expect(line('ZHIXING_MODEL')).toBe('ZHIXING_MODEL gpt-4.1-mini default');
    expect(line('ZHIXING_MAX_STEPS')).toBe(`ZHIXING_MAX_STEPS 5 ${file} ("maxSteps")`);
    expect(line('ZHIXING_TURN_TIMEOUT_MS')).toBe('ZHIXING_TURN_TIMEOUT_MS 90000 environment');
    expect(line('ZHIXING_LANG')).toBe('ZHIXING_LANG en environment');
    expect(line('ZHIXING_TOKEN')).toBe('ZHIXING_TOKEN (none) default');

    const json = await runCli(['config', '--json', '--model', 'other-model'], {
      ...env,
      ZHIXING_TOKEN: 'a-long-secret-token-0123456789',
    });
    const out = JSON.parse(json.stdout);
    expect(json.stdout).not.toContain(KEY);
    expect(json.stdout).not.toContain('a-long-secret');
    expect(out).toMatchObject({
      mode: 'llm',
      settings: {
        ZHIXING_API_KEY: { value: 'sk-…abcd', from: 'config-file', key: 'apiKey', path: file },
        ZHIXING_MODEL: { value: 'other-model', from: 'option', option: '--model' },
        ZHIXING_MAX_RETRIES: { value: 3, from: 'default' },
        ZHIXING_TOKEN: { value: '(set)', from: 'environment', name: 'ZHIXING_TOKEN' },
      },
      warnings: [`${file}: unknown setting "modle", ignored. Did you mean "model"?`],
    });
  });

  it('shows the permission rules one a line, as the records name them, and skips a bad one with a warning', async () => {
    const h = home();
    const permissions = {
      shell: { 'git status*': 'allow', 'curl *': 'deny' },
      file_write: 'ask',
      web_fetch: 'sometimes',
    };
    writeFileSync(join(h.home, 'config.json'), JSON.stringify({ permissions }), { mode: 0o600 });
    const r = await runCli(['config'], { ZHIXING_HOME: h.home, ZHIXING_LANG: 'en' });
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    const first = lines.findIndex((l) => l.startsWith('permissions '));
    expect(lines.slice(first, first + 4).map((l) => l.replace(/\s+/g, ' ').trim())).toEqual([
      'permissions shell › git status* allow',
      'shell › curl * deny',
      'file_write ask',
      'shell network off',
    ]);
    expect(r.stderr).toContain('Ignored "permissions.web_fetch"');
    const json = JSON.parse((await runCli(['config', '--json'], { ZHIXING_HOME: h.home, ZHIXING_LANG: 'en' })).stdout);
    expect(json.permissions).toEqual({ shell: { 'git status*': 'allow', 'curl *': 'deny' }, file_write: 'ask' });
  });

  it('says in its own words why it runs offline', async () => {
    const env = { ZHIXING_HOME: home().home, ZHIXING_LANG: 'zh' };
    const r = await runCli(['config'], env);
    expect(r.stdout.split('\n')[0]).toMatch(/^mode +offline —— 规则规划器（没有配置模型服务）$/);
    const forced = await runCli(['config', '--offline'], { ...env, ZHIXING_LANG: 'en', ZHIXING_API_KEY: KEY });
    expect(forced.stdout.split('\n')[0]).toMatch(
      /^mode +offline — the rule-based planner \(offline forced\) +command line --offline$/,
    );
    expect(forced.stdout).toMatch(/\nZHIXING_API_KEY +sk-…abcd +environment\n/);
  });
});

describe('--model', () => {
  it('asks this run with that model, and saves nothing', async () => {
    const h = home();
    const env = {
      ZHIXING_HOME: h.home,
      ZHIXING_BASE_URL: server.url,
      ZHIXING_API_KEY: KEY,
      ZHIXING_MODEL: 'configured-model',
      ZHIXING_LANG: 'en',
    };
    server.enqueue(textReply('From the other model.'), textReply('From the configured one.'));
    const once = await runCli(['--model', 'other-model', '--new', 'hello'], env);
    expect(once).toMatchObject({ code: 0, stdout: 'From the other model.\n' });
    expect(streamed().at(-1)!.body.model).toBe('other-model');
    const next = await runCli(['hello again'], env);
    expect(next).toMatchObject({ code: 0, stdout: 'From the configured one.\n' });
    expect(streamed().at(-1)!.body.model).toBe('configured-model');
  });

  it('is refused when there is no model service to ask', async () => {
    const r = await runCli(['--model', 'gpt-4o', 'hello'], { ZHIXING_HOME: home().home, ZHIXING_LANG: 'en' });
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toMatch(
      /^zhixing: --model chooses a model of the model service, and none is configured: Zhixing is running offline\./,
    );
  });
});

describe('a model service that cannot be reached', () => {
  it('says how to run offline, in the language of the message', async () => {
    const port = await closedPort();
    const env = {
      ZHIXING_HOME: home().home,
      ZHIXING_BASE_URL: `http://127.0.0.1:${port}/v1`,
      ZHIXING_MAX_RETRIES: '0',
    };
    const en = await runCli(['hello'], env);
    expect(en.code).toBe(1);
    expect(en.stdout).toBe(
      `Something went wrong and I could not finish: Could not reach the model service at http://127.0.0.1:${port}/v1 (ECONNREFUSED). Check ZHIXING_BASE_URL and the network.\n`,
    );
    expect(en.stderr).toBe('To use Zhixing without a model service, run it with --offline or set ZHIXING_OFFLINE=1.\n');
    const zh = await runCli(['--json', '你好'], env);
    expect(zh.code).toBe(1);
    expect(JSON.parse(zh.stdout)).toMatchObject({ error: { code: 'network' } });
    expect(zh.stderr).toBe('不连模型也能用知行：加上 --offline，或设置 ZHIXING_OFFLINE=1。\n');
    // As it says: the same call, offline.
    expect(await runCli(['--offline', 'what is 2+3'], env)).toMatchObject({ code: 0, stdout: '2+3 = 5\n' });
  });

  it('says nothing of the kind when the service answered with an error', async () => {
    const env = { ZHIXING_HOME: home().home, ZHIXING_BASE_URL: server.url, ZHIXING_API_KEY: KEY, ZHIXING_LANG: 'en' };
    server.enqueue(textReply('First.'));
    await runCli(['--new', 'first'], env);
    server.enqueue({ status: 401 });
    const r = await runCli(['hello'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
  });
});
