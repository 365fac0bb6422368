/**
 * Converting units of time, length, weight, volume, speed and temperature as arithmetic the
 * calculator reads: 「1小时45分钟是多少分钟」 → 1*60+45, "how many km is 5 miles" → 5*1.609344,
 * 「72 km/h 是每秒多少米」 → 72/3.6, 「30 摄氏度是多少华氏度」 → 30*9/5+32. Only when a target unit is
 * asked for; money needs a rate nobody here knows, so currencies are not units.
 */
import { numberOf } from './numbers-in-text.js';

interface Unit {
  dim: 'time' | 'length' | 'mass' | 'volume' | 'speed' | 'temp';
  /** How many of the dimension's base unit (second, metre, gram, millilitre, metre per second) one is. */
  factor: number;
  names: string[];
}

const UNITS: readonly Unit[] = [
  { dim: 'time', factor: 1, names: ['秒钟', '秒', 'seconds', 'second', 'secs', 'sec'] },
  { dim: 'time', factor: 60, names: ['分钟', 'minutes', 'minute', 'mins', 'min'] },
  { dim: 'time', factor: 3_600, names: ['小时', '钟头', 'hours', 'hour', 'hrs', 'hr'] },
  { dim: 'time', factor: 86_400, names: ['天', 'days', 'day'] },
  { dim: 'time', factor: 604_800, names: ['星期', '周', 'weeks', 'week'] },
  { dim: 'time', factor: 31_536_000, names: ['年', 'years', 'year'] },
  { dim: 'length', factor: 0.001, names: ['毫米', 'millimeters', 'millimetres', 'mm'] },
  { dim: 'length', factor: 0.01, names: ['厘米', '公分', 'centimeters', 'centimetres', 'cm'] },
  { dim: 'length', factor: 1, names: ['米', 'meters', 'metres', 'meter', 'metre', 'm'] },
  { dim: 'length', factor: 1_000, names: ['公里', '千米', 'kilometers', 'kilometres', 'kilometer', 'kilometre', 'km'] },
  { dim: 'length', factor: 1_609.344, names: ['英里', 'miles', 'mile', 'mi'] },
  { dim: 'length', factor: 0.3048, names: ['英尺', 'feet', 'foot', 'ft'] },
  { dim: 'length', factor: 0.0254, names: ['英寸', 'inches', 'inch'] },
  { dim: 'mass', factor: 0.001, names: ['毫克', 'milligrams', 'mg'] },
  { dim: 'mass', factor: 1, names: ['克', 'grams', 'gram', 'g'] },
  { dim: 'mass', factor: 1_000, names: ['公斤', '千克', 'kilograms', 'kilogram', 'kilos', 'kilo', 'kg'] },
  { dim: 'mass', factor: 500, names: ['斤'] },
  { dim: 'mass', factor: 1_000_000, names: ['吨', 'tonnes', 'tonne', 'tons', 'ton'] },
  { dim: 'mass', factor: 453.59237, names: ['磅', 'pounds', 'pound', 'lbs', 'lb'] },
  { dim: 'mass', factor: 28.349523125, names: ['盎司', 'ounces', 'ounce', 'oz'] },
  { dim: 'volume', factor: 1, names: ['毫升', 'milliliters', 'millilitres', 'ml'] },
  { dim: 'volume', factor: 1_000, names: ['升', 'liters', 'litres', 'liter', 'litre', 'l'] },
  {
    dim: 'speed',
    factor: 1 / 3.6,
    names: ['公里每小时', '千米每小时', '公里/小时', '千米/小时', 'km/h', 'kmh', 'kph'],
  },
  { dim: 'speed', factor: 1, names: ['米每秒', '米/秒', 'm/s'] },
  { dim: 'speed', factor: 0.44704, names: ['英里每小时', 'mph'] },
  { dim: 'temp', factor: 0, names: ['摄氏度', '℃', '°c', 'celsius', 'c'] },
  { dim: 'temp', factor: 1, names: ['华氏度', '华氏', '℉', '°f', 'fahrenheit', 'f'] },
];

const BY_NAME = new Map<string, Unit>(UNITS.flatMap((u) => u.names.map((n) => [n, u] as const)));
const escape = (s: string): string => s.replace(/[/\\^$*+?.()|[\]{}]/g, '\\$&');
/** Every name, longest first, so km/h is read before km; Latin names end at a word's end. */
const UNIT = `(?:${[...BY_NAME.keys()]
  .sort((a, b) => b.length - a.length)
  .map((n) => (/[a-z]$/.test(n) ? `${escape(n)}(?![a-z])` : escape(n)))
  .join('|')})`;
