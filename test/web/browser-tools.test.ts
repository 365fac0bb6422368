/**
 * The browser tools in Debian's Chromium, as the model calls them: a local form filled and submitted
 * by snapshot ref and by CSS selector, tabs and history, a screenshot for the user, and the network
 * policy holding for navigations, a page's own requests, redirects and a name that changes its answer.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrowserManager, type BrowserManager } from '../../src/browser/manager.js';
import { createBrowserTools } from '../../src/tools/browser.js';
import type { Tool, ToolContext, ToolOutput } from '../../src/tools/tool.js';
import { ToolError } from '../../src/contract/tool-error.js';
import { startSites, type Sites } from '../support/browser-site.js';
import { CHROMIUM_PATH } from '../support/browser.js';

let sites: Sites;
let manager: BrowserManager;
let tools: Map<string, Tool>;
let workspace = '/nonexistent';

beforeAll(async () => {
  expect(existsSync(CHROMIUM_PATH), `no Chromium at ${CHROMIUM_PATH}: apt-get install chromium`).toBe(true);
  sites = await startSites();
  workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'zhixing-browser-ws-')));
  manager = createBrowserManager({
    source: { chromiumPath: CHROMIUM_PATH, searchPath: '', env: { PATH: process.env.PATH } },
    policy: sites.policy,
  });
  tools = new Map(createBrowserTools(manager).map((t) => [t.name, t]));
});
afterAll(async () => {
  await manager?.close();
  await sites?.close();
  if (workspace !== '/nonexistent') rmSync(workspace, { recursive: true, force: true });
});

const asks: Array<{ action: string; target: string; sendsTo?: unknown }> = [];
function ctx(sessionId: string, lang: 'en' | 'zh' = 'en'): ToolContext {
  return {
    sessionId,
    turnId: 'turn_1',
    callId: 'call_1',
    workspace,
    signal: new AbortController().signal,
    lang,
    ask: async (r) => (
      asks.push({ action: r.action, target: r.target, ...(r.sendsTo && { sendsTo: r.sendsTo }) }),
      'allow'
    ),
    progress: () => {},
  };
}

/** Calls a tool as the registry would: arguments checked by its schema first. */
async function call(name: string, args: object, session = 'ses_form', lang: 'en' | 'zh' = 'en'): Promise<ToolOutput> {
  const tool = tools.get(name)!;
  const checked = await tool.check(args);
  if (!checked.ok) throw new ToolError(checked.message);
  const out = await tool.execute(checked.value as never, ctx(session, lang));
  return typeof out === 'string' ? { output: out } : out;
}
async function refusal(name: string, args: object, session = 'ses_refused'): Promise<string> {
  const err = await call(name, args, session).then(
    () => undefined,
    (e: Error) => e,
  );
  expect(err, `${name} ${JSON.stringify(args)} was not refused`).toBeInstanceOf(ToolError);
  return err!.message;
}

const pub = (path: string) => `http://public.test:${sites.publicPort}${path}`;
const refOf = (snapshot: string, role: string, name: string) => {
  const m = new RegExp(`${role} "${name}"[^\\n]*\\[ref=(\\w+)\\]`).exec(snapshot);
  expect(m, `no ${role} "${name}" in:\n${snapshot}`).not.toBeNull();
  return m![1]!;
};

