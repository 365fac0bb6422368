/**
 * Prices said in words: discounts (打七折, 七五折, "20% off"), rises, tips and taxes, amounts taken off
 * after them (「再减 10 块」), and so many items at a price each (「3本书每本25元」).
 */
import { CN, digits, DIGITS, numberOf, numbersIn } from './numbers-in-text.js';

// 1 折 = 10%: 七折 pays 70%, 八五折 85%, 8.5折 85%, 75折 75%.
const DISCOUNT_ZH = /打?\s*(?:个)?\s*(\d+(?:\.\d+)?|[一二三四五六七八九]{1,2})\s*折(?!腾|叠|线)/g;
const HALF_PRICE = /半价|五五开|对折/g;
const PERCENT_OFF = new RegExp(
  `(${DIGITS})\\s*(?:%|percent|per cent)\\s*(?:off|discount)|(?:discount(?:ed)? (?:of|by)|(?:优惠|便宜|降价|降低|下降|减少|去掉|砍掉|降|减|少|打折|折扣)了?)\\s*(${DIGITS})\\s*(?:%|percent)|(?:百分之)(${CN})\\s*的?(?:折扣|优惠)` +
    // 「扣税 10%」「扣 20% 个税」 "minus 10% tax", "deduct 20%": taken off, not added
    `|(?:扣(?:除|掉|了)?|缴|交)\\s*(?:个人所得税|所得税|个税|税)?\\s*(${DIGITS})\\s*%|\\b(?:deduct(?:ing|ed)?|minus|less|withhold(?:ing)?)\\s*(${DIGITS})\\s*(?:%|percent)`,
  'gi',
);
const PERCENT_UP = new RegExp(
  `(?:(?:涨|上涨|增长|增加|提高|提升|加|多)了?|(?:increase[sd]? by|up by|grows? by|raised by|plus|(?<!扣|扣除|扣掉|扣了|缴|交)(?:tip(?: of)?|tax(?: of)?|小费|税率?)))\\s*(${DIGITS})\\s*(?:%|percent)|(${DIGITS})\\s*(?:%|percent)\\s*(?:的)?(?:sales\\s+|service\\s+|vat\\s+|消费)?(?:more|increase|markup|tax|tip|raise|interest|charge|小费|服务费|(?<![扣缴交]\\s*\\d+(?:\\.\\d+)?\\s*%\\s*的?)税)`,
  'gi',
);
/** The tip or tax itself is asked for, not the bill with it: "what's a 20% tip", 「小费给多少」. */
const AMOUNT_ASKED =
  /\b(?:what(?:'s| is| would be)|how much(?: is| should| would)?)\b[^.?!]{0,24}\b(?:tip|tax)\b(?![^.?!]{0,12}\b(?:total|altogether|in all)\b)|\b(?:tip|tax) amount\b|(?:小费|税(?:额|费|钱)?)\s*(?:应该|要|该)?(?:给|交|付|是)?\s*多少/i;
const TOTAL_ASKED =
  /\b(?:total|in all|altogether|including|with (?:the )?(?:tip|tax))\b|一共|总共|合计|加上|含(?:小费|税)|连同/i;
const TIP_OR_TAX = /\b(?:tip|tax)\b|小费|税/i;
/** What a discount saves, not what is paid: 「便宜了多少钱」 "how much do I save". */
const SAVED_ASKED =
  /便宜了?多少|省了?多少|少花了?多少|优惠了?多少钱|\bhow much (?:do|did|would|will|can) (?:i|we|you) save\b|\bhow much is the saving|\bsavings?\b/i;
/** One discount over several prices: "with 10% off everything", 「全场八折」. */
const EVERYTHING = /\beverything\b|\ball of (?:it|them)\b|\bthe (?:whole|total)\b|全场|全部|都打|都是/i;
/** What the price was before the change: 「打完八折是240，原价多少」 "after 20% off it's 160, what was it". */
const ORIGINAL_ASKED =
  /原价(?:是)?多少|原来(?:是|卖)?多少|打折前|涨价前|降价前|优惠前|\boriginal(?:ly)?(?: price)?\b|\bbefore (?:the )?(?:discount|sale|increase|raise)\b|\bwhat was (?:it|the price)\b/i;
/** Coupons and amounts taken off a total: 「用了 5 块优惠券」「优惠券抵 10 元」 "a $5 coupon". */
const COUPON = new RegExp(
  `(${DIGITS})\\s*(?:块钱?|元)?\\s*(?:的)?(?:优惠券|代金券|抵用券|红包|券)|(?:优惠券|代金券|红包|券)\\s*(?:抵扣?|减|立减)?了?\\s*(${DIGITS})|\\$?(${DIGITS})\\s*(?:off\\s+)?(?:coupon|voucher)\\b|\\b(?:coupon|voucher)\\s*(?:for|of|worth)?\\s*\\$?(${DIGITS})`,
  'gi',
);

/** 「先减 30 再打九折」: taken off before the discount. */
const FIRST_LESS = new RegExp(`先(?:减|减去|少|优惠|抵扣?)了?\\s*(${DIGITS})(?!\\s*(?:%|折|\\d))`, 'g');
/** "a 120 bill at 15%" said of a tip or a tax. */
const AT_SHARE = new RegExp(`\\bat\\s+(${DIGITS})\\s*(?:%|percent)`, 'i');
const LESS = new RegExp(
  `(?:再|又|然后)(?:减|减去|少|便宜|优惠|抵扣?)了?\\s*(${DIGITS})(?!\\s*(?:%|折|\\d))|\\b(?:then|and) (?:minus|less|take off) \\$?(${DIGITS})\\b(?!\\s*%)`,
  'gi',
);

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
    const p = m[1] ?? m[2] ?? m[4] ?? m[5] ?? digits(m[3]);
    factors.push(`(1-${p}/100)`);
    spans.push([m.index ?? 0, (m.index ?? 0) + m[0].length]);
  }
  let share: string | undefined;
  const at = TIP_OR_TAX.test(text) ? AT_SHARE.exec(text) : null;
  if (at) {
    share = at[1];
    factors.push(`(1+${share}/100)`);
    spans.push([at.index, at.index + at[0].length]);
  }
  for (const m of text.matchAll(PERCENT_UP)) {
    const at = m.index ?? 0;
    if (spans.some(([a, b]) => at < b && at + m[0].length > a)) continue; // 「扣税 10%」 was taken off already
    share = m[1] ?? m[2];
    factors.push(`(1+${share}/100)`);
    spans.push([m.index ?? 0, (m.index ?? 0) + m[0].length]);
  }
  // 「打 75 折，再减 10 块」「用了 5 块优惠券」: amounts taken off after the discount.
  const less: string[] = [];
  for (const pattern of [LESS, COUPON]) {
    for (const m of text.matchAll(pattern)) {
      less.push(m[1] ?? m[2] ?? m[3] ?? m[4]);
      spans.push([m.index ?? 0, (m.index ?? 0) + m[0].length]);
    }
  }
  const first: string[] = [];
  for (const m of text.matchAll(FIRST_LESS)) {
    first.push(m[1]);
    spans.push([m.index ?? 0, (m.index ?? 0) + m[0].length]);
  }
  if (!factors.length && !less.length) return undefined;
  const found = baseOf(text, spans);
  const base = found && first.length ? `(${found}${first.map((n) => `-${n}`).join('')})` : found;
  if (!base) return undefined; // no price, or several we cannot tell apart
  // "what's a 20% tip on 86.40": the tip itself; the reply says the total beside it.
  if (factors.length === 1 && share && TIP_OR_TAX.test(text) && AMOUNT_ASKED.test(text) && !TOTAL_ASKED.test(text))
    return `${base}*${share}/100`;
  // 「原价6999，打85折，便宜了多少钱」: what the discount takes off.
  if (factors.length && SAVED_ASKED.test(text) && !share) return `${base}-${[base, ...factors].join('*')}`;
  // 「打完八折是 240，原价多少」: back from the price paid to the price before.
  if (factors.length && ORIGINAL_ASKED.test(text)) return `${base}/${factors.join('/')}`;
  return [base, ...factors].join('*') + less.map((n) => `-${n}`).join('');
}

