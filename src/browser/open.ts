/**
 * Starting the browser: playwright-core is imported here, at the first browser tool call. This file is
 * itself loaded lazily (by manager.ts): a module that may import() is kept out of the CLI's compile
 * cache, so the import lives apart from everything a start loads.
 */
import type { Browser } from 'playwright-core';
import { say, type Lang } from '../i18n.js';
import { isSecretVariable } from '../shell/env.js';
import { BrowserUnavailable, CHROMIUM_FLAGS, findChromium, firstLine, type BrowserSource } from './launch.js';

const LAUNCH_TIMEOUT_MS = 30_000;

/** The environment without keys and tokens: nothing a page could reach, but no reason to hand them over. */
function browserEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && !isSecretVariable(name, value)) out[name] = value;
  return out;
}

/** Starts the system Chromium, or attaches to the user's Chrome over CDP. */
export async function openBrowser(source: BrowserSource, lang: Lang): Promise<{ browser: Browser; attached: boolean }> {
  const { chromium } = await import('playwright-core');
  if (source.cdpUrl) {
    try {
      return { browser: await chromium.connectOverCDP(source.cdpUrl, { timeout: LAUNCH_TIMEOUT_MS }), attached: true };
    } catch (err) {
      throw new BrowserUnavailable(
        say(
          lang,
          `无法连接 ZHIXING_BROWSER_CDP_URL（${source.cdpUrl}）上的 Chrome：${firstLine(err)}。请确认 Chrome 以 --remote-debugging-port 启动并且地址正确。`,
          `Could not attach to the Chrome at ZHIXING_BROWSER_CDP_URL (${source.cdpUrl}): ${firstLine(err)}. Check that Chrome runs with --remote-debugging-port and that the address is right.`,
        ),
      );
    }
  }
  const executablePath = findChromium(source, lang);
  try {
    const browser = await chromium.launch({
      executablePath,
      headless: true,
      args: CHROMIUM_FLAGS,
      env: browserEnv(source.env),
      timeout: LAUNCH_TIMEOUT_MS,
      // The hosts handle signals themselves (a one-shot's Ctrl-C, serve's shutdown); Playwright's
      // handlers would keep a SIGTERM from ending the process. Chromium still goes on exit, and
      // quits by itself when its pipe to us closes.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    return { browser, attached: false };
  } catch (err) {
    throw new BrowserUnavailable(
      say(lang, `Chromium（${executablePath}）启动失败：${firstLine(err)}`, `Chromium (${executablePath}) did not start: ${firstLine(err)}`),
    );
  }
}
