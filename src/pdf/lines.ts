/**
 * Lines of text rebuilt from positioned glyph runs. PDF content streams draw text in any order
 * (a table's page numbers before its dots, a footer first), so the order comes from the
 * positions, never from the stream.
 */

/** One run of text as pdf.js gives it: baseline origin (PDF points, y up), advance width, font size. */
export interface TextItem {
  str: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A run of text on one line with no wide gap inside: a phrase, or one cell of a table. */
export interface Segment {
  x0: number;
  x1: number;
  text: string;
}

export interface Line {
  /** Baseline, PDF points from the bottom. */
  y: number;
  /** Largest font size on the line. */
  h: number;
  x0: number;
  x1: number;
  items: TextItem[];
  /** segmentsOf's result, kept: column, table and text passes all ask for it. */
  segments?: Segment[];
}

/** Items whose baselines differ by less than this share a line (a fraction of the font size): sub- and superscripts stay on it. */
const SAME_LINE = 0.45;
/** A gap wider than this (fraction of font size) between Latin runs is a word space; the space glyph itself is often not drawn. */
const WORD_GAP = 0.18;
/** A gap wider than this between CJK glyphs is a real space (as in 目 录); narrower ones are kerning. */
const CJK_GAP = 0.9;
/** A gap wider than this (fraction of font size) splits a line into segments: table cells, aligned columns. */
const CELL_GAP = 1.0;

// Han, kana, Hangul syllables, CJK punctuation and full-width forms: written without spaces between them.
const CJK = /[\u2e80-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/;
/** A cell that is only a currency sign belongs to the amount after it (`¥ 175,820`). */
const CURRENCY = /^[¥$€£₩￥]$/;

/** Groups items into lines, top of the page first, each sorted left to right. */
export function buildLines(items: TextItem[]): Line[] {
  const sorted = items.filter((i) => i.str.trim() !== '').sort((a, b) => b.y - a.y || a.x - b.x);
  const lines: Line[] = [];
  let current: Line | undefined;
  for (const item of sorted) {
    const tolerance = SAME_LINE * Math.max(1, item.h, current?.h ?? 0);
    if (current && Math.abs(current.y - item.y) <= tolerance) {
      current.items.push(item);
      current.h = Math.max(current.h, item.h);
      continue;
    }
    current = { y: item.y, h: item.h, x0: 0, x1: 0, items: [item] };
    lines.push(current);
  }
  for (const line of lines) {
    line.items.sort((a, b) => a.x - b.x);
    line.x0 = Math.min(...line.items.map((i) => i.x));
    line.x1 = Math.max(...line.items.map((i) => i.x + i.w));
  }
  return lines;
}

/** Joins two runs the way they were printed: a space where there was a gap, none between CJK glyphs. */
function joiner(prev: TextItem, next: TextItem, prevEnd: number): string {
  const gap = next.x - prevEnd;
  const h = Math.max(1, Math.min(prev.h, next.h));
  if (/\s$/.test(prev.str) || /^\s/.test(next.str)) return '';
  const cjk = CJK.test(prev.str.trimEnd().slice(-1)) && CJK.test(next.str.trimStart().charAt(0));
  return gap > (cjk ? CJK_GAP : WORD_GAP) * h ? ' ' : '';
}

/** Splits a line at wide gaps, each part's text joined with spaces as printed. */
export function segmentsOf(line: Line): Segment[] {
  line.segments ??= splitSegments(line);
  return line.segments;
}

function splitSegments(line: Line): Segment[] {
  const out: Segment[] = [];
  let seg: Segment | undefined;
  let prev: TextItem | undefined;
  for (const item of line.items) {
    const h = Math.max(1, Math.min(item.h, prev?.h ?? item.h));
    if (seg && prev && item.x - seg.x1 <= CELL_GAP * h) {
      seg.text += joiner(prev, item, seg.x1) + item.str;
      seg.x1 = Math.max(seg.x1, item.x + item.w);
    } else {
      seg = { x0: item.x, x1: item.x + item.w, text: item.str };
      out.push(seg);
    }
    prev = item;
  }
  for (const s of out) s.text = s.text.replace(/\s+/g, ' ').trim();
  // A lone currency sign joins the amount that follows it.
  for (let i = out.length - 2; i >= 0; i--) {
    if (CURRENCY.test(out[i].text)) {
      out[i] = { x0: out[i].x0, x1: out[i + 1].x1, text: `${out[i].text} ${out[i + 1].text}` };
      out.splice(i + 1, 1);
    }
  }
  return out.filter((s) => s.text !== '');
}

/** A line's text: its segments joined by a space (wide gaps become one space, not a run of them). */
export function lineText(line: Line): string {
  return segmentsOf(line)
    .map((s) => s.text)
    .join(' ');
}
