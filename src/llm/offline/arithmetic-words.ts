/**
 * Arithmetic said in words, turned into an expression the calculator reads (digits, + - * / ^ √ and
 * parentheses): amounts (3万5 → 35000, 1.2万 → 12000), discounts (打七折 → *0.7, "20% off" →
 * *(1-20/100)), averages and splits (「4个人花了360，平均每人多少」 → 360/4), roots and powers
 * ("cube root of 27", 「16开根号」), halves and thirds ("half of 90", 「90的一半」), and how many
 * decimals the answer should keep (「保留两位小数」), which the reply honours, not the calculator.
 */
import { CN, digits, DIGITS, numberOf, numbersIn } from './numbers-in-text.js';
import { priceChange, unitPrice } from './prices.js';

// ---- How many decimals -------------------------------------------------------------------------

const PLACES_ZH = new RegExp(
  `(?:保留|精确到|取|四舍五入(?:到|保留|取)?)\\s*(?:小数点后)?\\s*(${DIGITS}|[一二两三四五六七八九十])\\s*位(?:小数)?(?:数)?|(?<![\\d.])(\\d|[一二两三四五六])\\s*位小数|精确到\\s*0\\.(0*1)(?!\\d)`,
);
const WHOLE_ZH = /(?:四舍五入)?(?:取整数?|到整数|保留整数|精确到(?:个位|整数))|四舍五入(?=[,，。?？]|$)/;
const PLACES_EN =
  /\b(?:to|keep|with|in|round(?:ed)?(?: it)? to|rounded off to)\s+(\d+|one|two|three|four|five|six)\s*(?:decimal places?|decimals?|dp\b|d\.p\.?|digits after the (?:decimal )?point|places)/i;
const WHOLE_EN =
  /\bround(?:ed)?(?: it)?(?: off)?(?: to (?:the )?(?:nearest )?(?:whole number|integer|unit))\b|\bnearest whole number\b/i;
const CENT_EN = /\bto the (?:nearest )?cent\b/i;

/** How many decimals the user wants, and the text without the instruction (its digits are no operand). */
export function decimalsAsked(text: string): { places: number; rest: string } | undefined {
  for (const [pattern, fixed] of [
    [PLACES_ZH, undefined],
    [PLACES_EN, undefined],
    [WHOLE_ZH, 0],
    [WHOLE_EN, 0],
    [CENT_EN, 2],
  ] as const) {
    const m = pattern.exec(text);
    if (!m) continue;
    // 「精确到0.01」: as many places as the last digit stands from the point.
    const places = fixed ?? (m[3] !== undefined ? m[3].length : numberOf(m[1] ?? m[2]));
    if (places === undefined || places > 20) continue;
    return { places, rest: text.slice(0, m.index) + ' ' + text.slice(m.index + m[0].length) };
  }
  return undefined;
}

// ---- Amounts with units ------------------------------------------------------------------------

const UNIT: Readonly<Record<string, number>> = { 亿: 1e8, 万: 1e4, 千: 1e3, 百: 1e2, k: 1e3, w: 1e4 };
/** 3万5, 1.2万, 3万5千, 2千, 5k; not 5千米 or 100千克 (a unit of measure), not 百分之. */
const AMOUNT =
  /(?<![\d.])((?:\d+(?:\.\d+)?\s*[亿万千百](?!米|克|瓦|分之|卡|字节))+)(\d(?![\d.%]))?|(?<![\w.])(\d+(?:\.\d+)?)\s*([kw])\b/gi;

function amount(pairs: string, tail: string | undefined): string {
  let total = 0;
  let last = 1;
  for (const m of pairs.matchAll(/(\d+(?:\.\d+)?)\s*([亿万千百])/g)) {
    last = UNIT[m[2]];
    total += Number(m[1]) * last;
  }
  if (tail) total += (Number(tail) * last) / 10;
  return String(Number(total.toPrecision(15)));
}

/** Digits with 万/千/亿 written out: 「3万5」 → 35000, 「1.2万」 → 12000, "5k" → 5000. */
export function spellAmounts(text: string): string {
  const money = spellMoney(text);
  if (!/\d\s*[亿万千百kw]/i.test(money)) return money;
  return money.replace(
    AMOUNT,
    (_m, pairs: string | undefined, tail: string | undefined, k: string | undefined, kUnit: string | undefined) =>
      pairs ? amount(pairs, tail) : String(Number((Number(k) * UNIT[kUnit!.toLowerCase()]).toPrecision(15))),
  );
}

