/**
 * Undo in a real Chromium, offline: a turn overwrites a file, its Undo button puts the file back,
 * the turn then says "Undone" and its write card is marked, and a reload shows the same.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/http.js';

const browser = useBrowser();
let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

const workspaceFile = (path: string) => join(server.home, 'workspace', path);

it('puts back the file a turn overwrote, marks the turn undone, and keeps it so after a reload', async () => {
  writeFileSync(workspaceFile('notes.md'), 'my old notes');
  const { page, expectNoErrors } = await browser.openPage(`${server.url}/`, { locale: 'en-US' });
  await page.locator('#composer').fill('write hello to notes.md');
  await page.keyboard.press('Enter');
  const card = page.locator('.tool-card[data-tool="file_write"]');
  await expect.poll(() => card.getAttribute('data-state'), { timeout: 10_000 }).toBe('completed');
  expect(readFileSync(workspaceFile('notes.md'), 'utf8')).toBe('hello');

  const undo = page.locator('.turn-undo .undo-button');
  await undo.waitFor();
  expect(await undo.innerText()).toBe('Undo');
  await undo.click();
  await page.locator('.turn-undo .undone-label', { hasText: 'Undone' }).waitFor();
  expect(await page.locator('.notice-undo').innerText()).toBe('Restored notes.md.');
  expect(readFileSync(workspaceFile('notes.md'), 'utf8')).toBe('my old notes');
  expect(await card.getAttribute('data-undone')).toBe('Undone');
  expect(await undo.count()).toBe(0);
  await browser.screenshot(page, 'undo-done');

  await page.reload();
  await page.locator('.turn-undo .undone-label', { hasText: 'Undone' }).waitFor();
  expect(await page.locator('.tool-card[data-tool="file_write"]').getAttribute('data-undone')).toBe('Undone');
  expect(await page.locator('.turn-undo .undo-button').count()).toBe(0);
  await expectNoErrors();
});

it('offers Undo only on the newest turn that can still be undone, and a second click goes one turn further back', async () => {
  const { page, expectNoErrors } = await browser.openPage(`${server.url}/`, { locale: 'zh-CN' });
  for (const [text, n] of [
    ['write one to a.txt', 1],
    ['write two to a.txt', 2],
  ] as const) {
    await page.locator('#composer').fill(text);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.tool-card[data-state="completed"]').count(), { timeout: 10_000 }).toBe(n);
    await page.locator('button.send.stop').waitFor({ state: 'detached' });
  }
  const buttons = page.locator('.turn-undo .undo-button');
  await expect.poll(() => buttons.count()).toBe(1);
  expect(await buttons.innerText()).toBe('撤销');
  await buttons.click();
  await expect.poll(() => readFileSync(workspaceFile('a.txt'), 'utf8')).toBe('one');
  await expect.poll(() => page.locator('.turn-undo .undone-label').count()).toBe(1);
  await page.locator('.turn-undo .undo-button').click();
  await expect.poll(() => page.locator('.turn-undo .undone-label').count()).toBe(2);
  await expect.poll(() => page.locator('.notice-undo').innerText()).toBe('Removed a.txt.');
  await expectNoErrors();
});
