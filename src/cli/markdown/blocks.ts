/**
 * Markdown's block structure, read one line at a time as a streamed reply brings it: block quotes
 * and list items are containers a line continues or closes (as in CommonMark), and the line left
 * inside them is a heading, a rule, a fence, a table row or paragraph text.
 *
 * Each source line is printed as soon as it is complete, except table rows, which wait for the
 * whole table so its columns line up. Nothing printed is ever taken back, so a few of
 * CommonMark's rules that look ahead are left out: a paragraph line followed by `---` or `===`
 * stays a paragraph line (the `---` is a rule), a paragraph's lines are not joined into one, and
 * a table needs a leading `|` on its rows.
 *
 * `open` mode reads an incomplete line, to show what of it is already certain; it gives up
 * (returns false) wherever the rest of the line could still change what the start means.
 */
import { SGR, paintText, sgr, toCells } from './cells.js';
import { MAX_CONTEXT_LINES, type CodeHighlighter } from './highlight.js';
import type { InlineRenderer } from './inline.js';
import { delimiterRow, renderTable, splitRow, type Align } from './table.js';
import { createWrapper, textSink } from './wrap.js';
import { textWidth } from '../line-editor/text-width.js';
import {
  certainlyText,
  closesFence,
  expandTabs,
  FENCE_OPEN,
  HEADING,
  HR,
  isBlank,
  leadingSpaces,
  listMarker,
  QUOTE,
  startsBlock,
  TASK,
} from './block-syntax.js';

export interface BlockDeps {
  inline: InlineRenderer;
  code: CodeHighlighter;
}

interface Item {
  kind: 'item';
  /** Columns of source indentation a line needs to continue the item. */
  indent: number;
  bullet: string;
  bulletWidth: number;
  /** Whether the bullet has been printed (later rows get spaces instead). */
  shown: boolean;
}
type Container = { kind: 'quote' } | Item;
interface ListInfo {
  ordered: boolean;
  delim: string;
  next: number;
}
type Leaf =
  | { kind: 'none' }
  | { kind: 'paragraph' }
  | { kind: 'fence'; fence: string; indent: number; lang: string; context: string[] }
  /** A line starting with `|`, held: a table's header if a delimiter row follows. */
  | { kind: 'candidate'; line: string }
  | { kind: 'table'; header: string[]; aligns: Align[]; rows: string[][] };

/** Plain data, so a stream can copy it to try an incomplete line. */
export interface BlockState {
  stack: Container[];
  leaf: Leaf;
  /** A blank line seen and not yet printed: printed before the next block, never at the end. */
  blank?: string;
  printed: boolean;
  /** By container depth: the list a next item there continues (numbering). */
  lists: Array<ListInfo | null>;
}

export const initialBlockState = (): BlockState => ({ stack: [], leaf: { kind: 'none' }, printed: false, lists: [] });

const BULLETS = ['•', '◦', '▪', '▫'];
const HEADING_STYLE = [
  sgr(SGR.bold, SGR.underline),
  SGR.bold,
  sgr(SGR.bold, SGR.italic),
  SGR.italic,
  SGR.italic,
  SGR.italic,
];
const QUOTE_BAR = `${paintText('│', SGR.dim)} `;
/** The least room paragraph text gets, however deep the nesting. */
const MIN_TEXT_COLUMNS = 12;

/**
 * Reads one line (without its line break) at `width` columns, writing what it prints. In open mode
 * nothing is written after the last certain word, and false means nothing of the line is certain.
 */
