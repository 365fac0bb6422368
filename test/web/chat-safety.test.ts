/**
 * Hostile text in the chat, in a real Chromium: what a model writes, what tools read and write, and
 * what the user types is shown, never run. The app's Content-Security-Policy would also refuse an
 * inline handler that got through (and Chromium would log that, failing expectNoErrors), so the
 * tests look at the DOM itself: no element or attribute that could run was made.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';
import { sendMessage, startWithModel, turnEnded, type ModelSetup } from '../support/chat-page.js';
import { startTestServer } from '../support/http.js';
import { textReply, toolCallsReply } from '../support/openai-server.js';

// Used in code that runs in the page, which the Node typecheck (no DOM types) does not know.
declare const document: any, window: any;

const browser = useBrowser();

// A 1×1 PNG, for the remote image the model links to.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
/** Another origin: the remote image and a page a link opens. Records what was asked of it. */
let remote: Server;
let remoteUrl: string;
const remoteHits: Array<{ path: string; headers: IncomingHttpHeaders }> = [];
beforeAll(async () => {
  remote = createServer((req, res) => {
    remoteHits.push({ path: req.url ?? '', headers: req.headers });
    if (req.url === '/cat.png')
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length }).end(PNG);
    else
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>elsewhere</title><p>elsewhere</p>');
  });
  await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
  remoteUrl = `http://127.0.0.1:${(remote.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => remote.close(() => resolve())));

let setup: ModelSetup | undefined;
afterEach(async () => {
  await setup?.close();
  setup = undefined;
  remoteHits.length = 0;
});

const HOSTILE_HTML = [
  '<img src=x onerror="window.__pwned=1">',
  '<script>window.__pwned=2</script>',
  '<a href="javascript:window.__pwned=4">raw link</a>',
  '<iframe src="javascript:parent.__pwned=5"></iframe>',
  '<svg onload="window.__pwned=6"><circle r="5"/></svg>',
  '<style>body{display:none}</style>',
];

/** What could run or load: elements, handler attributes, script-ish URLs, under `root`. */
async function dangers(page: Page, root: string, allowIcons = false): Promise<string[]> {
  return page.evaluate(
    ({ root, allowIcons }) => {
      const found: string[] = [];
      for (const el of document.querySelectorAll(`${root} *`)) {
        const tag = el.tagName.toLowerCase();
        const icon = allowIcons && el.closest('svg.icon');
        if (
          ['script', 'iframe', 'object', 'embed', 'style', 'link', 'meta', 'form', 'base'].includes(tag) ||
          (tag === 'svg' && !icon)
        )
          found.push(tag);
        for (const attr of el.getAttributeNames()) {
          const value = el.getAttribute(attr) ?? '';
          if (attr.startsWith('on') || attr === 'style' || attr === 'srcdoc') found.push(`${tag}[${attr}]`);
          if (/^\s*(javascript|vbscript|data:text)/i.test(value)) found.push(`${tag}[${attr}=${value}]`);
        }
      }
      return found;
    },
    { root, allowIcons },
  );
}
const pwned = (page: Page) => page.evaluate(() => window.__pwned);

it('hostile Markdown from the model is shown as text; links are made safe; a remote image loads only when asked', async () => {
  setup = await startWithModel();
  const hostile = [
    ...HOSTILE_HTML,
    '',
    '[click](javascript:window.__pwned=3) and [x](JAVASCRIPT:alert(1)) and [v](vbscript:msgbox(1)) and [e](&#106;avascript:window.__pwned=7)',
    '',
    '[page](data:text/html,<script>window.__pwned=8</script>) and ![pic](javascript:window.__pwned=9)',
    '',
    '[ftp](ftp://example.com/a) and [rel](/api/status) and [hash](#top)',
    '',
    `[titled](https://example.com/t "x\\" onmouseover=\\"window.__pwned=10") and [elsewhere](${remoteUrl}/page) and [mail](mailto:someone@example.com) and https://example.net/bare`,
    '',
    `![cat](${remoteUrl}/cat.png)`,
  ].join('\n');
  setup.model.enqueue(textReply(hostile));
  const { page, expectNoErrors } = await browser.openPage(`${setup.server.url}/`);
  await page.locator('#composer').waitFor();
  await sendMessage(page, 'Show me something.');
  await turnEnded(page, 1);
  const md = page.locator('article.msg-assistant .markdown');
  await md.waitFor();

  expect(await dangers(page, '.messages')).toEqual([]);
  // The raw HTML is there to read, as text.
  const text = await md.innerText();
  for (const tag of HOSTILE_HTML) expect(text).toContain(tag);
  expect(await md.locator('img').count()).toBe(0);

  // Links: markdown-it leaves script-ish ones as text; DOMPurify's hook takes the address off any
  // other scheme; the rest open a new tab without an opener or a referrer.
  const links = await md.locator('a').evaluateAll((as) =>
    as.map((a) => ({
      text: a.textContent,
      href: a.getAttribute('href'),
      target: a.getAttribute('target'),
      rel: a.getAttribute('rel'),
    })),
  );
  for (const name of ['click', 'x', 'v', 'e', 'page']) {
    expect(links.some((l) => l.text === name)).toBe(false);
    expect(text).toContain(`[${name}](`);
  }
  expect(links.filter((l) => l.href === null).map((l) => l.text)).toEqual(['ftp', 'rel']);
  expect(links.find((l) => l.text === 'hash')).toMatchObject({ href: '#top', target: null });
  const followable = links.filter((l) => l.href !== null && l.text !== 'hash');
  expect(followable.length).toBeGreaterThan(0);
  for (const l of followable)
    expect(l).toMatchObject({
      target: '_blank',
      rel: expect.stringMatching(/noopener.*noreferrer|noreferrer.*noopener/),
    });
  expect(await md.locator('a[title]').getAttribute('title')).toBe('x" onmouseover="window.__pwned=10');
  // Following one: a new tab that cannot reach back.
  const [tab] = await Promise.all([
    page.context().waitForEvent('page'),
    md.locator('a', { hasText: 'elsewhere' }).click(),
  ]);
  await tab.waitForLoadState();
  expect(await tab.evaluate(() => window.opener)).toBeNull();
  expect(remoteHits.find((h) => h.path === '/page')?.headers.referer).toBeUndefined();
  await tab.close();
  // A link with no address does nothing when clicked.
  const before = page.url();
  await md.locator('a', { hasText: 'ftp' }).click();
  expect(page.url()).toBe(before);
  expect(page.context().pages()).toHaveLength(1);

  // The remote image: a button until asked, then one request, with no referrer, and the picture.
  await page.waitForTimeout(500);
  expect(remoteHits.filter((h) => h.path === '/cat.png')).toHaveLength(0);
  const button = md.locator('button.remote-image');
  expect(await button.getAttribute('data-src')).toBe(`${remoteUrl}/cat.png`);
  expect(await button.innerText()).toContain('cat');
  await button.click();
  const img = md.locator(`img[src="${remoteUrl}/cat.png"]`);
  await img.waitFor();
  await page.waitForFunction(
    (src) => document.querySelector(`img[src="${src}"]`)?.naturalWidth === 1,
    `${remoteUrl}/cat.png`,
  );
  expect(await img.getAttribute('alt')).toBe('cat');
  expect(await md.locator('button.remote-image').count()).toBe(0);
  const cats = remoteHits.filter((h) => h.path === '/cat.png');
  expect(cats).toHaveLength(1);
  expect(cats[0]!.headers.referer).toBeUndefined();

  // Shown again from the history, it is a button again, and nothing was loaded for it.
  await page.reload();
  await page.locator('button.remote-image').waitFor();
  await page.waitForTimeout(300);
  expect(remoteHits.filter((h) => h.path === '/cat.png')).toHaveLength(1);
  expect(await dangers(page, '.messages')).toEqual([]);
  expect(await pwned(page)).toBeUndefined();
  await expectNoErrors();
});