/** The price the changes apply to: the one number left, or so many items at a price each. */
function baseOf(text: string, spans: ReadonlyArray<[number, number]>): string | undefined {
  const numbers = numbersIn(text, spans);
  if (numbers.length === 1) return String(numbers[0].value);
  let blanked = text;
  for (const [a, b] of spans) blanked = blanked.slice(0, a) + ' '.repeat(b - a) + blanked.slice(b);
  const each = unitPrice(blanked);
  if (each && numbersIn(blanked).length === 2) return each;
  return numbers.length > 1 && EVERYTHING.test(text) ? `(${numbers.map((n) => n.value).join('+')})` : undefined;
}

const MEASURE =
  '本|个|件|斤|公斤|张|瓶|杯|份|盒|袋|支|双|条|包|箱|台|块|碗|只|套|把|听|罐|升|公里|千米|米|小时|天|次|节|课时';
// 「每本 25」「一杯奶茶 18 块」: the price of one, a few words of what it is allowed between.
// Not a size or a weight: 「一个48寸的披萨」 is no price.
const EACH_ZH = new RegExp(
  `(?:每|一)(${MEASURE})\\s*[\\u4e00-\\u9fff]{0,4}?\\s*(?:是|要|卖)?\\s*[$¥￥]?\\s*(${DIGITS})(?!\\s*(?:寸|厘米|公分|米|公斤|斤|克|岁|度|%|\\d))`,
);
/** 「油价7.5一升」「3块一个」「3.5元/斤」: the price before the unit. */
const PRICE_EACH_ZH = new RegExp(`(${DIGITS})\\s*(?:块钱?|元)?\\s*(?:一|每|/)\\s*(${MEASURE})`);
/** "$2.50/lb, 3 lbs", "4 per kg for 2.5 kg". */
const PRICE_PER_EN = new RegExp(
  `\\$?(${DIGITS})\\s*(?:/|per|a|an)\\s*(lb|pound|kg|kilo|item|piece|unit|gallon|liter|litre|hour|ticket)s?\\b`,
  'i',
);
const EACH_EN = new RegExp(
  `(${DIGITS})\\s+[a-z]+\\s+(?:at|for)\\s+\\$?(${DIGITS})\\s*(?:dollars?|euros?|bucks|yuan)?\\s*(?:each|apiece|a piece)\\b`,
  'i',
);

