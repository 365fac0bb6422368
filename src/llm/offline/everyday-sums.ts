/**
 * Sums of everyday life: a fare with a base and a price per kilometre (「起步价13，每公里2.3，坐了10
 * 公里」), instalments (「12个月分期，总价5999，每月还多少」), distance from speed and time ("60 mph for
 * 2.5 hours, how far"), a BMI, and a total of prices listed one by one (「一件199，一件299，一共多少」).
 */
import { numberOf, numbersIn } from './numbers-in-text.js';

const NUM = '\\d+(?:\\.\\d+)?';

const BASE_FEE = new RegExp(
  `(?:起步价|起步费|起步|基础费用?|底价|月租|\\bbase (?:fare|fee|price)|\\bstarting fare|\\bflag ?fall|\\bflat fee)\\s*(?:是|为|of|is)?\\s*\\$?(${NUM})`,
  'i',
);
const PER_UNIT = new RegExp(
  `每\\s*(公里|千米|分钟|小时|个|次|件|页|度|GB|G)\\s*(?:是|收|加|要|另收)?\\s*(${NUM})|\\$?(${NUM})\\s*(?:元|块)?\\s*(?:per|a|an|each|every)\\s+(km|kilometer|kilometre|mile|minute|hour|item|page|kwh|gb)\\b`,
  'i',
);

/** 「起步价13，每公里2.3，坐了10公里」 → 13+2.3*10. */
function baseAndRate(text: string): string | undefined {
  const base = BASE_FEE.exec(text);
  const rate = base ? PER_UNIT.exec(text) : null;
  if (!base || !rate) return undefined;
  const unit = (rate[1] ?? rate[4]).toLowerCase();
  const used = new RegExp(`(${NUM})\\s*(?:个\\s*)?${unit.replace(/[^\w\u4e00-\u9fff]/g, '')}`, 'gi');
  const amounts = [...text.matchAll(used)].filter(
    (m) => (m.index ?? 0) < rate.index || (m.index ?? 0) >= rate.index + rate[0].length,
  );
  if (amounts.length !== 1) return undefined;
  return `${base[1]}+${rate[2] ?? rate[3]}*${amounts[0][1]}`;
}

const INSTALMENTS = /分期|月供|每(?:个)?月还|每期|\binstal?lments?\b|\bper month\b|\ba month\b|\bmonthly\b/i;
const PERIODS = new RegExp(
  `(${NUM}|[一二两三四五六七八九十]+)\\s*(?:个月|期|月)|(${NUM})\\s*(?:months|monthly payments|instal?lments|payments)\\b`,
  'i',
);

/** 「12个月分期，总价5999，每月还多少」 → 5999/12. */
function instalments(text: string): string | undefined {
  if (!INSTALMENTS.test(text) || !/多少|几|\bhow much\b|\bwhat\b/i.test(text)) return undefined;
  const periods = PERIODS.exec(text);
  const n = periods ? numberOf(periods[1] ?? periods[2]) : undefined;
  if (!periods || !n || n <= 1) return undefined;
  const totals = numbersIn(text, [[periods.index, periods.index + periods[0].length]]);
  return totals.length === 1 ? `${totals[0].value}/${n}` : undefined;
}

const HOW_FAR =
  /多远|多少(?:公里|千米|英里|米)|走了?多少路|开了?多少|\bhow far\b|\bhow many (?:miles|km|kilometers|kilometres)\b|\bdistance\b/i;
const SPEED = new RegExp(
  `(${NUM})\\s*(?:mph|km/h|kph|kmh|公里每小时|千米每小时|公里/小时|miles an hour|miles per hour|km an hour|kilometers per hour)|(?:时速|速度)\\s*(?:是|为)?\\s*(${NUM})`,
  'i',
);
const HOURS = new RegExp(
  `(${NUM}|半|[一二两三四五六七八九十]+)\\s*(?:个)?\\s*(?:(小时|钟头|hours?|hrs?)|(分钟|minutes?|mins?))(?![a-z])`,
  'i',
);

/** "60 mph for 2.5 hours, how far" → 60*2.5; 「时速80，开了45分钟，开了多远」 → 80*45/60. */
function distance(text: string): string | undefined {
  if (!HOW_FAR.test(text)) return undefined;
  const v = SPEED.exec(text);
  const t = v ? HOURS.exec(text) : null;
  const n = t ? (t[1] === '半' ? 0.5 : numberOf(t[1])) : undefined;
  if (!v || !t || n === undefined) return undefined;
  return t[3] ? `${v[1] ?? v[2]}*${n}/60` : `${v[1] ?? v[2]}*${n}`;
}

const BMI = /\bbmi\b|体重指数|身体质量指数/i;
const WEIGHT = new RegExp(
  `(?:体重|weigh(?:t|s)?)\\s*(?:是|为|of|is)?\\s*(${NUM})\\s*(公斤|千克|kg|斤|磅|lbs?|pounds)?|(${NUM})\\s*(公斤|千克|kg)`,
  'i',
);
const HEIGHT = new RegExp(
  `(?:身高|height|tall)\\s*(?:是|为|of|is)?\\s*(${NUM})\\s*(米|厘米|cm|m)?|(${NUM})\\s*(厘米|cm|米|m)(?![a-z])`,
  'i',
);

/** 「身高175体重70，BMI多少」 → 70/1.75^2: kilograms over metres squared, whatever units were said. */
function bmi(text: string): string | undefined {
  if (!BMI.test(text)) return undefined;
  const w = WEIGHT.exec(text);
  const h = HEIGHT.exec(text);
  if (!w || !h) return undefined;
  const [kg, wUnit] = [Number(w[1] ?? w[3]), (w[2] ?? w[4] ?? '').toLowerCase()];
  const [height, hUnit] = [Number(h[1] ?? h[3]), (h[2] ?? h[4] ?? '').toLowerCase()];
  const weight = wUnit === '斤' ? `${kg}/2` : /磅|lb|pound/.test(wUnit) ? `${kg}*0.45359237` : String(kg);
  // A height over 3 is in centimetres, whatever was said.
  const metres = hUnit === '厘米' || hUnit === 'cm' || height > 3 ? `(${height}/100)` : String(height);
  return `${weight}/${metres}^2`;
}

const TOTAL = /一共|总共|合计|共计|加起来|总计|\bin total\b|\baltogether\b|\btotal\b|\bsum\b/i;
/** A count of things, not a price: 「两件衣服」「一件」 "2 shirts". */
const COUNT =
  /(?:\d+|[一二两三四五六七八九十]+)\s*(?:件|个|本|瓶|杯|份|盒|袋|支|双|条|包|箱|台|碗|只|套|把|张|斤|次|天|人|位)/g;

/** 「买了两件衣服，一件199，一件299，一共多少」 → 199+299: the prices listed, each once. */
function listedTotal(text: string): string | undefined {
  if (!TOTAL.test(text)) return undefined;
  const counts = [...text.matchAll(COUNT)].map((m): [number, number] => [m.index ?? 0, (m.index ?? 0) + m[0].length]);
  const prices = numbersIn(text, counts);
  return prices.length >= 2 ? prices.map((p) => String(p.value)).join('+') : undefined;
}

/** An everyday sum the sentence asks for, or undefined. */
export function everydaySum(text: string): string | undefined {
  return baseAndRate(text) ?? instalments(text) ?? distance(text) ?? bmi(text);
}

/** A total of listed prices: tried last, as any sentence with two numbers and 一共 fits it. */
export const listedPrices = listedTotal;
