/**
 * The text being edited and where the cursor is, with the edits the keys make. Pure: every function
 * returns a new state. The cursor is a UTF-16 index that always sits between two graphemes, so a
 * Chinese character, an emoji or an accented letter is moved over and deleted as one.
 */
import { graphemes, graphemeWidth } from './text-width.js';

export interface EditState {
  readonly text: string;
  /** UTF-16 offset into `text`, on a grapheme boundary. */
  readonly cursor: number;
}

export const emptyState: EditState = { text: '', cursor: 0 };

export const stateOf = (text: string): EditState => ({ text, cursor: text.length });

const words = new Intl.Segmenter(undefined, { granularity: 'word' });

/** Grapheme boundaries of `text`, 0 and text.length included. */
function boundaries(text: string): number[] {
  const out = [0];
  let at = 0;
  for (const g of graphemes(text)) out.push((at += g.length));
  return out;
}

const lineStart = (text: string, at: number) => text.lastIndexOf('\n', at - 1) + 1;
const lineEnd = (text: string, at: number) => {
  const i = text.indexOf('\n', at);
  return i < 0 ? text.length : i;
};

export function insert(s: EditState, str: string): EditState {
  return { text: s.text.slice(0, s.cursor) + str + s.text.slice(s.cursor), cursor: s.cursor + str.length };
}

export function left(s: EditState): EditState {
  const b = boundaries(s.text.slice(0, s.cursor));
  return { ...s, cursor: b.length > 1 ? b[b.length - 2]! : 0 };
}

export function right(s: EditState): EditState {
  if (s.cursor >= s.text.length) return s;
  const next = graphemes(s.text.slice(s.cursor))[0]!;
  return { ...s, cursor: s.cursor + next.length };
}

export function backspace(s: EditState): EditState {
  const to = left(s).cursor;
  return { text: s.text.slice(0, to) + s.text.slice(s.cursor), cursor: to };
}

export function deleteForward(s: EditState): EditState {
  const to = right(s).cursor;
  return { text: s.text.slice(0, s.cursor) + s.text.slice(to), cursor: s.cursor };
}

/** Word starts, by Unicode word boundaries: Chinese text is split into words, not taken as one. */
function wordStarts(text: string): number[] {
  return Array.from(words.segment(text))
    .filter((w) => w.isWordLike)
    .map((w) => w.index);
}

export function wordLeft(s: EditState): EditState {
  const starts = wordStarts(s.text).filter((i) => i < s.cursor);
  return { ...s, cursor: starts.at(-1) ?? 0 };
}

export function wordRight(s: EditState): EditState {
  for (const w of words.segment(s.text)) {
    const end = w.index + w.segment.length;
    if (w.isWordLike && end > s.cursor) return { ...s, cursor: end };
  }
  return { ...s, cursor: s.text.length };
}

/** Ctrl-W: deletes the word before the cursor and the spaces after it. */
export function killWordBack(s: EditState): EditState {
  const to = wordLeft(s).cursor;
  return { text: s.text.slice(0, to) + s.text.slice(s.cursor), cursor: to };
}

export const home = (s: EditState): EditState => ({ ...s, cursor: lineStart(s.text, s.cursor) });
export const end = (s: EditState): EditState => ({ ...s, cursor: lineEnd(s.text, s.cursor) });

/** Ctrl-K: to the end of the cursor's line (or joins the next line when already there). */
export function killToEnd(s: EditState): EditState {
  const stop = lineEnd(s.text, s.cursor);
  const to = stop === s.cursor && stop < s.text.length ? stop + 1 : stop;
  return { text: s.text.slice(0, s.cursor) + s.text.slice(to), cursor: s.cursor };
}

/** Ctrl-U: from the start of the cursor's line. */
export function killToStart(s: EditState): EditState {
  const from = lineStart(s.text, s.cursor);
  return { text: s.text.slice(0, from) + s.text.slice(s.cursor), cursor: from };
}

/** Columns from the start of the cursor's line to the cursor. */
function column(text: string, at: number): number {
  let width = 0;
  for (const g of graphemes(text.slice(lineStart(text, at), at))) width += graphemeWidth(g);
  return width;
}

/** The offset in the line starting at `from` that is nearest `col` columns in, not past it. */
function atColumn(text: string, from: number, col: number): number {
  let at = from;
  let width = 0;
  for (const g of graphemes(text.slice(from, lineEnd(text, from)))) {
    if (width + graphemeWidth(g) > col) break;
    width += graphemeWidth(g);
    at += g.length;
  }
  return at;
}

/** ↑ within the text: the same column on the line above; undefined on the first line. */
export function lineUp(s: EditState): EditState | undefined {
  const start = lineStart(s.text, s.cursor);
  if (start === 0) return undefined;
  return { ...s, cursor: atColumn(s.text, lineStart(s.text, start - 1), column(s.text, s.cursor)) };
}

/** ↓ within the text: the same column on the line below; undefined on the last line. */
export function lineDown(s: EditState): EditState | undefined {
  const stop = lineEnd(s.text, s.cursor);
  if (stop === s.text.length) return undefined;
  return { ...s, cursor: atColumn(s.text, stop + 1, column(s.text, s.cursor)) };
}
