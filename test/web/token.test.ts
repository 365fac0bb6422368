import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';
import { request, startTestServer, type TestServer } from '../support/http.js';

// Code run inside the page: this project's TypeScript has no DOM types.
declare const localStorage: any;

const browser = useBrowser();

/** Polls until the check passes: a busy machine may take seconds where an idle one takes milliseconds. */
const eventually = <T>(check: () => T | Promise<T>, timeout = 15_000) => expect.poll(check, { timeout, interval: 50 });
const TOKEN = '3f9c1a7e5b2d4c6a8e0f1b3d5c7a9e2f';
const auth = { authorization: `Bearer ${TOKEN}` };
let server: TestServer;
beforeAll(async () => {
  // A token on loopback too: the server then asks it of every API call, while the app's files stay public.
  server = await startTestServer({ host: '127.0.0.1', token: TOKEN });
});
afterAll(async () => {
  await server?.close();
});

/** Every 401 the page got, with the token its request carried (none: ''). */
function unauthorized(page: Page): Array<{ url: string; sent: string }> {
  const seen: Array<{ url: string; sent: string }> = [];
  page.on('response', async (response) => {
    if (response.status() !== 401) return;
    const header = (await response.request().allHeaders()).authorization ?? '';
    seen.push({ url: new URL(response.url()).pathname, sent: header.replace(/^Bearer /, '') });
  });
  return seen;
}

const tokenDialog = (page: Page) => page.locator('dialog.token[open]');
async function giveToken(page: Page, value: string) {
  await tokenDialog(page).waitFor();
  await tokenDialog(page).locator('input[type=password]').fill(value);
  await tokenDialog(page).locator('button[type=submit]').click();
}

it('serves the app without the token, which then asks for it, keeps it, and works with it, event streams included', async () => {
  // The app's files need no token; the API does.
  expect((await request(server.port, '/')).status).toBe(200);
  expect((await request(server.port, '/api/status')).status).toBe(401);
  expect((await request(server.port, '/api/status', { headers: auth })).status).toBe(200);

  const { page, expectNoErrors } = await browser.openPage('about:blank', { locale: 'en-US' });
  const refused = unauthorized(page);
  await page.goto(`${server.url}/`);
  await giveToken(page, '');
  // An empty answer is not taken: the field is required.
  expect(await tokenDialog(page).isVisible()).toBe(true);
  expect(await tokenDialog(page).textContent()).toContain('This server needs a token');
  // Nothing was sent yet, so nothing was wrong.
  expect(await tokenDialog(page).locator('.notice-error').count()).toBe(0);
  await eventually(() => refused.length).toBeGreaterThan(0);
  expect(refused.every((r) => r.sent === '')).toBe(true);

  // A wrong token is refused, and asked for again.
  const before = refused.length;
  await giveToken(page, 'not-the-token-at-all');
  await eventually(() => refused.length).toBeGreaterThan(before);
  await tokenDialog(page).waitFor();
  expect(refused.slice(before).every((r) => r.sent === 'not-the-token-at-all')).toBe(true);
  expect(await tokenDialog(page).locator('.notice-error').textContent()).toBe(
    'The server refused that token. Check it and try again.',
  );
  await browser.screenshot(page, 'token-dialog');

  await giveToken(page, TOKEN);
  await page.locator('dialog.token').waitFor({ state: 'hidden' });
  await page.locator('[data-mode-badge]').waitFor();
  expect(await page.evaluate(() => localStorage.getItem('zhixing.token'))).toBe(TOKEN);

  // The chat works: the turn's events come over the session's stream, which needs the token too.
  await page.locator('#composer').fill('what is (3+5)*2');
  await page.locator('#composer').press('Enter');
  const card = page.locator('.tool-card[data-tool="calculator"][data-state="completed"]');
  await card.waitFor();
  await page.locator('article.msg-assistant', { hasText: '16' }).last().waitFor();
  const first = new URL(page.url()).pathname.split('/').pop()!;
  expect(first).toMatch(/^ses_/);

  // Kept over a reload: no question, no refusal, the chat comes back.
  const refusedBefore = refused.length;
  await page.reload();
  await card.waitFor();
  expect(await page.locator('dialog.token').isVisible()).toBe(false);

  // The server-wide stream works with the token: another chat's running and ending reach the sidebar.
  const calculator = server.app.tools.get('calculator')!;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  server.app.tools.register({
    ...calculator,
    execute: async (args, ctx) => (await gate, calculator.execute(args, ctx)),
  });
  try {
    const second = (await request(server.port, '/api/sessions', { body: {}, headers: auth })).json().id as string;
    const turn = request(server.port, `/api/sessions/${second}/chat`, {
      body: { message: 'what is 6*7' },
      headers: auth,
    });
    const entry = page.locator(`li.session[data-session="${second}"]`);
    await entry.locator('[data-running]').waitFor();
    release();
    expect((await turn).status).toBe(200);
    await entry.locator('[data-running]').waitFor({ state: 'detached' });
    expect(await entry.locator('.session-title').textContent()).toMatch(/6\*7/);
  } finally {
    release();
    server.app.tools.register(calculator);
  }
  await page.locator(`li.session[data-session="${first}"].active`).waitFor();
  expect(refused.length).toBe(refusedBefore);
  // Only the requests without the right token were refused.
  expect(refused.filter((r) => r.sent === TOKEN)).toEqual([]);
  await expectNoErrors([/^HTTP 401: /]);
});

it('asks again, in Chinese, when the token kept in the browser is no longer the right one', async () => {
  const made = (await request(server.port, '/api/sessions', { body: { title: '旧的对话' }, headers: auth })).json()
    .id as string;
  const { page, expectNoErrors } = await browser.openPage(`${server.url}/`, { locale: 'zh-CN' });
  await page.evaluate(() => localStorage.setItem('zhixing.token', 'an-old-token-from-another-server'));
  await page.reload();
  await tokenDialog(page).waitFor();
  expect(await tokenDialog(page).locator('h2').textContent()).toBe('此服务需要令牌');
  expect(await tokenDialog(page).locator('.notice-error').textContent()).toBe('服务拒绝了这个令牌，请检查后重试。');
  await giveToken(page, `  ${TOKEN}  `);
  await page.locator('dialog.token').waitFor({ state: 'hidden' });
  await page.locator('[data-mode-badge]').waitFor();
  expect(await page.evaluate(() => localStorage.getItem('zhixing.token'))).toBe(TOKEN);
  expect(await page.locator(`li.session[data-session="${made}"] .session-title`).textContent()).toBe('旧的对话');
  await expectNoErrors([/^HTTP 401: /]);
});
