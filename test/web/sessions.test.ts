/**
 * The sidebar's chats in a real Chromium: made, renamed, switched, deleted — by this page, and live
 * when another client (the API) makes, runs or deletes one.
 */
import type { Page } from 'playwright-core';
import { afterEach, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';
import { request, startTestServer, type TestServer } from '../support/http.js';
import { startOpenAiServer, textReply, type OpenAiServer } from '../support/openai-server.js';

// What page.evaluate's functions see, in the page; the tests compile without the DOM's types.
declare const document: any, window: any;

const browser = useBrowser();
let server: TestServer | undefined;
let model: OpenAiServer | undefined;
afterEach(async () => {
  await server?.close();
  await model?.close();
  server = model = undefined;
});

interface ApiSession {
  id: string;
  title: string;
}
const apiSessions = async (): Promise<ApiSession[]> => (await request(server!.port, '/api/sessions')).json().sessions;
const sidebarIds = (page: Page) =>
  page.locator('li.session').evaluateAll((items) => items.map((li) => li.getAttribute('data-session')));
const row = (page: Page, id: string) => page.locator(`li.session[data-session="${id}"]`);
const userBubbles = (page: Page) => page.locator('article.msg-user').allInnerTexts();
const openId = (page: Page) => /\/s\/([^/]+)$/.exec(new URL(page.url()).pathname)?.[1] ?? null;

/** Sends `text` in the open chat and waits until its turn has ended and the sidebar shows it idle. */
async function chat(page: Page, text: string, reply: string): Promise<string> {
  await page.locator('#composer').fill(text);
  await page.keyboard.press('Enter');
  await page.locator('article.msg-assistant', { hasText: reply }).last().waitFor();
  await page.locator('button.send.stop').waitFor({ state: 'detached' });
  const id = openId(page);
  expect(id).toMatch(/^ses_/);
  await row(page, id!).locator('[data-running]').waitFor({ state: 'detached' });
  return id!;
}

it('New chat starts an empty chat; sending makes the session, and the list is most recent first', async () => {
  server = await startTestServer();
  const { page, expectNoErrors } = await browser.openPage(`${server.url}/`, { locale: 'en-US' });
  await page.locator('.sessions .muted', { hasText: 'No chats yet.' }).waitFor();
  expect(await page.locator('li.session').count()).toBe(0);

  const first = await chat(page, '帮我算一下 (3+5)*2', '16');
  expect(await sidebarIds(page)).toEqual([first]);
  expect(await row(page, first).getAttribute('class')).toContain('active');
  expect(await row(page, first).locator('.session-title').innerText()).toBe('帮我算一下 (3+5)*2');

  // New chat: nothing is made until a message is sent.
  await page.locator('[data-new-chat]').click();
  await page.waitForURL(`${server.url}/`);
  await page.locator('.messages .empty').waitFor();
  expect(await page.locator('.topbar-title').innerText()).toBe('New chat');
  expect((await apiSessions()).map((s) => s.id)).toEqual([first]);
  expect(await page.locator('li.session.active').count()).toBe(0);

  const second = await chat(page, 'what time is it', 'time');
  expect(second).not.toBe(first);
  expect(await sidebarIds(page)).toEqual([second, first]);
  expect((await apiSessions()).map((s) => s.id)).toEqual([second, first]);

  // Talking in the older chat brings it to the top.
  await row(page, first).locator('.session-open').click();
  await page.waitForURL(`**/s/${first}`);
  await chat(page, 'add a todo: buy milk', 'buy milk');
  await expect.poll(() => sidebarIds(page)).toEqual([first, second]);
  expect((await apiSessions()).map((s) => s.id)).toEqual([first, second]);
  await expectNoErrors();
});

it('renames inline: Enter saves, Esc cancels, an empty name is not saved, and a reload keeps it', async () => {
  server = await startTestServer();
  const { page, expectNoErrors } = await browser.openPage(`${server.url}/`, { locale: 'en-US' });
  const id = await chat(page, 'what time is it', 'time');
  const patches: string[] = [];
  page.on('request', (r) => r.method() === 'PATCH' && patches.push(r.postData() ?? ''));
  const input = row(page, id).locator('.rename-input');
  const title = row(page, id).locator('.session-title');

  // The field opens with the name selected, so typing replaces it.
  await row(page, id).locator('[data-rename]').click();
  await input.waitFor();
  expect(
    await input.evaluate((el: any) => [
      el === document.activeElement,
      el.selectionStart,
      el.selectionEnd,
      el.value.length,
    ]),
  ).toEqual([true, 0, 15, 15]);
  await page.keyboard.type('Groceries 购物');
  await page.keyboard.press('Enter');
  await input.waitFor({ state: 'detached' });
  // The new name shows once the server has taken it.
  await expect.poll(() => title.innerText()).toBe('Groceries 购物');
  expect(await page.locator('.topbar-title').innerText()).toBe('Groceries 购物');
  expect((await apiSessions())[0]!.title).toBe('Groceries 购物');
  expect(patches).toHaveLength(1);

  // Esc gives up.
  await row(page, id).locator('[data-rename]').click();
  await page.keyboard.type('Not this');
  await page.keyboard.press('Escape');
  await input.waitFor({ state: 'detached' });
  expect(await title.innerText()).toBe('Groceries 购物');

  // Empty or blank: nothing is sent, the name stays.
  for (const blank of ['', '   ']) {
    await row(page, id).locator('[data-rename]').click();
    await page.keyboard.press('Backspace');
    if (blank) await page.keyboard.type(blank);
    await page.keyboard.press('Enter');
    await input.waitFor({ state: 'detached' });
    expect(await title.innerText()).toBe('Groceries 购物');
  }
  await page.waitForTimeout(200);
  expect(patches).toHaveLength(1);
  expect((await apiSessions())[0]!.title).toBe('Groceries 购物');

  await page.reload();
  await title.waitFor();
  expect(await title.innerText()).toBe('Groceries 购物');
  expect(await page.locator('.topbar-title').innerText()).toBe('Groceries 购物');
  await expectNoErrors();
});

it('a name of 200+ characters is cut to 200 and does not push the layout sideways', async () => {
  server = await startTestServer();
  const { page, expectNoErrors } = await browser.openPage(`${server.url}/`, { locale: 'en-US' });
  const id = await chat(page, 'what time is it', 'time');
  // Words, CJK and one unbroken run: every way a long name can fail to wrap.
  const long = `Trip plan 旅行计划 ${'长'.repeat(60)} ${'x'.repeat(150)}`;
  expect(long.length).toBeGreaterThan(200);

  await row(page, id).locator('[data-rename]').click();
  const input = row(page, id).locator('.rename-input');
  await input.fill(long);
  expect((await input.inputValue()).length).toBe(200);
  await page.keyboard.press('Enter');
  await input.waitFor({ state: 'detached' });
  await expect.poll(() => row(page, id).locator('.session-title').innerText()).toBe(long.slice(0, 200));
  expect((await apiSessions())[0]!.title).toBe(long.slice(0, 200));

  const fits = await page.evaluate(() => {
    const box = (s: string) => document.querySelector(s)!.getBoundingClientRect();
    const el = (s: string) => document.querySelector(s)!;
    return {
      page: document.documentElement.scrollWidth <= window.innerWidth,
      sidebar: el('.sidebar').scrollWidth <= el('.sidebar').clientWidth,
      row: box('li.session').right <= box('.sidebar').right + 0.5,
      actions: box('li.session .session-actions').right <= box('.sidebar').right + 0.5,
      topbar: el('.topbar').scrollWidth <= el('.topbar').clientWidth,
    };
  });
  expect(fits).toEqual({ page: true, sidebar: true, row: true, actions: true, topbar: true });
  await expectNoErrors();
});

it('switches chats by click and by Back/Forward, each showing its own history', async () => {
  server = await startTestServer();
  const { page, expectNoErrors } = await browser.openPage(`${server.url}/`, { locale: 'en-US' });
  const a = await chat(page, '帮我算一下 (3+5)*2', '16');
  await page.locator('[data-new-chat]').click();
  const b = await chat(page, 'add a todo: buy milk', 'buy milk');
  expect(await userBubbles(page)).toEqual(['add a todo: buy milk']);

  const shows = async (id: string, bubbles: string[]) => {
    await page.waitForURL(`${server!.url}/s/${id}`);
    await expect.poll(() => userBubbles(page)).toEqual(bubbles);
    expect(await page.locator('li.session.active').getAttribute('data-session')).toBe(id);
    expect(await row(page, id).locator('.session-open').getAttribute('aria-current')).toBe('page');
  };
  await row(page, a).locator('.session-open').click();
  await shows(a, ['帮我算一下 (3+5)*2']);
  expect(await page.locator('.tool-card[data-tool="calculator"][data-state="completed"]').count()).toBe(1);

  await page.goBack();
  await shows(b, ['add a todo: buy milk']);
  expect(await page.locator('.tool-card[data-tool="calculator"]').count()).toBe(0);
  await page.goForward();
  await shows(a, ['帮我算一下 (3+5)*2']);
  // History so far: a, New chat, b, a. Two steps back is the new chat, one more is a again.
  await page.goBack();
  await page.goBack();
  await page.waitForURL(`${server.url}/`);
  await page.locator('.messages .empty').waitFor();
  expect(await page.locator('li.session.active').count()).toBe(0);
  await page.goBack();
  await shows(a, ['帮我算一下 (3+5)*2']);
  await expectNoErrors();
});

it('New chat chosen while a chat is still loading shows the new, empty chat', async () => {
  server = await startTestServer();
  const { page, settled, expectNoErrors } = await browser.openPage(`${server.url}/`, { locale: 'en-US' });
  const a = await chat(page, 'what time is it', 'time');
  await page.locator('[data-new-chat]').click();
  await page.locator('.messages .empty').waitFor();
  // A slow history: held until the chat is chosen and left, then let through.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/sessions/*/messages', async (route) => {
    await held;
    await route.continue();
  });
  await row(page, a).locator('.session-open').click();
  await page.waitForURL(`${server.url}/s/${a}`);
  await page.locator('[data-new-chat]').click();
  await page.waitForURL(`${server.url}/`);
  const late = page.waitForResponse((r) => r.url().includes(`/api/sessions/${a}/messages`));
  release();
  // The history came after all, and the page has had its time with it (nothing in flight for a while).
  await late;
  await settled();
  expect(await page.locator('.messages .empty').isVisible()).toBe(true);
  expect(await page.locator('article.msg-user').count()).toBe(0);
  expect(await page.locator('.topbar-title').innerText()).toBe('New chat');
  await expectNoErrors();
});

