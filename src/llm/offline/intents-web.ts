/**
 * Rules for the open-web and document tools: a message that holds a web address reads the page
 * (「打开 https://…」, "summarize https://…"), one that names a .pdf reads the document (「读一下
 * report.pdf 第 2 页」), and 「搜索 …」 / "search the web for …" searches. What comes back is
 * outside text: it is said as what the page, PDF or search said, cut to a readable length, and the
 * permission rules and network policy decide what is reached, never the planner.
 */
import { say, type Lang } from '../../i18n.js';
import { unfenced } from '../../contract/untrusted-fence.js';
import { call, calls, PRIORITY, str, type Intent, type ToolRules } from './intent.js';
import { cleanPath, PATH } from './extract.js';

/** Past this many characters a page or document is cut in the reply; the model-backed mode reads on. */
const SAID_CHARS = 3_000;
/** At most this many addresses of one message are fetched. */
const MAX_URLS = 3;

/** An address as typed in a sentence: up to whitespace, CJK punctuation or a closing bracket. */
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"'`，。！？；、）」』】]+/gi;
/** Punctuation that ends the sentence, not the address. */
const TRAILING_PUNCT = /[.,;:!?)\]}'"]+$/;

/** The http(s) addresses a message holds, in order, each once. */
export function urlsIn(text: string): string[] {
  const found = (text.match(URL_IN_TEXT) ?? []).map((u) => u.replace(TRAILING_PUNCT, ''));
  return [...new Set(found)].filter((u) => URL.canParse(u)).slice(0, MAX_URLS);
}

/** A video is watched, not read: its page holds a title and little else, so offline says it cannot. */
const VIDEO =
  /视频|\bvideos?\b|\b(?:youtube\.com|youtu\.be|bilibili\.com|b23\.tv|v\.qq\.com|youku\.com|douyin\.com|vimeo\.com)\b/i;

/** Any message holding an address reads it: higher rules (a todo, a file write, a command) have already kept theirs. */
const webFetch: Intent = {
  id: 'web_fetch',
  priority: PRIORITY.webFetch,
  match(u) {
    const [first, ...rest] = urlsIn(u.raw);
    if (!first || VIDEO.test(u.norm)) return null;
    return calls(
      { name: 'web_fetch', args: { url: first } },
      ...rest.map((url) => ({ name: 'web_fetch', args: { url } })),
    );
  },
};

const PATHS = new RegExp(PATH, 'g');

