/**
 * The browser tools' cards in the web app: a navigation shows the page's title and its address as a
 * link, a screenshot shows on its card as an image. Deleting the session closes its browser context.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';
import { startSites, type Sites } from '../support/browser-site.js';
import { request, startTestServer, type TestServer } from '../support/http.js';
import { startOpenAiServer, textReply, toolCallsReply, type OpenAiServer } from '../support/openai-server.js';

const browser = useBrowser();
const eventually = <T>(check: () => T | Promise<T>, timeout = 15_000) => expect.poll(check, { timeout, interval: 50 });

let sites: Sites;
let model: OpenAiServer;
let server: TestServer;
beforeAll(async () => {
  sites = await startSites();
  model = await startOpenAiServer();
  server = await startTestServer({
    env: {
      ZHIXING_BASE_URL: model.url,
      ZHIXING_API_KEY: 'sk-test-browser-card',
      ZHIXING_MODEL: 'test-model',
      ZHIXING_ALLOW_PRIVATE_NETWORK: '1',
      ZHIXING_CHROMIUM_PATH: process.env.ZHIXING_TEST_CHROMIUM || '/usr/bin/chromium',
    },
    config: { permissions: { 'browser_*': 'allow' } },
  });
});
afterAll(async () => {
  await server?.app.browser.close();
  await server?.close();
  await model?.close();
  await sites?.close();
});

async function expectCards(page: Page, form: string) {
  const nav = page.locator('.tool-card[data-tool="browser_navigate"][data-state="completed"]');
  await nav.waitFor();
  expect(await nav.locator('.tool-title').textContent()).toBe('Sign-up');
  const link = nav.locator('a.browser-page-url');
  expect(await link.textContent()).toBe(form);
  expect(await link.getAttribute('href')).toBe(form);
  expect(await link.getAttribute('rel')).toContain('noopener');

  const shot = page.locator('.tool-card[data-tool="browser_screenshot"][data-state="completed"]');
  await shot.waitFor();
  const image = shot.locator('.attachments img');
  await image.waitFor();
  await eventually(() => image.evaluate((img: any) => img.complete && img.naturalWidth)).toBe(1280);
  expect(await image.evaluate((img: any) => [img.naturalHeight, img.alt])).toEqual([720, 'screenshot.png']);
  expect(await shot.locator('a.browser-page-url').textContent()).toBe(form);
}

it('shows the page on a navigation card and the screenshot on its card; deleting the session closes its browser context', async () => {
  const form = `http://127.0.0.1:${sites.publicPort}/form`;
  model.enqueue(
    toolCallsReply([{ id: 'nav', name: 'browser_navigate', args: { url: form } }]),
    toolCallsReply([{ id: 'name', name: 'browser_type', args: { selector: '#name', text: 'Ann' } }]),
    toolCallsReply([{ id: 'shot', name: 'browser_screenshot', args: {} }]),
    textReply('Here is the form, with your name filled in.'),
  );
  const { page, expectNoErrors } = await browser.openPage(`${server.url}/`, { locale: 'en-US' });
  await page.locator('#composer').fill(`Open the sign-up form at ${form}, put Ann as the name and show it to me`);
  await page.locator('#composer').press('Enter');
  await page.locator('article.msg-assistant', { hasText: 'Here is the form, with your name filled in.' }).waitFor();
  await expectCards(page, form);
  await browser.screenshot(page, 'browser-tool-cards');

  // The same from the stored history.
  await page.reload();
  await expectCards(page, form);
  await expectNoErrors();

  const sessionId = new URL(page.url()).pathname.split('/').at(-1)!;
  expect(server.app.browser.has(sessionId)).toBe(true);
  const deleted = await request(server.port, `/api/sessions/${sessionId}`, { method: 'DELETE' });
  expect(deleted.status).toBeLessThan(300);
  await eventually(() => server.app.browser.has(sessionId)).toBe(false);
});
