/**
 * The layout in a real Chromium: a phone's width (no sideways scroll, the sidebar as a drawer), a
 * desktop's, and the whole app driven by the keyboard alone with the focus always to be seen.
 */
import type { Page } from 'playwright-core';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/http.js';

// What page.evaluate's functions see, in the page; the tests compile without the DOM's types.
declare const document: any, window: any, getComputedStyle: any;

const browser = useBrowser();
let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 800 };

/** How wide the page and the message list are inside, against the window. */
const widths = (page: Page) =>
  page.evaluate(() => ({
    window: window.innerWidth,
    page: document.documentElement.scrollWidth,
    messages: document.querySelector('.messages').scrollWidth,
  }));

/** Where the sidebar is: on screen (all of it inside the window) or not shown. */
async function sidebarShown(page: Page): Promise<boolean> {
  const sidebar = page.locator('.sidebar');
  if (!(await sidebar.isVisible())) return false;
  const box = (await sidebar.boundingBox())!;
  return box.x >= 0 && box.x + box.width <= (page.viewportSize()?.width ?? 0);
}

/** Asks for a sum in the open chat and waits for its card, done, and the answer. */
async function calculate(page: Page, expression: string, result: string): Promise<void> {
  const cards = page.locator('.tool-card[data-tool="calculator"]');
  const before = await cards.count();
  await page.locator('#composer').fill(`帮我算一下 ${expression}`);
  await page.keyboard.press('Enter');
  await expect.poll(() => cards.nth(before).getAttribute('data-state'), { timeout: 10_000 }).toBe('completed');
  await page.locator('article.msg-assistant', { hasText: result }).last().waitFor();
  await page.locator('button.send.stop').waitFor({ state: 'detached' });
}

it('fits a 360 px phone: no sideways scroll, the sidebar a drawer that closes once a chat is chosen', async () => {
  const { page, expectNoErrors } = await browser.openPage(`${server.url}/`, { viewport: PHONE, locale: 'en-US' });
  await page.locator('#composer').waitFor();
  expect(await widths(page)).toEqual({ window: 360, page: 360, messages: expect.any(Number) });
  expect((await widths(page)).messages).toBeLessThanOrEqual(360);
  expect(await sidebarShown(page)).toBe(false);
  const toggle = page.locator('.nav-toggle');
  expect(await toggle.getAttribute('aria-expanded')).toBe('false');

  // A calculator card, opened; then a long unbroken line and a wide expression.
  await calculate(page, '(3+5)*2', '16');
  await page.locator('.tool-card .tool-head').first().click();
  await page.locator('.tool-card pre.tool-input').first().waitFor();
  await calculate(page, `${'1234567890+'.repeat(12)}1`, '14814814681');
  await page.locator('.tool-card .tool-head').last().click();
  await page.locator('#composer').fill(`https://example.com/${'a'.repeat(300)}`);
  await page.keyboard.press('Enter');
  await page.locator('article.msg-user', { hasText: 'aaaa' }).waitFor();
  await page.locator('button.send.stop').waitFor({ state: 'detached' });
  const after = await widths(page);
  expect(after.page).toBeLessThanOrEqual(360);
  expect(after.messages).toBeLessThanOrEqual(360);
  const first = new URL(page.url()).pathname;

  // The drawer: opened by the toggle, closed by choosing New chat, a chat, the scrim or Esc.
  await toggle.click();
  await expect.poll(() => sidebarShown(page)).toBe(true);
  expect(await toggle.getAttribute('aria-expanded')).toBe('true');
  await page.locator('[data-new-chat]').click();
  await expect.poll(() => sidebarShown(page)).toBe(false);
  await page.waitForURL(`${server.url}/`);
  await calculate(page, '2^10', '1024');

  await toggle.click();
  await expect.poll(() => sidebarShown(page)).toBe(true);
  // The chat's actions are there without hovering (a phone cannot hover).
  expect(
    await page
      .locator('li.session')
      .first()
      .locator('[data-rename]')
      .evaluate((el) => getComputedStyle(el.parentElement).opacity),
  ).toBe('1');
  await page.locator(`li.session[data-session="${first.slice(3)}"] .session-open`).click();
  await expect.poll(() => sidebarShown(page)).toBe(false);
  await page.waitForURL(`${server.url}${first}`);
  await page.locator('.tool-card[data-tool="calculator"]').first().waitFor();

  await toggle.click();
  await expect.poll(() => sidebarShown(page)).toBe(true);
  await page.locator('.scrim').click({ position: { x: 340, y: 400 } });
  await expect.poll(() => sidebarShown(page)).toBe(false);
  await toggle.click();
  await expect.poll(() => sidebarShown(page)).toBe(true);
  await page.keyboard.press('Escape');
  await expect.poll(() => sidebarShown(page)).toBe(false);
  expect((await widths(page)).page).toBeLessThanOrEqual(360);
  await expectNoErrors();
});

