/**
 * The browser tools: a real Chromium the model drives by URL, by the refs of an accessibility
 * snapshot or by CSS selectors, one context per session. What a page says reaches the model fenced
 * as untrusted content; a screenshot reaches the user only. Every call asks the permission layer
 * (browser_* asks by default) and every request of the page passes the network policy.
 */
import { z } from 'zod';
import type { Page } from 'playwright-core';
import {
  ACTION_TIMEOUT_MS,
  checkSelector,
  NAVIGATION_TIMEOUT_MS,
  pinElement,
  settleAfter,
  targetName,
  type ElementTarget,
} from '../browser/actions.js';
import { BrowserUnavailable, firstLine } from '../browser/launch.js';
import type { BrowserManager, BrowserTabs } from '../browser/manager.js';
import { saveScreenshot } from '../browser/screenshot-file.js';
import { viewPage, viewText } from '../browser/snapshot.js';
import { say, type Lang } from '../i18n.js';
import type { NetworkPolicyError } from '../net/policy.js';
import { blockedNote, browserRefusedText, noPageText, policyText } from './browser-text.js';
import { defineTool, type Tool, type ToolContext, type ToolOutput } from './tool.js';
import { ToolError } from '../contract/tool-error.js';
import type { PermissionRequest } from '../contract/permission.js';
import { untrusted } from '../contract/untrusted-fence.js';

/** The first call starts Chromium (a second or more on a busy machine) before the page loads. */
const NAVIGATE_TIMEOUT_MS = 60_000;
const ACT_TIMEOUT_MS = 45_000;
const MAX_URL_CHARS = 4_000;
const MAX_TYPED_CHARS = 10_000;
const MAX_SELECTOR_CHARS = 1_000;

const Element = {
  ref: z.string().max(40).optional().describe('Element ref from the latest snapshot, e.g. e12.'),
  selector: z.string().max(MAX_SELECTOR_CHARS).optional().describe('CSS selector, instead of ref.'),
};
const oneTarget = (v: ElementTarget) => (v.ref === undefined) !== (v.selector === undefined);
const ONE_TARGET = { message: 'Give either ref (from browser_snapshot) or selector (CSS), not both.' };

const NavigateArgs = z
  .object({
    url: z.string().max(MAX_URL_CHARS).optional().describe('http(s) URL to open in the current tab.'),
    action: z.enum(['back', 'forward', 'reload', 'new_tab', 'close_tab']).optional().describe('Instead of url.'),
  })
  .refine((v) => (v.url === undefined) !== (v.action === undefined), {
    message: 'Give either url or action, not both.',
  });
const ClickArgs = z.object(Element).refine(oneTarget, ONE_TARGET);
const TypeArgs = z
  .object({
    ...Element,
    text: z.string().max(MAX_TYPED_CHARS).describe('Text to type; replaces what the field held.'),
    submit: z.boolean().optional().describe('Press Enter after, e.g. to submit a form.'),
  })
  .refine(oneTarget, ONE_TARGET);

