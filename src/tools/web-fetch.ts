/**
 * web_fetch: a web page as Markdown for the model. The network policy decides where it may connect
 * (every hop, the socket actually connected), the permission rules decide which URLs it may open
 * (every hop too, so a redirect cannot carry it past a deny), and what comes back is fenced as
 * untrusted content. Heavy libraries load inside `execute`, never at start-up.
 */
import { z } from 'zod';
import { say, type Lang } from '../i18n.js';
import { deadline } from '../net/deadline.js';
import type { NetworkPolicy, NetworkPolicyError } from '../net/policy.js';
import type { ReadPage } from '../webpage/read-page.js';

type ReadPageResult = ReadPage;
import { defineTool, type Tool, type ToolContext } from './tool.js';
import { ToolError } from '../contract/tool-error.js';
import { policyText } from './browser-text.js';
import { untrusted } from '../contract/untrusted-fence.js';

/** Past this a page is cut: the first 5 MB of any article hold the article. */
export const MAX_PAGE_BYTES = 5 * 1024 * 1024;
/** The whole fetch (connect, redirects, body) ends after this. */
const FETCH_TIMEOUT_MS = 30_000;
/** Characters of Markdown per call: a long article in a few calls, without flooding the context. */
const WINDOW_CHARS = 20_000;
/** A window ends at a line break when one lies in its last fifth, so a paragraph is not cut mid-word. */
const WINDOW_SNAP = 0.8;
const MAX_URL_CHARS = 4_000;
/** Pages a turn keeps to read on from (`offset`) without opening them again: a turn reads a few at most. */
const PAGES_KEPT = 4;
/** Some sites refuse clients that do not say who they are; this says it honestly. */
const USER_AGENT = 'Mozilla/5.0 (compatible; Zhixing web_fetch; +https://github.com/zhixing)';

export interface WebFetchDeps {
  /** Where the tool may connect: ZHIXING_ALLOW_PRIVATE_NETWORK, and in tests a lookup or an allowed address. */
  policy: NetworkPolicy;
  timeoutMs?: number;
  maxBytes?: number;
  windowChars?: number;
}

const WebFetchArgs = z.object({
  url: z
    .string()
    .max(MAX_URL_CHARS)
    .describe('The full http(s) address of the page, e.g. https://example.com/news/1.html'),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Where to continue a long page: the offset the previous call gave. Default 0.'),
});

export function createWebFetchTool(deps: WebFetchDeps): Tool {
  /**
   * The pages read in the running turn, by turn and address without its fragment. Reading on with
   * `offset`, or reading a page again, takes the copy: the site sees one request per page a turn, so
   * how often the model opens it says nothing, and a long page is not downloaded once per window.
   */
  const kept = new Map<string, ReadPageResult>();
  const keep = (key: string, turnId: string, page: ReadPageResult) => {
    for (const k of kept.keys()) if (!k.startsWith(`${turnId}\0`)) kept.delete(k);
    kept.set(key, page);
    while (kept.size > PAGES_KEPT) kept.delete(kept.keys().next().value!);
  };
  return defineTool({
    name: 'web_fetch',
    annotations: { readOnly: true, openWorld: true },
    // The fetch has its own time cap; this leaves room for parsing a large page after it.
    timeoutMs: (deps.timeoutMs ?? FETCH_TIMEOUT_MS) + 30_000,
    description:
      'Opens a web page (http or https) and returns its main content as Markdown: title, author and site first, then the article ' +
      'with headings, lists, tables and links kept. Pages in any charset (GBK, Big5, Shift_JIS, …) are decoded. ' +
      `Long pages come ${WINDOW_CHARS} characters at a time: the result says which offset to pass to read on. ` +
      'Plain text and JSON come back as they are; PDFs and images are not read. Private and local addresses are refused unless the user allowed them.',
    parameters: WebFetchArgs,
    async execute({ url: input, offset = 0 }, ctx) {
      const { lang } = ctx;
      const started = performance.now();
      const [{ checkUrl, NetworkPolicyError }, { policyDispatcher, policyFetch }] = await Promise.all([
        import('../net/policy.js'),
        import('../net/fetch.js'),
      ]);
      let url: URL;
      try {
        url = checkUrl(input.trim(), deps.policy);
      } catch (err) {
        throw refusal(lang, input, input.trim(), err as Error);
      }
      const keyUrl = new URL(url.href);
      keyUrl.hash = '';
      const key = `${ctx.turnId}\0${keyUrl.href}`;
      const copy = kept.get(key);
      // Nothing goes out: the copy read earlier in this turn answers.
      if (copy)
        return present(copy, {
          offset,
          windowChars: deps.windowChars ?? WINDOW_CHARS,
          lang,
          ms: performance.now() - started,
        });
      await askFor(ctx, url);
      // Each hop is asked as a redirect from the one before: the server chose it, not the model.
      let hop = url;

      const timeoutMs = deps.timeoutMs ?? FETCH_TIMEOUT_MS;
      const limit = deadline(ctx.signal, timeoutMs);
      const { signal } = limit;
      const dispatcher = policyDispatcher(deps.policy);
      try {
        const fetched = await policyFetch(url, {
          policy: deps.policy,
          dispatcher,
          signal,
          headers: {
            'user-agent': USER_AGENT,
            accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.8',
            'accept-language': lang === 'zh' ? 'zh-CN,zh;q=0.9,en;q=0.8' : 'en;q=0.9,*;q=0.5',
          },
          beforeRedirect: async (next) => {
            await askFor(ctx, next, hop);
            hop = next;
          },
        }).catch((err: Error) => {
          if (err instanceof NetworkPolicyError) throw refusal(lang, input, url.href, err);
          throw err;
        });
        ctx.progress(say(lang, `已连接 ${fetched.url.host}，正在读取…`, `Connected to ${fetched.url.host}, reading…`));
        const { readPage } = await import('../webpage/read-page.js');
        const page = await readPage(fetched.response, fetched.url, {
          maxBytes: deps.maxBytes ?? MAX_PAGE_BYTES,
          lang,
          signal: ctx.signal,
        });
        keep(key, ctx.turnId, page);
        return present(page, {
          offset,
          windowChars: deps.windowChars ?? WINDOW_CHARS,
          lang,
          ms: performance.now() - started,
        });
      } catch (err) {
        if (err instanceof ToolError) throw err;
        if (ctx.signal.aborted)
          throw new ToolError(say(lang, `已停止读取 ${url.href}。`, `Stopped reading ${url.href}.`));
        if (limit.timedOut()) {
          throw new ToolError(
            say(
              lang,
              `${url.host} 在 ${timeoutMs / 1000} 秒内没有完成响应，已放弃。`,
              `${url.host} did not finish answering within ${timeoutMs / 1000} s; gave up.`,
            ),
          );
        }
        // The reason may quote the server (a certificate's names, a TLS alert): outside words.
        throw new ToolError(
          say(lang, `无法读取 ${url.href}：${reason(err)}`, `Could not fetch ${url.href}: ${reason(err)}`),
          { outside: true },
        );
      } finally {
        limit.clear();
        void dispatcher.destroy().catch(() => {});
      }
    },
  });
}

