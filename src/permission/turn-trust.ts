/**
 * The turn's trust record: which outside text has entered it, and what the user asked for in their own
 * words. It closes the "lethal trifecta" in code: once a page, a search result, a document, a shell's or
 * an MCP server's output is in the model's context, instructions hidden in it may steer the model, and
 * the model holds private data (memories, files, todos, the conversation). From then on every action
 * that could carry that data out of the machine to somewhere the user did not choose asks a person,
 * whatever the rules allow; without a person (a one-shot with no terminal) it is refused.
 *
 * What counts as chosen by the user:
 * - an address the user wrote in their own messages of the session, as written (any page of it may be
 *   re-read: reading on with an offset, a redirect the server sends, http for https);
 * - a result link of this turn's web_search, verbatim: the search service chose it, not the page that
 *   may be steering the model, so the address itself carries nothing the model put in. Which of the
 *   few results the model opens says a few bits at most; that is the price of "search and open it";
 * - for typing and clicking in the browser, a page on a host (host and port) the user named: they
 *   asked for that site to be used.
 * An address the model builds, even on a host the user named, asks: its path or query can carry the
 * data, and the page that told the model to build it may be that host's own.
 */
import { say, type Lang } from '../i18n.js';
import type { PermissionRequest } from '../tools/tool.js';

/** At most this many outside sources are named in a reason; more are counted. */
const MAX_SOURCES_SHOWN = 3;
/** A source (a URL, a path) is cut to this many characters in a reason. */
const MAX_SOURCE_CHARS = 120;

/**
 * Where a request would send what it carries. `url`: a fetch or navigation, whose address the
 * model wrote (or a server redirected to: `redirectFrom`); `page`: typing or clicking on the page at
 * `url`; `anywhere`: a shell with the network on, an open-world MCP tool.
 */
export type Egress =
  | { kind: 'url'; url: string; redirectFrom?: string }
  | { kind: 'page'; url: string }
  | { kind: 'anywhere'; what: string };

/** Outside text that entered the turn: the tool that brought it, and from where when known. */
export interface UntrustedSource {
  tool: string;
  from?: string;
}

/** What a turn's tools see of its trust record. */
export interface TurnTrust {
  /** Outside text came in: from now on, actions that carry data out ask. */
  entered(source: UntrustedSource): void;
  /** Result links of a web_search this turn: opening one verbatim does not ask. */
  searchResults(urls: string[]): void;
  /** The outside sources that entered the turn so far, oldest first. */
  sources(): UntrustedSource[];
  /**
   * Why this request must ask a person though the rules may allow it, or undefined when it may go
   * as the rules say. A request that passes is remembered (a page read, so reading on or a
   * redirect from it passes too).
   */
  review(request: Pick<PermissionRequest, 'sendsTo'>): string | undefined;
  /** True when the user's own message of this turn asks for memories from other conversations. */
  crossSessionAsked(): boolean;
}

export interface TurnTrustOptions {
  lang: Lang;
  /** The user's message of this turn. */
  turnText: string;
  /** The user's earlier messages of the session (their hosts and addresses count as named too). */
  earlierTexts?: string[];
  /** Outside text already in the conversation from earlier turns: the turn starts with it. */
  earlier?: UntrustedSource[];
}

/**
 * Words with which a user asks about other conversations or the past. Broad on purpose: only the
 * user's own message is read, which no page can write; a miss only means one ask more.
 */
const CROSS_SESSION_ZH = /所有|全部|其他|其它|别的|每个|每一个|以前|之前|过去|上次|曾经|从前|历史|跨会话|一直/;
const CROSS_SESSION_EN =
  /\b(?:all|every|other|previous|past|earlier|older|any)\s+(?:of\s+)?(?:(?:my|our|the|your)\s+)?(?:sessions?|conversations?|chats?|threads?|memor(?:y|ies)|talks?)\b|\beverything\b|\bever\b|\bbefore\b|\bpreviously\b|\bacross\b|\blast time\b/i;

/** `http(s)://…` as typed in a sentence: up to whitespace, CJK punctuation or a closing bracket. */
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"'`，。！？；、）」』】]+/gi;
/** A bare host, with a port and path if any: `example.com`, `example.com/a`, `127.0.0.1:8080/x`. */
const BARE_HOST = /(?<![\w@./:-])((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}|\d{1,3}(?:\.\d{1,3}){3}|localhost)(:\d{1,5})?(\/[^\s<>"'`，。！？；、）」』】]*)?/gi;
const TRAILING_PUNCT = /[.,;:!?)\]}'"]+$/;

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** A URL's host as rules compare it: lower case, no trailing dot, with its port (the scheme's default when none). */
function hostKey(url: URL): string {
  const host = url.hostname.replace(/\.+$/, '');
  return `${host}:${url.port || DEFAULT_PORTS[url.protocol] || ''}`;
}

/**
 * One spelling per page: host and port as above (http and https on their default ports alike, since
 * the same address carries the same nothing), the path with unreserved escapes decoded, repeated and
 * trailing slashes dropped, the query as sent, no fragment (it never leaves the machine).
 */