describe('browsing', () => {
  it('fills and submits a form by the refs of a snapshot, and reads the result page', async () => {
    const opened = await call('browser_navigate', { url: pub('/form') });
    expect(opened.output).toMatch(/^<untrusted-content kind="browser page" source="http:\/\/public\.test:\d+\/form">/);
    expect(opened.output).toContain('Title: Sign-up');
    expect(opened.title).toBe('Sign-up');
    expect(opened.metadata).toMatchObject({ url: pub('/form'), title: 'Sign-up' });
    const snap = (await call('browser_snapshot', {})).output;
    expect(snap).toMatch(/- heading "Sign up" \[level=1\] \[ref=e\d+\]/);
    // Unnamed wrappers are folded away: the tree is compact.
    expect(snap).not.toMatch(/- generic \[ref=\w+\]:$/m);
    await call('browser_type', { ref: refOf(snap, 'textbox', 'Name'), text: 'Ann Lee' });
    await call('browser_type', { ref: refOf(snap, 'textbox', 'City'), text: '成都' });
    const done = await call('browser_click', { ref: refOf(snap, 'button', 'Send') });
    expect(done.output).toContain('Title: Thanks');
    expect(done.output).toContain('Thanks, Ann Lee from 成都');
    expect(
      sites.publicHits.filter((h) => h.path === '/submit').map((h) => Object.fromEntries(new URLSearchParams(h.body))),
    ).toEqual([{ name: 'Ann Lee', city: '成都' }]);
    // Each call asked first: the URL for the navigation, the page and the element for the others.
    expect(asks.slice(0, 3).map(({ action, target }) => ({ action, target }))).toEqual([
      { action: 'browser.navigate', target: pub('/form') },
      { action: 'browser.read', target: pub('/form') },
      { action: 'browser.type', target: `${pub('/form')} [ref=${refOf(snap, 'textbox', 'Name')}]` },
    ]);
  });

  it('fills and submits a form by CSS selector, Enter submitting it', async () => {
    await call('browser_navigate', { url: pub('/form') }, 'ses_css');
    await call('browser_type', { selector: '#name', text: 'Bo' }, 'ses_css');
    const done = await call('browser_type', { selector: '#city', text: 'Lyon', submit: true }, 'ses_css');
    expect(done.output).toContain('Thanks, Bo from Lyon');
    expect(done.metadata).toMatchObject({ title: 'Thanks' });
    expect(await refusal('browser_click', { selector: '#nothing-here' }, 'ses_css')).toMatch(
      /Nothing on the page matches "#nothing-here"/,
    );
    expect(await refusal('browser_click', { ref: 'e999' }, 'ses_css')).toMatch(/No element e999 on the page/);
    expect(await refusal('browser_click', { ref: 'e1', selector: '#x' }, 'ses_css')).toMatch(
      /either ref .* or selector/,
    );
  });

  it('goes back and forward, opens and closes tabs', async () => {
    const s = 'ses_tabs';
    await call('browser_navigate', { url: pub('/form') }, s);
    const second = await call('browser_click', { selector: 'a:not([target])' }, s);
    expect(second.metadata).toMatchObject({ url: pub('/second'), title: 'Second' });
    expect((await call('browser_navigate', { action: 'back' }, s)).metadata).toMatchObject({ url: pub('/form') });
    expect((await call('browser_navigate', { action: 'forward' }, s)).metadata).toMatchObject({ url: pub('/second') });
    expect((await call('browser_navigate', { action: 'reload' }, s)).output).toContain('The second page');
    const blank = await call('browser_navigate', { action: 'new_tab' }, s);
    expect(blank.metadata).toMatchObject({ url: 'about:blank', tabs: 2 });
    expect(await refusal('browser_navigate', { action: 'back' }, s)).toMatch(/no earlier page/);
    await call('browser_navigate', { url: pub('/form') }, s);
    const closed = await call('browser_navigate', { action: 'close_tab' }, s);
    expect(closed.metadata).toMatchObject({ url: pub('/second'), tabs: 1 });
    expect(closed.output).toMatch(/^Closed the tab; 1 left\./);
    // Reload, back and forward load a page again, and opening or closing a tab is seen by the pages: each
    // tells the trust record, which asks once outside text came in (a site could count and time them).
    const moves = asks.filter(
      (a) => a.action === 'browser.navigate' && /^(back|forward|reload|new_tab|close_tab) /.test(a.target),
    );
    expect(moves.map((a) => [a.target.split(' ')[0], a.sendsTo])).toEqual([
      ['back', { kind: 'reopen', url: pub('/second') }],
      ['forward', { kind: 'reopen', url: pub('/form') }],
      ['reload', { kind: 'reopen', url: pub('/second') }],
      ['new_tab', { kind: 'reopen', url: pub('/second') }],
      ['back', { kind: 'reopen', url: 'about:blank' }],
      ['close_tab', { kind: 'reopen', url: pub('/form') }],
    ]);
    // A link that opens a new tab: the tools follow it there.
    await call('browser_navigate', { url: pub('/form') }, s);
    const opened = await call('browser_click', { selector: 'a[target=_blank]' }, s);
    expect(opened.metadata).toMatchObject({ url: pub('/second'), title: 'Second', tabs: 2 });
    expect(opened.output).toContain('The second page');
  });

  it('saves a screenshot as a PNG in the workspace for the user, says where, and never gives the model its bytes', async () => {
    await call('browser_navigate', { url: pub('/form') }, 'ses_shot');
    const shot = await call('browser_screenshot', {}, 'ses_shot');
    const m =
      /^Saved a screenshot of (\S+) \(1280×720\) for the user: (screenshots\/\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z\.png)$/.exec(
        shot.output,
      );
    expect(m, shot.output).not.toBeNull();
    expect(m![1]).toBe(pub('/form'));
    const saved = m![2]!;
    expect(shot.attachments).toEqual([{ name: 'screenshot.png', mimeType: 'image/png', path: saved }]);
    expect(shot.metadata).toMatchObject({ url: pub('/form'), width: 1280, height: 720, path: saved });
    const png = readFileSync(path.join(workspace, saved));
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1280, 720]);
    expect(png.length).toBeGreaterThan(2_000);
    expect(shot.output).not.toContain('iVBOR');
    // A second one in the same millisecond or later never overwrites the first.
    const again = await call('browser_screenshot', {}, 'ses_shot', 'zh');
    expect(again.output).toMatch(/^已为用户保存 \S+ 的截图（1280×720）：screenshots\/\S+\.png$/);
    expect(again.output).not.toContain(saved);
    expect(tools.get('browser_screenshot')!.changesWorkspace).toBe(true);
  });

  it('does not write through a screenshots folder planted as a link, and says the picture is only on the card', async () => {
    const other = realpathSync(mkdtempSync(path.join(tmpdir(), 'zhixing-outside-')));
    const own = workspace;
    workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'zhixing-browser-ws2-')));
    try {
      symlinkSync(other, path.join(workspace, 'screenshots'));
      await call('browser_navigate', { url: pub('/form') }, 'ses_link');
      const shot = await call('browser_screenshot', {}, 'ses_link');
      expect(shot.output).toBe(
        `Took a screenshot of ${pub('/form')} (1280×720) but could not save it as a file (screenshots in the workspace is not a folder): the user can see it only on this call's card in the web app.`,
      );
      const a = shot.attachments![0]! as { name: string; mimeType: string; data: string };
      expect([a.name, a.mimeType, Buffer.from(a.data, 'base64').readUInt32BE(16)]).toEqual([
        'screenshot.png',
        'image/png',
        1280,
      ]);
      expect(readdirSync(other)).toEqual([]);
    } finally {
      rmSync(workspace, { recursive: true, force: true });
      rmSync(other, { recursive: true, force: true });
      workspace = own;
    }
  });

  it('says to navigate first when no page is open', async () => {
    expect(await refusal('browser_snapshot', {}, 'ses_nothing')).toMatch(/No page is open yet/);
    expect(await refusal('browser_screenshot', {}, 'ses_nothing')).toMatch(/No page is open yet/);
  });
});