/**
 * The URL as the rules see it: one spelling per page, so that a deny on `https://example.com/private/*`
 * is not slipped past with `https://example.com./private/x` (a trailing dot), `/%70rivate/x`
 * (percent-encoded letters the server decodes anyway) or `//private/x` (doubled slashes). The host
 * is already lower case and punycode, and a default port is already dropped, by the URL parser.
 */
export function urlForRules(url: URL): string {
  const u = new URL(url.href);
  if (u.hostname.endsWith('.')) u.hostname = u.hostname.replace(/\.+$/, '');
  // Repeated slashes collapse too: most servers read `//private/x` as `/private/x`. Only the rules'
  // spelling changes; the request goes out as written, since some sites do tell the two apart.
  u.pathname = u.pathname
    .replace(/%([0-9a-f]{2})/gi, (m, hex: string) => {
      const c = String.fromCharCode(parseInt(hex, 16));
      return /[A-Za-z0-9\-._~]/.test(c) ? c : m.toUpperCase();
    })
    .replace(/\/{2,}/g, '/');
  return u.href;
}

/** Asks the rules about one URL (the first, or a redirect's target); a refusal says who refused. */
async function askFor(ctx: ToolContext, url: URL, redirectFrom?: URL): Promise<void> {
  if (url.username || url.password) {
    throw new ToolError(
      say(ctx.lang, '网址里不能带用户名或密码。', 'URLs with a user name or password in them cannot be opened.'),
    );
  }
  const target = urlForRules(url);
  const decision = await ctx.ask({
    action: 'web.fetch',
    target,
    insideSandbox: true,
    ...(target !== url.href ? { aliases: [url.href] } : {}),
    sendsTo: { kind: 'url', url: url.href, ...(redirectFrom && { redirectFrom: redirectFrom.href }) },
  });
  if (decision === 'allow') return;
  const r = ctx.refusal?.();
  const shown = url.href.slice(0, 300);
  // A redirect's target is the server's words.
  const refused = (message: string) => new ToolError(message, { outside: redirectFrom !== undefined });
  if (r === 'declined') throw refused(say(ctx.lang, `用户拒绝打开 ${shown}。`, `The user declined opening ${shown}.`));
  if (r === 'unanswered') {
    throw refused(
      say(
        ctx.lang,
        `打开 ${shown} 需要用户批准，但没有人可以回答（没有终端），所以没有打开。`,
        `Opening ${shown} needs the user's approval, and nobody was there to answer (no terminal); it was not opened.`,
      ),
    );
  }
  if (r === 'needs-person') {
    throw refused(
      say(
        ctx.lang,
        `打开 ${shown} 只能由用户本人批准，--yes 不能代替，所以没有打开。`,
        `Opening ${shown} needs the user's own approval; --yes does not give it, so it was not opened.`,
      ),
    );
  }
  if (r === 'cancelled')
    throw refused(
      say(
        ctx.lang,
        `等待用户批准时回合被停止了，没有打开 ${shown}。`,
        `The turn was stopped while waiting for the user's approval; ${shown} was not opened.`,
      ),
    );
  throw refused(
    say(ctx.lang, `打开 ${shown} 的请求被权限设置拒绝了。`, `Opening ${shown} was refused by the permission settings.`),
  );
}