/** 「3块5」「3元5角」「2毛5」「5毛」: yuan and jiao as one amount of yuan. */
const MONEY: ReadonlyArray<readonly [RegExp, (...g: string[]) => string]> = [
  // Not 「500块6个人」: a digit that counts something after the yuan is no jiao.
  [
    /(?<![\d.])(\d+)\s*(?:块|元)\s*(\d)(?:\s*(?:毛|角))?(?=\s*(?:毛|角|钱|的|买|一|每|吗|呢)|[^\d.%\u4e00-\u9fff]|$)/g,
    (y, j) => `${y}.${j}`,
  ],
  [/(?<![\d.])(\d)\s*(?:毛|角)\s*(\d)(?![\d.%])/g, (j, f) => `0.${j}${f}`],
  [/(?<![\d.])(\d)\s*(?:毛|角)(?:钱)?/g, (j) => `0.${j}`],
  // 「3斤半」「2块半」「1个半小时」: and a half
  [/(?<![\d.])(\d+)\s*(斤|公斤|块|元|米|升|杯|瓶)\s*半(?!价|折)/g, (n, m) => `${n}.5${m}`],
  [/(?<![\d.])(\d+)\s*个\s*半\s*(?=小时|钟头|月|星期)/g, (n) => `${n}.5个`],
];

function spellMoney(text: string): string {
  if (!/\d\s*(?:块|元|毛|角)\s*\d|\d\s*(?:毛|角)|半/.test(text)) return text;
  let out = text;
  for (const [pattern, make] of MONEY)
    out = out.replace(pattern, (_m, ...g: unknown[]) => make(...g.map((x) => (typeof x === 'string' ? x : ''))));
  return out;
}

// ---- Words for operations inside a sentence ----------------------------------------------------

// A number is only looked for where its run begins: retrying from inside a long run costs its square.
const CN_CHAR = '[零〇一二两三四五六七八九十百千万亿点]';
const NUM = `((?<![\\d.])${DIGITS}|(?<!${CN_CHAR})${CN})`;
const EN_NUM = `((?<![\\d.])${DIGITS})`;
const FRACTION_EN: Readonly<Record<string, string>> = {
  half: '/2',
  third: '/3',
  quarter: '/4',
  fourth: '/4',
  fifth: '/5',
  tenth: '/10',
  'two thirds': '*2/3',
  'three quarters': '*3/4',
  'three fourths': '*3/4',
  'two fifths': '*2/5',
};
const TIMES_ZH: Readonly<Record<string, string>> = {
  一半: '/2',
  一倍: '*2',
  两倍: '*2',
  二倍: '*2',
  双倍: '*2',
  三倍: '*3',
};

