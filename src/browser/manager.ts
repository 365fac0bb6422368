/**
 * One browser per program, started at the first browser tool call; one context per session (its
 * own cookies, tabs and proxy), closed when the session has not used it for a while, when the
 * session is deleted, and with the program. A launched Chromium goes when its last context does.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Lang } from '../i18n.js';
import type { NetworkPolicy } from '../net/policy.js';
import { BrowserUnavailable, type BrowserSource } from './launch.js';
import type { PolicyProxy, Refusal } from './proxy.js';

/** A session's context closes after this long without a browser tool call. */
export const BROWSER_IDLE_MS = 10 * 60_000;
const VIEWPORT = { width: 1280, height: 720 };
/** Refusals kept per session: enough to explain the last navigation. */
const MAX_REFUSALS = 50;

/** A session's browsing: its tabs, the one in use, and what the policy refused. */
export interface BrowserTabs {
  context: BrowserContext;
  /** Open tabs, in the order they were opened. */
  pages: Page[];
  /** The tab the tools act on; opened when there is none. */
  current(): Promise<Page>;
  newTab(): Promise<Page>;
  /** Closes the current tab; the last one opened before it becomes current. */
  closeTab(): Promise<void>;
  /** Every refusal so far; read its length before an action and what came after it. */
  refusals: Refusal[];
}

export interface BrowserManagerOptions {
  source: BrowserSource;
  policy: NetworkPolicy;
  idleMs?: number;
}

export interface BrowserManager {
  /** The network policy every context's requests obey. */
  policy: NetworkPolicy;
  /** Runs `fn` with the session's tabs, starting the browser and the context if needed; the idle clock waits meanwhile. */
  use<T>(sessionId: string, lang: Lang, fn: (tabs: BrowserTabs) => Promise<T>): Promise<T>;
  /** Whether the session has an open context. */
  has(sessionId: string): boolean;
  closeSession(sessionId: string): Promise<void>;
  /** Closes every context and the browser (or detaches from the user's Chrome). */
  close(): Promise<void>;
}

interface Entry {
  tabs: BrowserTabs;
  proxy?: PolicyProxy;
  timer?: ReturnType<typeof setTimeout>;
  busy: number;
}

export function createBrowserManager(options: BrowserManagerOptions): BrowserManager {
  const idleMs = options.idleMs ?? BROWSER_IDLE_MS;
  let opening: Promise<{ browser: Browser; attached: boolean }> | undefined;
  const entries = new Map<string, Promise<Entry>>();
  let closed = false;

  const browser = (lang: Lang) => {
    if (!opening) {
      // open.ts holds the import of playwright-core: loaded now, never at start.
      const started = import('./open.js').then(({ openBrowser }) => openBrowser(options.source, lang));
      opening = started;
      started.then(
        ({ browser: b }) =>
          b.on('disconnected', () => {
            // Crashed, killed or closed: the next call starts afresh.
            if (opening !== started) return;
            opening = undefined;
            entries.clear();
          }),
        () => opening === started && (opening = undefined),
      );
    }
    return opening;
  };

  async function openEntry(lang: Lang): Promise<Entry> {
    const { browser: b } = await browser(lang);
    // Loaded with the first context, not at every start: the policy's address parser, the proxy's HTTP server.
    const [{ guardContext }, { startPolicyProxy }] = await Promise.all([import('./guard.js'), import('./proxy.js')]);
    const refusals: Refusal[] = [];
    const onRefused = (r: Refusal) => {
      refusals.push(r);
      if (refusals.length > MAX_REFUSALS) refusals.splice(0, refusals.length - MAX_REFUSALS);
    };
    // With the private network allowed the proxy has nothing to refuse: requests go direct.
    const proxy = options.policy.allowPrivate
      ? undefined
      : await startPolicyProxy({ policy: options.policy, onRefused });
    let context: BrowserContext;
    try {
      context = await b.newContext({
        viewport: VIEWPORT,
        ...(proxy ? { proxy: { server: proxy.server } } : {}),
        // A service worker's requests pass no route: none may start.
        serviceWorkers: 'block',
        acceptDownloads: false,
      });
      await guardContext(context, options.policy, onRefused);
    } catch (err) {
      await proxy?.close();
      throw err;
    }
    const pages: Page[] = [];
    let current: Page | undefined;
    const adopt = (page: Page) => {
      if (pages.includes(page)) return;
      pages.push(page);
      // A link opening a new tab or a popup: the user would look at it next.
      current = page;
      page.once('close', () => {
        pages.splice(pages.indexOf(page), 1);
        if (current === page) current = pages.at(-1);
      });
    };
    context.on('page', adopt);
    const tabs: BrowserTabs = {
      context,
      pages,
      refusals,
      async current() {
        if (current && !current.isClosed()) return current;
        return tabs.newTab();
      },
      async newTab() {
        const page = await context.newPage();
        adopt(page);
        current = page;
        return page;
      },
      async closeTab() {
        if (current) await current.close();
      },
    };
    return { tabs, proxy, busy: 0 };
  }

  async function closeEntry(entry: Entry): Promise<void> {
    clearTimeout(entry.timer);
    await entry.tabs.context.close().catch(() => {});
    await entry.proxy?.close();
  }

  async function closeSession(sessionId: string): Promise<void> {
    const pending = entries.get(sessionId);
    if (!pending) return;
    entries.delete(sessionId);
    const entry = await pending.catch(() => undefined);
    if (entry) await closeEntry(entry);
    // A launched Chromium with nothing open is memory for nothing; the user's own Chrome stays.
    if (entries.size === 0 && opening && !closed) {
      const current = opening;
      opening = undefined;
      const { browser: b } = await current.catch(() => ({ browser: undefined }));
      await b?.close().catch(() => {});
    }
  }

  const arm = (sessionId: string, entry: Entry) => {
    clearTimeout(entry.timer);
    if (entry.busy > 0) return;
    entry.timer = setTimeout(() => void closeSession(sessionId), idleMs);
    // The idle clock never keeps a finished one-shot run alive.
    entry.timer.unref();
  };

  return {
    policy: options.policy,
    async use(sessionId, lang, fn) {
      if (closed)
        throw new BrowserUnavailable(
          lang === 'zh' ? '浏览器已经关闭（程序正在退出）。' : 'The browser is closed (the program is shutting down).',
        );
      let pending = entries.get(sessionId);
      if (!pending) {
        pending = openEntry(lang);
        entries.set(sessionId, pending);
        pending.catch(() => entries.get(sessionId) === pending && entries.delete(sessionId));
      }
      const entry = await pending;
      entry.busy++;
      clearTimeout(entry.timer);
      try {
        return await fn(entry.tabs);
      } finally {
        entry.busy--;
        if (entries.get(sessionId) === pending) arm(sessionId, entry);
      }
    },
    has: (sessionId) => entries.has(sessionId),
    closeSession,
    async close() {
      if (closed) return;
      closed = true;
      const all = [...entries.values()];
      entries.clear();
      await Promise.all(all.map((p) => p.then(closeEntry, () => {})));
      const current = opening;
      opening = undefined;
      // Attached over CDP, close() only detaches: the user's Chrome and its own tabs stay.
      if (current)
        await current
          .then(
            ({ browser: b }) => b.close(),
            () => {},
          )
          .catch(() => {});
    },
  };
}