it('deletes after confirming: Cancel and Esc keep it; deleting the open chat goes to a new chat', async () => {
  server = await startTestServer();
  const { page, expectNoErrors } = await browser.openPage(`${server.url}/`, { locale: 'en-US' });
  const a = await chat(page, 'what time is it', 'time');
  await page.locator('[data-new-chat]').click();
  const b = await chat(page, 'add a todo: buy milk', 'buy milk');
  const dialog = page.locator('dialog.confirm');

  await row(page, a).locator('[data-delete]').click();
  await dialog.waitFor();
  expect(await dialog.innerText()).toContain('“what time is it”');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await row(page, a).locator('[data-delete]').click();
  await dialog.waitFor();
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  expect(await sidebarIds(page)).toEqual([b, a]);
  expect((await apiSessions()).map((s) => s.id)).toEqual([b, a]);

  // Another chat than the open one: it goes, the open one stays.
  await row(page, a).locator('[data-delete]').click();
  await dialog.locator('[data-confirm-delete]').click();
  await row(page, a).waitFor({ state: 'detached' });
  expect((await apiSessions()).map((s) => s.id)).toEqual([b]);
  expect(page.url()).toBe(`${server.url}/s/${b}`);

  // The open one: the page moves to a new chat.
  await row(page, b).locator('[data-delete]').click();
  await dialog.locator('[data-confirm-delete]').click();
  await page.waitForURL(`${server.url}/`);
  await page.locator('.messages .empty').waitFor();
  expect(await page.locator('li.session').count()).toBe(0);
  expect(await apiSessions()).toEqual([]);
  expect(await page.locator('.topbar-title').innerText()).toBe('New chat');
  await expectNoErrors();
});

