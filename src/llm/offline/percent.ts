/**
 * Percentages and spoken fractions, rewritten into arithmetic the calculator reads (its % is modulo
 * and it knows no 分之): 「15% 的 200」 → 15/100*200, 「200 的 15%」 → 200*15/100,
 * 「百分之二十的 50」 → 20/100*50, 「三分之一加一」 → (1/3)+1, "15 percent of 200" → 15/100*200,
 * 「200 乘以 15%」 → 200 乘以 (15/100). A bare 「7%3」 is left alone: that is modulo.
 */
import { chineseNumeral, CN_NUMERAL, CN_NUMERAL_CHAR } from './numerals.js';

// A number is only looked for where a run of digits (or of numeral characters) begins: a start inside
// the run can match nothing the run's own start cannot, and retrying from each character of a long
// run costs the square of its length.
const DIGITS = '(?<!\\d)\\d+(?:,\\d{3})*(?:\\.\\d+)?';
/** A number in digits or in Chinese. */
const AMOUNT = `(?:${DIGITS}|(?<!${CN_NUMERAL_CHAR})${CN_NUMERAL})`;
/** A spoken fraction: 百分之十五 (of a hundred, fifteen), 三分之一, 千分之 5. */
const SPOKEN_FRACTION = `(?<den>${AMOUNT})\\s*分之\\s*(?<num>${AMOUNT})`;
/** A share of a whole: 15% or a spoken fraction. */
const SHARE = `(?:(?<pct>${DIGITS})\\s*%|${SPOKEN_FRACTION})`;
/** What would make a % the modulo operator: another operand after it. */
const NO_OPERAND_AHEAD = '(?!\\s*(?:[\\d(.√]|根号))';

/** A pattern with its group names prefixed by "s", so one regex can hold it next to other groups. */
const share = (source = SHARE): string => source.replace(/\?<(\w+)>/g, (_m, name: string) => `?<s${name}>`);

/** 15% 的 200, 百分之二十的五十, 三分之一的 90, 15 percent of 200. */
const SHARE_OF = new RegExp(
  `${share()}${NO_OPERAND_AHEAD}\\s*的\\s*(?<of>${AMOUNT})|(?<en>${DIGITS})\\s*(?:%|percent|per cent)\\s+of\\s+(?<enOf>${DIGITS})`,
  'gi',
);
/** 200 的 15%, 五十的百分之二十. */
const OF_SHARE = new RegExp(`(?<whole>${AMOUNT})\\s*的\\s*${share()}${NO_OPERAND_AHEAD}`, 'g');
/** 200 × 15%, 200 除以 百分之五: a share right after multiplying or dividing is a fraction. */
const TIMES_SHARE = new RegExp(`(?<op>(?:\\*|×|·|/|÷|乘以|乘上|乘|除以)\\s*)${share()}${NO_OPERAND_AHEAD}`, 'g');
/** Any other spoken fraction: 三分之一, 百分之五十. */
const FRACTION = new RegExp(share(SPOKEN_FRACTION), 'g');

/** Every rewrite needs one of these; without them the text is left alone at once (the patterns retry long digit runs). */
const ANY_SHARE = /%|分之|per ?cent/i;

type Groups = Record<string, string | undefined>;

/** A number as digits; Chinese numerals are read, digits kept as written. */
function digitsOf(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  return /\d/.test(text) ? text : chineseNumeral(text);
}

/** The share as [numerator, denominator] in digits, or undefined if a numeral cannot be read. */
function shareOf(g: Groups): [string, string] | undefined {
  if (g.spct !== undefined) return [g.spct, '100'];
  const [num, den] = [digitsOf(g.snum), digitsOf(g.sden)];
  return num && den ? [num, den] : undefined;
}

/** Calls `make` with the named groups of a match; keeps the match when it returns undefined. */
const using =
  (make: (g: Groups) => string | undefined) =>
  (match: string, ...rest: unknown[]): string =>
    make(rest.at(-1) as Groups) ?? match;

/** The text with every percentage and fraction phrase it can read turned into plain arithmetic. */
export function rewritePercent(text: string): string {
  if (!ANY_SHARE.test(text)) return text;
  return text
    .replace(
      SHARE_OF,
      using((g) => {
        if (g.en !== undefined) return `${g.en}/100*${g.enOf}`;
        const [s, of] = [shareOf(g), digitsOf(g.of)];
        return s && of ? `${s[0]}/${s[1]}*${of}` : undefined;
      }),
    )
    .replace(
      OF_SHARE,
      using((g) => {
        const [whole, s] = [digitsOf(g.whole), shareOf(g)];
        return whole && s ? `${whole}*${s[0]}/${s[1]}` : undefined;
      }),
    )
    .replace(
      TIMES_SHARE,
      using((g) => {
        const s = shareOf(g);
        return s ? `${g.op}(${s[0]}/${s[1]})` : undefined;
      }),
    )
    .replace(
      FRACTION,
      using((g) => {
        const s = shareOf(g);
        return s ? `(${s[0]}/${s[1]})` : undefined;
      }),
    );
}
