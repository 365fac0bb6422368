/**
 * The turn's trust record: which outside text has entered it, and what the user asked for in their own
 * words. It closes the "lethal trifecta" in code: once a page, a search result, a document, a shell's or
 * an MCP server's output, or text a steered turn may have stored (todos, memories, file names) is in the
 * model's context, instructions hidden in it may steer the model, and the model holds private data
 * (memories, files, todos, the conversation). From then on every action that could carry that data out
 * of the machine to somewhere the user did not choose asks a person, whatever the rules allow; without a
 * person (a one-shot with no terminal) it is refused.
 *
 * What counts as chosen by the user:
 * - an address the user wrote in their own messages of the session, exactly as the tool will send it
 *   (the fragment aside: it never leaves the machine). Nothing is folded: a server receives `//tea`,
 *   `/%74ea`, `/tea/` and `/tea` as four different requests, so each spelling could carry a bit, and
 *   a model that may pick among spellings could spell out a diary one request at a time. Reading on
 *   with an offset is a tool argument, not a new address, so it passes;
 * - a result link of this turn's web_search, verbatim: the search service chose it, not the page that
 *   may be steering the model, so the address itself carries nothing the model put in. Which of the
 *   few results the model opens says a few bits at most; that is the price of "search and open it";
 * - a redirect the server sends from an address that passed: the server chose the next hop;
 * - in the browser, clicking on a page of a host (host and port) the user named, and typing there text
 *   the user wrote themselves. Which element a click hits says a few bits (which of the page's
 *   buttons); what is typed could be anything, and the page decides where it goes (a form's action on
 *   another host, a script listening to every key), so it must be the user's own words.
 * An address the model builds, even on a host the user named, asks: its path or query can carry the
 * data, and the page that told the model to build it may be that host's own.
 */
import { say, type Lang } from '../i18n.js';
import { withoutFences } from '../markdown-fence.js';
import type { PermissionRequest } from '../contract/permission.js';

/** At most this many outside sources are named in a reason; more are counted. */
const MAX_SOURCES_SHOWN = 3;
/** A source (a URL, a path) is cut to this many characters in a reason. */
const MAX_SOURCE_CHARS = 120;

