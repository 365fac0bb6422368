/**
 * Starting the browser: playwright-core is imported here, at the first browser tool call. This file is
 * itself loaded lazily (by manager.ts): a module that may import() is kept out of the CLI's compile
 * cache, so the import lives apart from everything a start loads.
 */
import type { Browser } from 'playwright-core';
import { say, type Lang } from '../i18n.js';
import { isSecretVariable } from '../shell/env.js';
import { BrowserUnavailable, findChromium, firstLine, sandboxChoice, type BrowserSource } from './launch.js';

const LAUNCH_TIMEOUT_MS = 30_000;

/** The environment without keys and tokens: nothing a page could reach, but no reason to hand them over. */
function browserEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env))
    if (value !== undefined && !isSecretVariable(name, value)) out[name] = value;
  return out;
}

const warn = (message: string) => process.stderr.write(`${message}\n`);

/**
 * Starts the system Chromium, or attaches to the user's Chrome over CDP. Chromium is started inside
 * its sandbox when it can be; `notice` is told when it had to run without.
 */
export async function openBrowser(
  source: BrowserSource,
  lang: Lang,
  notice: (message: string) => void = warn,
  uid: number | undefined = process.getuid?.(),
): Promise<{ browser: Browser; attached: boolean }> {
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
  const start = (sandboxFailed: boolean) => {
    const { chromiumSandbox, args } = sandboxChoice(uid, sandboxFailed);
    return chromium.launch({
      executablePath,
      headless: true,
      chromiumSandbox,
      args,
      env: browserEnv(source.env),
      timeout: LAUNCH_TIMEOUT_MS,
      // The hosts handle signals themselves (a one-shot's Ctrl-C, serve's shutdown); Playwright's
      // handlers would keep a SIGTERM from ending the process. Chromium still goes on exit, and
      // quits by itself when its pipe to us closes.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
  };
  try {
    if (sandboxChoice(uid, false).chromiumSandbox) {
      try {
        return { browser: await start(false), attached: false };
      } catch (err) {
        // No user namespaces and no setuid helper here: a browser without its sandbox is still
        // behind the network policy, and better than none; the user is told.
        notice(
          say(
            lang,
            `Chromium 无法在沙箱中启动（${firstLine(err)}），改为不带沙箱运行。`,
            `Chromium could not start inside its sandbox (${firstLine(err)}); running it without the sandbox.`,
          ),
        );
      }
    }
    return { browser: await start(true), attached: false };
  } catch (err) {
    throw new BrowserUnavailable(
      say(
        lang,
        `Chromium（${executablePath}）启动失败：${firstLine(err)}`,
        `Chromium (${executablePath}) did not start: ${firstLine(err)}`,
      ),
    );
  }
}
