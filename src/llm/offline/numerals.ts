/**
 * Chinese numerals as the offline planner meets them in arithmetic: 一百零五, 两百五, 一万二,
 * 三点五. The calculator reads digits only, so the planner turns these into digits itself — but
 * only where the caller has decided it is looking at a number (第一条 and 星期一 never get here).
 */

const DIGITS: Readonly<Record<string, number>> = {
  零: 0,
  〇: 0,
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
};
/** Units inside a group of four digits. */
const SMALL_UNITS: Readonly<Record<string, number>> = { 十: 10, 百: 100, 千: 1000 };
/** Units that close a group: 三万五千 is 3×10⁴ + 5×10³. */
const BIG_UNITS: Readonly<Record<string, number>> = { 万: 10_000, 亿: 100_000_000 };

/** Regex source for one character that can begin or end a Chinese numeral. */
export const CN_NUMERAL_CHAR = '[零〇一二两三四五六七八九十百千万亿]';
/** Regex source for one Chinese numeral, with an optional decimal part (三点五). */
export const CN_NUMERAL = `${CN_NUMERAL_CHAR}+(?:点[零〇一二三四五六七八九]+)?`;

const PLAIN_DIGITS = /^[零〇一二两三四五六七八九]+$/;

/** Digit by digit, as in 二零二六 or the part after 点. */
const spelled = (text: string): string => [...text].map((ch) => DIGITS[ch]).join('');

function integer(text: string): number | undefined {
  // 二零二六 is read digit by digit; 一 alone is just 1.
  if (PLAIN_DIGITS.test(text)) return Number(spelled(text));
  let total = 0; // closed 万/亿 groups
  let group = 0; // the group being read, below 10⁴
  let digit: number | undefined;
  let lastSmall = 0; // the last 十/百/千 seen in this group, to read 两百五 as 250
  let lastBig = 0; // the last 万/亿 seen, to read 一万二 as 12000
  let zero = false; // a 零 since the last unit: 一百零五 is 105, not 150
  for (const ch of text) {
    if (ch in DIGITS) {
      if (digit !== undefined) return undefined; // 二三 in a number with units: not a numeral we can read
      if (DIGITS[ch] === 0) zero = true;
      else digit = DIGITS[ch];
    } else if (ch in SMALL_UNITS) {
      const unit = SMALL_UNITS[ch];
      if (lastSmall && unit >= lastSmall) return undefined;
      group += (digit ?? 1) * unit;
      [digit, lastSmall, zero] = [undefined, unit, false];
    } else if (ch in BIG_UNITS) {
      const unit = BIG_UNITS[ch];
      group += digit ?? 0;
      if (group === 0 || (lastBig && unit >= lastBig)) return undefined;
      total += group * unit;
      [group, digit, lastSmall, lastBig, zero] = [0, undefined, 0, unit, false];
    } else {
      return undefined;
    }
  }
  if (digit !== undefined) {
    // A bare digit after a unit is short for the next unit down, unless a 零 came between.
    if (!zero && lastSmall > 10) group += (digit * lastSmall) / 10;
    else if (!zero && !lastSmall && lastBig && group === 0) total += (digit * lastBig) / 10;
    else group += digit;
  }
  return total + group;
}

/**
 * A Chinese numeral as ASCII digits: 一百 → "100", 一千零五 → "1005", 两百五 → "250",
 * 三点五 → "3.5", 十 → "10"; undefined when the text is not one numeral.
 */
export function chineseNumeral(text: string): string | undefined {
  const [whole, fraction, ...more] = text.split('点');
  if (more.length || !whole) return undefined;
  const n = integer(whole);
  if (n === undefined) return undefined;
  if (fraction === undefined) return String(n);
  return PLAIN_DIGITS.test(fraction) && !/两/.test(fraction) ? `${n}.${spelled(fraction)}` : undefined;
}