it("hostile text in a model's tool calls shows as text in the cards", async () => {
  setup = await startWithModel();
  const content = HOSTILE_HTML.join('\n');
  setup.model.enqueue(
    toolCallsReply([{ id: 'call_w', name: 'file_write', args: { path: 'notes/<b>evil</b>.html', content } }]),
    toolCallsReply([{ id: 'call_r', name: 'file_read', args: { path: 'notes/<b>evil</b>.html' } }]),
    textReply('Written and read back.'),
  );
  const { page, expectNoErrors } = await browser.openPage(`${setup.server.url}/`);
  await page.locator('#composer').waitFor();
  await sendMessage(page, 'Save this page and read it.');
  await turnEnded(page, 1);

  const write = page.locator('.tool-card[data-tool="file_write"]');
  const read = page.locator('.tool-card[data-tool="file_read"]');
  expect(await write.getAttribute('data-state')).toBe('completed');
  expect(await read.getAttribute('data-state')).toBe('completed');
  expect(await read.locator('.tool-title').innerText()).toContain('<b>evil</b>.html');
  await write.locator('button.tool-head').click();
  await read.locator('button.tool-head').click();
  expect(JSON.parse(await write.locator('pre.tool-input').innerText())).toEqual({
    path: 'notes/<b>evil</b>.html',
    content,
  });
  const output = read.locator('pre.tool-output');
  for (const tag of HOSTILE_HTML) expect(await output.innerText()).toContain(tag);
  // Text nodes only, in every pre of the cards.
  expect(await page.locator('.tool-card pre *').count()).toBe(0);
  expect(await page.locator('.tool-card b').count()).toBe(0);
  expect(await dangers(page, '.messages', true)).toEqual([]);
  expect(await pwned(page)).toBeUndefined();
  await expectNoErrors();
});

