import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../src/app.js';
import { cliText } from '../src/cli/messages.js';
import { createStyle } from '../src/cli/style.js';
import { runRepl } from '../src/cli/repl.js';
import { loadConfig } from '../src/config/config.js';
import { runCli } from './support/cli.js';
import { startOpenAiServer, textReply, type OpenAiServer } from './support/openai-server.js';
import { tempHome } from './support/temp-home.js';

const KEY = 'sk-test-Zq81xYw3LmP0aB7cRt5u';
let provider: OpenAiServer;
let attacker: OpenAiServer;
const homes: Array<ReturnType<typeof tempHome>> = [];
const folders: string[] = [];

beforeAll(async () => {
  provider = await startOpenAiServer();
  attacker = await startOpenAiServer();
});
afterAll(async () => {
  await Promise.all([provider.close(), attacker.close()]);
  homes.forEach((h) => h.cleanup());
  folders.forEach((f) => rmSync(f, { recursive: true, force: true }));
});

function home() {
  const h = tempHome();
  homes.push(h);
  return h;
}

/** A folder outside the workspace, as a cloned project is, with this ./.env. */
function project(envText: string) {
  const folder = mkdtempSync(join(tmpdir(), 'zhixing-project-'));
  folders.push(folder);
  writeFileSync(join(folder, '.env'), envText);
  return folder;
}

describe('settings that carry terminal escapes', () => {
  /** Anything that could start a terminal control sequence: C0 but tab and newline, DEL, C1. */
  const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;
  const CLIPBOARD = '\x1b]52;c;cHduZWQ=\x07';
  const TITLE = '\x1b]0;OWNED\x07';

  it('never reach the terminal through a config error, and the error says what is wrong', async () => {
    const h = home();
    const cases: Array<[string, RegExp]> = [
      [`ZHIXING_PROVIDER=${CLIPBOARD}${TITLE}\n`, /The provider name contains control characters\. Use one of: openai/],
      [
        `ZHIXING_MAX_STEPS=${CLIPBOARD}\n`,
        /ZHIXING_MAX_STEPS must be a whole number from 1 to 100 \(got a value that contains control characters\)/,
      ],
      ['\x1bc\n', /\.env line 1 \(it contains control characters\) is not a NAME=value setting/],
      [
        'ZHIXING_MODEL=m\n\x1b[H\x1b[J\n',
        /\.env line 2 \(it contains control characters\) is not a NAME=value setting/,
      ],
    ];
    for (const [text, message] of cases) {
      const r = await runCli(['hi'], { ZHIXING_HOME: h.home, ZHIXING_LANG: 'en' }, { cwd: project(text) });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout + r.stderr).not.toMatch(CONTROLS);
    }
  });

  it('never reach the terminal through a config warning', async () => {
    // A home whose path carries escapes, named in the warning about its readable config.json.
    const root = mkdtempSync(join(tmpdir(), 'zhixing-home-'));
    folders.push(root);
    const escaped = join(root, `home${TITLE}`);
    mkdirSync(escaped);
    writeFileSync(join(escaped, 'config.json'), JSON.stringify({ apiKey: KEY }), { mode: 0o644 });
    chmodSync(join(escaped, 'config.json'), 0o644);
    const r = await runCli(['--offline', 'what is 2+3'], { ZHIXING_HOME: escaped, ZHIXING_LANG: 'en' }, { cwd: root });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^zhixing: .*config\.json holds an API key and other users can read it/);
    expect(r.stdout + r.stderr).not.toMatch(CONTROLS);
  });

  it('never reach the terminal through /model or the REPL banner', async () => {
    const h = home();
    const folder = project(`ZHIXING_MODEL=${CLIPBOARD}gpt${TITLE}\n`);
    const env = { ZHIXING_HOME: h.home, ZHIXING_BASE_URL: 'http://127.0.0.1:9/v1', ZHIXING_LANG: 'en' };
    const r = await runCli(['chat'], env, { cwd: folder, input: '/model\n' });
    // The provider cannot be reached to list its models: the configured one is the only choice.
    expect(r.stdout).toMatch(
      /^custom · .*gpt.* · http:\/\/127\.0\.0\.1:9\/v1\n\* .*gpt.*\n\(The provider did not list its models; .*\)\n$/,
    );
    expect(r.stdout + r.stderr).not.toMatch(CONTROLS);

    // The banner shows only on a terminal: the REPL is given one, and what it prints is captured.
    const app = await createApp(loadConfig({ env, cwd: folder }));
    const terminal = Object.assign(new PassThrough(), { isTTY: true });
    let out = '';
    const io = {
      stdout: (s: string) => void (out += s),
      stderr: (s: string) => void (out += s),
      style: createStyle(false),
      text: cliText('en'),
    };
    // The line editor draws its prompt on process.stdout; that is the editor's text, not a setting.
    const prompt = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      terminal.end('/exit\r');
      await runRepl(
        app,
        { json: false, showActions: false, new: true, offline: false, yes: false, mcp: false },
        io,
        terminal,
      );
    } finally {
      prompt.mockRestore();
      app.close();
    }
    expect(out).toMatch(/custom · .*gpt/);
    expect(out).not.toMatch(CONTROLS);
  });
});

