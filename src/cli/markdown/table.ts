/**
 * A Markdown table drawn with box characters, columns as wide as their widest cell (CJK counted
 * double) and aligned as the delimiter row says. A table wider than the terminal narrows its
 * widest columns and wraps their cells.
 */
import { SGR, paint, paintText, toCells, widthOf, type Cell } from './cells.js';
import { wrapCells } from './wrap.js';

export type Align = 'left' | 'center' | 'right';

const DELIMITER_CELL = /^\s*(:?)-+(:?)\s*$/;
const BORDER = SGR.dim;
const HEADER = SGR.bold;
/** Each column keeps at least this many columns of text when a table is narrowed. */
const MIN_COLUMN = 3;

/** The cells of a row: split at pipes not escaped, the outer pipes dropped. */
export function splitRow(line: string): string[] {
  let s = line.trim();
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  return s.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

/** The alignments a delimiter row (`|:--|:-:|--:|`) gives, or undefined when the line is not one for `columns` columns. */
export function delimiterRow(line: string, columns: number): Align[] | undefined {
  if (!/^[\s|:-]+$/.test(line) || !line.includes('-')) return undefined;
  const cells = splitRow(line);
  if (cells.length !== columns) return undefined;
  const aligns: Align[] = [];
  for (const c of cells) {
    const m = DELIMITER_CELL.exec(c);
    if (!m) return undefined;
    aligns.push(m[1] && m[2] ? 'center' : m[2] ? 'right' : 'left');
  }
  return aligns;
}

function pad(cells: Cell[], width: number, align: Align): Cell[] {
  const room = width - widthOf(cells);
  const left = align === 'right' ? room : align === 'center' ? Math.floor(room / 2) : 0;
  return [...toCells(' '.repeat(left)), ...cells, ...toCells(' '.repeat(room - left))];
}

/** Narrows the widest columns until the table fits `room` columns of text. */
function fit(widths: number[], room: number): number[] {
  const out = [...widths];
  let total = out.reduce((a, b) => a + b, 0);
  while (total > room) {
    const widest = out.indexOf(Math.max(...out));
    if (out[widest]! <= MIN_COLUMN) break;
    out[widest]!--;
    total--;
  }
  return out;
}

/**
 * The table's rows of terminal text, without line breaks. `inline` renders a cell's Markdown;
 * `width` is the room the table has.
 */
export function renderTable(
  header: string[],
  aligns: Align[],
  body: string[][],
  inline: (text: string, base?: string) => Cell[],
  width: number,
): string[] {
  const n = header.length;
  const rows = [header, ...body].map((r) => Array.from({ length: n }, (_, i) => r[i] ?? ''));
  const rendered = rows.map((r, ri) => r.map((c) => inline(c, ri === 0 ? HEADER : '')));
  const natural = Array.from({ length: n }, (_, i) => Math.max(1, ...rendered.map((r) => widthOf(r[i]!))));
  // Borders: "│ " before each column, " │" after the last, " │ " between.
  const widths = fit(natural, width - (3 * n + 1));
  const line = (l: string, m: string, r: string) =>
    paintText(l + widths.map((w) => '─'.repeat(w + 2)).join(m) + r, BORDER);
  const bar = paintText('│', BORDER);
  const out = [line('┌', '┬', '┐')];
  rendered.forEach((r, ri) => {
    const wrapped = r.map((cells, i) => wrapCells(cells, widths[i]!));
    const height = Math.max(...wrapped.map((w) => w.length));
    for (let k = 0; k < height; k++) {
      const parts = wrapped.map((w, i) => paint(pad(w[k] ?? [], widths[i]!, aligns[i] ?? 'left')));
      out.push(`${bar} ${parts.join(` ${bar} `)} ${bar}`);
    }
    if (ri === 0) out.push(line('├', '┼', '┤'));
  });
  out.push(line('└', '┴', '┘'));
  return out;
}