const SPELLINGS = [
  '127.0.0.1',
  '127.1',
  '2130706433',
  '0x7f000001',
  '0177.0.0.1',
  '[::ffff:127.0.0.1]',
  '[::1]',
  'localhost',
  '0.0.0.0',
  'private.test',
];

describe('the network policy in the browser', () => {
  it('refuses every spelling of loopback, the metadata address and non-web schemes as a navigation', async () => {
    for (const host of SPELLINGS) {
      expect(await refusal('browser_navigate', { url: `http://${host}:${sites.privatePort}/secret` }), host).toMatch(
        /ZHIXING_ALLOW_PRIVATE_NETWORK=1/,
      );
    }
    expect(await refusal('browser_navigate', { url: 'http://169.254.169.254/latest/meta-data/' })).toMatch(
      /link-local.*ZHIXING_ALLOW_PRIVATE_NETWORK/,
    );
    for (const url of [
      'file:///etc/passwd',
      'chrome://settings',
      'data:text/html,<h1>hi</h1>',
      'javascript:alert(1)',
      'view-source:http://public.test/',
    ]) {
      expect(await refusal('browser_navigate', { url }), url).toMatch(/Only http and https URLs can be opened/);
    }
    // In the user's language, still naming the setting.
    const zh = await Promise.resolve(
      tools.get('browser_navigate')!.execute({ url: `http://127.1:${sites.privatePort}/secret` }, ctx('ses_zh', 'zh')),
    ).then(
      () => '',
      (e: Error) => e.message,
    );
    expect(zh).toBe(
      `拒绝访问 http://127.1:${sites.privatePort}/secret：它不是公网地址（127.0.0.1: it is a loopback address (this machine)）。网页工具只能访问公网地址；如需访问本机和内网，请设置 ZHIXING_ALLOW_PRIVATE_NETWORK=1。`,
    );
    expect(sites.privateHits).toEqual([]);
  });

  it("refuses a page's own requests to private addresses: fetch() in every spelling and an image", async () => {
    // rebind-1.test passes the route's check and turns private when the proxy connects.
    const hosts = [
      '127.0.0.1',
      '127.1',
      '2130706433',
      '0x7f000001',
      '0177.0.0.1',
      '[::ffff:127.0.0.1]',
      '[::1]',
      'localhost',
      '169.254.169.254',
      'private.test',
      'rebind-1.test',
    ];
    const opened = await call('browser_navigate', { url: pub(`/probe?hosts=${hosts.join(',')}`) }, 'ses_probe');
    expect(opened.output).toMatch(
      /^The network policy blocked \d+ request\(s\) of the page .*ZHIXING_ALLOW_PRIVATE_NETWORK=1/,
    );
    await expect
      .poll(async () => (await call('browser_snapshot', {}, 'ses_probe')).output, { timeout: 15_000 })
      .toContain('Title: Probe done');
    const snap = (await call('browser_snapshot', {}, 'ses_probe')).output;
    // Each spelling, and a redirect of the public site's to the private one.
    expect(snap.match(/blocked http/g)).toHaveLength(hosts.length + 1);
    expect(snap).not.toContain('private data');
    expect(snap).toContain('socket failed');
    expect(sites.privateHits).toEqual([]);
  });

  it('refuses a redirect to a private address, and a name that turns private after the check', async () => {
    for (const to of [
      `http://127.0.0.1:${sites.privatePort}/secret`,
      `http://localhost:${sites.privatePort}/`,
      `http://private.test:${sites.privatePort}/`,
      `http://[::1]:${sites.privatePort}/`,
    ]) {
      expect(await refusal('browser_navigate', { url: pub(`/redirect?to=${encodeURIComponent(to)}`) }), to).toMatch(
        /ZHIXING_ALLOW_PRIVATE_NETWORK=1/,
      );
    }
    // Checked by URL it is public (the first two answers); connected, it is this machine: the proxy refuses it.
    expect(
      await refusal('browser_navigate', { url: `http://rebind-2.test:${sites.privatePort}/secret` }, 'ses_rebind'),
    ).toMatch(/127\.0\.0\.1.*ZHIXING_ALLOW_PRIVATE_NETWORK=1/);
    expect(sites.privateHits).toEqual([]);
  });

  it('reaches private addresses with the opt-in', async () => {
    const open = createBrowserManager({
      source: { chromiumPath: CHROMIUM_PATH, searchPath: '', env: {} },
      policy: { allowPrivate: true },
    });
    try {
      const [navigate, snapshot] = createBrowserTools(open);
      const out = await navigate!.execute({ url: `http://127.1:${sites.privatePort}/` }, ctx('ses_open'));
      expect((out as ToolOutput).output).toContain('private data');
      expect(sites.privateHits.map((h) => h.path)).toContain('/');
      // The probe page reaches the private site too: its fetch() and its WebSocket (what the refusals above are measured against).
      await navigate!.execute({ url: `http://127.0.0.1:${sites.publicPort}/probe?hosts=127.0.0.1` }, ctx('ses_open'));
      await expect
        .poll(async () => ((await snapshot!.execute({}, ctx('ses_open'))) as ToolOutput).output, { timeout: 15_000 })
        .toContain('Title: Probe done');
      expect(((await snapshot!.execute({}, ctx('ses_open'))) as ToolOutput).output).toContain(
        `read http://127.0.0.1:${sites.privatePort}/secret: private data`,
      );
      expect(sites.privateHits.map((h) => `${h.method} ${h.path}`)).toContain('UPGRADE /socket');
    } finally {
      await open.close();
      sites.privateHits.length = 0;
    }
  });
});

