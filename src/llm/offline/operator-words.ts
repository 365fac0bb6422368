/**
 * Operations said as words or marks the calculator does not read, written as ones it does: negative
 * numbers (「负五加三」), π, factorials (「5 的阶乘」, "5!"), remainders (「100 除以 7 的余数」,
 * "100 mod 7" → 100%7, the calculator's modulo).
 */

/** Past this a factorial is no longer written out as a product (20! is the last below 2^63). */
const MAX_FACTORIAL = 20;
const PI = '3.141592653589793';
const CN_NUMERAL = '[零〇一二两三四五六七八九十百千万]+';

const product = (n: number): string => (n <= 1 ? '1' : `(${Array.from({ length: n }, (_, i) => i + 1).join('*')})`);

const REWRITES: ReadonlyArray<readonly [RegExp, (m: string, ...g: string[]) => string]> = [
  // 负五, 负 2: a minus sign only before a number
  [new RegExp(`负\\s*(?=\\d|${CN_NUMERAL})`, 'g'), () => '-'],
  [/π|圆周率|\bpi\b/gi, () => PI],
  // 5!, 5 的阶乘, factorial of 5, 5 factorial
  [/(?<![\d.])(\d{1,3})\s*!(?!=)/g, (m, n) => (Number(n) <= MAX_FACTORIAL ? product(Number(n)) : m)],
  [
    /(?<![\d.])(\d{1,3})\s*的?\s*阶乘|\bfactorial of\s*(\d{1,3})\b|(?<![\d.])(\d{1,3})\s*factorial\b/gi,
    (m, a, b, c) => {
      const n = Number(a || b || c);
      return n <= MAX_FACTORIAL ? product(n) : m;
    },
  ],
  // 100 mod 7, 100 除以 7 的余数, the remainder of 100 divided by 7
  [/(\d+)\s*(?:mod|modulo)\s*(\d+)/gi, (_m, a, b) => `${a}%${b}`],
  [/(\d+)\s*除以\s*(\d+)\s*(?:的|，|,)?\s*余数(?:是)?/g, (_m, a, b) => `${a}%${b} `],
  [/\bremainder\s+(?:of|when)\s+(\d+)\s+(?:is\s+)?divided\s+by\s+(\d+)/gi, (_m, a, b) => `${a}%${b}`],
  [/(\d+)\s+divided\s+by\s+(\d+)\s*,?\s*(?:what(?:'s| is) )?(?:the )?remainder\b/gi, (_m, a, b) => `${a}%${b}`],
];

/** Every operation word the calculator does not read, rewritten; other text kept. */
export function rewriteOperators(text: string): string {
  if (!/负|π|圆周率|pi|!|阶乘|factorial|mod|余数|remainder/i.test(text)) return text;
  let out = text;
  for (const [pattern, make] of REWRITES)
    out = out.replace(pattern, (m: string, ...g: unknown[]) =>
      make(m, ...g.map((x) => (typeof x === 'string' ? x : ''))),
    );
  return out;
}
