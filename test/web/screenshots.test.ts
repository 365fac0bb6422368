/**
 * Screenshots of the main views for a person to look at, in test-results/screenshots/: a desktop
 * (1280×800, English) and a phone (360×740, Chinese), each light and dark — the chat with a
 * calculator card open, the phone's drawer, the permission dialog and the status panel.
 */
import { statSync } from 'node:fs';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/http.js';

// What page.evaluate's functions see, in the page; the tests compile without the DOM's types.
declare const document: any, requestAnimationFrame: any;

const browser = useBrowser();
let server: TestServer;
beforeEach(async () => {
  server = await startTestServer({ config: { permissions: { file_write: 'ask' } } });
});
afterEach(async () => {
  await server.close();
});

const DEVICES = {
  desktop: { viewport: { width: 1280, height: 800 }, locale: 'en-US' },
  phone: { viewport: { width: 360, height: 740 }, locale: 'zh-CN' },
} as const;

for (const device of ['desktop', 'phone'] as const) {
  for (const scheme of ['light', 'dark'] as const) {
    it(`${device}, ${scheme}: chat, ${device === 'phone' ? 'drawer, ' : ''}permission dialog, status panel`, async () => {
      const { page, expectNoErrors } = await browser.openPage(`${server.url}/`, {
        ...DEVICES[device],
        colorScheme: scheme,
      });
      // Still pictures: no half-slid drawer, no pulsing dot.
      await page.emulateMedia({ reducedMotion: 'reduce' });
      const shots: string[] = [];
      const shot = async (view: string) => {
        // Headless Chromium can capture a layer before it is painted (a drawer just shown came out blank): let it paint.
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        await page.waitForTimeout(250);
        shots.push(await browser.screenshot(page, `${device}-${scheme}-${view}`));
      };
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(scheme);

      await page.locator('#composer').fill('帮我算一下 (3+5)*2');
      await page.keyboard.press('Enter');
      await page.locator('.tool-card[data-tool="calculator"][data-state="completed"]').waitFor();
      await page.locator('article.msg-assistant', { hasText: '16' }).last().waitFor();
      await page.locator('#composer').fill('add a todo: buy milk tomorrow');
      await page.keyboard.press('Enter');
      await page.locator('.tool-card[data-tool="todo_add"][data-state="completed"]').waitFor();
      await page.locator('button.send.stop').waitFor({ state: 'detached' });
      await page.locator('.tool-card[data-tool="calculator"] .tool-head').click();
      await page.locator('pre.tool-output').waitFor();
      await page.locator('#composer').fill('what time is it');
      await page.mouse.move(0, 0);
      await shot('chat');

      if (device === 'phone') {
        await page.locator('.nav-toggle').click();
        await page.locator('.sidebar').waitFor();
        await shot('drawer');
        await page.keyboard.press('Escape');
        await page.locator('.sidebar').waitFor({ state: 'hidden' });
      }

      await page.locator('#composer').fill('write hello to notes/a.txt');
      await page.keyboard.press('Enter');
      await page.locator('dialog.permission').waitFor();
      await shot('permission');
      await page.locator('[data-decision="once"]').click();
      await page.locator('.tool-card[data-tool="file_write"][data-state="completed"]').waitFor();
      await page.locator('button.send.stop').waitFor({ state: 'detached' });

      await page.locator('[data-settings]').click();
      await page.locator('aside.panel [data-tools] li').first().waitFor();
      await shot('panel');

      for (const path of shots) expect(statSync(path).size).toBeGreaterThan(10_000);
      await expectNoErrors();
    });
  }
}
