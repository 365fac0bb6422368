/**
 * The browser tools through ./bin/zhixing, as a user runs them: a scripted model behind the local
 * OpenAI-wire server fills a form in Debian's Chromium and takes a screenshot, and the one-shot run
 * exits as soon as it is done (Chromium does not keep it alive). Without a rule, nobody can approve
 * a browser call in a run without a terminal: it is refused before any page is opened.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { CHROMIUM_PATH } from '../support/browser.js';
import { startSites, type Sites } from '../support/browser-site.js';
import { startOpenAiServer, textReply, toolCallsReply, type OpenAiServer } from '../support/openai-server.js';

let sites: Sites;
let model: OpenAiServer;
const homes: string[] = [];

beforeAll(async () => {
  sites = await startSites();
  model = await startOpenAiServer();
});
afterAll(async () => {
  await sites?.close();
  await model?.close();
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

function home(config?: object): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'zhixing-browser-cli-'));
  homes.push(dir);
  if (config) writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config));
  return dir;
}

const env = (dir: string, extra: Record<string, string> = {}) => ({
  ZHIXING_HOME: dir,
  ZHIXING_BASE_URL: model.url,
  ZHIXING_API_KEY: 'sk-test-browser-cli',
  ZHIXING_MODEL: 'test-model',
  ZHIXING_LANG: 'en',
  ZHIXING_CHROMIUM_PATH: CHROMIUM_PATH,
  ...extra,
});

interface Action {
  tool: string;
  ok: boolean;
  output: string;
}

it('fills a form by selector, submits it and takes a screenshot in one run, then exits at once', async () => {
  const form = `http://127.0.0.1:${sites.publicPort}/form`;
  model.enqueue(
    toolCallsReply([{ id: 'nav', name: 'browser_navigate', args: { url: form } }]),
    toolCallsReply([{ id: 't1', name: 'browser_type', args: { selector: '#name', text: 'Wang Xiaoming' } }]),
    toolCallsReply([{ id: 't2', name: 'browser_type', args: { selector: '#city', text: 'Chengdu', submit: true } }]),
    toolCallsReply([{ id: 'shot', name: 'browser_screenshot', args: {} }]),
    textReply('The form is sent.'),
  );
  const before = model.requests.length;
  let lastRequestAt = 0;
  // When the model was last asked: what is left after it is writing the answer and closing Chromium.
  let seen = before;
  const watch = setInterval(() => {
    if (model.requests.length > seen) [seen, lastRequestAt] = [model.requests.length, Date.now()];
  }, 20);
  const dir = home({ permissions: { 'browser_*': 'allow' } });
  const r = await runCli(
    ['--json', '--new', `Fill in the sign-up form at ${form}: name Wang Xiaoming, city Chengdu`],
    env(dir, { ZHIXING_ALLOW_PRIVATE_NETWORK: '1' }),
    { timeoutMs: 90_000 },
  );
  const exitedAt = Date.now();
  clearInterval(watch);
  expect(r.code, r.stderr).toBe(0);
  const out = JSON.parse(r.stdout) as { reply: string; actions: Action[] };
  expect(out.actions.map((a) => [a.tool, a.ok])).toEqual([
    ['browser_navigate', true],
    ['browser_type', true],
    ['browser_type', true],
    ['browser_screenshot', true],
  ]);
  expect(out.actions[2]!.output).toContain('Thanks, Wang Xiaoming from Chengdu');
  // The terminal shows no picture: the screenshot is a file in the workspace, and the output says which.
  const saved =
    /^Saved a screenshot of http:\/\/127\.0\.0\.1:\d+\/submit \(1280×720\) for the user: (screenshots\/[\w-]+\.png)$/.exec(
      out.actions[3]!.output,
    );
  expect(saved, out.actions[3]!.output).not.toBeNull();
  const png = readFileSync(path.join(dir, 'workspace', saved![1]!));
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1280, 720]);
  expect(out.reply).toBe('The form is sent.');
  const submitted = sites.publicHits.filter((h) => h.path === '/submit');
  expect(submitted.map((h) => Object.fromEntries(new URLSearchParams(h.body)))).toEqual([
    { name: 'Wang Xiaoming', city: 'Chengdu' },
  ]);
  // The page's text reached the model fenced; the screenshot's bytes never did.
  const sent = JSON.stringify(model.requests.slice(before).map((q) => q.body));
  expect(sent).toMatch(/<untrusted-content kind=\\"browser page\\" source=\\"http:\/\/127\.0\.0\.1:\d+\/form\\">/);
  expect(sent).not.toContain('iVBORw0KGgo');
  expect(lastRequestAt).toBeGreaterThan(0);
  expect(exitedAt - lastRequestAt, 'the run lingered after its answer').toBeLessThan(5_000);
});

it('refuses a browser call nobody can approve: no rule and no terminal', async () => {
  model.enqueue(
    toolCallsReply([
      { id: 'nav', name: 'browser_navigate', args: { url: `http://127.0.0.1:${sites.publicPort}/second` } },
    ]),
    textReply('I could not open it.'),
  );
  const hits = sites.publicHits.length;
  const r = await runCli(
    ['--json', '--new', 'Open the second page'],
    env(home(), { ZHIXING_ALLOW_PRIVATE_NETWORK: '1' }),
    { timeoutMs: 60_000 },
  );
  expect(r.code, r.stderr).toBe(0);
  const out = JSON.parse(r.stdout) as { actions: Action[] };
  expect(out.actions).toHaveLength(1);
  expect(out.actions[0]).toMatchObject({ tool: 'browser_navigate', ok: false });
  expect(out.actions[0]!.output).toMatch(/needs the user's approval, and nobody was there to answer/);
  expect(sites.publicHits.length).toBe(hits);
});

it('says how to get a Chromium when there is none', async () => {
  model.enqueue(
    // A public address, so that no name needs resolving (there is no DNS here) before the browser is looked for.
    toolCallsReply([{ id: 'nav', name: 'browser_navigate', args: { url: 'http://93.184.215.14/' } }]),
    textReply('No browser.'),
    toolCallsReply([{ id: 'nav2', name: 'browser_navigate', args: { url: 'http://93.184.215.14/' } }]),
    textReply('No browser.'),
  );
  const dir = home({ permissions: { 'browser_*': 'allow' } });
  const { ZHIXING_CHROMIUM_PATH: _unset, ...noPath } = env(dir);
  const none = await runCli(
    ['--json', '--new', 'Open example.com'],
    { ...noPath, PATH: '/nonexistent' },
    { timeoutMs: 30_000 },
  );
  expect(none.code, none.stderr).toBe(0);
  expect((JSON.parse(none.stdout) as { actions: Action[] }).actions[0]!.output).toMatch(
    /No Chromium found .*apt-get install chromium.*ZHIXING_CHROMIUM_PATH.*ZHIXING_BROWSER_CDP_URL/,
  );
  const wrong = await runCli(
    ['--json', '--new', 'Open example.com'],
    env(dir, { ZHIXING_CHROMIUM_PATH: '/nonexistent/chromium' }),
    { timeoutMs: 30_000 },
  );
  expect((JSON.parse(wrong.stdout) as { actions: Action[] }).actions[0]!.output).toMatch(
    /ZHIXING_CHROMIUM_PATH points at \/nonexistent\/chromium/,
  );
});
