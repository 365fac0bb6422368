/**
 * Which browser the browser tools drive: the user's own Chrome over CDP (ZHIXING_BROWSER_CDP_URL), or
 * a system Chromium (ZHIXING_CHROMIUM_PATH, else the first of the usual names on PATH) started
 * headless. Playwright's own browser downloads are never used: they need the internet and a
 * download step, and a plain Linux box has Chromium from its packages.
 *
 * Starting it is open.ts's, loaded at the first browser tool call: a CLI start never pays for playwright-core.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { say, type Lang } from '../i18n.js';

/** Names Chromium and Chrome are installed under on Linux and macOS package managers. */
export const CHROMIUM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

/**
 * TESTING.md's flags: headless, no GPU, no QUIC (UDP would go around the policy proxy), and none of
 * Chromium's own calls home. WebRTC may only use proxied UDP, which is none: a page cannot reach
 * the local network through it either. Whether the sandbox is on is `sandboxChoice`'s.
 */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
];

/** How Chromium is started as to its own sandbox, and why. */
export interface SandboxChoice {
  /** Playwright's `chromiumSandbox`: when false it adds --no-sandbox itself. */
  chromiumSandbox: boolean;
  args: string[];
  /** 'root': Chromium refuses to sandbox itself as root; 'failed': a sandboxed start failed here. */
  unsandboxed?: 'root' | 'failed';
}

/**
 * Pages run in Chromium's sandbox whenever it can: a renderer exploited by a hostile page is then
 * still shut in. As root Chromium will not start sandboxed at all, and some systems have neither
 * user namespaces nor the setuid helper: then, and only then, it runs without (`sandboxFailed` is
 * set after a sandboxed start failed once).
 */
export function sandboxChoice(uid: number | undefined, sandboxFailed: boolean): SandboxChoice {
  if (uid === 0) return { chromiumSandbox: false, args: [...CHROMIUM_FLAGS, '--no-sandbox'], unsandboxed: 'root' };
  if (sandboxFailed)
    return { chromiumSandbox: false, args: [...CHROMIUM_FLAGS, '--no-sandbox'], unsandboxed: 'failed' };
  return { chromiumSandbox: true, args: [...CHROMIUM_FLAGS] };
}

export interface BrowserSource {
  /** ZHIXING_CHROMIUM_PATH. */
  chromiumPath?: string;
  /** ZHIXING_BROWSER_CDP_URL. */
  cdpUrl?: string;
  /** Folders searched for Chromium when no path is set (the user's PATH). */
  searchPath: string;
  /** The environment Chromium starts with; secrets (keys, tokens) are taken out. */
  env: Record<string, string | undefined>;
}

/** The browser could not be started or reached: the message says what to do. */
export class BrowserUnavailable extends Error {
  override name = 'BrowserUnavailable';
}

const isExecutableFile = (file: string): boolean => {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The Chromium to start: the configured path, else the first known name on the search path. */
export function findChromium(source: Pick<BrowserSource, 'chromiumPath' | 'searchPath'>, lang: Lang): string {
  if (source.chromiumPath) {
    if (isAbsolute(source.chromiumPath) && isExecutableFile(source.chromiumPath)) return source.chromiumPath;
    throw new BrowserUnavailable(
      say(
        lang,
        `ZHIXING_CHROMIUM_PATH 指向 ${source.chromiumPath}，但那里没有可执行的 Chromium。请把它设为 Chromium 或 Chrome 程序的绝对路径（例如 /usr/bin/chromium）。`,
        `ZHIXING_CHROMIUM_PATH points at ${source.chromiumPath}, which is not an executable Chromium. Set it to the absolute path of a Chromium or Chrome program (e.g. /usr/bin/chromium).`,
      ),
    );
  }
  for (const dir of source.searchPath.split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    for (const name of CHROMIUM_NAMES) {
      const file = join(dir, name);
      if (isExecutableFile(file)) return file;
    }
  }
  throw new BrowserUnavailable(
    say(
      lang,
      `没有找到 Chromium（在 PATH 中找过 ${CHROMIUM_NAMES.join('、')}）。请安装它（Debian/Ubuntu：sudo apt-get install chromium），或把 ZHIXING_CHROMIUM_PATH 设为 Chromium/Chrome 的路径，或用 ZHIXING_BROWSER_CDP_URL 连接你正在运行的 Chrome（用 --remote-debugging-port=9222 启动，再设为 http://127.0.0.1:9222）。`,
      `No Chromium found (looked for ${CHROMIUM_NAMES.join(', ')} on PATH). Install it (Debian/Ubuntu: sudo apt-get install chromium), or set ZHIXING_CHROMIUM_PATH to a Chromium or Chrome program, or attach to your running Chrome with ZHIXING_BROWSER_CDP_URL (start Chrome with --remote-debugging-port=9222, then set it to http://127.0.0.1:9222).`,
    ),
  );
}

/** Playwright's errors carry a call log after the first line: the first line is the reason. */
export function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split('\n')[0]!.slice(0, 300);
}
