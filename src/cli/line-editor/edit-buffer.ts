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
/**
 * How far around the cursor characters and words are looked for. Segmenting is slow on long text
 * (a pasted file), and no character or word the keys move over is this long.
 */
const WINDOW = 256;

/** The text before the cursor that matters to a step left: the cursor's line, at most WINDOW back. */
const before = (s: EditState) =>
  s.text.slice(Math.max(0, s.cursor - WINDOW, s.text.lastIndexOf('\n', s.cursor - 1)), s.cursor);
/** The same after the cursor. */
const after = (s: EditState) => s.text.slice(s.cursor, s.cursor + WINDOW);

const lineStart = (text: string, at: number) => text.lastIndexOf('\n', at - 1) + 1;
const lineEnd = (text: string, at: number) => {
  const i = text.indexOf('\n', at);
  return i < 0 ? text.length : i;
};

export function insert(s: EditState, str: string): EditState {
  return { text: s.text.slice(0, s.cursor) + str + s.text.slice(s.cursor), cursor: s.cursor + str.length };
}

export function left(s: EditState): EditState {
  if (s.cursor === 0) return s;
  const last = graphemes(before(s)).at(-1) ?? s.text[s.cursor - 1]!;
  return { ...s, cursor: s.cursor - last.length };
}

export function right(s: EditState): EditState {
  if (s.cursor >= s.text.length) return s;
  const next = graphemes(after(s))[0]!;
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

/** Word starts and ends near the cursor, by Unicode word boundaries: Chinese text is split into words, not taken as one. */
function wordsAround(s: EditState): Array<{ start: number; end: number }> {
  const from = Math.max(0, s.cursor - WINDOW);
  return Array.from(words.segment(s.text.slice(from, s.cursor + WINDOW)))
    .filter((w) => w.isWordLike)
    .map((w) => ({ start: from + w.index, end: from + w.index + w.segment.length }));
}

export function wordLeft(s: EditState): EditState {
  const starts = wordsAround(s).filter((w) => w.start < s.cursor);
  return { ...s, cursor: starts.at(-1)?.start ?? Math.max(0, s.cursor - WINDOW) };
}

export function wordRight(s: EditState): EditState {
  const next = wordsAround(s).find((w) => w.end > s.cursor);
  return { ...s, cursor: next?.end ?? Math.min(s.text.length, s.cursor + WINDOW) };
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