it('shows the sidebar beside the chat on a desktop, without the drawer toggle', async () => {
  const { page, expectNoErrors } = await browser.openPage(`${server.url}/`, { viewport: DESKTOP, locale: 'en-US' });
  await page.locator('#composer').waitFor();
  expect(await sidebarShown(page)).toBe(true);
  expect(await page.locator('.nav-toggle').isVisible()).toBe(false);
  const sidebar = (await page.locator('.sidebar').boundingBox())!;
  const main = (await page.locator('main.main').boundingBox())!;
  expect(sidebar.x).toBe(0);
  expect(main.x).toBeGreaterThanOrEqual(sidebar.width);
  expect(main.x + main.width).toBeLessThanOrEqual(1280);
  const w = await widths(page);
  expect(w.page).toBeLessThanOrEqual(1280);
  await expectNoErrors();
});

/** What has the focus, and whether it shows (a ring from box-shadow or an outline). */
const focus = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    const style = getComputedStyle(el);
    return {
      el: el.id
        ? `#${el.id}`
        : el.matches('[data-settings]')
          ? 'settings'
          : el.matches('[data-new-chat]')
            ? 'new-chat'
            : el.matches('input')
              ? `input[name=${el.name}][value=${el.value}]`
              : el.matches('aside.panel [aria-label]')
                ? `panel: ${el.getAttribute('aria-label')}`
                : `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`,
      ring: style.boxShadow !== 'none' || (style.outlineStyle !== 'none' && style.outlineWidth !== '0px'),
    };
  });

/** Presses Tab (or Shift+Tab) until `what` has the focus, at most 30 times; each stop must show its focus. */
async function tabTo(page: Page, what: string, back = false): Promise<void> {
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const now = await focus(page);
    // The message box shows its focus on the row around it instead.
    if (now.el !== '#composer') expect(now.ring, `focus on ${now.el} is not visible`).toBe(true);
    if (now.el === what) return;
  }
  throw new Error(`${what} never got the focus`);
}

it('works from the keyboard alone, and the focus can always be seen', async () => {
  const { page, expectNoErrors } = await browser.openPage(`${server.url}/`, { viewport: DESKTOP, locale: 'en-US' });
  await page.locator('#composer').waitFor();

  // First stop: the skip link, shown when focused; it jumps to the message box.
  await page.keyboard.press('Tab');
  expect(await focus(page)).toEqual({ el: 'a.skip', ring: true });
  expect((await page.locator('a.skip').boundingBox())!.x).toBeGreaterThanOrEqual(0);
  await page.keyboard.press('Enter');
  expect((await focus(page)).el).toBe('#composer');
  expect(await page.locator('.composer-row').evaluate((el) => getComputedStyle(el).borderColor)).toBe(
    'rgb(47, 111, 94)',
  );

  await page.keyboard.type('帮我算一下 (3+5)*2');
  await page.keyboard.press('Enter');
  await page.locator('.tool-card[data-tool="calculator"][data-state="completed"]').waitFor();
  await page.locator('button.send.stop').waitFor({ state: 'detached' });
  await page.locator('article.msg-assistant', { hasText: '16' }).last().waitFor();

  // The focus stayed in the message box; back up from it to the card's header, and open it.
  expect((await focus(page)).el).toBe('#composer');
  await tabTo(page, 'button.tool-head', true);
  expect(await page.locator('.tool-head').getAttribute('aria-expanded')).toBe('false');
  await page.keyboard.press('Enter');
  expect(await page.locator('.tool-head').getAttribute('aria-expanded')).toBe('true');
  expect(await page.locator('pre.tool-input').innerText()).toContain('(3+5)*2');
  expect(await page.locator('pre.tool-output').innerText()).toContain('16');

  // Settings: Enter opens the panel and takes the focus there; the arrows pick a theme; Esc closes
  // it and gives the focus back.
  await tabTo(page, 'settings', true);
  await page.keyboard.press('Enter');
  await page.locator('aside.panel [data-mode]').waitFor();
  expect(await focus(page)).toEqual({ el: 'panel: Close', ring: true });
  await tabTo(page, 'input[name=theme][value=system]');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  expect(await focus(page)).toEqual({ el: 'input[name=theme][value=dark]', ring: true });
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
  await page.keyboard.press('Escape');
  await page.locator('aside.panel').waitFor({ state: 'detached' });
  expect(await focus(page)).toEqual({ el: 'settings', ring: true });

  // New chat, by keyboard.
  await tabTo(page, 'new-chat', true);
  await page.keyboard.press('Enter');
  await page.waitForURL(`${server.url}/`);
  await page.locator('.messages .empty').waitFor();
  await tabTo(page, '#composer');
  await page.keyboard.type('what is 6*7');
  await page.keyboard.press('Enter');
  await page.locator('article.msg-assistant', { hasText: '42' }).last().waitFor();
  await page.waitForURL(/\/s\/ses_/);
  expect(await page.locator('li.session').count()).toBe(2);
  await expectNoErrors();
});
