/**
 * The status and settings panel in a real Chromium: the mode and tools offline, the model switcher
 * against a local OpenAI-format server (and when its model list fails), language and theme.
 */
import type { Page } from 'playwright-core';
import { afterEach, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';
import { request, startTestServer, type TestServer } from '../support/http.js';
import { startOpenAiServer, textReply, type OpenAiServer } from '../support/openai-server.js';

// What page.evaluate's functions see, in the page; the tests compile without the DOM's types.
declare const document: any, getComputedStyle: any;

const browser = useBrowser();
let server: TestServer | undefined;
let model: OpenAiServer | undefined;
afterEach(async () => {
  await server?.close();
  await model?.close();
  server = model = undefined;
});

async function withModel(models: Parameters<OpenAiServer['setModels']>[0]): Promise<TestServer> {
  model = await startOpenAiServer();
  model.setModels(models);
  return (server = await startTestServer({
    env: { ZHIXING_BASE_URL: model.url, ZHIXING_API_KEY: 'sk-test-panel-0123456789', ZHIXING_MODEL: 'test-model' },
  }));
}

async function openPanel(page: Page): Promise<void> {
  await page.locator('[data-settings]').click();
  await page.locator('aside.panel [data-mode]').waitFor();
}
const options = (page: Page) => page.locator('select[data-model] option').allInnerTexts();
const status = async () => (await request(server!.port, '/api/status')).json();

it('offline: says so, and lists the tools the server has', async () => {
  server = await startTestServer();
  const { page, expectNoErrors } = await browser.openPage(`${server.url}/`, { locale: 'en-US' });
  await page.locator('[data-mode-badge]', { hasText: 'Offline' }).waitFor();
  await openPanel(page);
  expect(await page.locator('[data-mode]').innerText()).toBe('Offline (rule-based planner, no model)');
  expect(await page.locator('[data-provider]').innerText()).toBe('offline');
  const tools = await page.locator('[data-tools] li').allInnerTexts();
  expect(tools).toEqual((await status()).tools);
  expect(tools).toEqual(expect.arrayContaining(['calculator', 'file_write', 'file_read', 'todo_add']));
  // No model to choose offline.
  expect(await page.locator('select[data-model]').isDisabled()).toBe(true);
  await page.locator('aside.panel button[aria-label="Close"]').click();
  await page.locator('aside.panel').waitFor({ state: 'detached' });
  await expectNoErrors();
});

it("lists the provider's models; choosing one changes the status and the next request's model", async () => {
  await withModel(['zeta-1', 'test-model', 'alpha-2']);
  const { page, expectNoErrors } = await browser.openPage(`${server!.url}/`, { locale: 'en-US' });
  await page.locator('[data-mode-badge]', { hasText: 'test-model' }).waitFor();
  await openPanel(page);
  expect(await page.locator('[data-mode]').innerText()).toBe('Model');
  expect(await page.locator('[data-provider]').innerText()).toBe('custom');
  await expect.poll(() => options(page)).toEqual(['alpha-2', 'test-model', 'zeta-1']);
  const select = page.locator('select[data-model]');
  expect(await select.inputValue()).toBe('test-model');
  expect(await select.isDisabled()).toBe(false);
  expect(await page.locator('aside.panel', { hasText: 'showing the configured one' }).count()).toBe(0);

  await select.selectOption('zeta-1');
  await expect.poll(async () => (await status()).model).toBe('zeta-1');
  await page.locator('[data-mode-badge]', { hasText: 'zeta-1' }).waitFor();
  expect(await select.inputValue()).toBe('zeta-1');

  model!.enqueue(textReply('Hello from zeta.'));
  await page.locator('aside.panel button[aria-label="Close"]').click();
  await page.locator('#composer').fill('hi');
  await page.keyboard.press('Enter');
  await page.locator('article.msg-assistant', { hasText: 'Hello from zeta.' }).waitFor();
  const chats = model!.requests.filter((r) => r.path === '/v1/chat/completions' && r.body?.stream === true);
  expect(chats.map((r) => r.body.model)).toEqual(['zeta-1']);

  // The choice is the server's: a reload shows it.
  await page.reload();
  await openPanel(page);
  await expect.poll(() => select.inputValue()).toBe('zeta-1');
  await expectNoErrors();
});

it('when the provider cannot list its models, shows the configured one alone, with a note', async () => {
  await withModel({ status: 500 });
  const { page, expectNoErrors } = await browser.openPage(`${server!.url}/`, { locale: 'en-US' });
  await openPanel(page);
  await page
    .locator('aside.panel', { hasText: 'The provider did not list its models; showing the configured one.' })
    .waitFor();
  expect(await options(page)).toEqual(['test-model']);
  expect(await page.locator('select[data-model]').inputValue()).toBe('test-model');
  expect(await page.locator('select[data-model]').isDisabled()).toBe(true);
  await expectNoErrors();
});

it('switches the language between 中文 and English, and keeps it over a reload', async () => {
  server = await startTestServer();
  const { page, expectNoErrors } = await browser.openPage(`${server.url}/`, { locale: 'en-US' });
  const words = async () => ({
    lang: await page.evaluate(() => document.documentElement.lang),
    newChat: (await page.locator('[data-new-chat]').innerText()).trim(),
    placeholder: await page.locator('#composer').getAttribute('placeholder'),
    mode: await page.locator('[data-mode]').innerText(),
  });
  const english = {
    lang: 'en',
    newChat: 'New chat',
    placeholder: 'Ask anything…',
    mode: 'Offline (rule-based planner, no model)',
  };
  const chinese = { lang: 'zh-CN', newChat: '新对话', placeholder: '问点什么…', mode: '离线（规则规划器，无模型）' };
  await openPanel(page);
  expect(await words()).toEqual(english);

  await page.locator('input[name=locale][value=zh]').check();
  expect(await words()).toEqual(chinese);
  expect(await page.locator('aside.panel h2').innerText()).toBe('状态');
  await page.reload();
  await openPanel(page);
  expect(await words()).toEqual(chinese);
  expect(await page.locator('input[name=locale][value=zh]').isChecked()).toBe(true);

  await page.locator('input[name=locale][value=en]').check();
  expect(await words()).toEqual(english);
  await page.reload();
  await openPanel(page);
  expect(await words()).toEqual(english);
  await expectNoErrors();

  // With nothing chosen yet, the browser's language decides.
  const zh = await browser.openPage(`${server.url}/`, { locale: 'zh-CN' });
  await openPanel(zh.page);
  expect((await zh.page.locator('[data-new-chat]').innerText()).trim()).toBe('新对话');
  await zh.expectNoErrors();
});

it('switches the theme, sets html[data-theme] and keeps it over a reload; System follows the browser', async () => {
  server = await startTestServer();
  const { page, expectNoErrors } = await browser.openPage(`${server.url}/`, { colorScheme: 'light', locale: 'en-US' });
  const look = () =>
    page.evaluate(() => ({
      theme: document.documentElement.dataset.theme,
      background: getComputedStyle(document.body).backgroundColor,
    }));
  const light = { theme: 'light', background: 'rgb(247, 247, 245)' };
  const dark = { theme: 'dark', background: 'rgb(22, 24, 23)' };
  await page.locator('#composer').waitFor();
  expect(await look()).toEqual(light);

  await openPanel(page);
  expect(await page.locator('input[name=theme][value=system]').isChecked()).toBe(true);
  await page.locator('input[name=theme][value=dark]').check();
  expect(await look()).toEqual(dark);
  await page.reload();
  await page.locator('#composer').waitFor();
  expect(await look()).toEqual(dark);

  await openPanel(page);
  expect(await page.locator('input[name=theme][value=dark]').isChecked()).toBe(true);
  await page.locator('input[name=theme][value=light]').check();
  expect(await look()).toEqual(light);
  // System: the browser says dark now, and the page follows it as it changes.
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await look()).toEqual(light);
  await page.locator('input[name=theme][value=system]').check();
  expect(await look()).toEqual(dark);
  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(look).toEqual(light);
  await page.reload();
  await page.locator('#composer').waitFor();
  expect(await look()).toEqual(light);
  await expectNoErrors();
});