function refusal(lang: Lang, input: string, first: string, err: Error): ToolError {
  // The policy's own sentence names the setting that lifts it; in Chinese, the same said in Chinese.
  // Refused at a hop the server redirected to, the sentence names the server's chosen address.
  if (err.name === 'NetworkPolicyError') {
    const at = (err as NetworkPolicyError).url;
    return new ToolError(policyText(lang, err as NetworkPolicyError, input.slice(0, 300)), {
      outside: at !== undefined && at !== first,
    });
  }
  return new ToolError(say(lang, `无法打开 ${input.slice(0, 300)}：${err.message}`, err.message), { outside: true });
}

/** The reason under undici's "fetch failed": ECONNREFUSED, a TLS error, a reset. */
function reason(err: unknown): string {
  let e: unknown = err;
  for (let i = 0; i < 4 && e instanceof Error; i++) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code) return `${code}${e.message && !e.message.includes(code) ? ` (${e.message})` : ''}`;
    const cause = (e as { cause?: unknown }).cause;
    if (!(cause instanceof Error)) return e.message;
    e = cause;
  }
  return String(err);
}

interface PresentOptions {
  offset: number;
  windowChars: number;
  lang: Lang;
  ms: number;
}

/** The window of the page the model reads, fenced, with how to read on; the card's metadata beside it. */
function present(page: ReadPage, o: PresentOptions) {
  const total = page.body.length;
  if (o.offset > 0 && o.offset >= total) {
    throw new ToolError(
      say(
        o.lang,
        `offset ${o.offset} 已超出页面末尾（共 ${total} 个字符）。`,
        `offset ${o.offset} is past the end of the page (${total} characters).`,
      ),
    );
  }
  let end = Math.min(total, o.offset + o.windowChars);
  if (end < total) {
    const brk = page.body.lastIndexOf('\n', end);
    if (brk > o.offset + o.windowChars * WINDOW_SNAP) end = brk + 1;
  }
  const nextOffset = end < total ? end : undefined;
  const head = [`# ${page.title}`, [page.byline, page.siteName].filter(Boolean).join(' · '), `URL: ${page.url}`]
    .filter(Boolean)
    .join('\n');
  const notes: string[] = [];
  if (o.offset > 0 || nextOffset !== undefined) {
    notes.push(
      say(
        o.lang,
        `[显示第 ${o.offset}–${end} 个字符，共 ${total} 个。`,
        `[Characters ${o.offset}–${end} of ${total}.`,
      ) +
        (nextOffset !== undefined
          ? say(
              o.lang,
              ` 要继续读，请用 web_fetch {"url": ${JSON.stringify(page.url)}, "offset": ${nextOffset}}。]`,
              ` To read on, call web_fetch with {"url": ${JSON.stringify(page.url)}, "offset": ${nextOffset}}.]`,
            )
          : say(o.lang, ' 已到页面末尾。]', ' This is the end of the page.]')),
    );
  }
  if (page.cut)
    notes.push(
      say(
        o.lang,
        `[页面超过 ${page.maxBytes / 1024 / 1024} MB，只读取了前 ${page.maxBytes / 1024 / 1024} MB。]`,
        `[The page is larger than ${page.maxBytes / 1024 / 1024} MB; only its first ${page.maxBytes / 1024 / 1024} MB were read.]`,
      ),
    );
  const text = `${head}\n\n${page.body.slice(o.offset, end)}`;
  return {
    output: [untrusted(page.url, text, 'web page'), ...notes].join('\n'),
    title: page.title,
    metadata: {
      url: page.url,
      title: page.title,
      ...(page.byline ? { byline: page.byline } : {}),
      ...(page.siteName ? { siteName: page.siteName } : {}),
      links: page.links,
      bytes: page.bytes,
      charset: page.charset,
      contentType: page.contentType,
      offset: o.offset,
      ...(nextOffset !== undefined ? { nextOffset } : {}),
      chars: total,
      ...(page.cut ? { cut: true } : {}),
      ms: Math.round(o.ms),
    },
  };
}
