/**
 * Word problems whose question, not their numbers, says what to compute: how much a value changed in
 * percent (「从 80 涨到 100 涨了百分之几」), what share one number is of another, the sum of a range
 * (「1 到 100 加起来」), a 满减 offer, the price of one unit (「5 斤苹果 30 块，一斤多少钱」), a rate over a
 * period (「每月存 1500，一年存多少」). Each returns an expression for the calculator, or undefined.
 * Units of measure and time are in unit-conversions.ts.
 */
import { everydaySum } from './everyday-sums.js';
import { exchange } from './exchange.js';
import { geometry } from './geometry.js';
import { numberOf, numbersIn } from './numbers-in-text.js';

const NUM = '\\d+(?:\\.\\d+)?';
/** Rounds away the float noise of a factor computed here (1/3.6 and such). */
const tidy = (n: number): string => String(Number(n.toPrecision(12)));

// ---- Percent change and shares ----------------------------------------------------------------

const ASK_PERCENT =
  /百分之几|百分比|多少%|几%|百分之多少|增长率|增幅|涨幅|跌幅|降幅|下降率|下降了?多少|变化率|\bwhat percent(?:age)?\b|\bby what percent(?:age)?\b|\bhow many percent\b|\bpercent(?:age)? (?:increase|decrease|change|drop|rise|growth|gain|loss)\b|\bgrowth rate\b/i;
const DECLINE =
  /跌|降|减少|少了|下滑|缩水|便宜|省了|\b(?:cheaper|off|drop(?:ped)?|decrease[ds]?|fall|fell|lower|down|decline[ds]?|loss|lost|shrank)\b/i;
/** Words that mark the earlier value, so 「今年 15 万，去年 12 万」 still goes from 12 to 15. */
const BEFORE_WORD =
  /(?:从|由|去年|上个?月|上周|昨天|原来|原价|之前|以前|\bfrom\b|\blast (?:year|month|week)\b|\bused to be\b|\bwas\b)\s*$/i;
/** 「30 是 50 的百分之几」, "what percent of 80 is 20", 「20 占 80 的多少」. */
const SHARE_OF_WHOLE = new RegExp(
  `(${NUM})\\s*(?:是|占了?)\\s*(${NUM})\\s*的\\s*(?:百分之几|百分之多少|多少|几成|比例|比重|百分比)` +
    `|\\bwhat percent(?:age)? of\\s*\\$?(${NUM})\\s*is\\s*\\$?(${NUM})` +
    `|\\$?(${NUM})\\s*(?:is|as a|as)\\s*(?:what\\s*)?percent(?:age)?\\s*of\\s*\\$?(${NUM})`,
  'i',
);

/** A fraction or a decimal said as a percentage: 「7/8 是百分之多少」 "what's 3/8 in percent", "0.75 as a percentage". */
const AS_PERCENT = new RegExp(
  `(?<![\\d.])(${NUM}\\s*/\\s*${NUM}|0?\\.\\d+)(?![\\d.])\\s*(?:是|等于|换算成|化成|转成|写成|合)?\\s*(?:百分之多少|百分之几|百分比|多少%|几%)` +
    `|(?<![\\d.])(${NUM}\\s*/\\s*${NUM}|0?\\.\\d+)(?![\\d.])\\s*(?:in|as|to|into)\\s+(?:a\\s+)?percent(?:age)?s?\\b`,
  'i',
);

/** 「原价 1280，现价 960，打了几折」: the price paid in tenths of the price before. */
const ASK_DISCOUNT = /打了?几折|几折|多少折|\bwhat (?:percent|%) off\b|\bhow (?:much|many percent) off\b/i;

function discountGiven(text: string): string | undefined {
  if (!ASK_DISCOUNT.test(text)) return undefined;
  const values = numbersIn(text);
  if (values.length !== 2) return undefined;
  const [was, now] =
    values[0].value >= values[1].value ? [values[0].value, values[1].value] : [values[1].value, values[0].value];
  if (was === 0) return undefined;
  return /折/.test(text) ? `${now}/${was}*10` : `(${was}-${now})/${was}*100`;
}