const AMOUNT = '(\\d+(?:\\.\\d+)?|[一二两三四五六七八九十百]+(?:点[一二三四五六七八九零]+)?)';
/** An amount and its unit: 3.5小时, 5 miles, 两公斤, 30度 (degrees of temperature, with a °C/°F or 摄氏/华氏 target). */
const QUANTITY = new RegExp(
  `${AMOUNT}\\s*(?:个\\s*)?(?:(?:degrees?|度)\\s*)?(${UNIT})|${AMOUNT}\\s*(?:degrees?|度)|\\b(?:a|an|one)\\s+(${UNIT})`,
  'gi',
);
/** The unit asked for. */
const TARGET = new RegExp(
  [
    `(?:是|等于|合|有|换算成|换算为|换成|转成|转换成|折合|折算成|相当于|为)?\\s*(?:多少|几)\\s*(?:个\\s*)?(${UNIT})`,
    `(?:换算成|换算为|换成|转成|转换成|折合成?|折算成)\\s*(${UNIT})`,
    `每(秒|小时)\\s*(?:多少|几)\\s*(米|公里|千米)`,
    `\\bhow many\\s+(${UNIT})`,
    `\\b(?:in|to|into)\\s+(?:degrees\\s+)?(${UNIT})\\s*[?.!]*$`,
  ].join('|'),
  'i',
);

const unitOf = (name: string | undefined): Unit | undefined => (name ? BY_NAME.get(name.toLowerCase()) : undefined);
const tidy = (n: number): string => String(Number(n.toPrecision(12)));

/** `n` of one unit in another, said as arithmetic: 1小时 in minutes → 1*60, 150 minutes in hours → 150/60. */
function term(n: number, from: Unit, to: Unit): string {
  const ratio = from.factor / to.factor;
  if (Math.abs(ratio - 1) < 1e-12) return String(n);
  // Whichever of the two is the shorter exact number: 72 km/h in m/s is 72/3.6, not 72*0.2777….
  const [times, over] = [tidy(ratio), tidy(1 / ratio)];
  return over.length < times.length ? `${n}/${over}` : `${n}*${times}`;
}

/** The target unit asked for and where that ask stands. */
function targetOf(text: string): { unit: Unit; at: number; end: number } | undefined {
  const m = TARGET.exec(text);
  if (!m) return undefined;
  // 「每秒多少米」 asks for metres per second; 「每小时多少公里」 for kilometres per hour.
  const speed = m[3] ? (m[3] === '秒' ? 'm/s' : 'km/h') : undefined;
  const unit = unitOf(speed ?? m[1] ?? m[2] ?? m[5] ?? m[6]);
  return unit ? { unit, at: m.index, end: m.index + m[0].length } : undefined;
}

/** A conversion the sentence asks for, as an expression, or undefined. */
export function conversion(text: string): string | undefined {
  const target = targetOf(text);
  if (!target) return undefined;
  const terms: string[] = [];
  for (const q of text.matchAll(QUANTITY)) {
    const at = q.index ?? 0;
    if (at < target.end && at + q[0].length > target.at) continue; // the target itself
    // "a day": one of it.
    const n = q[4] ? 1 : numberOf(q[1] ?? q[3]);
    // 「30 度」 is a temperature only when one is asked for.
    const from =
      q[2] || q[4]
        ? unitOf(q[2] ?? q[4])
        : target.unit.dim === 'temp'
          ? UNITS.find((u) => u.dim === 'temp' && u !== target.unit)
          : undefined;
    // 「2026年有多少天」 names a year, not an amount of years.
    if (from?.names.includes('年') && n !== undefined && n > 1000) return undefined;
    if (n === undefined || !from) continue;
    if (from.dim !== target.unit.dim) return undefined;
    if (from.dim === 'temp') {
      if (from === target.unit) return undefined;
      return target.unit.factor === 1 ? `${n}*9/5+32` : `(${n}-32)*5/9`;
    }
    terms.push(term(n, from, target.unit));
  }
  // One amount already in the unit asked for is no conversion: 「100 米是多少米」.
  if (!terms.length || (terms.length === 1 && /^\d+(?:\.\d+)?$/.test(terms[0]))) return undefined;
  return terms.join('+');
}
