/**
 * Going on from the last result: 「再加 50」「结果除以 3」「再打个八折」「那一半呢」 after a calculation,
 * "then divide that by 4", "double it". The new expression is the old one, in parentheses, with the
 * operation after it, so the calculator works it out from the start and the reply shows how.
 */
import { numberOf } from './numbers-in-text.js';

const N = '(\\d+(?:\\.\\d+)?|[零一二两三四五六七八九十百千万]+(?:点[零一二三四五六七八九]+)?)';
const LEAD_ZH = '^(?:那|那么|然后|接着|结果|把结果|把它|这个数|它|得数)?\\s*(?:再|又)?\\s*';
const TAIL_ZH = '\\s*(?:呢|是多少|等于多少|等于几|是几|多少|吧|看看)?\\s*[?？。!！]*$';
const LEAD_EN = '^(?:and\\s+|then\\s+|now\\s+|ok\\s+|what if (?:i|we|you)\\s+)*';
const TAIL_EN = '\\s*(?:then|now|please)?\\s*[?.!]*$';

const OPS: ReadonlyArray<readonly [RegExp, (n: string) => string]> = [
  [new RegExp(`${LEAD_ZH}(?:加上|加)\\s*${N}${TAIL_ZH}`), (n) => `+${n}`],
  [new RegExp(`${LEAD_ZH}(?:减去|减掉|减)\\s*${N}${TAIL_ZH}`), (n) => `-${n}`],
  [new RegExp(`${LEAD_ZH}(?:乘以|乘上|乘)\\s*${N}${TAIL_ZH}`), (n) => `*${n}`],
  [new RegExp(`${LEAD_ZH}(?:除以|除)\\s*${N}${TAIL_ZH}`), (n) => `/${n}`],
  [
    new RegExp(`${LEAD_ZH}打\\s*(?:个)?\\s*(\\d+(?:\\.\\d+)?|[一二三四五六七八九]{1,2})\\s*折${TAIL_ZH}`),
    (n) => `*${discount(n)}`,
  ],
  [new RegExp(`${LEAD_ZH}(?:的)?一半${TAIL_ZH}`), () => '/2'],
  [new RegExp(`${LEAD_ZH}(?:翻倍|翻一番|的两倍)${TAIL_ZH}`), () => '*2'],
  [new RegExp(`${LEAD_ZH}(?:的)?平方${TAIL_ZH}`), () => '^2'],
  [new RegExp(`${LEAD_ZH}(?:开根号|开平方|开方)${TAIL_ZH}`), () => '^(1/2)'],
  [new RegExp(`${LEAD_EN}(?:add|plus|\\+)\\s*${N}${TAIL_EN}`, 'i'), (n) => `+${n}`],
  [new RegExp(`${LEAD_EN}(?:minus|subtract|take away|less|-)\\s*${N}${TAIL_EN}`, 'i'), (n) => `-${n}`],
  [
    new RegExp(`${LEAD_EN}(?:times|multiply (?:it |that |the result )?by|multiplied by|x|\\*)\\s*${N}${TAIL_EN}`, 'i'),
    (n) => `*${n}`,
  ],
  [new RegExp(`${LEAD_EN}(?:divide(?:d)? (?:it |that |the result )?by|over|/)\\s*${N}${TAIL_EN}`, 'i'), (n) => `/${n}`],
  [new RegExp(`${LEAD_EN}(?:double|twice)(?: it| that| the result)?${TAIL_EN}`, 'i'), () => '*2'],
  [new RegExp(`${LEAD_EN}(?:halve|half of)(?: it| that| the result)?${TAIL_EN}`, 'i'), () => '/2'],
  [new RegExp(`${LEAD_EN}square(?: it| that| the result)${TAIL_EN}`, 'i'), () => '^2'],
];

/** 七折 → 0.7, 75折 → 0.75, 8.5折 → 0.85. */
function discount(word: string): string {
  if (/^\d/.test(word)) {
    const n = Number(word);
    return String(n < 10 ? n / 10 : n / 100);
  }
  const d = [...word].map((ch) => numberOf(ch) ?? 0);
  return String(d.length === 1 ? d[0] / 10 : (d[0] * 10 + d[1]) / 100);
}

/** The last expression taken further, if the message only says what to do to its result. */
export function goOn(previous: string, text: string): string | undefined {
  const t = text.trim();
  for (const [pattern, op] of OPS) {
    const m = pattern.exec(t);
    if (!m) continue;
    const n = m[1] === undefined ? '' : /^\d/.test(m[1]) ? m[1] : String(numberOf(m[1]) ?? '');
    if (m[1] !== undefined && !n) return undefined;
    return `(${previous})${op(n)}`;
  }
  return undefined;
}
