/**
 * Where the prompt and the text land on the terminal: rows no wider than the terminal, wrapped the
 * way the terminal would wrap them (a double-width character that does not fit at the end of a row
 * goes to the next one whole), and the cursor's row and column. Pure, so it is tested without a terminal.
 */
import { graphemes, graphemeWidth, TAB_WIDTH } from './text-width.js';

export interface Layout {
  /** What each row shows, prompts included. */
  rows: string[];
  cursorRow: number;
  cursorCol: number;
}

export interface LayoutInput {
  prompt: string;
  promptWidth: number;
  /** Shown at the start of every line of the text after the first. */
  continuation: string;
  continuationWidth: number;
  text: string;
  cursor: number;
  columns: number;
}

export function layout(input: LayoutInput): Layout {
  const columns = Math.max(2, input.columns);
  const rows: string[] = [];
  let row = input.prompt;
  let col = input.promptWidth;
  let cursorRow = -1;
  let cursorCol = 0;
  const newRow = (start = '', width = 0) => {
    rows.push(row);
    row = start;
    col = width;
  };
  const markCursor = () => {
    cursorRow = rows.length;
    cursorCol = col;
  };

  const lines = input.text.split('\n');
  let at = 0;
  lines.forEach((line, i) => {
    if (i > 0) {
      newRow(input.continuation, input.continuationWidth);
      at += 1;
    }
    for (const g of graphemes(line)) {
      const width = graphemeWidth(g);
      if (col + width > columns && col > 0) newRow();
      if (at === input.cursor) markCursor();
      row += g === '\t' ? ' '.repeat(TAB_WIDTH) : width === 0 && g.codePointAt(0)! < 0x20 ? '' : g;
      col += width;
      at += g.length;
    }
    if (at === input.cursor) markCursor();
  });
  rows.push(row);
  if (cursorRow < 0) {
    cursorRow = rows.length - 1;
    cursorCol = col;
  }
  // A cursor after a full row sits at the start of the next one, which must then exist.
  if (cursorCol >= columns) {
    cursorRow += 1;
    cursorCol = 0;
    if (cursorRow === rows.length) rows.push('');
  }
  return { rows, cursorRow, cursorCol };
}

/**
 * The rows to show when they do not all fit on the screen: `height` of them, the cursor's row among
 * them, the end of the text preferred. Returns the first row's index.
 */
export function visibleStart(rowCount: number, cursorRow: number, height: number): number {
  if (rowCount <= height) return 0;
  const last = rowCount - height;
  return cursorRow >= last ? last : cursorRow;
}