/** Outside text that entered the turn: the tool that brought it, and from where when known. */
export interface UntrustedSource {
  tool: string;
  from?: string;
  /**
   * The MCP server across the network whose tool descriptions these are: they weigh on every action
   * but a call to that same server, which is told its own tools' arguments by the user's choice.
   */
  describes?: string;
  /** It came in outside the turn's tool calls (the prompt, tool descriptions): the turn's row keeps it for later turns. */
  kept?: boolean;
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
  /**
   * True when a request that passed review may still not be approved by `--yes`, should the rules ask:
   * a click or typing on a page after outside text (each click tells the page which of its elements was
   * chosen; an unattended run could spell data out that way, one click at a time). An allow rule the
   * user wrote still lets it go.
   */
  personIfAsked(request: Pick<PermissionRequest, 'sendsTo'>): boolean;
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
 * How a user asks about other conversations or what they told the assistant before: a word for "other,
 * all, earlier" together with a word for conversations or memories, or a verb of telling in the past.
 * A lone 所有 or "before" is not enough: "summarise everything in it", 「总结所有要点」 and "before
 * you answer" are about the page at hand, and a steered model would then read every conversation's
 * memories without anyone deciding. Only the user's own message is read, which no page can write.
 */
const CROSS_SESSION_ZH = [
  /(?:所有|全部|其他|其它|别的|每个|每一个|以前|之前|上次|过去|历史|从前)(?:的)?(?:会话|对话|聊天|记录|记忆)/,
  /我(?:之前|以前|上次|曾经|过去|从前)(?:跟你|和你|对你|给你|向你)?(?:说|告诉|提|讲)过/,
  /跨会话|你(?:还)?记得我/,
];
const CROSS_SESSION_EN = [
  /\b(?:all|every|other|previous|past|earlier|older|another|any)\s+(?:of\s+)?(?:(?:my|our|the|your)\s+)?(?:sessions?|conversations?|chats?|threads?|memor(?:y|ies))\b/i,
  /\bacross\s+(?:(?:my|our|the)\s+)?(?:sessions|conversations|chats|threads)\b/i,
  /\bwhat\s+(?:did|have)\s+I\s+(?:ever\s+)?(?:tell|told|say|said|mention|mentioned)\b/i,
  /\bI\s+(?:have\s+|'ve\s+)?(?:told|said to|mentioned to)\s+you\s+(?:before|earlier|previously|last time|in (?:a|an|another|some) (?:other |previous |earlier )?(?:chat|conversation|session))\b/i,
  /\bdo\s+you\s+(?:still\s+)?remember\b|\beverything\s+you\s+(?:know|remember)\s+about\s+me\b/i,
];

/** True when the user's words ask about other conversations or what they said before. */
export function asksAcrossSessions(text: string): boolean {
  return [...CROSS_SESSION_ZH, ...CROSS_SESSION_EN].some((re) => re.test(text));
}

/** `http(s)://…` as typed in a sentence: up to whitespace, CJK punctuation or a closing bracket. */
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"'`，。！？；、）」』】]+/gi;
/** A bare host, with a port and path if any: `example.com`, `example.com/a`, `127.0.0.1:8080/x`. */
const BARE_HOST =
  /(?<![\w@./:-])((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}|\d{1,3}(?:\.\d{1,3}){3}|localhost)(:\d{1,5})?(\/[^\s<>"'`，。！？；、）」』】]*)?/gi;
const TRAILING_PUNCT = /[.,;:!?)\]}'"]+$/;

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** A URL's host as rules compare it: lower case, no trailing dot, with its port (the scheme's default when none). */
function hostKey(url: URL): string {
  const host = url.hostname.replace(/\.+$/, '');
  return `${host}:${url.port || DEFAULT_PORTS[url.protocol] || ''}`;
}

/** The address exactly as the tool sends it: the parser's spelling, without the fragment (never sent). */
function sentKey(url: URL): string {
  return url.hash ? url.href.slice(0, url.href.length - url.hash.length) : url.href.replace(/#$/, '');
}

function parse(raw: string): URL | undefined {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The addresses a user's message names: full URLs, and bare hosts with a path or not, taken as https as
 * the browser takes them (web_fetch wants a scheme written). Only that spelling: the same host over
 * plain http is another address the model would choose.
 */
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
  }
  return found;
}

const LATIN_WORD_CHAR = /[A-Za-z0-9]/;

/**
 * Whether `typed` stands in `text` as a whole: not the middle of a Latin word or number (`PIN` inside
 * `PINK`), since picking pieces of words would let a model spell anything out of a long message.
 */
function standsIn(text: string, typed: string): boolean {
  const edge = (c: string | undefined, inner: string) =>
    c === undefined || !LATIN_WORD_CHAR.test(inner) || !LATIN_WORD_CHAR.test(c);
  for (let i = text.indexOf(typed); i >= 0; i = text.indexOf(typed, i + 1)) {
    if (edge(text[i - 1], typed[0]!) && edge(text[i + typed.length], typed.at(-1)!)) return true;
  }
  return false;
}

const cut = (s: string) => (s.length > MAX_SOURCE_CHARS ? `${s.slice(0, MAX_SOURCE_CHARS)}…` : s);

/** The outside sources in a few words: `web_fetch (https://…), shell`. */
function sourcesText(sources: UntrustedSource[], lang: Lang): string {
  const shown = sources.slice(0, MAX_SOURCES_SHOWN).map((s) => (s.from ? `${s.tool} (${cut(s.from)})` : s.tool));
  const more = sources.length - shown.length;
  return (
    shown.join(say(lang, '、', ', ')) +
    (more > 0 ? say(lang, ` 等 ${more + shown.length} 处`, ` and ${more} more`) : '')
  );
}

export function createTurnTrust(options: TurnTrustOptions): TurnTrust {
  const { lang } = options;
  const sources: UntrustedSource[] = [...(options.earlier ?? [])];
  const named = new Set<string>();
  /** Addresses that may be sent, each exactly as it goes out (sentKey). */
  const known = new Set<string>();
  /**
   * Hops a server redirected to from a known address: they may be followed in that chain, but are
   * never added to `known`, or a server could hand out fresh addresses for the model to pick among.
   */
  const redirected = new Set<string>();
  /**
   * The addresses the user wrote and the search returned, fragment and all: a page in the browser reads
   * its own `#fragment` and may send it anywhere, so there a fragment the model chose carries data.
   */
  const knownWhole = new Set<string>();
  /**
   * Known addresses opened since outside text came in. A second opening in the same turn asks: how
   * many times a page is opened would otherwise be a count the model can spell data with (web_fetch
   * reads on from its own copy of the page and never opens it twice).
   */
  const opened = new Set<string>();
  // Text quoted in a fence (what `cmd | zhixing "summarise"` sends, or a pasted log) is material, not
  // the user's words: its addresses are not named, its words ask for nothing, and it is outside text.
  const userTexts = [...(options.earlierTexts ?? []), options.turnText].map(withoutFences);
  if (userTexts.at(-1) !== options.turnText)
    sources.push({ tool: say(lang, '消息里引用的文本', 'text quoted in your message') });
  for (const text of userTexts) {
    for (const url of addressesIn(text)) {
      named.add(hostKey(url));
      known.add(sentKey(url));
      knownWhole.add(url.href);
    }
  }
  const asked = asksAcrossSessions(userTexts.at(-1)!);
  /**
   * Text the user wrote themselves for this turn: empty (clearing a field says nothing), or standing
   * whole in this turn's message. An earlier message may hold a secret told for another purpose ("my
   * PIN is 4455, for later"), which a page of this turn must not be able to ask for.
   */
  const userWrote = (typed: string) => typed === '' || standsIn(userTexts.at(-1)!, typed);

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
    const key = sentKey(url);
    const from = redirectFrom === undefined ? undefined : parse(redirectFrom);
    // A redirect is the server's choice: from a page that could go, the next hop carries nothing new.
    if (from) {
      const fromKey = sentKey(from);
      if (known.has(fromKey) || redirected.has(fromKey)) {
        redirected.add(key);
        return undefined;
      }
    } else if (known.has(key)) {
      if (!opened.has(key)) {
        opened.add(key);
        return undefined;
      }
      return because(
        `再次打开 ${cut(url.href)}（同一轮里打开的次数本身也能携带数据）`,
        `opening ${cut(url.href)} again (how often a page is opened in one turn could itself spell data out),`,
      );
    }
    const host = url.host;
    return named.has(hostKey(url))
      ? because(
          `打开模型自己拼出的地址 ${cut(url.href)}（虽然 ${host} 是你提到的网站，地址里的路径或参数仍可能携带数据）`,
          `opening ${cut(url.href)}, an address the model built (${host} is a site you named, but its path or query could still hold data),`,
        )
      : because(
          `打开你没有提到的网站 ${host}（${cut(url.href)}）`,
          `opening ${cut(url.href)} on ${host}, a site you did not name,`,
        );
  }