/** Rewrites that keep the sentence and put an operation where the words were. */
const WORD_OPS: ReadonlyArray<readonly [RegExp, (...g: string[]) => string]> = [
  // cube root of 27, 27的立方根, 立方根27, 27开立方
  [new RegExp(`\\bcube root of\\s*${EN_NUM}`, 'gi'), (n) => `(${n})^(1/3)`],
  [new RegExp(`${NUM}\\s*的?\\s*(?:立方根|开立方根?)`, 'g'), (n) => `(${digits(n)})^(1/3)`],
  [new RegExp(`(?:立方根|开立方)\\s*(?:下)?\\s*${NUM}`, 'g'), (n) => `(${digits(n)})^(1/3)`],
  // 16开根号, 16的平方根, 根号下16, 16开平方根
  [new RegExp(`${NUM}\\s*的?\\s*(?:开根号|开根|开平方根|开平方|开方|平方根|算术平方根)`, 'g'), (n) => `√${digits(n)}`],
  [new RegExp(`(?:根号下|平方根|开根号|开平方)\\s*${NUM}`, 'g'), (n) => `√${digits(n)}`],
  // 「9的平方加16的平方再开根号」: the root of everything before it
  [
    /((?<![\d.])\d[\d\s+\-*/^.()的平方立方加减乘除以上去次幂]*?)\s*[,，]?\s*(?:再|然后)开(?:根号|平方根?|方)/g,
    (e) => `√(${e.trim()})`,
  ],
  // 1/4 of 100, 3/4 of 200
  [
    new RegExp(`${EN_NUM}\\s*/\\s*(\\d+)\\s+of\\s*(?:the\\s*)?\\$?(\\d+(?:\\.\\d+)?)`, 'gi'),
    (a, b, n) => `(${n}*${a}/${b})`,
  ],
  // 5万块钱的5%, 「120块减30」: the currency between the amount and 的 or an operation is no part of the arithmetic
  [
    /(\d)\s*(?:块钱|块|元|人民币|rmb|美元|美金|欧元|日元|英镑|港币|刀|usd|cny|eur|gbp|jpy|hkd|dollars?|euros?|bucks)\s*(?=的|(?:再|然后)?\s*(?:加上?|减去?|乘以?|除以|[+\-*/×÷]))/gi,
    (d) => d,
  ],
  // 「8除2」: said without 以, 除 between two numbers still divides the first
  [/(\d)\s*除(?!以)\s*(?=\d)/g, (d) => `${d}/`],
  // 「3乘5再加2」: 再 between a number and the next operation only says it comes after
  [/([\d)])\s*(?:再|然后|之后)\s*(?=加上?|减去?|乘以?|除以|[+\-*/×÷])/g, (d) => d],
  // 2 cubed, the square of 7, 2 to the 10th power, 2 to the power 10
  [new RegExp(`${EN_NUM}\\s*cubed\\b`, 'gi'), (n) => `${n}^3`],
  [new RegExp(`\\b(?:the )?square of\\s*${EN_NUM}`, 'gi'), (n) => `${n}^2`],
  [new RegExp(`\\b(?:the )?cube of\\s*${EN_NUM}`, 'gi'), (n) => `${n}^3`],
  [new RegExp(`${EN_NUM}\\s*to the\\s*(\\d+)(?:st|nd|rd|th)?\\s*power\\b`, 'gi'), (n, p) => `${n}^${p}`],
  [
    new RegExp(`${EN_NUM}\\s*(?:to the power|raised to the power|raised to)\\s*(?:of\\s*)?(-?\\d+(?:\\.\\d+)?)`, 'gi'),
    (n, p) => `${n}^(${p})`,
  ],
  [new RegExp(`${EN_NUM}\\s*to the\\s*(\\d+)(?:st|nd|rd|th)\\b`, 'gi'), (n, p) => `${n}^${p}`],
  // half of 90, a third of 90, two thirds of 90
  [
    new RegExp(
      `\\b(?:a |one )?(half|third|quarter|fourth|fifth|tenth|two thirds|three quarters|three fourths|two fifths) of\\s*(?:the\\s*)?\\$?${EN_NUM}`,
      'gi',
    ),
    (f, n) => `(${n}${FRACTION_EN[f.toLowerCase()]})`,
  ],
  [
    new RegExp(`\\b(double|twice|triple)\\s*\\$?${EN_NUM}`, 'gi'),
    (w, n) => `(${n}*${w.toLowerCase() === 'triple' ? 3 : 2})`,
  ],
  [
    new RegExp(`\\$?${EN_NUM}\\s*(doubled|tripled|halved)\\b`, 'gi'),
    (n, w) => `(${n}${w.toLowerCase() === 'halved' ? '/2' : w.toLowerCase() === 'tripled' ? '*3' : '*2'})`,
  ],
  // 90的一半, 90的两倍, 90减半, 45翻倍
  [new RegExp(`${NUM}\\s*的\\s*(一半|一倍|两倍|二倍|双倍|三倍)`, 'g'), (n, w) => `(${digits(n)}${TIMES_ZH[w]})`],
  [new RegExp(`${NUM}\\s*的\\s*(\\d+|[二三四五六七八九十])\\s*倍`, 'g'), (n, k) => `(${digits(n)}*${digits(k)})`],
  [new RegExp(`${NUM}\\s*(减半|翻倍|翻一番)`, 'g'), (n, w) => `(${digits(n)}${w === '减半' ? '/2' : '*2'})`],
];

