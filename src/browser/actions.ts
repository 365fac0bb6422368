/**
 * Acting on a page: finding the element a ref or CSS selector names, and waiting for what a click
 * or an Enter sets off (a form's submission, a link's navigation) before the page is read again.
 */
import type { Locator, Page } from 'playwright-core';
import { say, type Lang } from '../i18n.js';
import { ToolError } from '../contract/tool-error.js';

/** How long an element may take to become visible and enabled before a click or type gives up. */
export const ACTION_TIMEOUT_MS = 10_000;
/** A navigation set off by an action may start a moment after it: this long is waited for one to start. */
const NAVIGATION_START_MS = 300;
/** How long a navigation set off by an action may take to load. */
export const NAVIGATION_TIMEOUT_MS = 30_000;

/** Refs as snapshots give them: `e12`, or `f1e3` inside a frame. */
const REF = /^(?:f\d+)?e\d+$/;

export interface ElementTarget {
  ref?: string;
  selector?: string;
}

/** How the element is shown in asks and results: `[ref=e12]` or the selector. */
export const targetName = (t: ElementTarget): string => (t.ref ? `[ref=${t.ref}]` : (t.selector ?? ''));

/** The one element a ref or selector names, or an error the model can act on. */
export async function locate(
  page: Page,
  target: ElementTarget,
  lang: Lang,
): Promise<{ locator: Locator; note?: string }> {
  if (target.ref !== undefined) {
    const ref = target.ref.replace(/^\[?ref=|\]$/g, '').trim();
    if (!REF.test(ref)) {
      throw new ToolError(
        say(
          lang,
          `「${target.ref}」不是快照里的元素编号（形如 e12）。`,
          `"${target.ref}" is not an element ref from a snapshot (they look like e12).`,
        ),
      );
    }
    const locator = page.getByRef(ref);
    if ((await locator.count().catch(() => 0)) === 0) {
      throw new ToolError(
        say(
          lang,
          `页面上找不到 ${ref}：页面可能已经变了。请先调用 browser_snapshot 获取新的编号。`,
          `No element ${ref} on the page: it may have changed. Call browser_snapshot for fresh refs.`,
        ),
      );
    }
    return { locator };
  }
  const selector = (target.selector ?? '').trim();
  // `css=` keeps the text a CSS selector: Playwright would read `text=…` or `xpath=…` as its own engines.
  const locator = page.locator(`css=${selector}`);
  let count: number;
  try {
    count = await locator.count();
  } catch {
    throw new ToolError(
      say(lang, `「${selector}」不是有效的 CSS 选择器。`, `"${selector}" is not a valid CSS selector.`),
    );
  }
  if (count === 0) {
    throw new ToolError(
      say(
        lang,
        `页面上没有匹配「${selector}」的元素。可以先调用 browser_snapshot 看看页面。`,
        `Nothing on the page matches "${selector}". Call browser_snapshot to see the page.`,
      ),
    );
  }
  if (count === 1) return { locator };
  return {
    locator: locator.first(),
    note: say(
      lang,
      `「${selector}」匹配了 ${count} 个元素，用了第一个。`,
      `"${selector}" matched ${count} elements; the first was used.`,
    ),
  };
}

/**
 * Runs `action`, then, when it set off a navigation of the page (a submitted form, a followed link),
 * waits for the new page to load or fail, so what is read next is the result, not the page before it.
 */
export async function settleAfter(page: Page, action: () => Promise<void>): Promise<void> {
  let navigating = false;
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const onRequest = (request: import('playwright-core').Request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) navigating = true;
  };
  const onFailed = (request: import('playwright-core').Request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) done();
  };
  const onLoad = () => done();
  page.on('request', onRequest);
  page.on('requestfailed', onFailed);
  page.on('load', onLoad);
  try {
    await action();
    await page.waitForTimeout(NAVIGATION_START_MS);
    if (navigating) {
      await Promise.race([finished, page.waitForTimeout(NAVIGATION_TIMEOUT_MS)]);
    }
  } finally {
    page.off('request', onRequest);
    page.off('requestfailed', onFailed);
    page.off('load', onLoad);
  }
}
