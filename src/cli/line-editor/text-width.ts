/**
 * How many terminal columns text takes. Chinese, Japanese and Korean characters and emoji take two,
 * combining marks and joiners none: the line editor places the cursor by this, so it must agree with
 * what terminals do (East Asian Width "W" and "F" are two columns; ambiguous ones count as one, as
 * terminals outside CJK locales draw them).
 */

/** A tab is shown as this many spaces: its real width depends on where it falls, which would move the cursor. */
export const TAB_WIDTH = 4;

// East Asian Wide and Fullwidth blocks (Unicode 15): Hangul Jamo, CJK radicals to Yi, Hangul
// syllables, compatibility ideographs, vertical and small forms, fullwidth forms, ideograph planes 2–3.
const WIDE: Array<[number, number]> = [
  [0x1100, 0x115f],
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x23e9, 0x23ec],
  [0x23f0, 0x23f0],
  [0x23f3, 0x23f3],
  [0x25fd, 0x25fe],
  [0x2614, 0x2615],
  [0x2648, 0x2653],
  [0x267f, 0x267f],
  [0x2693, 0x2693],
  [0x26a1, 0x26a1],
  [0x26aa, 0x26ab],
  [0x26bd, 0x26be],
  [0x26c4, 0x26c5],
  [0x26ce, 0x26ce],
  [0x26d4, 0x26d4],
  [0x26ea, 0x26ea],
  [0x26f2, 0x26f3],
  [0x26f5, 0x26f5],
  [0x26fa, 0x26fa],
  [0x26fd, 0x26fd],
  [0x2705, 0x2705],
  [0x270a, 0x270b],
  [0x2728, 0x2728],
  [0x274c, 0x274c],
  [0x274e, 0x274e],
  [0x2753, 0x2755],
  [0x2757, 0x2757],
  [0x2795, 0x2797],
  [0x27b0, 0x27b0],
  [0x27bf, 0x27bf],
  [0x2b1b, 0x2b1c],
  [0x2b50, 0x2b50],
  [0x2b55, 0x2b55],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x16fe0, 0x16fe4],
  [0x17000, 0x18cff],
  [0x1b000, 0x1b2ff],
  [0x1f004, 0x1f004],
  [0x1f0cf, 0x1f0cf],
  [0x1f18e, 0x1f18e],
  [0x1f191, 0x1f19a],
  [0x1f200, 0x1f251],
  [0x1f300, 0x1f64f],
  [0x1f680, 0x1f6ff],
  [0x1f7e0, 0x1f7eb],
  [0x1f90c, 0x1f9ff],
  [0x1fa70, 0x1faff],
  [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
];

const isWide = (cp: number): boolean => {
  let lo = 0;
  let hi = WIDE.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [from, to] = WIDE[mid]!;
    if (cp < from) hi = mid - 1;
    else if (cp > to) lo = mid + 1;
    else return true;
  }
  return false;
};

const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}\u200b]$/u;
// A text-style symbol made an emoji by the variation selector U+FE0F is drawn two columns wide.
const EMOJI_STYLE = '\ufe0f';

const segmenter = new Intl.Segmenter();
// Text made only of these is one grapheme per UTF-16 unit (ASCII, Latin, CJK ideographs and
// punctuation, fullwidth forms): the segmenter, slow on long text, is not needed for it.
const SIMPLE =
  /^[\x20-\x7e\t\u00a0-\u02ff\u2010-\u203a\u3000-\u303f\u3040-\u3098\u309b-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff01-\uff60]*$/;

/** Segmenting takes time that grows faster than the text: long text is segmented in pieces this long. */
const PIECE = 256;
// No grapheme continues into one of these, so a piece may end before it.
const STARTS_GRAPHEME = /[\n\x20-\x7e\u3400-\u4dbf\u4e00-\u9fff]/;

const segment = (text: string) => Array.from(segmenter.segment(text), (s) => s.segment);

/** The user-perceived characters of `text`: what one press of ← or Backspace moves over. */
export function graphemes(text: string): string[] {
  if (SIMPLE.test(text)) return text.split('');
  if (text.length <= PIECE) return segment(text);
  const out: string[] = [];
  for (let from = 0; from < text.length;) {
    let to = Math.min(text.length, from + PIECE);
    while (to < text.length && !STARTS_GRAPHEME.test(text[to]!)) to++;
    for (const g of segment(text.slice(from, to))) out.push(g);
    from = to;
  }
  return out;
}

/** Columns one grapheme takes: 0, 1 or 2 (a tab: TAB_WIDTH). */
export function graphemeWidth(g: string): number {
  if (g === '\t') return TAB_WIDTH;
  const cp = g.codePointAt(0)!;
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if (cp < 0x300) return 1;
  if (isWide(cp)) return 2;
  if (g.includes(EMOJI_STYLE)) return 2;
  if (ZERO_WIDTH.test(String.fromCodePoint(cp))) return 0;
  return 1;
}

/** Columns `text` takes on one line, escape sequences (styling) excluded. */
export function textWidth(text: string): number {
  let width = 0;
  for (const g of graphemes(text.replace(/\x1b\[[0-9;]*m/g, ''))) width += graphemeWidth(g);
  return width;
}
