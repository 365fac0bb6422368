/**
 * Numbers as they stand in a sentence, for the arithmetic rules: digits, Chinese numerals and small
 * English words, and every number of a sentence with where it stands.
 */
import { chineseNumeral } from './numerals.js';

/** Regex source for a number in digits. */
export const DIGITS = '(?<!\\d)\\d+(?:\\.\\d+)?';
/** Regex source for a Chinese numeral. */
export const CN = '[零〇一二两三四五六七八九十百千万亿]+(?:点[零〇一二三四五六七八九]+)?';
const SMALL_WORDS: Readonly<Record<string, number>> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
};

/** A number in digits, in Chinese, or a small English word; undefined when it cannot be read. */
export function numberOf(text: string): number | undefined {
  const t = text.trim().toLowerCase();
  if (/^\d/.test(t)) return Number(t.replace(/,/g, ''));
  if (t in SMALL_WORDS) return SMALL_WORDS[t];
  const cn = chineseNumeral(t);
  return cn === undefined ? undefined : Number(cn);
}

/** A number as digits, or the text as it was when it cannot be read. */
export function digits(text: string): string {
  const n = numberOf(text);
  return n === undefined ? text : String(n);
}

/** A number as it stands in a sentence: digits, or a Chinese numeral that is not part of a word. */
const ANY_NUMBER = new RegExp(
  `(?<![\\d.,])(?:\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|${DIGITS})(?![\\d.])|(?<![第星期周礼拜零〇一二两三四五六七八九十百千万亿点])${CN}(?!下|共|起|些|样|直|定|般|会儿|点儿|天下)`,
  'g',
);

export interface FoundNumber {
  value: number;
  at: number;
  end: number;
  digits: boolean;
}

export function numbersIn(text: string, skip: ReadonlyArray<readonly [number, number]> = []): FoundNumber[] {
  const out: FoundNumber[] = [];
  for (const m of text.matchAll(ANY_NUMBER)) {
    const at = m.index ?? 0;
    const end = at + m[0].length;
    if (skip.some(([s, e]) => at < e && end > s)) continue;
    const value = numberOf(m[0]);
    if (value !== undefined && Number.isFinite(value)) out.push({ value, at, end, digits: /^\d/.test(m[0]) });
  }
  // 「一件衣服 300 块」: with digits about, a Chinese numeral counts things rather than money.
  return out.some((f) => f.digits) ? out.filter((f) => f.digits) : out;
}
