/**
 * A page's text without a DOM: what web_fetch says of a page too slow or too large to read as an
 * article. One linear pass of regular expressions over the HTML, so it costs what the page's size costs.
 */
import { stripInert } from './extract.js';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

const BLOCK_END =
  /^(?:br|hr|\/(?:p|div|li|tr|h[1-6]|blockquote|pre|section|article|table|ul|ol|dl|dt|dd|header|footer))\b/i;

/**
 * The text between tags, a block's end or a line break made a new line. One pass with indexOf: a
 * page of `<` with no `>` after them costs its length, not its length squared.
 */
function textOf(html: string): string {
  const out: string[] = [];
  let at = 0;
  while (at < html.length) {
    const open = html.indexOf('<', at);
    if (open < 0) {
      out.push(html.slice(at));
      break;
    }
    out.push(html.slice(at, open));
    const close = html.indexOf('>', open + 1);
    // A `<` never closed: the rest is text, as a browser would show it.
    if (close < 0) {
      out.push(html.slice(open));
      break;
    }
    if (BLOCK_END.test(html.slice(open + 1, Math.min(close, open + 12)))) out.push('\n');
    at = close + 1;
  }
  return out.join('');
}

/** The page's title and its text, one block element a line. */
export function plainText(html: string): { title?: string; text: string } {
  const bare = stripInert(html);
  const lower = bare.slice(0, 200_000).toLowerCase();
  // The head holds the title and nothing to read; found once, not searched for at every `<head`.
  const headStart = lower.indexOf('<head');
  const headEnd = headStart < 0 ? -1 : lower.indexOf('</head>', headStart);
  const titleStart = lower.indexOf('<title');
  const titleOpen = titleStart < 0 ? -1 : lower.indexOf('>', titleStart);
  const titleEnd = titleOpen < 0 ? -1 : lower.indexOf('</title', titleOpen);
  const title = titleEnd < 0 ? undefined : bare.slice(titleOpen + 1, titleEnd);
  const body = headEnd < 0 ? bare : bare.slice(0, headStart) + bare.slice(headEnd + '</head>'.length);
  const text = decodeEntities(textOf(body))
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .replace(/ *\n[ \n]*/g, '\n')
    .trim();
  const t = title ? decodeEntities(title).replace(/\s+/g, ' ').trim() : '';
  return t ? { title: t, text } : { text };
}