function pageKey(url: URL): string {
  const port = url.port && url.port !== DEFAULT_PORTS[url.protocol] ? url.port : 'default';
  const pathname = url.pathname
    .replace(/%([0-9a-f]{2})/gi, (m, hex: string) => {
      const c = String.fromCharCode(parseInt(hex, 16));
      return /[A-Za-z0-9\-._~]/.test(c) ? c : m.toUpperCase();
    })
    .replace(/\/{2,}/g, '/')
    .replace(/(.)\/$/, '$1');
  return `${url.hostname.replace(/\.+$/, '')}:${port}${pathname}${url.search}`;
}

function parse(raw: string): URL | undefined {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The addresses a user's message names: full URLs, and bare hosts with a path or not (taken as https). */
export function addressesIn(text: string): URL[] {
  const found: URL[] = [];
  for (const m of text.match(URL_IN_TEXT) ?? []) {
    const url = parse(m.replace(TRAILING_PUNCT, ''));
    if (url) found.push(url);
  }
  const rest = text.replace(URL_IN_TEXT, ' ');
  for (const m of rest.matchAll(BARE_HOST)) {
    const url = parse(`https://${m[0].replace(TRAILING_PUNCT, '')}`);
    if (!url) continue;
    found.push(url);
    // Typed without a scheme: an address on a port is as likely plain http.
    if (url.port) found.push(new URL(url.href.replace(/^https:/, 'http:')));
  }
  return found;
}

const cut = (s: string) => (s.length > MAX_SOURCE_CHARS ? `${s.slice(0, MAX_SOURCE_CHARS)}…` : s);

/** The outside sources in a few words: `web_fetch (https://…), shell`. */
function sourcesText(sources: UntrustedSource[], lang: Lang): string {
  const shown = sources.slice(0, MAX_SOURCES_SHOWN).map((s) => (s.from ? `${s.tool} (${cut(s.from)})` : s.tool));
  const more = sources.length - shown.length;
  return shown.join(say(lang, '、', ', ')) + (more > 0 ? say(lang, ` 等 ${more + shown.length} 处`, ` and ${more} more`) : '');
}

export function createTurnTrust(options: TurnTrustOptions): TurnTrust {
  const { lang } = options;
  const sources: UntrustedSource[] = [...(options.earlier ?? [])];
  const named = new Set<string>();
  const known = new Set<string>();
  for (const text of [...(options.earlierTexts ?? []), options.turnText]) {
    for (const url of addressesIn(text)) {
      named.add(hostKey(url));
      known.add(pageKey(url));
    }
  }
  const asked = CROSS_SESSION_ZH.test(options.turnText) || CROSS_SESSION_EN.test(options.turnText);

  /** Why it asks: the outside text, and what the action would do. */
  const because = (what: string, whatEn: string) => {
    const from = sourcesText(sources, lang);
    return say(
      lang,
      `这一轮已读入外部内容（${from}），其中可能藏有指令；${what}可能把你的私人数据带出去，所以需要你本人确认。`,
      `Outside content entered this turn (${from}) and may hold instructions; ${whatEn} could carry your private data out, so a person must approve it.`,
    );
  };

  function reviewUrl(raw: string, redirectFrom: string | undefined): string | undefined {
    const url = parse(raw);
    if (!url) return because(`打开 ${cut(raw)} `, `opening ${cut(raw)}`);
    const key = pageKey(url);
    const from = redirectFrom === undefined ? undefined : parse(redirectFrom);
    // A redirect is the server's choice: from a page that could go, the next hop carries nothing new.
    if (known.has(key) || (from && known.has(pageKey(from)))) {
      known.add(key);
      return undefined;
    }
    const host = url.host;
    return named.has(hostKey(url))
      ? because(`打开模型自己拼出的地址 ${cut(url.href)}（虽然 ${host} 是你提到的网站，地址里的路径或参数仍可能携带数据）`,
        `opening ${cut(url.href)}, an address the model built (${host} is a site you named, but its path or query could still hold data),`)
      : because(`打开你没有提到的网站 ${host}（${cut(url.href)}）`, `opening ${cut(url.href)} on ${host}, a site you did not name,`);
  }

  return {
    entered(source) {
      sources.push(source);
    },
    searchResults(urls) {
      for (const raw of urls) {
        const url = parse(raw);
        if (url) known.add(pageKey(url));
      }
    },
    sources: () => [...sources],
    review({ sendsTo }) {
      if (!sendsTo) return undefined;
      if (sendsTo.kind === 'url') {
        // Before anything outside came in, the model has only the user's words to act on: the rules decide alone.
        if (sources.length === 0) {
          const url = parse(sendsTo.url);
          if (url) known.add(pageKey(url));
          return undefined;
        }
        return reviewUrl(sendsTo.url, sendsTo.redirectFrom);
      }
      if (sources.length === 0) return undefined;
      if (sendsTo.kind === 'page') {
        const url = parse(sendsTo.url);
        if (url && named.has(hostKey(url))) return undefined;
        const host = url?.host ?? cut(sendsTo.url);
        return because(`在你没有提到的网站 ${host} 上输入或点击`, `typing or clicking on ${host}, a site you did not name,`);
      }
      return because(`${sendsTo.what}（可以连接任何网络地址）`, `${sendsTo.what} (it can reach any address on the network)`);
    },
    crossSessionAsked: () => asked,
  };
}
