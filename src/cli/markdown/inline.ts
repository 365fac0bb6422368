/**
 * One line's inline Markdown (emphasis, code, links, strikethrough) as styled cells, from
 * markdown-it's inline tokens. Links show their text, then their address dimmed, since a terminal
 * cannot hide one behind the other.
 */
import type { MarkdownIt, Token } from 'markdown-it';
import { SGR, sgr, toCells, type Cell } from './cells.js';

export interface InlineResult {
  cells: Cell[];
  /**
   * How many of the cells are certain when the text is only the start of a line: those before an
   * emphasis, code or link marker not yet closed. None when the text ends in a marker, an escape or
   * an entity, whose meaning the next character decides.
   */
  settled: number;
}

const STYLE_OF: Record<string, string> = {
  strong_open: SGR.bold,
  em_open: SGR.italic,
  s_open: SGR.strike,
};
const CODE = SGR.cyan;
const LINK = sgr(SGR.underline, SGR.blue);
const ADDRESS = SGR.dim;

// Literal marker characters left in the text: a delimiter, bracket or autolink start nothing closed.
const OPEN_MARKER = /[*_~`[\]<]/;
// What a line may not end with while more could follow: a marker run, an escape, an entity in progress.
const UNFINISHED_END = /(?:[*_~`\\]|&[#A-Za-z0-9]*)$/;

/** The address shown after a link's text, unless it says nothing more than the text. */
function addressAfter(href: string, text: string): string {
  const bare = href.replace(/^mailto:/i, '');
  return href === text || bare === text ? '' : ` (${href})`;
}

export function createInlineRenderer(md: MarkdownIt) {
  return function renderInline(text: string, base = ''): InlineResult {
    const tokens: Token[] = md.parseInline(text, {})[0]?.children ?? [];
    const cells: Cell[] = [];
    const stack: string[] = [base];
    let settled = UNFINISHED_END.test(text) ? 0 : Infinity;
    let link: { href: string; text: string } | undefined;
    const style = () => sgr(...stack);
    const put = (s: string, extra = '') => {
      toCells(s, sgr(style(), extra), cells);
      if (link) link.text += s;
    };
    for (const t of tokens) {
      switch (t.type) {
        case 'text':
          if (settled === Infinity && OPEN_MARKER.test(t.content))
            settled = cells.length + [...t.content.slice(0, t.content.search(OPEN_MARKER))].length;
          put(t.content);
          break;
        case 'code_inline':
          put(t.content, CODE);
          break;
        case 'softbreak':
        case 'hardbreak':
          put(' ');
          break;
        case 'link_open':
          link = { href: String(t.attrGet('href') ?? ''), text: '' };
          stack.push(LINK);
          break;
        case 'link_close': {
          stack.pop();
          const after = link ? addressAfter(link.href, link.text) : '';
          link = undefined;
          if (after) toCells(after, sgr(style(), ADDRESS), cells);
          break;
        }
        case 'image': {
          const src = String(t.attrGet('src') ?? '');
          put(`[${t.content}]`, ADDRESS);
          if (src) toCells(` (${src})`, sgr(style(), ADDRESS), cells);
          break;
        }
        default:
          if (t.type in STYLE_OF) stack.push(STYLE_OF[t.type]!);
          else if (t.type.endsWith('_close')) stack.pop();
          else if (t.content) put(t.content);
      }
    }
    return { cells, settled: Math.min(settled, cells.length) };
  };
}

export type InlineRenderer = ReturnType<typeof createInlineRenderer>;