/** The first path in the message that names a PDF, with where it starts. */
function pdfIn(norm: string): { index: number; length: number } | undefined {
  for (const m of norm.matchAll(PATHS)) {
    if (/\.pdf$/i.test(cleanPath(m[0]))) return { index: m.index, length: cleanPath(m[0]).length };
  }
  return undefined;
}
/** A read verb, or nothing but the name: 「report.pdf」 alone asks to read it. */
const READ_WORDS =
  /读|看|打开|总结|概括|摘要|提取|内容|讲了?什么|说了?什么|翻译|\b(?:read|open|show|summari[sz]e|extract|what(?:'s| is| does)|look at|view)\b/i;
/** Writes and deletes belong to other rules (or to none offline). */
const NOT_A_READ = /写|删|移动|重命名|改名|复制|保存到|\b(?:write|delete|remove|rename|move|copy|save)\b/i;
/** 「第 2 页」「第2-4页」「第 1 到 3 页」「前 3 页」 "page 2", "pages 1-3", "pages 2 to 5". */
const PAGES_ZH = /第\s*(\d{1,4})\s*(?:(?:-|–|~|到|至)\s*(?:第\s*)?(\d{1,4})\s*)?页|前\s*(\d{1,4})\s*页/;
const PAGES_EN = /\bpages?\s+(\d{1,4})(?:\s*(?:-|–|to|through)\s*(\d{1,4}))?\b|\bfirst\s+(\d{1,4})\s+pages\b/i;

/** The pages a message names, as pdf_read takes them ("2", "1-3"), if any. */
export function pagesIn(text: string): string | undefined {
  const m = PAGES_ZH.exec(text) ?? PAGES_EN.exec(text);
  if (!m) return undefined;
  if (m[3]) return `1-${m[3]}`;
  return m[2] && m[2] !== m[1] ? `${m[1]}-${m[2]}` : m[1];
}

const pdfRead: Intent = {
  id: 'pdf_read',
  priority: PRIORITY.pdfRead,
  match(u) {
    const m = pdfIn(u.norm);
    if (!m || NOT_A_READ.test(u.norm)) return null;
    const path = u.raw.slice(m.index, m.index + m.length);
    const rest = (u.norm.slice(0, m.index) + u.norm.slice(m.index + m.length)).trim();
    if (rest && !READ_WORDS.test(rest) && !pagesIn(rest)) return null;
    const pages = pagesIn(u.norm);
    return call('pdf_read', pages ? { path, pages } : { path });
  },
};

const POLITE_ZH = '(?:请|麻烦|帮我|给我|你|能不能|可以)?\\s*(?:帮我|给我)?\\s*';
/** 「搜索 知行合一」「在网上搜一下 上海迪士尼门票」「百度一下 …」「上网查一下 …」. */
const SEARCH_ZH = new RegExp(
  `^${POLITE_ZH}(?:在网上|上网|去网上|网上|用搜索引擎)?\\s*(?:搜索|搜一下|搜一搜|搜搜|搜|查一下|查查|查|找一下|找找)(?:一下)?\\s*(?:网上|网络上|互联网上)?\\s*(?:关于)?\\s*[:：]?\\s*(?<q>.+)$`,
  'sd',
);
/** Without 网上, 「查一下 …」 is too broad (weather, todos, files): only the search verbs themselves count. */
const SEARCH_VERB_ZH =
  /^(?:请|麻烦|帮我|给我|你|能不能|可以)?\s*(?:帮我|给我)?\s*(?:在网上|上网|去网上|网上|用搜索引擎)|^(?:请|麻烦|帮我|给我|你|能不能|可以)?\s*(?:帮我|给我)?\s*(?:搜索|搜一下|搜一搜|搜搜|搜|百度一下|谷歌一下)/;
const BAIDU_ZH = /^(?:请|帮我|给我)?\s*(?:百度|谷歌|google)\s*一下\s*[:：]?\s*(?<q>.+)$/dis;
/** "search for X", "search the web for X", "google X", "look up X online", "web search: X". */
const SEARCH_EN =
  /^(?:please\s+)?(?:can you\s+|could you\s+)?(?:(?:do a\s+)?(?:web\s+)?search(?:\s+(?:the\s+)?(?:web|internet|online))?(?:\s+for)?|google|look\s+up)\s*:?\s+(?<q>.+?)(?:\s+(?:online|on the web|on the internet))?[.?!]?$/dis;
/** What stays with other tools though worded as a search: todos, files, memories, the weather, the time. */
const NOT_THE_WEB = /待办|todo|文件|files?\b|记忆|memor|笔记|notes?\b|天气|weather|几点|时间|\btime\b|日期|\bdate\b/i;

const webSearch: Intent = {
  id: 'web_search',
  priority: PRIORITY.webSearch,
  match(u) {
    const zh = SEARCH_VERB_ZH.test(u.norm) ? (BAIDU_ZH.exec(u.norm) ?? SEARCH_ZH.exec(u.norm)) : null;
    const m = zh ?? SEARCH_EN.exec(u.norm);
    const at = m?.indices?.groups?.q;
    const query = at
      ? u.raw
          .slice(at[0], at[1])
          .replace(/[\s。.!！?？~～]+$/, '')
          .trim()
      : '';
    if (!query || NOT_THE_WEB.test(query)) return null;
    return call('web_search', { query });
  },
};

/** Outside text as the user reads it: without its fence, cut to a readable length. */
function shown(lang: Lang, output: string): string {
  const text = unfenced(output).trim();
  if (text.length <= SAID_CHARS) return text;
  return `${text.slice(0, SAID_CHARS).trimEnd()}\n…\n${say(lang, `（内容较长，只显示了前 ${SAID_CHARS} 个字符。）`, `(It goes on; only the first ${SAID_CHARS} characters are shown.)`)}`;
}

export const WEB_RULES: ToolRules = {
  intents: [webFetch, pdfRead, webSearch],
  success: {
    web_fetch: (lang, c, output) =>
      `${say(lang, `${str(c.args.url)} 的内容：`, `From ${str(c.args.url)}:`)}\n\n${shown(lang, output)}`,
    pdf_read: (lang, c, output) =>
      `${say(lang, `${str(c.args.path)} 的内容：`, `From ${str(c.args.path)}:`)}\n\n${shown(lang, output)}`,
    web_search: (lang, c, output) =>
      `${say(lang, `「${str(c.args.query)}」的搜索结果：`, `Search results for "${str(c.args.query)}":`)}\n\n${shown(lang, output)}`,
  },
  failure: {
    web_fetch: (lang, args, why) =>
      say(lang, `没能打开 ${str(args.url)}：${why}`, `Could not open ${str(args.url)}: ${why}`),
    pdf_read: (lang, args, why) =>
      say(lang, `没能读取 ${str(args.path)}：${why}`, `Could not read ${str(args.path)}: ${why}`),
    web_search: (lang, args, why) =>
      say(lang, `没能搜索「${str(args.query)}」：${why}`, `Could not search for "${str(args.query)}": ${why}`),
  },
};