/** How much a value changed, in percent of where it started; a drop is said as a positive share. */
function percentChange(text: string): string | undefined {
  const as = AS_PERCENT.exec(text);
  if (as) return `${(as[1] ?? as[2]).replace(/\s/g, '')}*100`;
  const share = SHARE_OF_WHOLE.exec(text);
  if (share) {
    const [part, whole] =
      share[1] !== undefined
        ? [share[1], share[2]]
        : share[3] !== undefined
          ? [share[4], share[3]]
          : [share[5], share[6]];
    return `${part}/${whole}*100`;
  }
  if (!ASK_PERCENT.test(text)) return undefined;
  const values = numbersIn(text);
  if (values.length !== 2) return undefined;
  let [a, b] = values;
  if (BEFORE_WORD.test(text.slice(0, b.at)) && !BEFORE_WORD.test(text.slice(0, a.at))) [a, b] = [b, a];
  if (a.value === 0) return undefined;
  return DECLINE.test(text) && a.value >= b.value
    ? `(${a.value}-${b.value})/${a.value}*100`
    : `(${b.value}-${a.value})/${a.value}*100`;
}

// ---- Sums of a range, offers ------------------------------------------------------------------

const RANGE_SUM = new RegExp(
  `(${NUM})\\s*(?:到|至|~|～|-|—)\\s*(${NUM})\\s*(?:之间)?\\s*的?\\s*(?:所有|全部)?\\s*的?\\s*(?:整数|自然数|数字?)?\\s*(?:加起来|相加|之和|的和|和是|求和|累加|总和|加在一起)` +
    `|(?:从\\s*)?(${NUM})\\s*(?:一直)?加到\\s*(${NUM})` +
    `|\\b(?:sum|add up|total)\\s+(?:of\\s+)?(?:all\\s+)?(?:the\\s+)?(?:numbers|integers|whole numbers)?\\s*(?:from\\s+)?(${NUM})\\s*(?:to|through|thru|-)\\s*(${NUM})`,
  'i',
);

/** 「1 到 100 加起来」 → (1+100)*100/2. */
function rangeSum(text: string): string | undefined {
  const m = RANGE_SUM.exec(text);
  if (!m) return undefined;
  const [a, b] = [Number(m[1] ?? m[3] ?? m[5]), Number(m[2] ?? m[4] ?? m[6])];
  if (!Number.isInteger(a) || !Number.isInteger(b) || b <= a) return undefined;
  return `(${a}+${b})*${b - a + 1}/2`;
}

const FULL_MINUS = new RegExp(`(每)?满\\s*(${NUM})\\s*(?:元|块)?\\s*(?:立?减|减去|返|送)\\s*(${NUM})`);

/** 「满 200 减 30，买了 260」 → 260-30; 「每满 100 减 10，买了 350」 → 350-30. */
function fullMinus(text: string): string | undefined {
  const m = FULL_MINUS.exec(text);
  if (!m) return undefined;
  const [threshold, off] = [Number(m[2]), Number(m[3])];
  const prices = numbersIn(text, [[m.index, m.index + m[0].length]]);
  if (prices.length !== 1 || threshold <= 0) return undefined;
  const price = prices[0].value;
  const times = m[1] ? Math.floor(price / threshold) : price >= threshold ? 1 : 0;
  return times ? `${price}-${times * off}` : String(price);
}

// ---- The price of one, a rate over a period ---------------------------------------------------

