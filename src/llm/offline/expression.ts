/**
 * Finding the arithmetic in a sentence: 「计算 12*(3+4) 的结果」 → 12*(3+4), "calculate 2^10" → 2^10.
 * The calculator tool parses and refuses; this only decides what text to hand it. Chinese operator
 * words (加, 乘以, 2的10次方, 根号2) are kept, since the calculator reads them.
 */

const NUMBER = '\\d+(?:,\\d{3})*(?:\\.\\d+)?(?:e[+-]?\\d+)?|\\.\\d+';
const ZH_OPS = ['乘以', '乘上', '乘', '除以', '加上', '加', '减去', '减', '次方', '次幂', '平方', '立方', '开平方', '开方', '根号', '的'];
const SYMBOL_OPS = '\\*\\*|\\/\\/|[-+*/^%()×÷·−√]';
const TOKEN = `(?:${NUMBER}|${SYMBOL_OPS}|${ZH_OPS.join('|')}|[ \\t]+)`;
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

/** The longest piece of arithmetic in the text (needs a digit and an operator), or undefined. */
export function findExpression(text: string): FoundExpression | undefined {
  let sentence = text;
  for (const [pattern, symbol] of EN_WORDS) sentence = sentence.replace(pattern, symbol);
  let best: string | undefined;
  let bestAt = -1;
  for (const m of sentence.matchAll(RUN)) {
    const expr = trimRun(m[0]);
    if (!/\d/.test(expr) || !(BINARY.test(expr) || UNARY_WORDS.test(expr))) continue;
    if (!best || expr.length > best.length) {
      best = expr;
      bestAt = (m.index ?? 0) + m[0].indexOf(expr);
    }
  }
  if (best === undefined) return undefined;
  return { expression: best, rest: sentence.slice(0, bestAt) + ' ' + sentence.slice(bestAt + best.length) };
}