it('a chat deleted by another client leaves the sidebar live, and the page leaves it if it was open', async () => {
  server = await startTestServer();
  const { page, expectNoErrors } = await browser.openPage(`${server.url}/`, { locale: 'en-US' });
  const a = await chat(page, 'what time is it', 'time');
  await page.locator('[data-new-chat]').click();
  const b = await chat(page, 'add a todo: buy milk', 'buy milk');

  expect((await request(server.port, `/api/sessions/${a}`, { method: 'DELETE' })).status).toBe(204);
  await row(page, a).waitFor({ state: 'detached' });
  expect(await sidebarIds(page)).toEqual([b]);
  expect(page.url()).toBe(`${server.url}/s/${b}`);

  expect((await request(server.port, `/api/sessions/${b}`, { method: 'DELETE' })).status).toBe(204);
  await row(page, b).waitFor({ state: 'detached' });
  await page.waitForURL(`${server.url}/`);
  await page.locator('.toast', { hasText: 'This chat no longer exists.' }).waitFor();
  await page.locator('.messages .empty').waitFor();
  await expectNoErrors();
});

it('a chat made and run by another client shows up, with its running dot while it runs', async () => {
  model = await startOpenAiServer();
  server = await startTestServer({
    env: { ZHIXING_BASE_URL: model.url, ZHIXING_API_KEY: 'sk-test-sessions-0123456789', ZHIXING_MODEL: 'test-model' },
  });
  // About three and a half seconds of answer: long enough to be seen running.
  model.enqueue({
    ...textReply('A slow answer, streamed a few characters at a time, so the turn is seen running.'),
    delayMs: 150,
  });
  const { page, expectNoErrors } = await browser.openPage(`${server.url}/`, { locale: 'en-US' });
  await page.locator('.sessions .muted', { hasText: 'No chats yet.' }).waitFor();

  const created = await request(server.port, '/api/sessions', { body: { title: 'From the API' } });
  expect(created.status).toBe(201);
  const id: string = created.json().id;
  const answered = request(server.port, `/api/sessions/${id}/chat`, { body: { message: 'hello' } });

  await row(page, id).locator('[data-running]').waitFor();
  expect(await row(page, id).locator('.session-title').innerText()).toBe('From the API');
  expect((await apiSessions()).find((s) => s.id === id)).toMatchObject({ status: 'busy' });
  // It runs elsewhere: this page stays where it was.
  expect(page.url()).toBe(`${server.url}/`);

  expect((await answered).json().reply).toContain('A slow answer');
  await row(page, id).locator('[data-running]').waitFor({ state: 'detached' });
  // Opened now, it shows what was said.
  await row(page, id).locator('.session-open').click();
  await page.locator('article.msg-assistant', { hasText: 'seen running' }).waitFor();
  expect(await userBubbles(page)).toEqual(['hello']);
  await expectNoErrors();
});
