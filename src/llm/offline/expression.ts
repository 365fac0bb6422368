/**
 * Finding the arithmetic in a sentence: 「计算 12*(3+4) 的结果」 → 12*(3+4), "calculate 2^10" → 2^10.
 * The calculator tool parses and refuses; this only decides what text to hand it. Chinese operator
 * words (加, 乘以, 2的10次方, 根号2) are kept, since the calculator reads them. Chinese numerals and
 * percentages are not read by the calculator, so they are rewritten here: 一百加二十 → 100+20,
 * 15% 的 200 → 15/100*200.
 */
import { chineseNumeral, CN_NUMERAL } from './numerals.js';
import { rewritePercent } from './percent.js';

const NUMBER = '\\d+(?:,\\d{3})*(?:\\.\\d+)?(?:e[+-]?\\d+)?|\\.\\d+';
const ZH_OPS = ['乘以', '乘上', '乘', '除以', '加上', '加', '减去', '减', '次方', '次幂', '平方', '立方', '开平方', '开方', '根号', '的'];
const SYMBOL_OPS = '\\*\\*|\\/\\/|[-+*/^%()×÷·−√]';
const TOKEN = `(?:${NUMBER}|${CN_NUMERAL}|${SYMBOL_OPS}|${ZH_OPS.join('|')}|[ \\t]+)`;
const RUN = new RegExp(`(?:${TOKEN})+`, 'gi');

// What may not start or end an expression: binary operators, 的, spaces, a trailing dot or comma.
const BAD_START = /^(?:\s+|的|\*\*|\/\/|[+*/^%×÷·,]|乘以|乘上|乘|除以|加上|加|减去|减|次方|次幂|平方|立方)/;
const BAD_END = /(?:\s+|的|\*\*|\/\/|[-+*/^×÷·−√.,]|乘以|乘上|乘|除以|加上|加|减去|减|开平方|开方|根号)$/;
const BINARY = /[\d)]\s*(?:\*\*|\/\/|[-+*/^%×÷·−]|乘以|乘上|乘|除以|加上|加|减去|减)\s*[-\d(.√根]/;
const UNARY_WORDS = /√|根号|开方|平方|立方|次方|次幂/;

/** English operator words the calculator does not read, turned into symbols first. */
const EN_WORDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/(?<=[\d)]\s*)(?:multiplied by|times|x)(?=\s*[\d(])/gi, '*'],
  [/(?<=[\d)]\s*)(?:divided by|over)(?=\s*[\d(])/gi, '/'],
  [/(?<=[\d)]\s*)plus(?=\s*[\d(])/gi, '+'],
  [/(?<=[\d)]\s*)minus(?=\s*[\d(])/gi, '-'],
  [/(?<=[\d)]\s*)(?:to the power of|to the|raised to)(?=\s*[\d(])/gi, '^'],
  [/(?<=\d\s*)squared\b/gi, '^2'],
  [/\b(?:the )?square root of\s*/gi, '√'],
  [/\bsqrt\s*/gi, '√'],
];

export interface FoundExpression {
  expression: string;
  /** The sentence with the expression taken out, to tell a bare calculation from a sentence about one. */
  rest: string;
}

function trimRun(run: string): string {
  let t = run;
  for (;;) {
    let next = t.replace(BAD_START, '').replace(BAD_END, '');
    const open = (next.match(/\(/g) ?? []).length;
    const close = (next.match(/\)/g) ?? []).length;
    // 「（比如 1+1）」 leaves a stray ")"; a missing ")" is the user's to hear about from the calculator.
    if (close > open && next.endsWith(')')) next = next.slice(0, -1);
    if (next === t) return t;
    t = next;
  }
}

const CN_ANY = new RegExp(CN_NUMERAL, 'g');
const HAS_CN = new RegExp(CN_NUMERAL);
// 3二十 could be 320 or 3 and 20: a numeral touching digits is not read at all.
const CN_TOUCHES_DIGIT = new RegExp(`\\d(?:${CN_NUMERAL})|(?:${CN_NUMERAL})\\d`);
const WORD_OPS: ReadonlyArray<readonly [RegExp, string]> = [
  [/乘以|乘上|乘/g, '*'], [/除以/g, '/'], [/加上|加/g, '+'], [/减去|减/g, '-'],
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
  let sentence = text;
  for (const [pattern, symbol] of EN_WORDS) sentence = sentence.replace(pattern, symbol);
  sentence = rewritePercent(sentence);
  let best: { run: string; expression: string; at: number } | undefined;
  for (const m of sentence.matchAll(RUN)) {
    const run = trimRun(m[0]);
    const expression = spelledOut(run);
    if (!expression || !/\d/.test(expression) || !(BINARY.test(expression) || UNARY_WORDS.test(expression))) continue;
    if (!best || run.length > best.run.length) best = { run, expression, at: (m.index ?? 0) + m[0].indexOf(run) };
  }
  if (!best) return undefined;
  return { expression: best.expression, rest: sentence.slice(0, best.at) + ' ' + sentence.slice(best.at + best.run.length) };
}
