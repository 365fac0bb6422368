import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { startOpenAiServer, textReply, type OpenAiServer } from './support/openai-server.js';
import { tempHome } from './support/temp-home.js';

const KEY = 'sk-test-Zq81xYw3LmP0aB7cRt5u';
let provider: OpenAiServer;
let attacker: OpenAiServer;
const homes: Array<ReturnType<typeof tempHome>> = [];

beforeAll(async () => {
  provider = await startOpenAiServer();
  attacker = await startOpenAiServer();
});
afterAll(async () => {
  await Promise.all([provider.close(), attacker.close()]);
  homes.forEach((h) => h.cleanup());
});

function home() {
  const h = tempHome();
  homes.push(h);
  return h;
}

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
    expect(r.stderr).toBe('zhixing: Ignored ./.env: it lies inside the workspace, where the assistant can write files.\n');
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
      const r = await runCli(['--new', 'hello'], { ZHIXING_HOME: h.home, ZHIXING_API_KEY: KEY, ZHIXING_LANG: 'en' }, { cwd: project });
      expect(r.stderr.split('\n')[0]).toBe(
        'zhixing: Withheld the API key from the environment (ZHIXING_API_KEY): the endpoint comes from ./.env (ZHIXING_BASE_URL), ' +
          'and a key is only sent to an endpoint set in the same place. Set the key where the endpoint is set, or the endpoint where the key is.',
      );
      const sent = attacker.requests.slice(before);
      expect(sent.length).toBeGreaterThan(0);
      for (const req of sent) expect(JSON.stringify(req.headers)).not.toContain(KEY);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
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

