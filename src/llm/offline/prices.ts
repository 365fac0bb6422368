/**
 * Prices said in words: discounts (打七折, 七五折, "20% off"), rises, tips and taxes, amounts taken off
 * after them (「再减 10 块」), and so many items at a price each (「3本书每本25元」).
 */
import { CN, digits, DIGITS, numberOf, numbersIn } from './numbers-in-text.js';

// 1 折 = 10%: 七折 pays 70%, 八五折 85%, 8.5折 85%, 75折 75%.
const DISCOUNT_ZH = /打?\s*(?:个)?\s*(\d+(?:\.\d+)?|[一二三四五六七八九]{1,2})\s*折(?!腾|叠|线)/g;
const HALF_PRICE = /半价|五五开/g;
const PERCENT_OFF = new RegExp(
  `(${DIGITS})\\s*(?:%|percent|per cent)\\s*(?:off|discount)|(?:discount(?:ed)? (?:of|by)|(?:优惠|便宜|降价|降|减|打折|折扣)了?)\\s*(${DIGITS})\\s*(?:%|percent)|(?:百分之)(${CN})\\s*的?(?:折扣|优惠)`,
  'gi',
);
const PERCENT_UP = new RegExp(
  `(?:(?:涨|上涨|增长|增加|提高|提升|加|多)了?|(?:increase[sd]? by|up by|grows? by|raised by|plus|tip(?: of)?|tax(?: of)?|小费|税))\\s*(${DIGITS})\\s*(?:%|percent)|(${DIGITS})\\s*(?:%|percent)\\s*(?:more|increase|markup|tax|tip|raise|interest)`,
  'gi',
);

const LESS = new RegExp(`(?:再|又|然后)(?:减|减去|少|便宜|优惠|抵扣?)了?\\s*(${DIGITS})(?!\\s*(?:%|折|\\d))|\\b(?:then|and) (?:minus|less|take off) \\$?(${DIGITS})\\b(?!\\s*%)`, 'gi');

function discountFactor(word: string): number | undefined {
  if (/^\d/.test(word)) {
    const n = Number(word);
    return n < 10 ? n / 10 : n < 100 ? n / 100 : undefined;
  }
  const d = [...word].map((ch) => numberOf(ch));
  if (d.some((x) => x === undefined)) return undefined;
  return d.length === 1 ? d[0]! / 10 : (d[0]! * 10 + d[1]!) / 100;
}

/** 「300 打七折」 → 300*0.7, "80 with 20% off" → 80*(1-20/100), 「工资 8000 涨了 5%」 → 8000*(1+5/100). */
export function priceChange(text: string): string | undefined {
  const factors: string[] = [];
  const spans: Array<[number, number]> = [];
  for (const m of text.matchAll(DISCOUNT_ZH)) {
    const f = discountFactor(m[1]);
    if (f === undefined || f <= 0 || f >= 1) continue;
    factors.push(String(f));
    spans.push([m.index ?? 0, (m.index ?? 0) + m[0].length]);
  }
  for (const m of text.matchAll(HALF_PRICE)) {
    factors.push('0.5');
    spans.push([m.index ?? 0, (m.index ?? 0) + m[0].length]);
  }
  for (const m of text.matchAll(PERCENT_OFF)) {
    const p = m[1] ?? m[2] ?? digits(m[3]);
    factors.push(`(1-${p}/100)`);
    spans.push([m.index ?? 0, (m.index ?? 0) + m[0].length]);
  }
  for (const m of text.matchAll(PERCENT_UP)) {
    factors.push(`(1+${m[1] ?? m[2]}/100)`);
    spans.push([m.index ?? 0, (m.index ?? 0) + m[0].length]);
  }
  if (!factors.length) return undefined;
  // 「打 75 折，再减 10 块」: an amount taken off after the discount.
  const less: string[] = [];
  for (const m of text.matchAll(LESS)) {
    less.push(m[1]);
    spans.push([m.index ?? 0, (m.index ?? 0) + m[0].length]);
  }
  const base = numbersIn(text, spans);
  if (base.length !== 1) return undefined; // no price, or several we cannot tell apart
  return [String(base[0].value), ...factors].join('*') + less.map((n) => `-${n}`).join('');
}

const MEASURE = '本|个|件|斤|公斤|张|瓶|杯|份|盒|袋|支|双|条|包|箱|台|块';
const EACH_ZH = new RegExp(`每(${MEASURE})\\s*(?:是|要|卖)?\\s*(${DIGITS})`);
const EACH_EN = new RegExp(`(${DIGITS})\\s+[a-z]+\\s+(?:at|for)\\s+\\$?(${DIGITS})\\s*(?:dollars?|euros?|bucks|yuan)?\\s*(?:each|apiece|a piece)\\b`, 'i');

/** 「3本书每本25元」 → 3*25; "4 tickets at 12 each" → 4*12. */
export function unitPrice(text: string): string | undefined {
  const en = EACH_EN.exec(text);
  if (en) return `${en[1]}*${en[2]}`;
  const each = EACH_ZH.exec(text);
  if (!each) return undefined;
  const count = new RegExp(`(${DIGITS}|[一二两三四五六七八九十]+)\\s*(?:${each[1]})`).exec(text.slice(0, each.index) + ' ' + text.slice(each.index + each[0].length));
  const n = count ? numberOf(count[1]) : undefined;
  return n === undefined ? undefined : `${n}*${each[2]}`;
}
