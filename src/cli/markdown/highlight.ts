/**
 * Code in a fenced block, coloured for the terminal by highlight.js, one line at a time: each line
 * is coloured as highlight.js sees it after the lines before it in the block, so a line can be
 * shown as soon as it is complete and a comment or string opened earlier still colours it.
 * To bound the work, the lines before it are counted from the last blank line, and at most
 * MAX_CONTEXT_LINES of them.
 */
import type { HLJSApi } from 'highlight.js';
import { SGR, sgr, paint, toCells, type Cell } from './cells.js';

export const MAX_CONTEXT_LINES = 80;

/** Colours by highlight.js scope (its class name without "hljs-", up to the first dot). */
const SCOPE_STYLE: Record<string, string> = {
  keyword: SGR.magenta,
  built_in: SGR.cyan,
  type: SGR.cyan,
  literal: SGR.yellow,
  number: SGR.yellow,
  string: SGR.green,
  regexp: SGR.red,
  symbol: SGR.yellow,
  comment: SGR.gray,
  quote: SGR.gray,
  doctag: SGR.magenta,
  meta: SGR.blue,
  title: SGR.blue,
  section: sgr(SGR.bold, SGR.blue),
  attr: SGR.cyan,
  attribute: SGR.cyan,
  property: SGR.cyan,
  tag: SGR.blue,
  name: SGR.blue,
  'selector-tag': SGR.magenta,
  'selector-class': SGR.yellow,
  'selector-id': SGR.yellow,
  'template-tag': SGR.magenta,
  'template-variable': SGR.yellow,
  bullet: SGR.yellow,
  addition: SGR.green,
  deletion: SGR.red,
  emphasis: SGR.italic,
  strong: SGR.bold,
  link: SGR.underline,
};

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#x27;': "'",
  '&#39;': "'",
};
const HTML_PART = /<span class="([^"]*)">|<\/span>|&(?:amp|lt|gt|quot|#x27|#39);|[^<&]+|[<&]/g;

/** The last line of highlight.js's HTML as cells, with the scopes opened on earlier lines still applied. */
function lastLineCells(html: string): Cell[] {
  const scopes: string[] = [];
  let line: Cell[] = [];
  for (const m of html.matchAll(HTML_PART)) {
    const part = m[0];
    if (m[1] !== undefined) {
      const scope = m[1]
        .split(' ')[0]!
        .replace(/^hljs-/, '')
        .split('.')[0]!;
      scopes.push(SCOPE_STYLE[scope] ?? '');
    } else if (part === '</span>') scopes.pop();
    else {
      const text = ENTITIES[part] ?? part;
      const style = [...scopes].reverse().find((s) => s) ?? '';
      const pieces = text.split('\n');
      if (pieces.length > 1) line = [];
      toCells(pieces[pieces.length - 1]!, style, line);
    }
  }
  return line;
}

export interface CodeHighlighter {
  /** Whether this fence's language is known. */
  knows(lang: string): boolean;
  /** The last of `lines` coloured, as terminal text; the others are its context. */
  lastLine(lang: string, lines: readonly string[]): string;
}

export function createCodeHighlighter(hljs: HLJSApi): CodeHighlighter {
  const knows = (lang: string) => Boolean(lang && hljs.getLanguage(lang));
  return {
    knows,
    lastLine(lang, lines) {
      const last = lines[lines.length - 1] ?? '';
      if (!knows(lang)) return last;
      try {
        return paint(lastLineCells(hljs.highlight(lines.join('\n'), { language: lang, ignoreIllegals: true }).value));
      } catch {
        return last;
      }
    },
  };
}