// Not 块 (money) nor 人 (「每人多少」 is a split, averages' business).
const MEASURE_ZH = '斤|公斤|千克|克|个|件|本|瓶|杯|份|盒|袋|支|双|张|包|箱|台|升|米|条|只|颗|小时|天|次|节|页';
/** Asking the price of one: 「一斤多少钱」「每个多少」「单价多少」, "how much per pound". */
const ASK_ONE_ZH = new RegExp(`(?:一|每|1)\\s*(?:${MEASURE_ZH})\\s*(?:是|要|合|等于|卖)?\\s*多少|单价`);
const ASK_ONE_EN =
  /\b(?:how much|what(?:'s| is| does))\b.*\b(?:per|a|an|each|one)\s+(?:pound|lb|kg|kilo|item|unit|piece|one|hour|day|person|liter|litre|gallon|mile|ounce|oz|ticket|book|apple|bottle|box|night|month|week|class|lesson)\b|\bprice per\b|\bunit price\b|\beach cost\b/i;
const COUNT_ZH = new RegExp(`(${NUM}|[一二两三四五六七八九十]+)\\s*(?:${MEASURE_ZH})(?!钱)`);
const COUNT_EN = new RegExp(`(${NUM})\\s+(?!dollars?\\b|bucks\\b|euros?\\b|yuan\\b|rmb\\b|usd\\b)[a-z]+`, 'i');

/** 「5 斤苹果 30 块，一斤多少钱」 → 30/5; "3 pounds of apples cost 7.5, how much per pound" → 7.5/3. */
function priceOfOne(text: string): string | undefined {
  const ask = ASK_ONE_ZH.exec(text) ?? ASK_ONE_EN.exec(text);
  if (!ask) return undefined;
  const rest = text.slice(0, ask.index) + ' '.repeat(ask[0].length) + text.slice(ask.index + ask[0].length);
  const count = COUNT_ZH.exec(rest) ?? COUNT_EN.exec(rest);
  if (!count) return undefined;
  const n = numberOf(count[1]);
  const totals = numbersIn(rest, [[count.index, count.index + count[0].length]]);
  if (n === undefined || n <= 0 || totals.length !== 1) return undefined;
  return `${totals[0].value}/${n}`;
}

/** Seconds in each period, for rates; months and years by the calendar's counts below. */
const PERIOD_SECONDS: Readonly<Record<string, number>> = {
  秒: 1,
  分钟: 60,
  小时: 3_600,
  天: 86_400,
  周: 604_800,
  月: 2_592_000,
  年: 31_536_000,
};
/** How many of the smaller period a larger one holds, as people count: a year is 12 months or 52 weeks. */
const PER: Readonly<Record<string, number>> = {
  '年/月': 12,
  '年/周': 52,
  '年/天': 365,
  '月/天': 30,
  '月/周': 4,
  '周/天': 7,
};
const PERIOD_ZH: Readonly<Record<string, string>> = {
  秒: '秒',
  秒钟: '秒',
  分钟: '分钟',
  小时: '小时',
  钟头: '小时',
  天: '天',
  日: '天',
  周: '周',
  星期: '周',
  礼拜: '周',
  月: '月',
  个月: '月',
  年: '年',
};
const PERIOD_EN: Readonly<Record<string, string>> = {
  second: '秒',
  minute: '分钟',
  hour: '小时',
  day: '天',
  week: '周',
  month: '月',
  year: '年',
};
const RATE_ZH = new RegExp(
  `每(?:个)?(秒钟?|分钟|小时|钟头|天|日|周|星期|礼拜|个?月|年)\\s*[^\\d,，。;；]{0,8}?(${NUM})`,
);
const RATE_EN = new RegExp(
  `\\$?(${NUM})\\s*[a-z$]*\\s*(?:a|an|per|each|every)\\s+(second|minute|hour|day|week|month|year)\\b`,
  'i',
);
const SPAN_ZH = /(\d+(?:\.\d+)?|[一二两三四五六七八九十半]+)\s*(?:个)?(秒钟?|分钟|小时|钟头|天|日|周|星期|礼拜|月|年)/g;
const SPAN_EN = /\b(?:(a|an|one|\d+(?:\.\d+)?)\s+)(second|minute|hour|day|week|month|year)s?\b/gi;
/** A span as said of the past too: "this week", "last month". */
const SPAN_EN_ANY =
  /\b(?:(a|an|one|this|last|the|that|past|\d+(?:\.\d+)?)\s+)(second|minute|hour|day|week|month|year)s?\b/gi;

/** How many `rate` periods fit in one `span` period. */
function periodsIn(span: string, rate: string): number | undefined {
  if (span === rate) return 1;
  const known = PER[`${span}/${rate}`];
  if (known) return known;
  const ratio = PERIOD_SECONDS[span] / PERIOD_SECONDS[rate];
  return ratio >= 1 && !/[月年]/.test(span + rate) ? ratio : undefined;
}

const HOW_MANY_PERIODS =
  /(?:几|多少)(?:个)?(天|日|周|星期|月|年|小时|次)|\bhow many (day|week|month|year|hour)s?\b|\bhow long\b/i;

/** 「一共 120 页，每天看 15 页，几天看完」 → 120/15: how many periods a total takes at a rate. */
function timeToFinish(text: string): string | undefined {
  const ask = HOW_MANY_PERIODS.exec(text);
  const rate = ask ? (RATE_ZH.exec(text) ?? RATE_EN.exec(text)) : null;
  if (!ask || !rate) return undefined;
  const amounts = numbersIn(text, [[rate.index, rate.index + rate[0].length]]).filter(
    (f) => f.at < ask.index || f.at >= ask.index + ask[0].length,
  );
  const value = /^\d/.test(rate[1]) ? rate[1] : rate[2];
  return amounts.length === 1 && Number(value) > 0 ? `${amounts[0].value}/${value}` : undefined;
}

/** 「每月存 1500，一年存多少」 → 1500*12; "I read 20 pages a day, how many in a week" → 20*7. */
function ratePerPeriod(text: string): string | undefined {
  if (!/多少|几|\bhow (?:much|many)\b|\btotal\b/i.test(text)) return undefined;
  const zh = RATE_ZH.exec(text);
  const en = zh ? null : RATE_EN.exec(text);
  const rate = zh
    ? { unit: PERIOD_ZH[zh[1].replace(/^个/, '')] ?? zh[1], value: zh[2], at: zh.index, end: zh.index + zh[0].length }
    : en
      ? { unit: PERIOD_EN[en[2].toLowerCase()], value: en[1], at: en.index, end: en.index + en[0].length }
      : undefined;
  if (!rate) return undefined;
  // The span asked about is said outside the rate: 「工作了 8 小时」 in the rate's own unit, else the last one
  // (「一年365天，每天读20页，一年读多少页」 asks of 一年).
  const unitOf = (m: RegExpMatchArray): string | undefined => (zh ? PERIOD_ZH[m[2]] : PERIOD_EN[m[2].toLowerCase()]);
  const spans = [...text.matchAll(zh ? SPAN_ZH : SPAN_EN)].filter(
    (m) => (m.index ?? 0) >= rate.end || (m.index ?? 0) + m[0].length <= rate.at,
  );
  const span = spans.find((m) => unitOf(m) === rate.unit && !/^(?:a|an|one|一)$/i.test(m[1])) ?? spans.at(-1);
  if (!span) return undefined;
  const count = /^(?:a|an|one)$/i.test(span[1]) ? 1 : span[1] === '半' ? 0.5 : numberOf(span[1]);
  const unit = unitOf(span);
  const per = unit ? periodsIn(unit, rate.unit) : undefined;
  if (count === undefined || per === undefined || count <= 0) return undefined;
  const times = count * per;
  return times === 1 ? undefined : `${rate.value}*${tidy(times)}`;
}

// ---- A part of a whole, a price before tax ----------------------------------------------------

const CN_DIGIT = '[一二两三四五六七八九十百\\d]+';
/** 「房租占三分之一」「占 30%」「占一半」「占四成」: the share a part takes of the one amount given. */
const TAKES_SHARE = new RegExp(
  `占(?:了)?[^,，。;；\\d]{0,6}?(?:(一半)|(${CN_DIGIT})\\s*分之\\s*(${CN_DIGIT})|(${NUM})\\s*%|百分之(${CN_DIGIT})|([一二三四五六七八九])成)`,
);

function partOfWhole(text: string): string | undefined {
  const m = TAKES_SHARE.exec(text);
  if (!m) return undefined;
  const share = m[1]
    ? '1/2'
    : m[2]
      ? `${numberOf(m[3])}/${numberOf(m[2])}`
      : m[4]
        ? `${m[4]}/100`
        : m[5]
          ? `${numberOf(m[5])}/100`
          : `${numberOf(m[6])}/10`;
  if (share.includes('undefined')) return undefined;
  const whole = numbersIn(text, [[m.index, m.index + m[0].length]]);
  return whole.length === 1 ? `${whole[0].value}*${share}` : undefined;
}

/** Asking the price or pay before tax: 「不含税多少」 "how much before tax". */
const BEFORE_TAX =
  /(?:不含税|税前|未税)(?:价|价格|金额|收入|工资)?(?:是|应该是|为)?多少|\b(?:how much|what(?:'s| is| was))\b[^.?!]{0,30}\b(?:before|excluding|excl\.?|without|pre-?)\s*tax\b/i;
/** Asking what is left after tax: 「税后多少」「到手多少」 "take-home pay". */
const AFTER_TAX =
  /(?:税后|到手|实发|实得)[^,，。.;；]{0,4}?(?:多少|几|[?？])|(?:多少|几)[^,，。;；]{0,6}?(?:税后|到手)|\b(?:after[- ]tax|take[- ]home|net pay|net income)\b/i;
const TAX_RATE = new RegExp(`(${NUM})\\s*(?:%|percent)`, 'i');

/** 「含税 106，税率 6%，不含税多少」 → 106/(1+6/100); 「税前 8000，税率 3%，税后多少」 → 8000*(1-3/100). */
function tax(text: string): string | undefined {
  const after = AFTER_TAX.test(text);
  const rate = after || BEFORE_TAX.test(text) ? TAX_RATE.exec(text) : null;
  if (!rate) return undefined;
  const amounts = numbersIn(text, [[rate.index, rate.index + rate[0].length]]);
  if (amounts.length !== 1) return undefined;
  return after ? `${amounts[0].value}*(1-${rate[1]}/100)` : `${amounts[0].value}/(1+${rate[1]}/100)`;
}

// ---- Speed, and an average over a period ------------------------------------------------------

const SPEED_ASKED =
  /速度|时速|速率|平均每小时|\bspeed\b|\bhow fast\b|\bmph\b|km\/h|每小时(?:多少|几)(?:公里|千米|英里|米)/i;
const DISTANCE = new RegExp(
  `(${NUM})\\s*(?:公里|千米|英里|米|km|kilometers?|kilometres?|miles?|meters?|metres?)(?![a-z])`,
  'i',
);
const DURATION = new RegExp(
  `(${NUM}|半|[一二两三四五六七八九十]+)\\s*(?:个)?\\s*(?:(小时|钟头|hours?|hrs?)|(分钟|minutes?|mins?))(?![a-z])`,
  'i',
);

/** 「3 小时开了 240 公里，平均速度多少」 → 240/3; "150 km in 90 minutes" → 150/(90/60), per hour. */
function speed(text: string): string | undefined {
  if (!SPEED_ASKED.test(text)) return undefined;
  const d = DISTANCE.exec(text);
  const t = DURATION.exec(text);
  const hours = t ? (t[1] === '半' ? 0.5 : numberOf(t[1])) : undefined;
  if (!d || !t || hours === undefined || hours <= 0) return undefined;
  return t[3] ? `${d[1]}/(${hours}/60)` : `${d[1]}/${hours}`;
}

const PER_ON_AVERAGE_ZH = /平均(?:每|一)(?:个)?(天|日|周|星期|月|小时)|每(?:个)?(天|日|周|星期|月|小时)平均/;
const PER_ON_AVERAGE_EN =
  /\b(?:on )?average (?:per|a|each|every) (day|week|month|hour)\b|\b(?:per|a|each) (day|week|month|hour) on average\b/i;

/** 「一周花了 420，平均每天多少」 → 420/7. */
function averagePerPeriod(text: string): string | undefined {
  const zh = PER_ON_AVERAGE_ZH.exec(text);
  const en = zh ? null : PER_ON_AVERAGE_EN.exec(text);
  const m = zh ?? en;
  if (!m) return undefined;
  const per = zh ? PERIOD_ZH[zh[1] ?? zh[2]] : PERIOD_EN[(en![1] ?? en![2]).toLowerCase()];
  const rest = text.slice(0, m.index) + ' '.repeat(m[0].length) + text.slice(m.index + m[0].length);
  const spans = [...rest.matchAll(zh ? SPAN_ZH : SPAN_EN_ANY)];
  if (spans.length !== 1 || !per) return undefined;
  const span = spans[0];
  const count = /^(?:a|an|one|this|last|the|that|past)$/i.test(span[1])
    ? 1
    : span[1] === '半'
      ? 0.5
      : numberOf(span[1]);
  const unit = zh ? PERIOD_ZH[span[2]] : PERIOD_EN[span[2].toLowerCase()];
  const times = unit && count !== undefined ? periodsIn(unit, per) : undefined;
  const amounts = numbersIn(rest, [[span.index ?? 0, (span.index ?? 0) + span[0].length]]);
  if (times === undefined || count === undefined || amounts.length !== 1) return undefined;
  return `${amounts[0].value}/${tidy(times * count)}`;
}

/** The whole sentence as one calculation when its question says what to compute. */
export function questionProblem(text: string): string | undefined {
  return (
    discountGiven(text) ??
    percentChange(text) ??
    rangeSum(text) ??
    fullMinus(text) ??
    everydaySum(text) ??
    speed(text) ??
    averagePerPeriod(text) ??
    priceOfOne(text) ??
    timeToFinish(text) ??
    ratePerPeriod(text) ??
    partOfWhole(text) ??
    tax(text) ??
    geometry(text) ??
    exchange(text)
  );
}