it("the user's own HTML shows as text: in the message, the chat's title, a file written and read offline", async () => {
  const server = await startTestServer();
  try {
    const { page, expectNoErrors } = await browser.openPage(`${server.url}/`);
    await page.locator('#composer').waitFor();
    const message = '<b>hi</b> <img src=x onerror="window.__pwned=11"> <script>window.__pwned=12</script>';
    await sendMessage(page, message);
    await turnEnded(page, 1);
    const user = page.locator('article.msg-user');
    expect(await user.innerText()).toBe(message);
    expect(await user.locator('.bubble *:not(span)').count()).toBe(0);
    // The chat is named after the message: as text, in the sidebar and the top bar.
    await page.waitForFunction(() =>
      document.querySelector('li.session.active .session-title')?.textContent?.startsWith('<b>hi</b>'),
    );
    expect(await page.locator('li.session.active .session-title *').count()).toBe(0);
    expect(await page.locator('.topbar-title').innerText()).toMatch(/^<b>hi<\/b> <img/);
    expect(await page.locator('.topbar-title *').count()).toBe(0);

    await sendMessage(
      page,
      'write to notes/page.html: <iframe src="javascript:parent.__pwned=13"></iframe><svg onload="window.__pwned=14"></svg>',
    );
    await turnEnded(page, 2);
    await sendMessage(page, 'read notes/page.html');
    await turnEnded(page, 3);
    const read = page.locator('.tool-card[data-tool="file_read"]');
    await read.locator('button.tool-head').click();
    expect(await read.locator('pre.tool-output').innerText()).toContain(
      '<iframe src="javascript:parent.__pwned=13"></iframe><svg onload="window.__pwned=14"></svg>',
    );
    // The reply quotes the file: as text too.
    expect(await page.locator('article.msg-assistant').last().innerText()).toContain(
      '<svg onload="window.__pwned=14"></svg>',
    );
    expect(await page.locator('.tool-card pre *').count()).toBe(0);
    expect(await dangers(page, '.messages', true)).toEqual([]);
    expect(await dangers(page, 'nav.sessions', true)).toEqual([]);
    expect(await pwned(page)).toBeUndefined();
    await expectNoErrors();
  } finally {
    await server.close();
  }
});
