/**
 * Greedy word wrapping that can be fed a line a piece at a time. A word (or a CJK character, which
 * may break anywhere but before closing punctuation and after opening punctuation) is placed once
 * the character after it is known, and never moved again: what it has written for part of a line
 * is always the start of what it writes for the whole line. That is what lets a reply be shown
 * while it streams and still end up exactly as the whole reply rendered at once.
 */
import { paint, widthOf, type Cell } from './cells.js';

/** May not start a line (closing punctuation, CJK and Latin). */
const NO_LINE_START = new Set('，。、；：？！）」』】》〉〕］｝’”…—·～％,.;:!?)]}%\'"');
/** May not end a line (opening punctuation). */
const NO_LINE_END = new Set('（「『【《〈〔［｛‘“([{');

/** Whether a line may break between two adjacent non-space characters. */
function breakBetween(a: Cell, b: Cell): boolean {
  if (NO_LINE_START.has(b.ch) || NO_LINE_END.has(a.ch)) return false;
  return a.w === 2 || b.w === 2;
}

/** Where a wrapper's output goes: text for a terminal, or rows of cells for a table. */
export interface RowSink {
  /** The first row begins. */
  start(): void;
  cells(cells: Cell[]): void;
  /** A new row begins (the previous one is full). */
  row(): void;
}

export interface Wrapper {
  add(cells: readonly Cell[]): void;
  /** The line is complete: places its last word. Writes no line break after it. */
  end(): void;
}

/** Wraps into rows of `firstRoom` columns, then `restRoom` columns. */
export function createWrapper(sink: RowSink, firstRoom: number, restRoom: number): Wrapper {
  let atom: Cell[] = [];
  let spaces: Cell[] = [];
  let started = false;
  let col = 0;
  let room = Math.max(1, firstRoom);

  const newRow = () => {
    sink.row();
    col = 0;
    room = Math.max(1, restRoom);
  };
  /** A word wider than a row: as many characters on each row as fit. */
  const hardBreak = (cells: Cell[]) => {
    let run: Cell[] = [];
    for (const c of cells) {
      if (col + c.w > room && col > 0) {
        sink.cells(run);
        run = [];
        newRow();
      }
      run.push(c);
      col += c.w;
    }
    sink.cells(run);
  };
  const begin = () => {
    if (!started) sink.start();
    started = true;
  };
  const place = () => {
    begin();
    const w = widthOf(atom);
    const gap = col === 0 ? 0 : widthOf(spaces);
    if (col + gap + w <= room) {
      sink.cells(col === 0 ? atom : [...spaces, ...atom]);
      col += gap + w;
    } else {
      if (col > 0) newRow();
      if (w <= room) {
        sink.cells(atom);
        col = w;
      } else hardBreak(atom);
    }
    atom = [];
    spaces = [];
  };

  return {
    add(cells) {
      for (const c of cells) {
        if (c.ch === ' ') {
          if (atom.length) place();
          spaces.push(c);
        } else {
          if (atom.length && breakBetween(atom[atom.length - 1]!, c)) place();
          atom.push(c);
        }
      }
    },
    end() {
      if (atom.length) place();
      begin();
    },
  };
}

/** A sink writing terminal text: `first` before the first row, `rest` before each later one. */
export function textSink(write: (s: string) => void, first: string, rest: string): RowSink {
  return {
    start: () => write(first),
    cells: (cells) => write(paint(cells)),
    row: () => write(`\n${rest}`),
  };
}

/** Cells laid out in rows of at most `width` columns (table cells wrap as paragraphs do). */
export function wrapCells(cells: readonly Cell[], width: number): Cell[][] {
  const rows: Cell[][] = [[]];
  const sink: RowSink = {
    start() {},
    cells: (cs) => {
      const row = rows[rows.length - 1]!;
      for (const c of cs) row.push(c);
    },
    row: () => void rows.push([]),
  };
  const w = createWrapper(sink, width, width);
  w.add(cells);
  w.end();
  return rows;
}
