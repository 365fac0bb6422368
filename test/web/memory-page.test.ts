/**
 * The memory page in a real Chromium, against the real API: the standing instructions (add, remove),
 * this chat's memories or every chat's, a Chinese two-character search, inline edit, delete after a
 * confirmation; Chinese words; usable from the keyboard and on a 360 px phone.
 */
import type { Page } from 'playwright-core';
import { afterEach, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/http.js';

const browser = useBrowser();
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function seeded() {
  const s = (server = await startTestServer());
  const coffee = s.app.sessions.create('咖啡').id;
  const health = s.app.sessions.create('Health').id;
  await s.app.memory.save({ sessionId: health, content: 'Allergic to peanuts', tags: ['health'] });
  await s.app.memory.save({ sessionId: coffee, content: '我喜欢喝美式咖啡', kind: 'preference', tags: ['饮品'] });
  await s.app.memory.save({ sessionId: coffee, content: '我住在杭州' });
  return { s, coffee, health };
}

async function openMemory(page: Page): Promise<void> {
  await page.locator('#composer').waitFor();
  await page.locator('[data-settings]').click();
  await page.locator('[data-open-memory]').click();
  await page.locator('[data-memory-page] [data-memory]').first().waitFor();
}

const contents = (page: Page) => page.locator('[data-memory-content]').allInnerTexts();

it("lists this chat's memories or all, searches with two Chinese characters, edits inline and deletes after asking", async () => {
  const { s, coffee } = await seeded();
  const { page, expectNoErrors } = await browser.openPage(`${s.url}/s/${coffee}`, { locale: 'en-US' });
  await openMemory(page);
  expect(await page.locator('[data-memory-status]').innerText()).toBe('3 memories · lexical search only');
  expect((await contents(page)).sort()).toEqual(['我住在杭州', '我喜欢喝美式咖啡']);
  const first = page.locator('[data-memory]').filter({ hasText: '美式咖啡' });
  expect(await first.locator('.memory-kind').innerText()).toBe('preference');
  expect(await first.locator('.memory-tag').innerText()).toBe('#饮品');
  expect(await first.locator('[data-memory-from]').innerText()).toBe('From “咖啡”');

  await page.locator('[data-memory-scope-all]').check();
  await expect.poll(() => contents(page).then((c) => c.length)).toBe(3);
  await page.locator('[data-memory-search]').fill('咖啡');
  await expect.poll(() => contents(page)).toEqual(['我喜欢喝美式咖啡']);
  await page.locator('[data-memory-search]').fill('茶叶');
  await page.locator('[data-memory-none]').waitFor();
  expect(await page.locator('[data-memory-none]').innerText()).toBe('No memory matches “茶叶”.');
  await page.locator('[data-memory-search]').fill('');
  await expect.poll(() => contents(page).then((c) => c.length)).toBe(3);

  // Edit inline, from the keyboard: an empty text is refused with the server's sentence, then saved.
  const peanuts = page.locator('[data-memory]').filter({ hasText: 'peanuts' });
  await peanuts.locator('[data-memory-edit]').focus();
  await page.keyboard.press('Enter');
  const draft = page.locator('[data-memory-draft]');
  await expect.poll(() => draft.evaluate((el) => el === document.activeElement)).toBe(true);
  await draft.fill(' ');
  await page.keyboard.press('Control+Enter');
  expect(await page.locator('[data-memory-edit-error]').innerText()).toBe('A memory needs some content.');
  await draft.fill('Allergic to peanuts and shellfish');
  await page.keyboard.press('Control+Enter');
  await expect.poll(() => contents(page)).toContain('Allergic to peanuts and shellfish');
  expect(s.app.memory.list().memories.find((m) => m.content.startsWith('Allergic'))?.content).toBe(
    'Allergic to peanuts and shellfish',
  );

  // Delete asks first; Cancel keeps it.
  const home = page.locator('[data-memory]').filter({ hasText: '杭州' });
  await home.locator('[data-memory-delete]').click();
  const dialog = page.locator('[data-memory-confirm-delete]');
  expect(await dialog.innerText()).toContain('我住在杭州');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(s.app.memory.list().total).toBe(3);
  await home.locator('[data-memory-delete]').click();
  await dialog.locator('[data-memory-confirm]').click();
  await expect.poll(() => contents(page).then((c) => c.length)).toBe(2);
  expect(s.app.memory.list().memories.map((m) => m.content)).not.toContain('我住在杭州');
  // The one refusal was the empty edit, said beside the text.
  await expectNoErrors([/^HTTP 400: PATCH .*\/api\/memories\//]);
}, 90_000);

it('adds and removes standing instructions, in Chinese, on a 360 px phone', async () => {
  const { s } = await seeded();
  const { page, expectNoErrors } = await browser.openPage(`${s.url}/`, {
    locale: 'zh-CN',
    viewport: { width: 360, height: 740 },
  });
  await page.locator('#composer').waitFor();
  await page.locator('[data-settings]').click();
  expect(await page.locator('[data-memory-summary]').innerText()).toBe('3 条记忆 · 仅关键词搜索');
  await page.locator('[data-open-memory]').click();
  await page.locator('[data-prefs-none]').waitFor();
  expect(await page.locator('[data-memory-page] h2').first().innerText()).toBe('记忆');
  for (const line of ['用中文回复', '回答简短']) {
    await page.locator('[data-pref-new]').fill(line);
    await page.keyboard.press('Enter');
    await page.locator('[data-pref]', { hasText: line }).waitFor();
  }
  expect(s.app.preferences.list()).toEqual(['用中文回复', '回答简短']);
  await page.locator('[data-pref]', { hasText: '用中文回复' }).locator('[data-pref-remove]').click();
  await expect.poll(() => page.locator('[data-pref]').allInnerTexts()).toEqual(['回答简短']);
  expect(s.app.preferences.list()).toEqual(['回答简短']);
  // Too long: the server's sentence, and nothing saved.
  await page.locator('[data-pref-new]').evaluate((el: HTMLInputElement) => el.removeAttribute('maxlength'));
  await page.locator('[data-pref-new]').fill('长'.repeat(501));
  await page.locator('[data-pref-add]').click();
  expect(await page.locator('[data-prefs-error]').innerText()).toBe('An instruction is longer than 500 characters.');
  // No chat open: all chats' memories; the page fits the phone.
  expect(await page.locator('[data-memory]').count()).toBe(3);
  const width = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    panel: document.querySelector('[data-memory-page]')!.getBoundingClientRect().width,
  }));
  expect(width.page).toBeLessThanOrEqual(360);
  expect(width.panel).toBeLessThanOrEqual(360);
  // Esc closes the page.
  await page.keyboard.press('Escape');
  await page.locator('[data-memory-page]').waitFor({ state: 'detached' });
  await expectNoErrors([/^HTTP 400: PUT .*\/api\/preferences$/]);
}, 90_000);
