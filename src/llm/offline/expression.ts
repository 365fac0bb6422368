/**
 * Finding the arithmetic in a sentence: 「计算 12*(3+4) 的结果」 → 12*(3+4), "calculate 2^10" → 2^10.
 * The calculator tool parses and refuses; this only decides what text to hand it. Chinese operator
 * words (加, 乘以, 2的10次方, 根号2) are kept, since the calculator reads them. Chinese numerals and
 * percentages are not read by the calculator, so they are rewritten here: 一百加二十 → 100+20,
 * 15% 的 200 → 15/100*200.
 */
import { chineseNumeral, CN_NUMERAL, CN_NUMERAL_CHAR } from './numerals.js';
import { rewritePercent } from './percent.js';
import { decimalsAsked, rewriteShares, rewriteWords, spellAmounts, wordProblem } from './arithmetic-words.js';
import { listedPrices } from './everyday-sums.js';
import { rewriteOperators } from './operator-words.js';
import { conversion } from './unit-conversions.js';
import { questionProblem } from './word-problems.js';

const NUMBER = '\\d+(?:,\\d{3})*(?:\\.\\d+)?(?:e[+-]?\\d+)?|\\.\\d+';
const ZH_OPS = [
  '乘以',
  '乘上',
  '乘',
  '除以',
  '加上',
  '加',
  '减去',
  '减',
  '次方',
  '次幂',
  '平方',
  '立方',
  '开平方',
  '开方',
  '根号',
  '的',
];
const SYMBOL_OPS = '\\*\\*|\\/\\/|[-+*/^%()×÷·−√]';
const TOKEN = `(?:${NUMBER}|${CN_NUMERAL}|${SYMBOL_OPS}|${ZH_OPS.join('|')}|[ \\t]+)`;
const RUN = new RegExp(`(?:${TOKEN})+`, 'gi');