describe('a settings file that is no plain file', () => {
  /** Far longer than a run needs: a run that waits on a FIFO or reads a device forever is killed. */
  const HANG_MS = 15_000;
  const fifo = (path: string) => void execFileSync('mkfifo', [path]);
  const endlessDevice = (path: string) => symlinkSync('/dev/zero', path);

  async function check(make: (path: string) => void) {
    // A cloned project can carry such a ./.env: it is ignored, and the run goes on.
    const folder = project('');
    rmSync(join(folder, '.env'));
    make(join(folder, '.env'));
    const env = { ZHIXING_HOME: home().home, ZHIXING_LANG: 'en' };
    const r = await runCli(['--offline', 'what is 2+3'], env, { cwd: folder, timeoutMs: HANG_MS });
    expect(r).toMatchObject({
      code: 0,
      stdout: '2+3 = 5\n',
      stderr: 'zhixing: Ignored ./.env: it is not a regular file.\n',
    });
    // The home's own files are the user's: such a file there is an error that names it.
    for (const name of ['.env', 'config.json']) {
      const h = home();
      make(join(h.home, name));
      const refused = await runCli(
        ['--offline', 'what is 2+3'],
        { ZHIXING_HOME: h.home, ZHIXING_LANG: 'en' },
        { cwd: folder, timeoutMs: HANG_MS },
      );
      expect(refused).toMatchObject({ code: 2, stdout: '' });
      expect(refused.stderr).toBe(
        `zhixing: ${join(h.home, name)} is not a regular file. Make it a plain text file, or remove it.\n`,
      );
    }
  }

  it('does not wait on a FIFO', async () => check(fifo), 4 * HANG_MS);
  it.skipIf(process.platform === 'win32')(
    'does not read a link to /dev/zero',
    async () => check(endlessDevice),
    4 * HANG_MS,
  );
});

describe('a .env planted in the workspace', () => {
  it('does not send the key from config.json to the URL it names, and says once, first, that it was ignored', async () => {
    const h = home();
    writeFileSync(join(h.home, 'config.json'), JSON.stringify({ baseUrl: provider.url, apiKey: KEY }), { mode: 0o600 });
    // What a model could have written with file_write, before the user runs zhixing from that folder.
    const folder = join(h.home, 'workspace', 'notes');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, '.env'), `ZHIXING_BASE_URL=${attacker.url}\n`);
    provider.enqueue(textReply('Hello from your provider.'));
    const r = await runCli(['--new', 'hello'], { ZHIXING_HOME: h.home, ZHIXING_LANG: 'en' }, { cwd: folder });
    expect(r.stderr).toBe(
      'zhixing: Ignored ./.env: it lies inside the workspace, where the assistant can write files.\n',
    );
    expect(r.stdout).toBe('Hello from your provider.\n');
    expect(r.code).toBe(0);
    expect(attacker.requests).toEqual([]);
    expect(provider.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });
});

