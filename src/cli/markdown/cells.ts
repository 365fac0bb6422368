/**
 * Text as the terminal will show it: one cell per character (grapheme), with its width in columns and the
 * SGR parameters it is drawn with. Layout (wrapping, tables) works on cells; `paint` turns them
 * into the escape sequences this renderer writes, the only ones that reach the terminal.
 */
import { graphemes, graphemeWidth } from '../line-editor/text-width.js';

export interface Cell {
  ch: string;
  /** Columns: 0, 1 or 2. */
  w: number;
  /** SGR parameters, e.g. "1;36"; '' for plain. */
  sgr: string;
}

/** SGR parameters of each style the renderer uses. */
export const SGR = {
  bold: '1',
  dim: '2',
  italic: '3',
  underline: '4',
  strike: '9',
  red: '31',
  green: '32',
  yellow: '33',
  blue: '34',
  magenta: '35',
  cyan: '36',
  gray: '90',
} as const;

/** Joins SGR parameters, each at most once, in a stable order. */
export function sgr(...parts: string[]): string {
  const codes = new Set(parts.flatMap((p) => (p ? p.split(';') : [])));
  return [...codes].sort((a, b) => Number(a) - Number(b)).join(';');
}

/** The cells of `text`, appended to `into` when given (no spreading: a line can be very long). */
export function toCells(text: string, style = '', into: Cell[] = []): Cell[] {
  for (const ch of graphemes(text)) into.push({ ch, w: graphemeWidth(ch), sgr: style });
  return into;
}

export const widthOf = (cells: readonly Cell[]) => cells.reduce((n, c) => n + c.w, 0);

/** One styled run: reset at its end, so no style ever leaks into what comes after. */
export const paintText = (text: string, style: string) => (style && text ? `\x1b[${style}m${text}\x1b[0m` : text);

/** Cells as terminal text: each run of one style opened and reset. */
export function paint(cells: readonly Cell[]): string {
  let out = '';
  let run = '';
  let style = '';
  for (const c of cells) {
    if (c.sgr !== style) {
      out += paintText(run, style);
      run = '';
      style = c.sgr;
    }
    run += c.ch;
  }
  return out + paintText(run, style);
}
