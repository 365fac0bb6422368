/**
 * Acting on a page: finding the element a ref or CSS selector names, and the frame (so the site) it
 * lives in, and waiting for what a click or an Enter sets off (a form's submission, a link's
 * navigation) before the page is read again.
 */
import type { ElementHandle, Frame, Locator, Page } from 'playwright-core';
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

/** Frames whose document is the one that made them (or its parent's): their own URL names no site. */
const INHERITING = /^about:(?:blank|srcdoc)(?:[?#]|$)/i;

/** How the element is shown in asks and results: `[ref=e12]` or the selector. */
export const targetName = (t: ElementTarget): string => (t.ref ? `[ref=${t.ref}]` : (t.selector ?? ''));

/**
 * Refuses a selector Playwright would not read as one CSS selector. Past a `>>` it reads each piece
 * with any of its engines, and `_react=` and `_vue=` run in the page's own JavaScript: the text of the
 * selector (which the model may have filled with the user's data) would reach the page's scripts while
 * the element is only being looked for, before any ask. With no `>>` the `css=` prefix is the only engine.
 */
export function checkSelector(selector: string, lang: Lang): void {
  if (!selector.includes('>>')) return;
  throw new ToolError(
    say(
      lang,
      `「${selector}」里有「>>」：浏览器会用别的选择器引擎读取它后面的部分（有的在网页自己的脚本里运行）。只接受纯 CSS 选择器；框架里的元素请用 browser_snapshot 给出的编号。`,
      `"${selector}" contains ">>", after which the browser reads the selector with other engines (some run in the page's own scripts). Only plain CSS selectors are accepted; for an element inside a frame, use its ref from browser_snapshot.`,
    ),
  );
}

/** What `siteOf` needs of a Playwright frame. */
export interface FrameLike {
  url(): string;
  parentFrame(): FrameLike | null;
}

/**
 * The URL of the site an element of `frame` belongs to, for the trust check: the frame's own, or for
 * about:blank and about:srcdoc the parent's — only when the parent can reach into the frame's document,
 * i.e. it has the parent's origin. Such a document takes its origin from whichever page made it, and a
 * frame of another site can turn itself into about:blank and keep its own: then it is no site the user
 * named ('about:blank'). data: and blob: stay as they are: they are no site the user named either.
 */
export async function siteOf(frame: FrameLike, inherits = parentReaches): Promise<string> {
  for (let f: FrameLike | null = frame; f; f = f.parentFrame()) {
    const url = f.url();
    if (!INHERITING.test(url)) return url || 'about:blank';
    if (!f.parentFrame() || !(await inherits(f))) return 'about:blank';
  }
  return 'about:blank';
}

/**
 * Whether the frame's parent can read the frame's document, asked of the parent's page: true only for a
 * document of the parent's origin. The parent could answer falsely, but only to credit its own site with
 * a frame it could already act through. An element with no `contentDocument` to ask (an `<embed>`, whose
 * document another site may have turned into about:blank) is answered no, never `undefined !== null`.
 */
async function parentReaches(frame: FrameLike): Promise<boolean> {
  const owner = await (frame as Frame).frameElement?.().catch(() => null);
  if (!owner) return false;
  try {
    return await owner.evaluate((el) => {
      try {
        const doc: unknown = (el as HTMLIFrameElement).contentDocument;
        return typeof doc === 'object' && doc !== null && (doc as Node).nodeType === 9;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  } finally {
    await owner.dispose().catch(() => {});
  }
}

/**
 * The one element a ref or selector names, held (not looked up again), and the URL of the frame it
 * lives in: a ref like `f1e2` reaches into an iframe, which may be another site's than the tab's.
 * The action then goes to this very element: should the frame load another page, it fails.
 */
export async function pinElement(
  page: Page,
  target: ElementTarget,
  lang: Lang,
): Promise<{ handle: ElementHandle; url: string; note?: string }> {
  const { locator, note } = await locate(page, target, lang);
  const handle = await locator.elementHandle({ timeout: ACTION_TIMEOUT_MS });
  const frame = await handle.ownerFrame().catch(() => null);
  if (!frame) {
    await handle.dispose().catch(() => {});
    throw new ToolError(
      say(
        lang,
        `无法确定 ${targetName(target)} 属于哪个页面或框架。请先调用 browser_snapshot 再试。`,
        `Could not tell which page or frame ${targetName(target)} belongs to. Call browser_snapshot and try again.`,
      ),
    );
  }
  const url = await siteOf(frame);
  const other = await otherSiteWithin(handle, url);
  if (other !== undefined) {
    await handle.dispose().catch(() => {});
    throw new ToolError(
      say(
        lang,
        `${targetName(target)} 里嵌着另一个网站的框架（${other}）：点在它上面会交给那个网站。请用 browser_snapshot 给出的框架里元素的编号来操作。`,
        `${targetName(target)} holds a frame of another site (${other}): acting on it would reach that site. Use the ref of the element inside the frame from browser_snapshot.`,
      ),
    );
  }
  return { handle, url, ...(note && { note }) };
}

const originOf = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
};

/**
 * The site of a frame the element is or holds, when it is not `site`'s: a click lands in whatever
 * document is at the element's middle, which for an iframe (or a box around one) is the frame's. The
 * frames are found from their side (each child frame's element, inside the element or a shadow root
 * within it): Playwright gives no `contentFrame()` for an `<embed>`, which can hold another site's page.
 */
async function otherSiteWithin(handle: ElementHandle, site: string): Promise<string | undefined> {
  const owner = await handle.ownerFrame().catch(() => null);
  for (const child of owner?.childFrames() ?? []) {
    const element = await child.frameElement().catch(() => null);
    if (!element) continue;
    try {
      const within = await handle
        .evaluate((box, el) => {
          for (let n: Node | null = el; n; n = n instanceof ShadowRoot ? n.host : n.parentNode)
            if (n === box) return true;
          return false;
        }, element)
        .catch(() => false);
      if (!within) continue;
      const inner = await siteOf(child);
      if (originOf(inner) !== originOf(site)) return inner;
    } finally {
      await element.dispose().catch(() => {});
    }
  }
  return undefined;
}

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
  checkSelector(selector, lang);
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