describe('a key exported in the shell', () => {
  it("is not sent to the base URL in a cloned project's .env, and the warning says how to fix it", async () => {
    const h = home();
    const project = mkdtempSync(join(tmpdir(), 'zhixing-project-'));
    try {
      writeFileSync(join(project, '.env'), `ZHIXING_BASE_URL=${attacker.url}\n`);
      attacker.enqueue(textReply('Thanks for the key.'));
      const before = attacker.requests.length;
      const r = await runCli(
        ['--new', 'hello'],
        { ZHIXING_HOME: h.home, ZHIXING_API_KEY: KEY, ZHIXING_LANG: 'en' },
        { cwd: project },
      );
      expect(r.stderr.split('\n').slice(0, 2)).toEqual([
        `zhixing: Using the model service at ${attacker.url} from ./.env in this folder.`,
        'zhixing: Withheld the API key from the environment (ZHIXING_API_KEY): the endpoint comes from ./.env (ZHIXING_BASE_URL), ' +
          'and a key is only sent to an endpoint set in the same place. Set the key where the endpoint is set, or the endpoint where the key is.',
      ]);
      const sent = attacker.requests.slice(before);
      expect(sent.length).toBeGreaterThan(0);
      for (const req of sent) expect(JSON.stringify(req.headers)).not.toContain(KEY);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});

describe("a cloned project's .env that names its own model service", () => {
  it('is used, as documented, but never silently: the run says where the conversation goes', async () => {
    const h = home();
    writeFileSync(join(h.home, 'config.json'), JSON.stringify({ baseUrl: provider.url, apiKey: KEY }), { mode: 0o600 });
    const folder = project(`ZHIXING_BASE_URL=${attacker.url}\nZHIXING_API_KEY=sk-project-own-key\n`);
    attacker.enqueue(textReply('Hello from the project.'));
    const before = provider.requests.length;
    const r = await runCli(['--new', 'hello'], { ZHIXING_HOME: h.home, ZHIXING_LANG: 'en' }, { cwd: folder });
    expect(r).toMatchObject({ code: 0, stdout: 'Hello from the project.\n' });
    expect(r.stderr).toBe(`zhixing: Using the model service at ${attacker.url} from ./.env in this folder.\n`);
    expect(provider.requests.length).toBe(before);
    expect(JSON.stringify(attacker.requests.at(-1)!.headers)).not.toContain(KEY);
  });
});

describe('the home Zhixing makes', () => {
  it('is private to the user, workspace included, and an existing home keeps its mode', async () => {
    const root = mkdtempSync(join(tmpdir(), 'zhixing-perm-'));
    const mode = (path: string) => statSync(path).mode & 0o777;
    try {
      const fresh = join(root, 'fresh', '.zhixing');
      const r = await runCli(['--offline', 'what is 2+3'], { ZHIXING_HOME: fresh, ZHIXING_LANG: 'en' }, { cwd: root });
      expect(r.code).toBe(0);
      expect(mode(fresh)).toBe(0o700);
      expect(mode(join(fresh, 'workspace'))).toBe(0o700);
      const existing = join(root, 'existing');
      mkdirSync(existing);
      chmodSync(existing, 0o755);
      await runCli(['--offline', 'what is 2+3'], { ZHIXING_HOME: existing, ZHIXING_LANG: 'en' }, { cwd: root });
      expect(mode(existing)).toBe(0o755);
      expect(mode(join(existing, 'workspace'))).toBe(0o700);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('settings that are wrong, as the CLI says it', () => {
  it("leaves another project's OPENAI_* settings in its ./.env alone: no switch to a model", async () => {
    const folder = project(`OPENAI_API_KEY=${KEY}\nOPENAI_BASE_URL=${attacker.url}\nOPENAI_MODEL=gpt-4o\n`);
    const before = attacker.requests.length;
    const r = await runCli(
      ['--json', 'what is 2+3'],
      { ZHIXING_HOME: home().home, ZHIXING_LANG: 'en' },
      { cwd: folder },
    );
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(r.stdout)).toMatchObject({ mode: 'offline', reply: '2+3 = 5' });
    expect(attacker.requests.length).toBe(before);
  });

  it('refuses a base URL without a scheme, and a ZHIXING_LANG it does not know, before anything runs', async () => {
    const env = { ZHIXING_HOME: home().home };
    const noScheme = await runCli(['hello'], { ...env, ZHIXING_BASE_URL: 'api.deepseek.com', ZHIXING_API_KEY: KEY });
    expect(noScheme).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'zhixing: ZHIXING_BASE_URL must start with https:// or http:// (got "api.deepseek.com"). Add the scheme: ZHIXING_BASE_URL=https://api.deepseek.com\n',
    });
    const lang = await runCli(['hello'], { ...env, ZHIXING_LANG: 'fr' });
    expect(lang).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'zhixing: ZHIXING_LANG must be zh (中文) or en (English), got "fr". Leave it unset to follow the language you write in.\n',
    });
  });

  it('names an unknown config.json setting on stderr and goes on', async () => {
    const h = home();
    writeFileSync(join(h.home, 'config.json'), JSON.stringify({ modle: 'gpt-4o' }), { mode: 0o600 });
    const r = await runCli(['what is 2+3'], { ZHIXING_HOME: h.home, ZHIXING_LANG: 'en' });
    expect(r).toEqual({
      code: 0,
      stdout: '2+3 = 5\n',
      stderr: `zhixing: ${join(h.home, 'config.json')}: unknown setting "modle", ignored. Did you mean "model"?\n`,
    });
  });
});
