/**
 * Chromium's sandbox: a start that asks for it and fails (here: run as root, where Chromium refuses
 * to sandbox itself; elsewhere: no user namespaces) is retried once without it, and the user is told.
 * A real Chromium, started through the same code the browser tools use.
 */
import { expect, it } from 'vitest';
import { openBrowser } from '../../src/browser/open.js';
import { CHROMIUM_PATH } from '../support/browser.js';

const source = { chromiumPath: CHROMIUM_PATH, searchPath: '', env: { ...process.env } };

it('falls back to no sandbox once when a sandboxed start fails, and says so', async () => {
  const notices: string[] = [];
  // As another user than root: the sandboxed start comes first. Run as root it must fail and fall back.
  const { browser, attached } = await openBrowser(source, 'en', (m) => notices.push(m), 1000);
  try {
    expect(attached).toBe(false);
    const page = await browser.newPage();
    await page.setContent('<p>sandbox check</p>');
    expect(await page.textContent('p')).toBe('sandbox check');
    if (process.getuid?.() === 0) {
      expect(notices).toEqual([
        expect.stringMatching(/^Chromium could not start inside its sandbox \(.+\); running it without the sandbox\.$/),
      ]);
    } else {
      expect(notices.length).toBeLessThanOrEqual(1);
    }
  } finally {
    await browser.close();
  }
}, 60_000);

it('as root starts without the sandbox directly, with nothing to report', async () => {
  const notices: string[] = [];
  const { browser } = await openBrowser(source, 'zh', (m) => notices.push(m), 0);
  try {
    expect(notices).toEqual([]);
    expect(browser.isConnected()).toBe(true);
  } finally {
    await browser.close();
  }
}, 60_000);