describe('contexts', () => {
  it("closes a session's context when it is idle, and the browser with the last one", async () => {
    const idle = createBrowserManager({
      source: { chromiumPath: CHROMIUM_PATH, searchPath: '', env: {} },
      policy: sites.policy,
      idleMs: 400,
    });
    try {
      const [navigate] = createBrowserTools(idle);
      let context: import('playwright-core').BrowserContext | undefined;
      await navigate!.execute({ url: pub('/form') }, ctx('ses_idle'));
      await idle.use('ses_idle', 'en', async (tabs) => void (context = tabs.context));
      const browser = context!.browser()!;
      expect(browser.isConnected()).toBe(true);
      await expect.poll(() => idle.has('ses_idle'), { timeout: 5_000 }).toBe(false);
      await expect.poll(() => browser.isConnected(), { timeout: 5_000 }).toBe(false);
      // The next call starts afresh.
      const again = await navigate!.execute({ url: pub('/second') }, ctx('ses_idle'));
      expect((again as ToolOutput).output).toContain('The second page');
    } finally {
      await idle.close();
    }
  });

  it('keeps sessions apart and closes one on request', async () => {
    await call('browser_navigate', { url: pub('/second') }, 'ses_a');
    await call('browser_navigate', { url: pub('/form') }, 'ses_b');
    expect((await call('browser_snapshot', {}, 'ses_a')).metadata).toMatchObject({ title: 'Second' });
    let context: import('playwright-core').BrowserContext | undefined;
    await manager.use('ses_a', 'en', async (tabs) => void (context = tabs.context));
    await manager.closeSession('ses_a');
    expect(manager.has('ses_a')).toBe(false);
    await expect(context!.newPage()).rejects.toThrow();
    expect((await call('browser_snapshot', {}, 'ses_b')).metadata).toMatchObject({ title: 'Sign-up' });
  });
});
