/**
 * Money in another currency when the user gives the rate (no rate is known offline): 「汇率 7.2，100
 * 美元是多少人民币」 → 100*7.2, "1 dollar = 7.2 yuan, 50 dollars is how many yuan" → 50*7.2,
 * 「700 人民币换多少美元，汇率 7」 → 700/7. Without a rate this says nothing, and the reply says a rate is needed.
 */
import { numbersIn } from './numbers-in-text.js';

const NUM = '\\d+(?:\\.\\d+)?';
/** Enough characters after an amount for the longest currency name ("us dollars"). */
const CURRENCY_NAME_CHARS = 16;
/** Names of currencies, each to a code, the first that fits; the home currency is CNY. */
const CURRENCIES: ReadonlyArray<readonly [string, RegExp]> = [
  ['USD', /美元|美金|刀|\b(?:us ?dollars?|dollars?|usd|bucks)\b|\$/i],
  ['EUR', /欧元|\b(?:euros?|eur)\b|€/i],
  ['JPY', /日元|\b(?:yen|jpy)\b|¥(?=\d)/i],
  ['GBP', /英镑|\b(?:pounds? sterling|gbp|quid)\b|£/i],
  ['HKD', /港币|港元|\b(?:hkd|hk dollars?)\b/i],
  // Last: 美元, 欧元 and 港元 end in 元 too.
  ['CNY', /人民币|块钱|元|\b(?:yuan|rmb|cny|renminbi)\b/i],
];
const CURRENCY_WORD = new RegExp(CURRENCIES.map(([, re]) => re.source).join('|'), 'gi');
const CURRENCY_AT_START = new RegExp(`^\\s*(?:${CURRENCY_WORD.source})`, 'i');
/** The rate as said: 「汇率 7.2」「按 7.1 换算」 "at a rate of 7.2", "1 dollar = 7.2 yuan". */
const RATE = new RegExp(
  `汇率(?:是|为|按)?\\s*(${NUM})|按\\s*(${NUM})\\s*(?:的汇率)?\\s*(?:换算|算|兑换|折算)|\\b(?:exchange )?rate\\s*(?:of|is|=|at)?\\s*(${NUM})|\\bat\\s+(${NUM})\\b` +
    `|(?:^|[^\\d.])1\\s*([^\\d\\s=]{1,12}?)\\s*(?:=|等于|兑|换|is|equals?|to)\\s*(${NUM})\\s*([^\\d\\s,，。;；]{1,12})`,
  'i',
);
/** What is asked for: 「是多少人民币」「换多少美元」 "how many yuan", "in euros". */
const TARGET = new RegExp(
  `(?:多少|几|换算成|换成|兑换成|兑成|折合成?|转成|换)\\s*(${CURRENCY_WORD.source})|\\bhow (?:many|much)\\s+(${CURRENCY_WORD.source})|\\b(?:in|into|to)\\s+(${CURRENCY_WORD.source})\\s*[?.!]*$`,
  'i',
);

const codeOf = (word: string | undefined): string | undefined =>
  word ? CURRENCIES.find(([, re]) => re.test(word))?.[0] : undefined;

/** An amount converted at the rate given, or undefined when no rate was given. */
export function exchange(text: string): string | undefined {
  const rate = RATE.exec(text);
  const target = rate ? TARGET.exec(text) : null;
  if (!rate || !target) return undefined;
  const to = codeOf(target[1] ?? target[2] ?? target[3]);
  const value = rate[1] ?? rate[2] ?? rate[3] ?? rate[4] ?? rate[6];
  const amounts = numbersIn(text, [[rate.index, rate.index + rate[0].length]]);
  if (!to || amounts.length !== 1) return undefined;
  const amount = amounts[0];
  // The currency named right after the amount (「100美元」 "50 dollars"), or its sign before it ("$50").
  const after = CURRENCY_AT_START.exec(text.slice(amount.end, amount.end + CURRENCY_NAME_CHARS))?.[0].trim();
  const from = codeOf(after) ?? codeOf(text.slice(Math.max(0, amount.at - 1), amount.at));
  if (!from || from === to) return undefined;
  // 「1 美元 = 7.2 元」 names both sides; 「汇率 7.2」 is the foreign currency in yuan, as rates are quoted in China.
  const base = rate[5] ? codeOf(rate[5]) : to === 'CNY' ? from : 'CNY' === from ? to : undefined;
  if (!base) return undefined;
  return from === base ? `${amount.value}*${value}` : `${amount.value}/${value}`;
}