/** 「3本书每本25元」 → 3*25; "4 tickets at 12 each" → 4*12. */
export function unitPrice(text: string): string | undefined {
  // "3 apples at 2.5 each plus 2 oranges at 3 each": every line of the bill.
  const lines = [...text.matchAll(new RegExp(EACH_EN.source, 'gi'))].map((m) => `${m[1]}*${m[2]}`);
  if (lines.length) return lines.join('+');
  const per = PRICE_PER_EN.exec(text);
  if (per) {
    const rest = text.slice(0, per.index) + ' '.repeat(per[0].length) + text.slice(per.index + per[0].length);
    const amount =
      new RegExp(`(${DIGITS})\\s*${per[2]}s?\\b`, 'i').exec(rest) ??
      (per[2].startsWith('pound') ? /(\d+(?:\.\d+)?)\s*lbs?\b/i.exec(rest) : null);
    if (amount) return `${amount[1]}*${per[1]}`;
  }
  // 「一件199，一件299」: one of each, so the prices add up.
  const ones = [...text.matchAll(new RegExp(EACH_ZH.source, 'g'))].filter((m) => m[0].startsWith('一'));
  if (ones.length > 1) return ones.map((m) => m[2]).join('+');
  const after = PRICE_EACH_ZH.exec(text);
  const each = EACH_ZH.exec(text) ?? (after && Object.assign([after[0], after[2], after[1]], { index: after.index }));
  if (!each) return undefined;
  // "3 items" counts 个 too.
  const counted = each[1] === '个' ? '个|items?|pieces?|units?' : each[1];
  const count = new RegExp(`(${DIGITS}|[一二两三四五六七八九十]+)\\s*(?:${counted})`, 'i').exec(
    text.slice(0, each.index) + ' ' + text.slice(each.index + each[0].length),
  );
  const n = count ? numberOf(count[1]) : undefined;
  return n === undefined || n === 1 ? undefined : `${n}*${each[2]}`;
}
