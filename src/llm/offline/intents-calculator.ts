/** Rules for the calculator, and how its results are said. */
import { Decimal } from 'decimal.js';
import { findExpression } from './expression.js';
import type { Utterance } from './extract.js';
import { call, PRIORITY, reply, str, type Intent, type ToolRules } from './intent.js';
import { say, type Lang } from '../../i18n.js';

const STRONG_CALC =
  /算一下|算算|算一算|计算|帮我算|算下|算出|算个|^算\s|\b(?:calculate|compute|calc|evaluate|work out|solve)\b/i;
const WEAK_CALC =
  /等于|是多少|多少|几|=|告诉我|是不是|对吗|对不对|每人|人均|\bis it\b|\beach\b|\bper (?:person|head)\b|\b(?:what is|what's|whats|how much is|equals?|what|tell me)\b/i;
// What may surround a bare expression: 「(3+5)*12 等于多少」, 「那 3*3 呢」, "2^10 = ?".
const CALC_FILLER =
  /等于多少|等于几|等于|是多少|是几|多少|结果|答案|那么|那|呢|吗|啊|呀|就是|是|=|\?|\bwhat is\b|\bwhat's\b|\bwhats\b|\bhow much is\b|\bequals?\b|\bis\b|每人|每个人|人|[,.!。:：;；]|\s/gi;

/** Arithmetic with a request to compute it, or alone: 「算一下 (3+5)*2」, 「0.1+0.2」, "calculate 2^10". */
export function calculation(u: Utterance): ReturnType<Intent['match']> {
  // A full-width comma separates (「汇率7.2，100美元」); folded to "," it would read as 7.2,100.
  // A comma that is no thousands mark separates too: "mean of 4,8,15,16".
  const text = u.norm.replace(/,/g, (c, i: number) =>
    u.raw[i] === '，' || !/^\d{3}(?!\d)/.test(u.norm.slice(i + 1)) ? ', ' : c,
  );
  const found = findExpression(text);
  if (found) {
    const bare = found.rest.replace(CALC_FILLER, '') === '';
    if (bare || STRONG_CALC.test(u.norm) || WEAK_CALC.test(u.norm))
      return call('calculator', { expression: found.expression });
    return null;
  }
  return STRONG_CALC.test(u.norm) ? reply({ kind: 'askExpression' }) : null;
}

const calculator: Intent = { id: 'calculator', priority: PRIORITY.calculator, match: calculation };

const PERCENT_ASKED = /百分之几|百分之多少|百分比|%|率|幅|\bpercent/i;

/** A tip or tax worked out on its own (bill*p/100): the bill with it too, as that is what gets paid. */
function withTotal(
  lang: Lang,
  expression: string,
  output: string,
  userText: string,
  decimals: number | undefined,
): string {
  const m = /^(\d+(?:\.\d+)?)\*\d+(?:\.\d+)?\/100$/.exec(expression);
  if (!m || !/\b(?:tip|tax)\b|小费|税/i.test(userText) || !/^-?[\d.]+$/.test(output)) return '';
  const total = rounded(new Decimal(m[1]).plus(new Decimal(output)).toString(), decimals ?? 2);
  return say(lang, `（加上后共 ${total}）`, ` (${total} with it)`);
}

/** A calculator result to the number of decimals the user asked for (「保留两位小数」), if it is a number. */
function rounded(output: string, places: number | undefined): string {
  if (places === undefined || !/^-?[\d.]+(?:e[+-]?\d+)?$/i.test(output)) return output;
  try {
    return new Decimal(output).toFixed(places, Decimal.ROUND_HALF_UP);
  } catch {
    return output;
  }
}

export const CALCULATOR_RULES: ToolRules = {
  intents: [calculator],
  failure: {
    calculator: (lang, args, why) =>
      say(
        lang,
        `抱歉，${str(args.expression)} 算不出来：${why}`,
        `Sorry, I couldn't calculate ${str(args.expression)}: ${why}`,
      ),
  },
  success: {
    calculator: (lang, { args }, output, { decimals, userText }) => {
      if (output.includes('=')) return output;
      const shown = rounded(output, decimals);
      const exact = shown === output || new Decimal(shown).eq(new Decimal(output));
      // A percent change or share was asked for: its number is a percentage.
      const percent = /\*100$/.test(str(args.expression)) && PERCENT_ASKED.test(userText) ? '%' : '';
      return `${str(args.expression)} ${exact ? '=' : '≈'} ${shown}${percent}${withTotal(lang, str(args.expression), output, userText, decimals)}`;
    },
  },
};
