/**
 * What a message asks about days: which date or weekday a day is (「下周三是几号」, "what day is
 * March 20"), how many days until or since one (「离周五还有几天」, "days until Christmas"), whether
 * a day is a weekend or a workday, or where today stands in the year.
 */
import { datesIn, type Found } from './dates.js';

export type DateQuestion =
  /** Which date and weekday each day is. */
  | { kind: 'dates'; found: Found[] }
  /** Days from `from` (today when absent) to `target`. */
  | { kind: 'until'; target: Found; from?: Found }
  | { kind: 'since'; target: Found }
  /** Whether a day (today when absent) is on the weekend; `workday` when asked about work or school. */
  | { kind: 'dayOff'; target?: Found; ask: 'weekend' | 'workday' }
  | { kind: 'dayOfYear' }
  | { kind: 'weekNumber' }
  /** Days left until the end of this month, year or week. */
  | { kind: 'left'; scope: 'month' | 'year' | 'week' }
  /** Whether a day is the weekday or date the user thinks: 「明天是周五吗」, "is next monday the 16th". */
  | { kind: 'check'; day: Found; claim: Found };

const DATE_ASK =
  /几号|几月几[日号]?|星期几|周几|礼拜几|哪一?天|什么日子|什么时候|啥时候|日期|多少号|是几|号数|\bwhat(?:'s|\s+is|\s+was)?\s+(?:the\s+)?(?:date|day)\b|\bwhich\s+(?:date|day)\b|\bwhat\s+weekday\b|\bwhen(?:'s|\s+is|\s+was|\s+will|\s+does)\b|\bdate\s+(?:of|for|on)\b|\bday\s+of\s+the\s+week\b|\bwhat\s+date\b|\bfalls?\s+on\b|\bthe\s+date\b|\bwhat(?:'s|\s+is|\s+was)\s+(?:tomorrow|today|yesterday|tmrw)\b|'s\s+date\b|\bdate\b|\bdate\s+(?:tomorrow|today|yesterday|tmrw)\b/i;
const UNTIL =
  /离|距|还有(?:几|多少)|还剩|还差|还要(?:几|多少|多久)|多久|多长时间|倒计时|(?:几|多少)天(?:后|以后|之后)?(?:才|就)?(?:到|是|能到)|\buntil\b|\btill\b|\btil\b|'til\b|\bhow\s+long\s+(?:until|till|before|to)\b|\bdays\s+(?:left|away|to\s+go|remaining)\b|\bhow\s+soon\b|\bhow\s+far\s+(?:away|off)\b|\bcount\s*down\b/i;
const HOW_MANY_DAYS = /(?:几|多少)天|\bhow\s+many\s+(?:more\s+)?days\b/i;
const SINCE =
  /已经过了|过去了|以来|到现在|至今|过了(?:几|多少)天|\bsince\b|\bago\s+was\b|\bhow\s+long\s+ago\b|\bhow\s+many\s+days\s+ago\b|\bdays?\s+(?:have\s+)?passed\b/i;
const DAY_OFF =
  /周末吗|是(?:不是)?周末|工作日|休息日|上班吗|要(?:不要)?上班|用不用上班|上不上班|需要上班|上学吗|要(?:不要)?上学|上课吗|放假吗|休息吗|双休|\bis\s+(?:it|today|tomorrow|that|[a-z]+day)\s+(?:a\s+|the\s+|on\s+(?:a|the)\s+)?(?:weekend|weekday|workday|work\s*day|working\s+day|business\s+day|school\s+day|day\s+off)\b|\bweekend\s+yet\b|\bdo\s+i\s+(?:have\s+to\s+)?(?:work|go\s+to\s+work|go\s+to\s+school)\b/i;
const WEEKEND_WORD = /周末|双休|\bweekend\b/i;
const DAY_OF_YEAR = /(?:今年|一年|这一年)(?:中|里)?的?第几天|今天是第几天|\bday\s+of\s+the\s+year\b|\bday\s+number\b/i;
const WEEK_NUMBER =
  /(?:今年|这)?(?:的)?第几(?:个)?(?:周|星期|礼拜)|\bweek\s+number\b|\bwhat\s+week\s+(?:is\s+it|of\s+the\s+year)\b|\bweek\s+of\s+the\s+year\b/i;
/** A term's weeks count from a start we do not know. */
const TERM = /学期|开学|军训|\bsemester\b|\bterm\b/i;
const LEFT_ZH = /(这个月|本月|这月|今年|这一年|本年|这周|本周|这个星期|这星期)(?:还剩|还有|剩下?|剩余)(?:几|多少)天/;
const LEFT_EN = /\bdays?\s+(?:are\s+)?left\s+(?:in|this|of)\s+(?:the\s+)?(month|year|week)\b/i;

function leftScope(text: string): 'month' | 'year' | 'week' | undefined {
  const zh = LEFT_ZH.exec(text)?.[1];
  if (zh) return /月/.test(zh) ? 'month' : /年/.test(zh) ? 'year' : 'week';
  return LEFT_EN.exec(text)?.[1].toLowerCase() as 'month' | 'year' | 'week' | undefined;
}

/** A single day the question is about: weekends and stretches are not one day. */
const oneDay = (f: Found): boolean => f.expr.kind !== 'weekend' && f.expr.kind !== 'range';

/** The question about days in a message, or undefined when it asks none. */
export function dateQuestion(text: string): DateQuestion | undefined {
  const scope = leftScope(text);
  if (scope) return { kind: 'left', scope };
  if (DAY_OF_YEAR.test(text)) return { kind: 'dayOfYear' };
  if (WEEK_NUMBER.test(text) && !TERM.test(text)) return { kind: 'weekNumber' };
  const found = datesIn(text);
  if (DAY_OFF.test(text) && !UNTIL.test(text)) {
    const target = found.find(oneDay);
    return { kind: 'dayOff', target, ask: WEEKEND_WORD.test(text) ? 'weekend' : 'workday' };
  }
  if (!found.length) return undefined;
  if (SINCE.test(text)) return { kind: 'since', target: found[0] };
  if (UNTIL.test(text) || (HOW_MANY_DAYS.test(text) && !DATE_ASK.test(text))) {
    const target = found.at(-1)!;
    return found.length > 1 ? { kind: 'until', target, from: found[0] } : { kind: 'until', target };
  }
  const claim = found.length === 2 && CONFIRM.test(text) ? claimOf(found) : undefined;
  if (claim) return claim;
  if (DATE_ASK.test(text)) return { kind: 'dates', found };
  return undefined;
}

/** A yes-or-no question: 「明天是周五吗」「今天是不是星期四」 "is it friday tomorrow", "tomorrow is friday, right?". */
const CONFIRM =
  /吗|是不是|对吧|对不对|没错吧|是吧|^\s*(?:is|isn't|was|will|does)\b|\b(?:right|correct|isn't it|yes or no)\s*\??\s*$/i;

/** Of two days named, the one that is a weekday or a date is what is claimed about the other. */
function claimOf([a, b]: Found[]): DateQuestion | undefined {
  const isClaim = (f: Found) =>
    (f.expr.kind === 'weekday' && f.expr.which === 'coming') || f.expr.kind === 'date' || f.expr.kind === 'monthDay';
  if (isClaim(b) && oneDay(a) && !isClaim(a)) return { kind: 'check', day: a, claim: b };
  if (isClaim(a) && oneDay(b) && !isClaim(b)) return { kind: 'check', day: b, claim: a };
  // 「3月20日是星期五吗」: a date, and a weekday claimed for it.
  if (b.expr.kind === 'weekday' && (a.expr.kind === 'date' || a.expr.kind === 'monthDay'))
    return { kind: 'check', day: a, claim: b };
  if (a.expr.kind === 'weekday' && (b.expr.kind === 'date' || b.expr.kind === 'monthDay'))
    return { kind: 'check', day: b, claim: a };
  return undefined;
}

/** Words that ask about the clock or the calendar, for telling a question about days from other requests. */
export const DATE_CUES = new RegExp(
  [
    DATE_ASK.source,
    UNTIL.source,
    HOW_MANY_DAYS.source,
    DAY_OFF.source,
    '几点|\\bwhat\\s+time\\b|\\btime\\s+(?:is\\s+it|now)\\b',
  ].join('|'),
  'i',
);
