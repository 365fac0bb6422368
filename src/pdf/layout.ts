/**
 * A page's text in reading order, as Markdown: two-column layouts read column by column, rows of
 * aligned columns become tables, paragraphs are separated where the printed lines leave a gap.
 */
import { buildLines, lineText, segmentsOf, type Line, type Segment, type TextItem } from './lines.js';

export type { TextItem } from './lines.js';

/** One page's positioned text, as the extractor hands it over. */
export interface PageText {
  width: number;
  height: number;
  items: TextItem[];
}

/** The gutter between two columns is looked for in this middle band of the page (fractions of its width). */
const GUTTER_BAND = [0.25, 0.75] as const;
/** Narrowest gutter, in points, that counts as one. */
const MIN_GUTTER_PT = 6;
/** Share of the page's segments that may cross a gutter (a title block, a wide table) for it to count as one. */
const MAX_CROSSING_SHARE = 0.3;
/** Lines each column needs before the page counts as two columns. */
const MIN_COLUMN_LINES = 3;
/** Share of a column's lines that must hold words: a column of bare numbers is a table's, not a text column. */
const MIN_WORDY_SHARE = 0.4;
/** Rows with two or more cells a run needs to be a table. */
const MIN_TABLE_ROWS = 3;
/** Single-cell rows (a label wrapped onto a second line) a table may hold in a row before it ends. */
const MAX_TABLE_GAP_ROWS = 2;
/** Cells longer than this on average, in every column, are prose set side by side, not a table. */
const PROSE_CELL_CHARS = 30;
/** Cells closer than this (points) belong to the same table column. */
const COLUMN_SLACK_PT = 2;
/** A vertical gap between lines wider than this (fraction of font size) starts a paragraph. */
const PARAGRAPH_GAP = 1.75;
/** Widest page handled bin by bin when looking for a gutter; wider ones (posters) count as one column. */
const MAX_GUTTER_SCAN_PT = 20_000;

const WORDY = /\p{L}{3}/u;

/** The page as Markdown. Empty when it has no text at all. */
export function pageMarkdown(page: PageText): string {
  const lines = buildLines(page.items);
  if (lines.length === 0) return '';
  const gutter = findGutter(lines, page.width);
  const flows = gutter === undefined ? [lines] : readingFlows(lines, gutter);
  return flows
    .map(renderFlow)
    .filter((t) => t !== '')
    .join('\n\n');
}

/** The x of a gap between two text columns, when the page has one. */
export function findGutter(lines: Line[], width: number): number | undefined {
  if (!(width > 0) || width > MAX_GUTTER_SCAN_PT) return undefined;
  const bins = new Uint32Array(Math.ceil(width) + 1);
  let segments = 0;
  for (const line of lines) {
    for (const s of segmentsOf(line)) {
      segments++;
      const from = Math.max(0, Math.floor(s.x0));
      const to = Math.min(bins.length - 1, Math.ceil(s.x1));
      for (let x = from; x <= to; x++) bins[x]++;
    }
  }
  // Titles, author lists and full-width figures cross the gutter; in a single column nearly every line does.
  const lo = Math.floor(width * GUTTER_BAND[0]);
  const hi = Math.ceil(width * GUTTER_BAND[1]);
  let least = Infinity;
  for (let x = lo; x <= hi; x++) least = Math.min(least, bins[x]);
  if (least > segments * MAX_CROSSING_SHARE) return undefined;
  let best: [number, number] | undefined;
  let start = -1;
  for (let x = lo; x <= hi + 1; x++) {
    const free = x <= hi && bins[x] <= least;
    if (free && start < 0) start = x;
    if (!free && start >= 0) {
      if (!best || x - start > best[1] - best[0]) best = [start, x];
      start = -1;
    }
  }
  if (!best || best[1] - best[0] < MIN_GUTTER_PT) return undefined;
  const gutter = (best[0] + best[1]) / 2;
  const left: Line[] = [];
  const right: Line[] = [];
  for (const line of lines) {
    const [l, r] = splitLine(line, gutter);
    if (l) left.push(l);
    if (r) right.push(r);
  }
  const wordy = (side: Line[]) => side.filter((l) => WORDY.test(lineText(l))).length / side.length;
  if (left.length < MIN_COLUMN_LINES || right.length < MIN_COLUMN_LINES) return undefined;
  if (wordy(left) < MIN_WORDY_SHARE || wordy(right) < MIN_WORDY_SHARE) return undefined;
  return gutter;
}

/** The parts of a line left and right of the gutter; undefined for both when a segment crosses it. */
function splitLine(line: Line, gutter: number): [Line | undefined, Line | undefined] {
  const part = (items: TextItem[]): Line | undefined =>
    items.length === 0
      ? undefined
      : {
          y: line.y,
          h: line.h,
          items,
          x0: Math.min(...items.map((i) => i.x)),
          x1: Math.max(...items.map((i) => i.x + i.w)),
        };
  if (segmentsOf(line).some((s) => s.x0 < gutter && s.x1 > gutter)) return [undefined, undefined];
  return [
    part(line.items.filter((i) => i.x + i.w / 2 < gutter)),
    part(line.items.filter((i) => i.x + i.w / 2 >= gutter)),
  ];
}

/**
 * Two columns read as people read them: between lines that cross the gutter (a title, a full-width
 * figure caption), first the left column down, then the right.
 */
function readingFlows(lines: Line[], gutter: number): Line[][] {
  const flows: Line[][] = [];
  let left: Line[] = [];
  let right: Line[] = [];
  const flush = () => {
    if (left.length) flows.push(left);
    if (right.length) flows.push(right);
    left = [];
    right = [];
  };
  for (const line of lines) {
    const [l, r] = splitLine(line, gutter);
    if (!l && !r) {
      flush();
      flows.push([line]);
      continue;
    }
    if (l) left.push(l);
    if (r) right.push(r);
  }
  flush();
  return flows;
}

