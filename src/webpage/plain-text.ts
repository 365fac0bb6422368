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

/** The page's title and its text, one block element a line. */
export function plainText(html: string): { title?: string; text: string } {
  const bare = stripInert(html);
  const title = /<title\b[^>]*>([^<]*)<\/title>/i.exec(bare)?.[1];
  const text = decodeEntities(
    bare
      .replace(/<head\b[\s\S]*?<\/head>/i, '')
      .replace(/<(?:br|hr)\b[^>]*>|<\/(?:p|div|li|tr|h[1-6]|blockquote|pre|section|article|table|ul|ol|dl|dt|dd|header|footer)\s*>/gi, '\n')
      .replace(/<[^>]*>/g, ''),
  )
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .replace(/ *\n[ \n]*/g, '\n')
    .trim();
  const t = title ? decodeEntities(title).replace(/\s+/g, ' ').trim() : '';
  return t ? { title: t, text } : { text };
}
