/**
 * The permission dialog in a real Chromium, offline, with config.json saying file_write asks first:
 * what it shows, each answer (by mouse, by Esc, by keyboard alone), and the sidebar's badge for an
 * ask waiting in a chat that is not open.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';
import { request, startTestServer, type TestServer } from '../support/http.js';

// What page.evaluate's functions see, in the page; the tests compile without the DOM's types.
declare const document: any, getComputedStyle: any;

const browser = useBrowser();
let server: TestServer;
/** Every ask the server made, in order, by target. */
let asked: string[];
beforeEach(async () => {
  server = await startTestServer({ config: { permissions: { file_write: 'ask' } } });
  asked = [];
  server.app.bus.on('permission.asked', (e) => void asked.push(e.target));
});
afterEach(async () => {
  await server.close();
});

const workspaceFile = (path: string) => join(server.home, 'workspace', path);
const dialog = (page: Page) => page.locator('dialog.permission');
const cards = (page: Page) => page.locator('.tool-card[data-tool="file_write"]');

async function open(): Promise<ReturnType<typeof browser.openPage>> {
  const opened = await browser.openPage(`${server.url}/`, { locale: 'en-US' });
  await opened.page.locator('#composer').waitFor();
  return opened;
}

/** Sends `text` and waits for the dialog it makes the server ask. */
async function sendAndWaitForAsk(page: Page, text: string, path: string): Promise<void> {
  const before = asked.length;
  await page.locator('#composer').fill(text);
  await page.keyboard.press('Enter');
  await dialog(page).waitFor();
  expect(asked.slice(before)).toEqual([workspaceFile(path)]);
  expect(await dialog(page).locator('[data-target]').innerText()).toBe(workspaceFile(path));
}

/** Waits for the `n`th write card (from 1) to end in `state`, and for the turn to end. */
async function cardEnds(page: Page, n: number, state: 'completed' | 'error'): Promise<void> {
  const card = cards(page).nth(n - 1);
  await expect.poll(() => card.getAttribute('data-state'), { timeout: 10_000 }).toBe(state);
  expect(await card.getAttribute('class')).toContain(`is-${state}`);
  // ✓ or ✗, and words for it that a screen reader says.
  expect(await card.locator('.tool-status').getAttribute('aria-label')).toBe(state === 'completed' ? 'done' : 'failed');
  expect(await card.locator('.tool-status svg path').getAttribute('d')).toBe(
    state === 'completed' ? 'M5 12l5 5L19 7' : 'M6 6l12 12M18 6L6 18',
  );
  await page.locator('button.send.stop').waitFor({ state: 'detached' });
  await dialog(page).waitFor({ state: 'hidden' });
}

it('shows the tool and the file; "Allow once" writes it, the next write asks again, "Deny" writes nothing', async () => {
  const { page, expectNoErrors } = await open();
  await sendAndWaitForAsk(page, 'write hello to notes/a.txt', 'notes/a.txt');
  const text = await dialog(page).innerText();
  expect(text).toContain('Allow this action?');
  expect(text).toContain('file_write wants to write a file');
  // The call waits on the answer, and nothing is written yet.
  await expect.poll(() => cards(page).first().getAttribute('data-state')).toBe('running');
  expect(existsSync(workspaceFile('notes/a.txt'))).toBe(false);

  await dialog(page).locator('[data-decision="once"]').click();
  await cardEnds(page, 1, 'completed');
  expect(readFileSync(workspaceFile('notes/a.txt'), 'utf8')).toBe('hello');
  await page.locator('article.msg-assistant', { hasText: 'Wrote 5 bytes to notes/a.txt' }).waitFor();

  // Once is once: the same file asks again. Another file, in Chinese words, asks too.
  await sendAndWaitForAsk(page, 'write bye to notes/a.txt', 'notes/a.txt');
  await dialog(page).locator('[data-decision="deny"]').click();
  await cardEnds(page, 2, 'error');
  expect(readFileSync(workspaceFile('notes/a.txt'), 'utf8')).toBe('hello');

  await sendAndWaitForAsk(page, '把 你好世界 写到 笔记/日记.md', '笔记/日记.md');
  await dialog(page).locator('[data-decision="deny"]').click();
  await cardEnds(page, 3, 'error');
  expect(existsSync(workspaceFile('笔记/日记.md'))).toBe(false);
  expect(existsSync(workspaceFile('笔记'))).toBe(false);
  expect(asked).toHaveLength(3);
  await expectNoErrors();
});