/** Lines of one column as Markdown: text lines, paragraph breaks, and tables where rows line up. */
function renderFlow(lines: Line[]): string {
  const segs = lines.map(segmentsOf);
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const end = tableEnd(lines, segs, i);
    if (end !== undefined) {
      // A label wrapped over two lines has its numbers set between them: its first line comes along.
      const start =
        i > 0 &&
        segs[i - 1].length === 1 &&
        out.at(-1) === segs[i - 1][0].text &&
        segs[i][0].x0 > segs[i - 1][0].x1 &&
        lines[i - 1].y - lines[i].y <= 2 * Math.max(lines[i].h, lines[i - 1].h)
          ? i - 1
          : i;
      const table = renderTable(segs.slice(start, end + 1));
      if (table) {
        if (start < i) out.pop();
        if (out.length && out.at(-1) !== '') out.push('');
        out.push(...table, '');
        i = end + 1;
        continue;
      }
    }
    if (
      i > 0 &&
      out.length &&
      out.at(-1) !== '' &&
      lines[i - 1].y - lines[i].y > PARAGRAPH_GAP * Math.max(lines[i].h, lines[i - 1].h)
    )
      out.push('');
    out.push(segs[i].map((s) => s.text).join(' '));
    i++;
  }
  return out.join('\n').trim();
}

/** Where a table starting at line `i` ends (inclusive), or undefined when none starts there. */
function tableEnd(lines: Line[], segs: Segment[][], i: number): number | undefined {
  if (segs[i].length < 2) return undefined;
  let last = i;
  let rows = 1;
  let singles = 0;
  for (let k = i + 1; k < lines.length; k++) {
    // A table's rows follow each other closely; a wide gap ends it.
    if (lines[k - 1].y - lines[k].y > 3 * Math.max(lines[k].h, lines[k - 1].h)) break;
    if (segs[k].length >= 2) {
      last = k;
      rows++;
      singles = 0;
    } else if (++singles > MAX_TABLE_GAP_ROWS) break;
  }
  return rows >= MIN_TABLE_ROWS ? last : undefined;
}

/** Rows of cells as a Markdown table, or undefined when their cells do not fall into two or more columns. */
function renderTable(rows: Segment[][]): string[] | undefined {
  // Columns are the x-ranges the multi-cell rows' cells cover, overlapping ones merged.
  const spans = rows
    .filter((r) => r.length >= 2)
    .flat()
    .map((s) => [s.x0, s.x1])
    .sort((a, b) => a[0] - b[0]);
  const columns: number[][] = [];
  for (const [x0, x1] of spans) {
    const lastCol = columns.at(-1);
    if (lastCol && x0 <= lastCol[1] + COLUMN_SLACK_PT) lastCol[1] = Math.max(lastCol[1], x1);
    else columns.push([x0, x1]);
  }
  if (columns.length < 2) return undefined;
  const columnOf = (s: Segment): number => {
    const mid = (s.x0 + s.x1) / 2;
    const inside = columns.findIndex(([a, b]) => mid >= a - COLUMN_SLACK_PT && mid <= b + COLUMN_SLACK_PT);
    if (inside >= 0) return inside;
    let best = 0;
    columns.forEach(([a, b], c) => {
      if (Math.abs(mid - (a + b) / 2) < Math.abs(mid - (columns[best][0] + columns[best][1]) / 2)) best = c;
    });
    return best;
  };
  const cells = rows.map((row) => {
    const cellsOfRow: string[] = columns.map(() => '');
    for (const s of row) {
      const c = columnOf(s);
      cellsOfRow[c] = cellsOfRow[c] ? `${cellsOfRow[c]} ${s.text}` : s.text;
    }
    return cellsOfRow;
  });
  mergeWrappedLabels(cells);
  const filled = (c: number) => cells.map((r) => r[c]).filter((t) => t !== '');
  const mean = (texts: string[]) => texts.reduce((n, t) => n + t.length, 0) / Math.max(1, texts.length);
  if (columns.every((_, c) => mean(filled(c)) > PROSE_CELL_CHARS)) return undefined;
  const md = (r: string[]) => `| ${r.map((c) => c.replace(/\\/g, '\\\\').replace(/\|/g, '\\|')).join(' | ')} |`;
  return [md(cells[0]), md(columns.map(() => '---')), ...cells.slice(1).map(md)];
}

/**
 * Rows whose numbers sit between two lines of their label (printed vertically centred) become one
 * row: `Adjusted balance at` / `| | 175,820 | …` / `beginning of year` → `Adjusted balance at beginning of year | 175,820 | …`.
 */
function mergeWrappedLabels(rows: string[][]): void {
  const labelOnly = (r: string[] | undefined) => r !== undefined && r[0] !== '' && r.slice(1).every((c) => c === '');
  const join = (a: string, b: string) => (a.endsWith('-') ? `${a}${b}` : `${a} ${b}`);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    if (row[0] !== '' || row.slice(1).every((c) => c === '')) continue;
    const above = labelOnly(rows[r - 1]);
    const below = labelOnly(rows[r + 1]);
    if (!above && !below) continue;
    if (above && below) {
      row[0] = join(rows[r - 1][0], rows[r + 1][0]);
      rows.splice(r + 1, 1);
      rows.splice(r - 1, 1);
      r--;
    } else if (above) {
      row[0] = rows[r - 1][0];
      rows.splice(r - 1, 1);
      r--;
    } else {
      row[0] = rows[r + 1][0];
      rows.splice(r + 1, 1);
    }
  }
}