export function processLine(
  st: BlockState,
  raw: string,
  width: number,
  open: boolean,
  write: (s: string) => void,
  deps: BlockDeps,
): boolean {
  let rest = expandTabs(raw);

  const beginBlock = () => {
    if (st.blank !== undefined && st.printed) write(`${st.blank}\n`);
    st.blank = undefined;
    st.printed = true;
  };
  /** The prefixes of the next row and the rows after it; marks bullets as printed. */
  const takePrefix = () => {
    let first = '';
    let restPrefix = '';
    let firstWidth = 0;
    let restWidth = 0;
    for (const c of st.stack) {
      if (c.kind === 'quote') {
        first += QUOTE_BAR;
        restPrefix += QUOTE_BAR;
        firstWidth += 2;
        restWidth += 2;
      } else {
        first += c.shown ? ' '.repeat(c.bulletWidth) : c.bullet;
        restPrefix += ' '.repeat(c.bulletWidth);
        firstWidth += c.bulletWidth;
        restWidth += c.bulletWidth;
        c.shown = true;
      }
    }
    return { first, rest: restPrefix, firstWidth, restWidth };
  };
  const blankRow = () =>
    st.stack
      .map((c) => (c.kind === 'quote' ? QUOTE_BAR : ' '.repeat(c.bulletWidth)))
      .join('')
      .replace(/ +$/, '');

  /** Paragraph or heading text, wrapped under the row's prefix. False in open mode when not yet certain. */
  const textRow = (text: string, base: string): boolean => {
    let content = open ? text.trimStart() : text.trim();
    const top = st.stack[st.stack.length - 1];
    let mark: ReturnType<typeof toCells> = [];
    const task = top?.kind === 'item' && !top.shown ? TASK.exec(content) : null;
    if (task) {
      mark = toCells(task[1] === ' ' ? '☐ ' : '☑ ', task[1] === ' ' ? SGR.dim : SGR.green);
      content = content.slice(task[0].length);
    }
    const r = deps.inline(content, base);
    beginBlock();
    const p = takePrefix();
    const w = createWrapper(
      textSink(write, p.first, p.rest),
      Math.max(MIN_TEXT_COLUMNS, width - p.firstWidth),
      Math.max(MIN_TEXT_COLUMNS, width - p.restWidth),
    );
    w.add([...mark, ...(open ? r.cells.slice(0, r.settled) : r.cells)]);
    if (!open) {
      w.end();
      write('\n');
    }
    return true;
  };
  /** A row printed whole: a rule, a fence line, a code line. */
  const wholeRow = (text: string) => {
    const p = takePrefix();
    write(`${(p.first + text).replace(/ +$/, '')}\n`);
  };
  const closeLeaf = () => {
    const leaf = st.leaf;
    st.leaf = { kind: 'none' };
    if (leaf.kind === 'candidate') {
      textRow(leaf.line, '');
    } else if (leaf.kind === 'table') {
      beginBlock();
      const p = takePrefix();
      const rows = renderTable(
        leaf.header,
        leaf.aligns,
        leaf.rows,
        (t, base) => deps.inline(t, base).cells,
        width - p.restWidth,
      );
      rows.forEach((row, i) => write(`${i === 0 ? p.first : p.rest}${row}\n`));
    }
  };
  const clearLists = () => {
    st.lists.length = Math.min(st.lists.length, st.stack.length);
  };

  // Which open containers the line continues.
  let matched = 0;
  for (const c of st.stack) {
    if (c.kind === 'quote') {
      const m = QUOTE.exec(rest);
      if (!m) break;
      rest = rest.slice(m[0].length);
    } else if (isBlank(rest)) rest = '';
    else if (leadingSpaces(rest) >= c.indent) rest = rest.slice(c.indent);
    else break;
    matched++;
  }

  // Inside a fence every line is code, to its closing fence.
  const leaf = st.leaf;
  if (leaf.kind === 'fence' && matched === st.stack.length) {
    if (open) return false;
    if (closesFence(rest, leaf.fence)) {
      wholeRow(paintText(rest.trim(), SGR.dim));
      st.leaf = { kind: 'none' };
      return true;
    }
    let code = rest;
    for (let i = 0; i < leaf.indent && code.startsWith(' '); i++) code = code.slice(1);
    if (isBlank(code)) {
      leaf.context = [];
      wholeRow('');
      return true;
    }
    if (leaf.context.length >= MAX_CONTEXT_LINES) leaf.context = [];
    leaf.context.push(code);
    wholeRow(deps.code.lastLine(leaf.lang, leaf.context));
    return true;
  }

  // A paragraph's text may go on without the containers' markers ("lazy" lines).
  if (matched < st.stack.length && leaf.kind === 'paragraph' && !isBlank(rest) && !startsBlock(rest)) {
    if (open && !certainlyText(rest)) return false;
    return textRow(rest, '');
  }
  if (matched < st.stack.length) {
    closeLeaf();
    st.stack.length = matched;
    st.lists.length = Math.min(st.lists.length, matched + 1);
  }

  // New containers the line opens.
  for (;;) {
    if (isBlank(rest)) break;
    const q = QUOTE.exec(rest);
    if (q) {
      closeLeaf();
      st.stack.push({ kind: 'quote' });
      rest = rest.slice(q[0].length);
      continue;
    }
    const m = HR.test(rest) ? undefined : listMarker(rest);
    // Within a paragraph, only a list starting at 1, with something in its first item, starts a list.
    if (m && !(st.leaf.kind === 'paragraph' && (m.empty || (m.ordered && m.start !== 1)))) {
      closeLeaf();
      const depth = st.stack.length;
      const prev = st.lists[depth];
      const n = m.ordered ? (prev && prev.ordered && prev.delim === m.delim ? prev.next : m.start) : 0;
      st.lists.length = depth;
      st.lists[depth] = { ordered: m.ordered, delim: m.delim, next: n + 1 };
      const level = st.stack.filter((c) => c.kind === 'item').length;
      const bullet = `${m.ordered ? `${n}${m.delim}` : BULLETS[level % BULLETS.length]} `;
      st.stack.push({ kind: 'item', indent: m.indent, bullet, bulletWidth: textWidth(bullet), shown: false });
      rest = m.content;
      continue;
    }
    break;
  }

  if (isBlank(rest)) {
    if (open) return false;
    closeLeaf();
    st.blank = blankRow();
    return true;
  }

  // What is left is a leaf block.
  const now = st.leaf;
  if (now.kind === 'candidate') {
    const aligns = delimiterRow(rest, splitRow(now.line).length);
    if (aligns) {
      if (open) return false;
      st.leaf = { kind: 'table', header: splitRow(now.line), aligns, rows: [] };
      return true;
    }
  }
  if (now.kind === 'table' && rest.trimStart().startsWith('|')) {
    if (open) return false;
    now.rows.push(splitRow(rest));
    return true;
  }
  const heading = HEADING.exec(rest);
  if (heading) {
    const text = (heading[2] ?? '').replace(/(?:^| +)#+ *$/, '');
    if (open && (!text.trim() || (heading[2] ?? '').includes('#'))) return false;
    closeLeaf();
    clearLists();
    if (!textRow(text, HEADING_STYLE[heading[1]!.length - 1]!)) return false;
    return true;
  }
  if (open && !certainlyText(rest)) return false;
  if (HR.test(rest)) {
    closeLeaf();
    clearLists();
    beginBlock();
    const p = takePrefix();
    write(`${p.first}${paintText('─'.repeat(Math.max(3, width - p.firstWidth)), SGR.dim)}\n`);
    return true;
  }
  const fence = FENCE_OPEN.exec(rest);
  if (fence && !(fence[2]![0] === '`' && fence[3]!.includes('`'))) {
    closeLeaf();
    clearLists();
    beginBlock();
    const lang = (fence[3]!.trim().split(/\s+/)[0] ?? '').replace(/^\{\.?|\}$/g, '').toLowerCase();
    st.leaf = { kind: 'fence', fence: fence[2]!, indent: fence[1]!.length, lang, context: [] };
    wholeRow(paintText(rest.trim(), SGR.dim));
    return true;
  }
  if (rest.trimStart().startsWith('|')) {
    closeLeaf();
    clearLists();
    st.leaf = { kind: 'candidate', line: rest };
    return true;
  }
  if (st.leaf.kind !== 'paragraph') {
    closeLeaf();
    clearLists();
  }
  if (!textRow(rest, '')) return false;
  st.leaf = { kind: 'paragraph' };
  return true;
}

/** The end of the text: prints what is held (a table, a possible table header). */
export function finishBlocks(st: BlockState, width: number, write: (s: string) => void, deps: BlockDeps): void {
  // A blank line closes every leaf but a fence, which has nothing held.
  if (st.leaf.kind !== 'fence') processLine(st, '', width, false, write, deps);
  Object.assign(st, initialBlockState());
}