/** A URL as the model may write it: a bare `example.com/x` means https. */
function normalizeUrl(raw: string): string {
  const text = raw.trim();
  return /^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`;
}

async function askOrRefuse(
  ctx: ToolContext,
  action: string,
  target: string,
  what: string,
  sendsTo?: PermissionRequest['sendsTo'],
): Promise<void> {
  // The browser touches no file: the workspace's bounds do not apply, the rules alone decide.
  const decision = await ctx.ask({ action, target, insideSandbox: true, ...(sendsTo && { sendsTo }) });
  if (decision !== 'allow')
    throw new ToolError(browserRefusedText(ctx.lang, what, ctx.refusal?.()), { kind: 'refused' });
}

/** The page after an action: title, URL and tree, fenced; the policy's blocks said by us, outside it. */
async function pageResult(page: Page, tabs: BrowserTabs, since: number, lang: Lang, extra = ''): Promise<ToolOutput> {
  const view = await viewPage(page, lang);
  const note = blockedNote(lang, tabs.refusals.slice(since)) + extra;
  return {
    output: `${note}${untrusted(view.url, viewText(view, lang), 'browser page')}`,
    // The card shows the title in its head and the URL as a link below it.
    title: view.title || view.url,
    metadata: { url: view.url, title: view.title, tabs: tabs.pages.length },
  };
}

/** Playwright's failures as one line the model can act on. */
function failed(lang: Lang, what: string, err: unknown): ToolError {
  if (err instanceof ToolError) return err;
  if (err instanceof BrowserUnavailable) return new ToolError(err.message);
  return new ToolError(say(lang, `${what}失败：${firstLine(err)}`, `${what} failed: ${firstLine(err)}`));
}

async function open(page: Page, url: URL, tabs: BrowserTabs, lang: Lang): Promise<void> {
  const { REFUSED_HEADER } = await import('../browser/proxy.js');
  const before = tabs.refusals.length;
  let response;
  try {
    response = await page.goto(url.href, { waitUntil: 'load', timeout: NAVIGATION_TIMEOUT_MS });
  } catch (err) {
    // The proxy or the route refused a hop (a redirect to a private address): say that, not net::ERR_….
    // Either way the message may name what the server chose (a redirect's target): outside words.
    const refusal = tabs.refusals.slice(before).find((r) => !r.subresource);
    if (refusal) throw new ToolError(policyText(lang, refusal, refusal.url), { outside: true });
    throw new ToolError(failed(lang, say(lang, `打开 ${url.href} `, `Opening ${url.href}`), err).message, {
      outside: true,
    });
  }
  if (response?.headers()[REFUSED_HEADER]) {
    const refusal = tabs.refusals.slice(before).find((r) => r.url === page.url()) ?? tabs.refusals.at(-1);
    await page.goto('about:blank').catch(() => {});
    throw new ToolError(
      refusal
        ? policyText(lang, refusal, refusal.url)
        : say(lang, '网络策略拒绝了这个页面。', 'The network policy refused this page.'),
      { outside: true },
    );
  }
}

/** The five browser tools over one manager (its policy is the one every request obeys). */
export function createBrowserTools(manager: BrowserManager): Tool[] {
  const { policy } = manager;

  const navigate = defineTool({
    name: 'browser_navigate',
    description:
      'Opens a URL in a real browser, or goes back/forward, reloads, opens or closes a tab. Returns the page title, URL and ' +
      'an accessibility snapshot with element refs. For pages needing JavaScript, forms or clicks; to just read a page, web_fetch is cheaper.',
    parameters: NavigateArgs,
    timeoutMs: NAVIGATE_TIMEOUT_MS,
    annotations: { openWorld: true },
    async execute(args, ctx) {
      const { lang } = ctx;
      if (args.url !== undefined) {
        // The policy's address parser loads at the first navigation, not at every start.
        const { checkUrl, checkUrlResolved, NetworkPolicyError } = await import('../net/policy.js');
        const raw = normalizeUrl(args.url);
        let url: URL;
        try {
          url = checkUrl(raw, policy);
        } catch (err) {
          if (err instanceof NetworkPolicyError) throw new ToolError(policyText(lang, err as NetworkPolicyError, raw));
          throw err;
        }
        // The page reads its own #fragment: in the browser a fragment is part of what is sent.
        await askOrRefuse(ctx, 'browser.navigate', url.href, url.href, {
          kind: 'url',
          url: url.href,
          fragmentSeen: true,
        });
        try {
          await checkUrlResolved(url, policy);
        } catch (err) {
          if (err instanceof NetworkPolicyError) throw new ToolError(policyText(lang, err, url.href));
          throw err;
        }
        return manager
          .use(ctx.sessionId, lang, async (tabs) => {
            const page = await tabs.current();
            const since = tabs.refusals.length;
            await open(page, url, tabs, lang);
            return pageResult(page, tabs, since, lang);
          })
          .catch((err) => {
            throw failed(lang, say(lang, '打开网页', 'Opening the page'), err);
          });
      }
      const action = args.action!;
      // Without a context yet, asked before Chromium starts: a refused call costs nothing.
      const fresh = !manager.has(ctx.sessionId);
      if (fresh) await askOrRefuse(ctx, 'browser.navigate', `${action} about:blank`, `${action} (about:blank)`);
      return manager
        .use(ctx.sessionId, lang, async (tabs) => {
          const here = tabs.pages.length ? (await tabs.current()).url() : 'about:blank';
          // Every action here is seen by the pages: reload, back and forward load one again, and a tab opened
          // or closed is seen when a page closes. Once outside text came in, their count and timing could carry data.
          if (!fresh)
            await askOrRefuse(ctx, 'browser.navigate', `${action} ${here}`, `${action} (${here})`, {
              kind: 'reopen',
              url: here,
            });
          const since = tabs.refusals.length;
          if (action === 'new_tab') return pageResult(await tabs.newTab(), tabs, since, lang);
          if (action === 'close_tab') {
            await tabs.closeTab();
            return pageResult(
              await tabs.current(),
              tabs,
              since,
              lang,
              say(
                lang,
                `已关闭标签页，还剩 ${Math.max(1, tabs.pages.length)} 个。\n`,
                `Closed the tab; ${Math.max(1, tabs.pages.length)} left.\n`,
              ),
            );
          }
          const page = await tabs.current();
          const options = { waitUntil: 'load' as const, timeout: NAVIGATION_TIMEOUT_MS };
          const moved =
            action === 'back'
              ? await page.goBack(options)
              : action === 'forward'
                ? await page.goForward(options)
                : await page.reload(options);
          if (moved === null && action !== 'reload') {
            throw new ToolError(
              say(
                lang,
                action === 'back' ? '没有可以后退的页面。' : '没有可以前进的页面。',
                action === 'back'
                  ? 'There is no earlier page to go back to.'
                  : 'There is no later page to go forward to.',
              ),
            );
          }
          return pageResult(page, tabs, since, lang);
        })
        .catch((err) => {
          throw failed(lang, action, err);
        });
    },
  });

  const snapshot = defineTool({
    name: 'browser_snapshot',
    description:
      'The current tab as an accessibility tree with element refs ([ref=e12]) for browser_click and browser_type; refs last until the next snapshot.',
    parameters: z.object({}),
    timeoutMs: ACT_TIMEOUT_MS,
    annotations: { readOnly: true, openWorld: true },
    async execute(_args, ctx) {
      const { lang } = ctx;
      if (!manager.has(ctx.sessionId)) throw new ToolError(noPageText(lang));
      return manager
        .use(ctx.sessionId, lang, async (tabs) => {
          const page = await tabs.current();
          await askOrRefuse(ctx, 'browser.read', page.url(), page.url());
          return pageResult(page, tabs, tabs.refusals.length, lang);
        })
        .catch((err) => {
          throw failed(lang, 'browser_snapshot', err);
        });
    },
  });

  const act =
    (name: 'browser_click' | 'browser_type', kind: 'click' | 'type') =>
    async (args: ElementTarget & { text?: string; submit?: boolean }, ctx: ToolContext): Promise<ToolOutput> => {
      const { lang } = ctx;
      // Refused before anything touches the page: looking such a selector up is itself the leak.
      if (args.selector !== undefined) checkSelector(args.selector, lang);
      if (!manager.has(ctx.sessionId)) throw new ToolError(noPageText(lang));
      return manager
        .use(ctx.sessionId, lang, async (tabs) => {
          const page = await tabs.current();
          const element = targetName(args);
          // Found before asking: the site that receives the action is the frame's, not the tab's.
          const { handle, url, note } = await pinElement(page, args, lang);
          try {
            const top = page.url();
            const where = url === top ? url : say(lang, `${url}（${top} 里的框架）`, `${url} (a frame in ${top})`);
            // What is typed, and which element is clicked, goes where the page sends it: the model chose both.
            const sendsTo = {
              kind: 'page' as const,
              url,
              ...(kind === 'type' && { typed: args.text ?? '' }),
            };
            await askOrRefuse(ctx, `browser.${kind}`, `${url} ${element}`, `${kind} ${element} @ ${where}`, sendsTo);
            const since = tabs.refusals.length;
            await settleAfter(page, async () => {
              if (kind === 'click') await handle.click({ timeout: ACTION_TIMEOUT_MS });
              else {
                await handle.fill(args.text ?? '', { timeout: ACTION_TIMEOUT_MS });
                if (args.submit) await handle.press('Enter', { timeout: ACTION_TIMEOUT_MS });
              }
            });
            // A click may open a new tab: the result is the tab now in use, once it has loaded.
            const shown = await tabs.current();
            if (shown !== page)
              await shown.waitForLoadState('load', { timeout: NAVIGATION_TIMEOUT_MS }).catch(() => {});
            return pageResult(shown, tabs, since, lang, note ? `${note}\n` : '');
          } finally {
            await handle.dispose().catch(() => {});
          }
        })
        .catch((err) => {
          throw failed(lang, name, err);
        });
    };

  const click = defineTool({
    name: 'browser_click',
    description: 'Clicks an element of the current tab by ref or CSS selector; returns the page after.',
    parameters: ClickArgs,
    timeoutMs: ACT_TIMEOUT_MS,
    annotations: { openWorld: true },
    execute: act('browser_click', 'click'),
  });

  const type = defineTool({
    name: 'browser_type',
    description: 'Types into a field of the current tab by ref or CSS selector; returns the page after.',
    parameters: TypeArgs,
    timeoutMs: ACT_TIMEOUT_MS,
    annotations: { openWorld: true },
    execute: act('browser_type', 'type'),
  });

  const screenshot = defineTool({
    name: 'browser_screenshot',
    description:
      'Screenshots the current tab and saves it for the user as a PNG in the workspace (screenshots/…); ' +
      'you do not see it: tell the user where it is.',
    parameters: z.object({}),
    timeoutMs: ACT_TIMEOUT_MS,
    annotations: { openWorld: true },
    // It adds a file to the workspace: the turn keeps a snapshot, so undo takes it away like any other.
    changesWorkspace: true,
    async execute(_args, ctx) {
      const { lang } = ctx;
      if (!manager.has(ctx.sessionId)) throw new ToolError(noPageText(lang));
      return manager
        .use(ctx.sessionId, lang, async (tabs) => {
          const page = await tabs.current();
          const url = page.url();
          await askOrRefuse(ctx, 'browser.read', url, url);
          const png = await page.screenshot({ type: 'png', timeout: ACTION_TIMEOUT_MS });
          const title = await page.title().catch(() => '');
          const size = page.viewportSize();
          const shown = `${size?.width}×${size?.height}`;
          const card = { title: title || url, metadata: { url, title, width: size?.width, height: size?.height } };
          // A file the user can open whatever they use: the terminal shows no picture, the web app's card shows this file.
          const saved = await saveScreenshot(ctx.workspace, png).catch((err: Error) => err);
          if (typeof saved === 'string') {
            return {
              output: say(
                lang,
                `已为用户保存 ${url} 的截图（${shown}）：${saved}`,
                `Saved a screenshot of ${url} (${shown}) for the user: ${saved}`,
              ),
              ...card,
              metadata: { ...card.metadata, path: saved },
              attachments: [{ name: 'screenshot.png', mimeType: 'image/png', path: saved }],
            };
          }
          return {
            output: say(
              lang,
              `已截取 ${url} 的截图（${shown}），但没能存成文件（${firstLine(saved)}）：只有网页版里这次调用的卡片上能看到它。`,
              `Took a screenshot of ${url} (${shown}) but could not save it as a file (${firstLine(saved)}): the user can see it only on this call's card in the web app.`,
            ),
            ...card,
            attachments: [{ name: 'screenshot.png', mimeType: 'image/png', data: png.toString('base64') }],
          };
        })
        .catch((err) => {
          throw failed(lang, 'browser_screenshot', err);
        });
    },
  });

  return [navigate, snapshot, click, type, screenshot];
}