/** Shares left after percent.ts: 200+10% is 200*(1+10/100), as on a shop calculator; (1+5%) is 1+(5/100). */
const SHARE_OPS: ReadonlyArray<readonly [RegExp, (...g: string[]) => string]> = [
  [
    /(^|[^\d.*/^)])(\d+(?:\.\d+)?)\s*([+-]|加上?|减去?)\s*(\d+(?:\.\d+)?)\s*%(?!\s*[\d(.√])/g,
    (pre, n, op, p) => {
      const sign = /^[+加]/.test(op) ? '+' : '-';
      return n === '1' ? `${pre}1${sign}${p}/100` : `${pre}${n}*(1${sign}${p}/100)`;
    },
  ],
  // Any other share standing alone, e.g. inside parentheses: (1+5%) → (1+(5/100)).
  [/(\d+(?:\.\d+)?)\s*%(?!\s*[\d(.√]|\s*(?:of|的))/gi, (p) => `(${p}/100)`],
];

function apply(text: string, ops: typeof WORD_OPS): string {
  let out = text;
  for (const [pattern, make] of ops) {
    // Groups only: the offset and the whole string that replace() passes after them are dropped.
    out = out.replace(pattern, (...args: unknown[]) => {
      const offset = args.findIndex((x, i) => i > 0 && typeof x === 'number');
      return make(...args.slice(1, offset).map((x) => (typeof x === 'string' ? x : '')));
    });
  }
  return out;
}

const EN_UNITS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const EN_TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const EN_NUMBER = new RegExp(
  `\\b(?:(${EN_TENS.filter(Boolean).join('|')})(?:[- ](${EN_UNITS.slice(1, 10).join('|')}))?|(${EN_UNITS.join('|')}))(?: (hundred|thousand))?\\b(?! (?:third|quarter|half|fourth|fifth|tenth)s?\\b)`,
  'gi',
);

/** English numbers in words as digits, where arithmetic is already looked for: "twenty percent of fifty" → 20 percent of 50. */
function englishNumbers(text: string): string {
  if (!/[a-z]/i.test(text)) return text;
  return text.replace(EN_NUMBER, (_m, tens?: string, unit?: string, small?: string, scale?: string) => {
    let n = tens
      ? EN_TENS.indexOf(tens.toLowerCase()) * 10 + (unit ? EN_UNITS.indexOf(unit.toLowerCase()) : 0)
      : EN_UNITS.indexOf(small!.toLowerCase());
    if (scale) n *= scale.toLowerCase() === 'hundred' ? 100 : 1000;
    return String(n);
  });
}

/** The sentence with worded operations written as arithmetic. */
export const rewriteWords = (text: string): string =>
  apply(englishNumbers(text).replace(/(\d)\s*(?:percent|per cent)\b/gi, '$1%'), WORD_OPS);
/** Percentages that percent.ts left alone and that are no modulo, as fractions. */
export const rewriteShares = (text: string): string => (text.includes('%') ? apply(text, SHARE_OPS) : text);

// ---- Whole-sentence word problems --------------------------------------------------------------

const AVERAGE =
  /平均|均摊|分摊|均分|平分|平摊|分担|人均|(?<![a-z])aa(?![a-z])|\b(?:average|mean|avg|split|share(?:d)? (?:equally|evenly)|divided (?:equally|evenly))\b|\bdivide[sd]?\b.*\b(?:among|between|people|persons|friends|ways)\b/i;
/** "Each" and 每人 ask for a share only with a count of people beside them. */
const PER_PERSON = /每(?:人|个人|位|家)|\b(?:per (?:person|head)|each)\b/i;
const PEOPLE = /人|位|名|家|people|persons|friends|of us|guys|ways|students|kids|roommates|between|among|分成|分给/i;
const COUNT = new RegExp(
  `(${DIGITS}|[一二两三四五六七八九十]+)\\s*(?:个人|口人|人|位|名|个(?:同学|朋友|室友|孩子|家庭)|家|份|天|次|个月|门(?:课)?|科)|(${DIGITS}|one|two|three|four|five|six|seven|eight|nine|ten)\\s*(?:people|persons|friends|of us|guys|ways|days|times|months|students|kids|roommates|parts|portions)\\b|\\b(?:between|among|by|into)\\s*(${DIGITS}|two|three|four|five|six|seven|eight|nine|ten)\\b|(?:分成|分给|分为|除以)\\s*(${DIGITS}|[一二两三四五六七八九十]+)`,
  'i',
);
const SUM = /^[\d.]+(?:\+[\d.]+)+$/;

/** 「4个人花了360，平均每人多少」 → 360/4; "average of 3, 5 and 10" → (3+5+10)/3; a sum over a count → (a+b)/n. */
function average(text: string, sum: string | undefined): string | undefined {
  const count = COUNT.exec(text);
  if (!AVERAGE.test(text) && !(PER_PERSON.test(text) && count && PEOPLE.test(count[0]))) return undefined;
  const n = count ? numberOf(count[1] ?? count[2] ?? count[3] ?? count[4]) : undefined;
  if (sum && SUM.test(sum.replace(/\s/g, ''))) {
    const terms = sum.split('+').length;
    return `(${sum.replace(/\s/g, '')})/${n ?? terms}`;
  }
  const skip: Array<[number, number]> = count ? [[count.index, count.index + count[0].length]] : [];
  // 「加10%服务费，4个人AA」「打八折后3个人平分」: the bill as it comes to, then shared.
  if (count && n !== undefined && n > 0) {
    const bill = priceChange(
      text.slice(0, count.index) + ' '.repeat(count[0].length) + text.slice(count.index + count[0].length),
    );
    if (bill) return `(${bill})/${n}`;
  }
  for (const m of text.matchAll(/\d+(?:\.\d+)?\s*%/g)) skip.push([m.index ?? 0, (m.index ?? 0) + m[0].length]);
  const values = numbersIn(text, skip).map((f) => String(f.value));
  if (n !== undefined && n > 0 && values.length >= 1)
    return values.length === 1 ? `${values[0]}/${n}` : `(${values.join('+')})/${n}`;
  if (n === undefined && values.length >= 2) return `(${values.join('+')})/${values.length}`;
  return undefined;
}

const SPENT = /花了?|用了?|花掉|吃了|给了|付了|\b(?:spent|spend|used|gave|paid|ate)\b/i;
const REMAIN = /还剩|剩下|剩多少|还有多少|\bleft\b/i;

/** 「我有100块花了30还剩多少」 → 100-30; 「工资6500，房租2000，吃饭1500，还剩多少」 too: what is left asks it. */
function remainder(text: string): string | undefined {
  if (!REMAIN.test(text)) return undefined;
  const values = numbersIn(text);
  if (!SPENT.test(text) && values.length < 3) return undefined;
  return values.length >= 2 ? values.map((f) => String(f.value)).join('-') : undefined;
}

const INTEREST = /利率|年利率|利息|年化|\binterest\b/i;
const YEARS = new RegExp(
  `(${DIGITS}|[一二两三四五六七八九十]+|半)\\s*(?:个)?年|(${DIGITS}|one|two|three|four|five|ten)\\s*years?\\b`,
  'i',
);
const RATE = new RegExp(`(${DIGITS})\\s*(?:%|percent)`, 'i');

/** 「1000块存一年，利率3%，利息多少」 → 1000*3/100*1 (simple interest). */
function interest(text: string): string | undefined {
  if (!INTEREST.test(text)) return undefined;
  const rate = RATE.exec(text);
  if (!rate) return undefined;
  const years = YEARS.exec(text);
  const n = years ? (years[1] === '半' ? 0.5 : numberOf(years[1] ?? years[2])) : 1;
  const skip: Array<[number, number]> = [[rate.index, rate.index + rate[0].length]];
  if (years) skip.push([years.index, years.index + years[0].length]);
  const base = numbersIn(text, skip);
  if (base.length !== 1 || n === undefined) return undefined;
  // 「复利」 "compounded": interest on interest; what one ends with, unless the interest alone is asked.
  if (/复利|利滚利|\bcompound(?:ed|ing)?\b/i.test(text)) {
    const grown = `${base[0].value}*(1+${rate[1]}/100)^${n}`;
    return /利息(?:是|有|一共|总共)?多少|\bhow much interest\b/i.test(text) ? `${grown}-${base[0].value}` : grown;
  }
  const total =
    /本息|连本带利|一共|总共|到期|(?:年|之)后(?:有|能拿|拿到|变成|是)?多少|\bin total\b|\btotal\b|\bafter\b/i.test(
      text,
    );
  return total ? `${base[0].value}*(1+${rate[1]}/100*${n})` : `${base[0].value}*${rate[1]}/100*${n}`;
}

/** The whole sentence as one calculation when its words ask for one; `sum` is the arithmetic already found in it. */
export function wordProblem(text: string, sum?: string): string | undefined {
  return (
    interest(text) ??
    priceChange(text) ??
    average(text, sum) ??
    remainder(text) ??
    unitPrice(text) ??
    shareOfTotal(text, sum)
  );
}

const ONE_SHARE = new RegExp(`(${DIGITS})\\s*%|百分之(${CN})`, 'g');

/** 「20%的人是多少人，总共150人」: one share and one total, asked how much, is the share of the total. */
function shareOfTotal(text: string, sum: string | undefined): string | undefined {
  if (sum || !/多少|几|\bhow (?:much|many)\b/i.test(text)) return undefined;
  const shares = [...text.matchAll(ONE_SHARE)];
  if (shares.length !== 1) return undefined;
  const m = shares[0];
  const totals = numbersIn(text, [[m.index ?? 0, (m.index ?? 0) + m[0].length]]);
  const p = m[1] ?? digits(m[2]);
  return totals.length === 1 ? `${totals[0].value}*${p}/100` : undefined;
}