  return {
    entered(source) {
      sources.push(source);
    },
    searchResults(urls) {
      for (const raw of urls) {
        const url = parse(raw);
        if (!url) continue;
        known.add(sentKey(url));
        knownWhole.add(url.href);
      }
    },
    sources: () => [...sources],
    review({ sendsTo }) {
      if (!sendsTo) return undefined;
      if (sendsTo.kind === 'url') {
        // Before anything outside came in, the model has only the user's words to act on: the rules decide alone.
        if (sources.length === 0) {
          const url = parse(sendsTo.url);
          // A hop the server chose is followed, never kept as an address the model may open later.
          if (url) (sendsTo.redirectFrom === undefined ? known : redirected).add(sentKey(url));
          return undefined;
        }
        const url = parse(sendsTo.url);
        if (
          sendsTo.fragmentSeen &&
          url &&
          url.hash.length > 1 &&
          sendsTo.redirectFrom === undefined &&
          !knownWhole.has(url.href)
        ) {
          return because(
            `打开 ${cut(url.href)}：网页自己能读到地址里 # 之后的部分（${cut(url.hash)}），而它不是你写的`,
            `opening ${cut(url.href)}, whose #fragment (${cut(url.hash)}) the page itself reads and you did not write,`,
          );
        }
        return reviewUrl(sendsTo.url, sendsTo.redirectFrom);
      }
      if (sources.length === 0) return undefined;
      // Each load is a request the site counts, whatever the address: loads spaced out can spell data.
      if (sendsTo.kind === 'reopen') {
        return because(
          `在 ${cut(sendsTo.url)} 上刷新、后退、前进或开关标签页（一轮里这些动作的次数和时间本身也能携带数据）`,
          `reloading, going back or forward, or opening or closing a tab at ${cut(sendsTo.url)} (how often and when pages are loaded or closed in one turn could itself spell data out),`,
        );
      }
      if (sendsTo.kind === 'page') {
        const url = parse(sendsTo.url);
        const host = url?.host ?? cut(sendsTo.url);
        if (!url || !named.has(hostKey(url))) {
          return because(
            `在你没有提到的网站 ${host} 上输入或点击`,
            `typing or clicking on ${host}, a site you did not name,`,
          );
        }
        // A click passes: which element it hits says a few bits. Typed text goes wherever the page sends it.
        if (sendsTo.typed === undefined || userWrote(sendsTo.typed)) return undefined;
        const shown = cut(sendsTo.typed);
        return because(
          `在 ${host} 上输入你没有写过的文字「${shown}」（页面会把它送到它想送的地方）`,
          `typing "${shown}" on ${host}, text you did not write yourself (the page sends it wherever it likes),`,
        );
      }
      // A server's own descriptions steering a call to it tell it nothing the call would not: the user chose it.
      if (sendsTo.server !== undefined && sources.every((s) => s.describes === sendsTo.server)) return undefined;
      return because(
        `${sendsTo.what}（可以连接任何网络地址）`,
        `${sendsTo.what} (it can reach any address on the network)`,
      );
    },
    personIfAsked: ({ sendsTo }) => sendsTo?.kind === 'page' && sources.length > 0,
    crossSessionAsked: () => asked,
  };
}
