import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page, type Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium.js';

export { CHROMIUM_PATH };

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const SCREENSHOTS = join(ROOT, 'test-results/screenshots');

const MISSING = `Chromium is not at ${CHROMIUM_PATH}. The web UI tests need Debian's Chromium: run \`apt-get install -y chromium fonts-noto-cjk\` (as root; .ci/run does it), or point ZHIXING_TEST_CHROMIUM at a Chromium. ZHIXING_TEST_ALLOW_NO_BROWSER=1 skips these tests instead.`;

export interface PageOptions {
  viewport?: { width: number; height: number };
  colorScheme?: 'light' | 'dark';
  locale?: string;
}

export interface OpenedPage {
  page: Page;
  /** What went wrong in the page so far: uncaught errors, console errors, failed requests. */
  errors: string[];
  /** Resolves once no request has been in flight for a moment (an event stream counts only until its headers). */
  settled(): Promise<void>;
  /**
   * Once the page has settled, fails the test listing every error, except those matching one of
   * `allowed` (for a test that provokes one). Await it.
   */
  expectNoErrors(allowed?: RegExp[]): Promise<void>;
}

export interface BrowserHarness {
  /** Opens `url` in a fresh context (own storage, viewport, colour scheme, locale) and waits for its load event; fails unless it answers 2xx. */
  openPage(url: string, options?: PageOptions): Promise<OpenedPage>;
  /** Saves what the page shows to test-results/screenshots/<name>.png; returns the path. */
  screenshot(page: Page, name: string): Promise<string>;
}

/**
 * The browser tier's Chromium for the calling test file: connected to before its tests, let go after
 * them. Each page gets its own context, closed after its test. Call at the top level of a test file.
 */
export function useBrowser(): BrowserHarness {
  const missing = !existsSync(CHROMIUM_PATH);
  const allowMissing = process.env.ZHIXING_TEST_ALLOW_NO_BROWSER === '1';
  let browser: Browser | undefined;
  let contexts: BrowserContext[] = [];

  beforeAll(async () => {
    if (missing) {
      if (!allowMissing) throw new Error(MISSING);
      console.warn(`Skipping the web UI tests: ${MISSING}`);
      return;
    }
    // The tier's one Chromium (test/support/browser-server.ts), or one of this file's own when run without it.
    const endpoint = inject('chromiumWsEndpoint');
    browser = endpoint
      ? await chromium.connect(endpoint)
      : await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
  });
  // Every test of the file shows as skipped with the reason, rather than passing without a browser.
  beforeEach((context) => {
    if (missing) context.skip(`no Chromium at ${CHROMIUM_PATH}`);
  });
  afterEach(async () => {
    await Promise.all(contexts.map((c) => c.close()));
    contexts = [];
  });
  afterAll(async () => {
    // A connected browser is let go (its contexts closed), not ended: the next file uses it too.
    await browser?.close();
  });

  return {
    async openPage(url, options = {}) {
      if (!browser) throw new Error('useBrowser(): the browser is not running (openPage called outside a test?)');
      // Unset, Playwright's defaults hold: 1280×720, light, en-US.
      const context = await browser.newContext(options);
      contexts.push(context);
      const page = await context.newPage();
      const errors: string[] = [];
      const inFlight = new Set<Request>();
      page.on('request', (request) => inFlight.add(request));
      page.on('requestfinished', (request) => inFlight.delete(request));
      page.on('pageerror', (error) => errors.push(`uncaught: ${error.stack ?? error.message}`));
      page.on('console', (message) => {
        // Chromium also logs each failed load ("Failed to load resource"): the handlers below say it with the URL.
        if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
          errors.push(`console.error: ${message.text()} (${message.location().url})`);
        }
      });
      page.on('requestfailed', (request) => {
        inFlight.delete(request);
        const failure = request.failure()?.errorText ?? 'failed';
        // A request the page itself gave up on (it navigated, or closed a stream) is not an error.
        if (failure !== 'net::ERR_ABORTED')
          errors.push(`request failed: ${request.method()} ${request.url()}: ${failure}`);
      });
      page.on('response', (response) => {
        if (response.status() >= 400)
          errors.push(`HTTP ${response.status()}: ${response.request().method()} ${response.url()}`);
        // The app keeps an event stream open for as long as it runs: waiting for its end would never end.
        if (response.headers()['content-type']?.startsWith('text/event-stream')) inFlight.delete(response.request());
      });
      const response = await page.goto(url);
      // A page that is not there fails here, with what came instead, not later as a vague time-out.
      if (response && !response.ok()) {
        throw new Error(`${url} answered ${response.status()}: ${(await response.text()).slice(0, 300)}`);
      }
      // Without this, an error from a request still running when the test checks would go unseen.
      const settled = async (quietMs = 300, timeoutMs = 10_000) => {
        const deadline = Date.now() + timeoutMs;
        let quietSince = Date.now();
        for (;;) {
          if (inFlight.size > 0) quietSince = Date.now();
          else if (Date.now() - quietSince >= quietMs) return;
          if (Date.now() > deadline)
            throw new Error(`Still loading after ${timeoutMs} ms: ${[...inFlight].map((r) => r.url()).join(', ')}`);
          await new Promise((r) => setTimeout(r, 25));
        }
      };
      // The app's first requests (sessions, status, history) answered before the test types: on a loaded
      // machine an Enter pressed while they are still out can find the composer not ready to send yet.
      await settled(300, 30_000);
      return {
        page,
        errors,
        settled: () => settled(),
        async expectNoErrors(allowed = []) {
          await settled();
          const left = errors.filter((e) => !allowed.some((pattern) => pattern.test(e)));
          if (left.length > 0) throw new Error(`The page reported ${left.length} error(s):\n${left.join('\n')}`);
        },
      };
    },
    async screenshot(page, name) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      const path = join(SCREENSHOTS, `${name}.png`);
      await page.screenshot({ path });
      return path;
    },
  };
}
