/**
 * Puts a layout on the terminal and keeps track of what is there, so the next one replaces it: the
 * cursor goes back to the first row drawn, everything below is erased, and the rows are written
 * again. Typing at the end of a line writes just the new characters, as a terminal's own echo would.
 */
import type { Layout } from './layout.js';
import { visibleStart } from './layout.js';
import { textWidth } from './text-width.js';

const DEFAULT_ROWS = 24;

interface Drawn {
  rows: string[];
  cursorRow: number;
  cursorCol: number;
  /** Every row of the layout is on screen (none left out for want of room). */
  whole: boolean;
}

export interface Painter {
  /** Shows `layout`; `final` shows all of it and leaves the cursor at the start of the line below. */
  paint(layout: Layout, final?: boolean): void;
  /** The screen changed under the painter (cleared, or the line ended): the next paint starts where the cursor is. */
  forget(): void;
}

const up = (n: number) => (n > 0 ? `\x1b[${n}A` : '');
const down = (n: number) => (n > 0 ? `\x1b[${n}B` : '');
const moveTo = (fromRow: number, toRow: number, col: number) =>
  `\r${toRow < fromRow ? up(fromRow - toRow) : down(toRow - fromRow)}${col > 0 ? `\x1b[${col}C` : ''}`;

function appended(before: Drawn, rows: string[], cursorRow: number, cursorCol: number): boolean {
  const last = rows.length - 1;
  if (rows.length !== before.rows.length || cursorRow !== last || before.cursorRow !== last) return false;
  if (!rows.slice(0, last).every((r, i) => r === before.rows[i])) return false;
  const was = before.rows[last]!;
  return rows[last]!.startsWith(was) && before.cursorCol === textWidth(was) && cursorCol === textWidth(rows[last]!);
}

export function createPainter(output: Pick<NodeJS.WriteStream, 'write' | 'rows'>): Painter {
  let drawn: Drawn | undefined;
  return {
    paint(layout, final = false) {
      let { rows, cursorRow } = layout;
      const { cursorCol } = layout;
      // A text taller than the screen cannot be redrawn from its top: only what fits is shown.
      const height = Math.max(1, (output.rows || DEFAULT_ROWS) - 1);
      const start = final ? 0 : visibleStart(rows.length, cursorRow, height);
      const whole = start === 0 && rows.length <= height;
      if (!final) {
        rows = rows.slice(start, start + height);
        cursorRow -= start;
      }
      const same = drawn?.whole && drawn.rows.length === rows.length && drawn.rows.every((r, i) => r === rows[i]);
      let out = '';
      if (drawn && same)
        out = final ? `${down(rows.length - 1 - drawn.cursorRow)}\r\n` : moveTo(drawn.cursorRow, cursorRow, cursorCol);
      else if (!final && drawn && appended(drawn, rows, cursorRow, cursorCol))
        out = rows.at(-1)!.slice(drawn.rows.at(-1)!.length);
      else {
        if (drawn) out += `\r${up(drawn.cursorRow)}\x1b[J`;
        out += rows.join('\r\n');
        const atEnd = cursorRow === rows.length - 1 && cursorCol === textWidth(rows.at(-1)!) && cursorCol > 0;
        out += final ? '\r\n' : atEnd ? '' : moveTo(rows.length - 1, cursorRow, cursorCol);
      }
      drawn = final ? undefined : { rows, cursorRow, cursorCol, whole };
      if (out) output.write(out);
    },
    forget: () => void (drawn = undefined),
  };
}
