/**
 * A page's article as Markdown: jsdom parses it (no scripts run, nothing loaded), Readability finds
 * the article with its title, byline and site name, and turndown (with the GFM plugin, so tables
 * stay tables) writes Markdown with links kept as links. A page Readability finds no article in
 * (a list, a form, a bare document) falls back to its whole body.
 *
 * jsdom, Readability and turndown are loaded on first use: a one-shot CLI call never pays for them.
 */
import { toMarkdown } from './markdown.js';

/** Links listed for the UI's card: enough to show what the page points to. */
const MAX_LINKS = 20;
const MAX_LINK_TEXT_CHARS = 200;

export interface PageLink {
  text: string;
  href: string;
}

export interface ExtractedPage {
  title: string;
  byline?: string;
  siteName?: string;
  lang?: string;
  excerpt?: string;
  /** The article (or the body) as Markdown. */
  markdown: string;
  /** The article's plain text, as Readability's textContent gives it. */
  text: string;
  /** The first links of the article, absolute. */
  links: PageLink[];
  /** False when Readability found no article and the whole body was used. */
  article: boolean;
}

/** The smallest part of jsdom's DOM this module touches: jsdom's types pull in the DOM library. */
interface El {
  textContent: string | null;
  querySelectorAll(selector: string): Iterable<El> & { length: number };
  getAttribute(name: string): string | null;
  remove(): void;
  ownerDocument: { baseURI: string };
}

const clean = (s: string | null | undefined): string | undefined => {
  const t = s?.replace(/\s+/g, ' ').trim();
  return t ? t : undefined;
};

/**
 * Scripts (but JSON-LD, where Readability finds the byline and title), styles and comments removed
 * before parsing: nothing reads them, and on news pages they are often most of the bytes, which jsdom
 * would otherwise turn into nodes only for Readability to remove them again.
 */
export function stripInert(html: string): string {
  // One pass with indexOf, not a lazy regex: a page of unclosed `<!--` must not cost quadratic time.
  const lower = html.toLowerCase();
  const out: string[] = [];
  let at = 0;
  const open = /<script\b|<style\b|<!--/g;
  for (let m = open.exec(lower); m; m = open.exec(lower)) {
    if (m.index < at) continue;
    const kind = m[0];
    let end: number;
    if (kind === '<!--') {
      end = lower.indexOf('-->', m.index + 4);
      end = end < 0 ? -1 : end + 3;
    } else {
      const tagEnd = lower.indexOf('>', m.index);
      if (kind === '<script' && tagEnd > 0 && lower.slice(m.index, tagEnd).includes('application/ld+json')) continue;
      const close = kind === '<script' ? '</script' : '</style';
      end = tagEnd < 0 ? -1 : lower.indexOf(close, tagEnd);
      end = end < 0 ? -1 : lower.indexOf('>', end) + 1;
    }
    // Unclosed: what follows is left for the parser, which knows what to make of it.
    if (end <= 0) break;
    out.push(html.slice(at, m.index));
    at = end;
    open.lastIndex = end;
  }
  out.push(html.slice(at));
  return out.join('');
}

async function parse(html: string, url: string) {
  const { JSDOM, VirtualConsole } = await import('jsdom');
  // A console of our own that goes nowhere: a page's broken CSS is not the user's concern.
  const dom = new JSDOM(stripInert(html), { url, virtualConsole: new VirtualConsole(), contentType: 'text/html' });
  return dom;
}

function linksOf(root: El): PageLink[] {
  const out: PageLink[] = [];
  const seen = new Set<string>();
  for (const a of root.querySelectorAll('a[href]')) {
    if (out.length >= MAX_LINKS) break;
    let href: string;
    try {
      href = new URL(a.getAttribute('href')!, a.ownerDocument.baseURI).href;
    } catch {
      continue;
    }
    if (!/^https?:/.test(href) || seen.has(href)) continue;
    const text = clean(a.textContent);
    if (!text) continue;
    seen.add(href);
    out.push({ text: text.slice(0, MAX_LINK_TEXT_CHARS), href });
  }
  return out;
}

/** Extracts the article of `html`, fetched from `url` (relative links resolve against it). */
export async function extractPage(html: string, url: string): Promise<ExtractedPage> {
  const [dom, { Readability }] = await Promise.all([parse(html, url), import('@mozilla/readability')]);
  const document = dom.window.document;
  const docTitle = clean(document.title);
  const lang = clean(document.documentElement?.getAttribute('lang'));
  try {
    // The serializer hands back the element itself, so turndown walks jsdom's tree instead of parsing the HTML again.
    const reader = new Readability(document as never, { serializer: (el: unknown) => el as never, keepClasses: false });
    const article = reader.parse() as null | {
      title?: string | null;
      byline?: string | null;
      siteName?: string | null;
      excerpt?: string | null;
      lang?: string | null;
      content: unknown;
      textContent?: string | null;
    };
    if (article?.content) {
      const root = article.content as El;
      return {
        title: clean(article.title) ?? docTitle ?? url,
        ...optional('byline', clean(article.byline)),
        ...optional('siteName', clean(article.siteName)),
        ...optional('lang', clean(article.lang) ?? lang),
        ...optional('excerpt', clean(article.excerpt)),
        markdown: await toMarkdown(root),
        text: article.textContent ?? '',
        links: linksOf(root),
        article: true,
      };
    }
  } finally {
    dom.window.close();
  }
  return fallback(html, url, docTitle, lang);
}

/** The whole body without scripts, styles and page chrome, for pages with no article. */
async function fallback(
  html: string,
  url: string,
  docTitle: string | undefined,
  lang: string | undefined,
): Promise<ExtractedPage> {
  // Readability changed the first document while it searched: start again from the HTML.
  const dom = await parse(html, url);
  try {
    const body = dom.window.document.body as unknown as El | null;
    if (!body)
      return { title: docTitle ?? url, markdown: '', text: '', links: [], article: false, ...optional('lang', lang) };
    for (const el of body.querySelectorAll('script, style, noscript, template, iframe, svg, canvas')) el.remove();
    return {
      title: docTitle ?? url,
      ...optional('lang', lang),
      markdown: await toMarkdown(body),
      text: body.textContent ?? '',
      links: linksOf(body),
      article: false,
    };
  } finally {
    dom.window.close();
  }
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}