it('"Always allow" lets later writes to that file run without asking; Esc on the dialog denies', async () => {
  const { page, expectNoErrors } = await open();
  await sendAndWaitForAsk(page, 'save two words into deep/dir/c.txt', 'deep/dir/c.txt');
  await dialog(page).locator('[data-decision="always"]').click();
  await cardEnds(page, 1, 'completed');
  expect(readFileSync(workspaceFile('deep/dir/c.txt'), 'utf8')).toBe('two words');

  await page.locator('#composer').fill('write three more words to deep/dir/c.txt');
  await page.keyboard.press('Enter');
  await cardEnds(page, 2, 'completed');
  expect(readFileSync(workspaceFile('deep/dir/c.txt'), 'utf8')).toBe('three more words');
  expect(asked).toHaveLength(1);

  // "Always" is for that file: another one still asks. Esc answers it with a no.
  await sendAndWaitForAsk(page, 'write hello to deep/dir/other.txt', 'deep/dir/other.txt');
  await page.keyboard.press('Escape');
  await cardEnds(page, 3, 'error');
  expect(existsSync(workspaceFile('deep/dir/other.txt'))).toBe(false);
  // Esc went to the dialog only: the page, its chat and the composer are as they were.
  expect(await page.locator('dialog[open]').count()).toBe(0);
  expect(await cards(page).count()).toBe(3);
  await expectNoErrors();
});

it('badges a chat that is not open while its ask waits, and the dialog says which chat', async () => {
  const { page, expectNoErrors } = await open();
  await page.locator('#composer').fill('what time is it');
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/s\/ses_/);
  await page.locator('button.send.stop').waitFor({ state: 'detached' });
  const openChat = new URL(page.url()).pathname.slice(3);

  // Another client starts a write in a chat of its own; its request waits on the answer.
  const other: string = (await request(server.port, '/api/sessions', { body: { title: 'Elsewhere' } })).json().id;
  const reply = request(server.port, `/api/sessions/${other}/chat`, {
    body: { message: 'write from afar to far.txt' },
  });
  const badge = page.locator(`li.session[data-session="${other}"] .badge-wait`);
  await badge.waitFor();
  expect(await badge.getAttribute('aria-label')).toBe('Waiting for you');
  expect(await page.locator(`li.session[data-session="${openChat}"] .badge-wait`).count()).toBe(0);
  await dialog(page).waitFor();
  expect(await dialog(page).innerText()).toContain('In chat “Elsewhere”');
  expect(await dialog(page).locator('[data-target]').innerText()).toBe(workspaceFile('far.txt'));
  // The open chat is still the one on screen.
  expect(new URL(page.url()).pathname).toBe(`/s/${openChat}`);

  await dialog(page).locator('[data-decision="once"]').click();
  await badge.waitFor({ state: 'detached' });
  expect((await reply).json().reply).toContain('far.txt');
  expect(readFileSync(workspaceFile('far.txt'), 'utf8')).toBe('from afar');
  await expectNoErrors();
});

it('can be answered with the keyboard alone: a stray Enter answers nothing, Tab reaches Deny, Always and Allow once', async () => {
  const { page, expectNoErrors } = await open();
  const focused = () =>
    page.evaluate(() => {
      const el = document.activeElement;
      return {
        what: el?.getAttribute('data-decision') ?? el?.id ?? el?.tagName,
        ring: getComputedStyle(el).boxShadow !== 'none' || getComputedStyle(el).outlineStyle !== 'none',
      };
    });
  // From the top of the page: the skip link, then into the message box.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  expect((await focused()).what).toBe('composer');
  await page.keyboard.type('write hello to notes/a.txt');
  await page.keyboard.press('Enter');
  await dialog(page).waitFor();
  // The dialog takes the focus itself: an Enter typed a moment too late answers nothing.
  expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('DIALOG');
  await page.keyboard.press('Enter');
  await page.waitForTimeout(300);
  expect(await dialog(page).isVisible()).toBe(true);
  await page.keyboard.press('Tab');
  expect(await focused()).toEqual({ what: 'deny', ring: true });
  await page.keyboard.press('Tab');
  expect(await focused()).toEqual({ what: 'always', ring: true });
  await page.keyboard.press('Tab');
  expect(await focused()).toEqual({ what: 'once', ring: true });
  await page.keyboard.press('Enter');
  await cardEnds(page, 1, 'completed');
  expect(readFileSync(workspaceFile('notes/a.txt'), 'utf8')).toBe('hello');
  // The focus comes back to the message box, ready for the next message.
  expect((await focused()).what).toBe('composer');

  await page.keyboard.type('write bye to notes/b.txt');
  await page.keyboard.press('Enter');
  await dialog(page).waitFor();
  await page.keyboard.press('Tab');
  expect(await focused()).toEqual({ what: 'deny', ring: true });
  await page.keyboard.press('Enter');
  await cardEnds(page, 2, 'error');
  expect(existsSync(workspaceFile('notes/b.txt'))).toBe(false);
  expect(asked).toEqual([workspaceFile('notes/a.txt'), workspaceFile('notes/b.txt')]);
  await expectNoErrors();
});