// What may not start or end an expression: binary operators, 的, a trailing dot or comma (and spaces, trimmed).
const BAD_START = /^(?:的|\*\*|\/\/|[+*/^%×÷·,]|乘以|乘上|乘|除以|加上|加|减去|减|次方|次幂|平方|立方)/;
const BAD_END = /(?:的|\*\*|\/\/|[-+*/^×÷·−√.,]|乘以|乘上|乘|除以|加上|加|减去|减|开平方|开方|根号)$/;
/** The longest BAD_END token: it is looked for in the last few characters only, not from every character on. */
const BAD_END_MAX_CHARS = 3;
const BINARY = /[\d)]\s*(?:\*\*|\/\/|[-+*/^%×÷·−]|乘以|乘上|乘|除以|加上|加|减去|减)\s*[-\d(.√根]/;
const UNARY_WORDS = /√|根号|开方|平方|立方|次方|次幂/;

/**
 * English operator words the calculator does not read, turned into symbols first. The operand before
 * the word is matched and put back ($1) rather than looked behind for: a lookbehind with `\s*` in it
 * is retried from every character of a long run of spaces, which makes the cost grow with the square.
 */
const EN_WORDS: ReadonlyArray<readonly [RegExp, string]> = [
  // First, so "10 squared plus 5 squared" has a number before its plus.
  [/(\d\s*)squared\b/gi, '$1^2'],
  [/(\d\s*)cubed\b/gi, '$1^3'],
  [/([\d)]\s*)(?:multiplied by|times|x)(?=\s*[\d(])/gi, '$1*'],
  [/([\d)]\s*)(?:divided by|over)(?=\s*[\d(])/gi, '$1/'],
  // 「2的3次方 plus 5」: a power said in Chinese, then an English operation
  [/(次方|平方|立方)(\s*)(?:multiplied by|times)(?=\s*[\d(])/gi, '$1$2*'],
  [/([\d)方]\s*)plus(?=\s*[\d(])/gi, '$1+'],
  [/([\d)方]\s*)minus(?=\s*[\d(])/gi, '$1-'],
  [/([\d)]\s*)(?:to the power of|to the|raised to)(?=\s*[\d(])/gi, '$1^'],
  [/\b(?:the )?square root of\s*/gi, '√'],
  [/\bsqrt\s*/gi, '√'],
];

export interface FoundExpression {
  expression: string;
  /** The sentence with the expression taken out, to tell a bare calculation from a sentence about one. */
  rest: string;
}

const count = (text: string, ch: string): number => text.split(ch).length - 1;

/** The run without what may not start or end an expression, one token off each end per round. */
function trimRun(run: string): string {
  let t = run;
  // Trimming takes no parenthesis but the stray ones, so the counts are kept rather than recounted each round.
  const open = count(run, '(');
  let close = count(run, ')');
  for (;;) {
    let next = t.trim();
    const start = BAD_START.exec(next);
    if (start) next = next.slice(start[0].length).trimStart();
    const end = BAD_END.exec(next.slice(-BAD_END_MAX_CHARS));
    if (end) next = next.slice(0, next.length - end[0].length).trimEnd();
    // 「（比如 1+1）」 leaves a stray ")"; a missing ")" is the user's to hear about from the calculator.
    if (close > open && next.endsWith(')')) {
      next = next.slice(0, -1);
      close--;
    }
    if (next.length === t.length) return t;
    t = next;
  }
}

const CN_ANY = new RegExp(CN_NUMERAL, 'g');
const HAS_CN = new RegExp(CN_NUMERAL);
// 3二十 could be 320 or 3 and 20: a numeral touching digits is not read at all. A numeral begins and ends
// with one of its characters, so checking those is enough (a whole numeral before \d is retried from each of its characters).
const CN_TOUCHES_DIGIT = new RegExp(`\\d${CN_NUMERAL_CHAR}|${CN_NUMERAL_CHAR}\\d`);
const WORD_OPS: ReadonlyArray<readonly [RegExp, string]> = [
  [/乘以|乘上|乘/g, '*'],
  [/除以/g, '/'],
  [/加上|加/g, '+'],
  [/减去|减/g, '-'],
];
// With Chinese numerals a unary word must read as arithmetic (三的平方, 根号二), since 一百平方米 is an area.
const CN_UNARY = /的\d+(?:次方|次幂)|的(?:平方|立方)|根号|开平?方|√/;

/**
 * A run with its Chinese numerals in digits and its operator words as symbols (一百 加 二十 → 100+20),
 * a run without numerals as it is, or undefined when a numeral cannot be read.
 */
function spelledOut(run: string): string | undefined {
  if (!HAS_CN.test(run)) return run;
  if (CN_TOUCHES_DIGIT.test(run)) return undefined;
  let unread = false;
  let out = run.replace(CN_ANY, (numeral) => chineseNumeral(numeral) ?? ((unread = true), numeral));
  if (unread) return undefined;
  for (const [words, symbol] of WORD_OPS) out = out.replace(words, symbol);
  out = out.replace(/(?<=\D)\s+|\s+(?=\D)/g, '');
  return BINARY.test(out) || CN_UNARY.test(out) ? out : undefined;
}

/** The longest piece of arithmetic in the text (needs a digit and an operator), or undefined. */
export function findExpression(text: string): FoundExpression | undefined {
  // 「保留两位小数」 is for the reply; its 2 is no operand.
  // Runs of spaces mean nothing in arithmetic; as one space the word rules cannot retry over them.
  const plain = text.replace(/\s{2,}/g, ' ');
  let sentence = spellAmounts(decimalsAsked(plain)?.rest ?? plain);
  sentence = rewriteWords(rewriteOperators(sentence));
  for (const [pattern, symbol] of EN_WORDS) sentence = sentence.replace(pattern, symbol);
  const worded = sentence;
  sentence = rewriteShares(rewritePercent(sentence));
  let best: { run: string; expression: string; at: number } | undefined;
  for (const m of sentence.matchAll(RUN)) {
    const run = trimRun(m[0]);
    const expression = spelledOut(run);
    if (!expression || !/\d/.test(expression) || !(BINARY.test(expression) || UNARY_WORDS.test(expression))) continue;
    if (!best || run.length > best.run.length) best = { run, expression, at: (m.index ?? 0) + m[0].indexOf(run) };
  }
  // A question that says what to compute (a percent change, a unit to convert to), a discount, a split
  // or an average is the whole sentence's question, whatever sum it holds.
  const problem =
    questionProblem(worded) ??
    conversion(worded) ??
    wordProblem(worded, best?.expression) ??
    (best ? undefined : listedPrices(worded));
  if (problem) return { expression: problem, rest: '' };
  if (!best) {
    // 「123.456 保留一位小数」: one number and how to round it is a calculation too.
    const asked = decimalsAsked(plain);
    const only = asked ? asked.rest.match(/(?<![\d.])-?\d+(?:\.\d+)?(?![\d.])/g) : null;
    return only?.length === 1 ? { expression: only[0], rest: '' } : undefined;
  }
  return {
    expression: best.expression,
    rest: sentence.slice(0, best.at) + ' ' + sentence.slice(best.at + best.run.length),
  };
}
