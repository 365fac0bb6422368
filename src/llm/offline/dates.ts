/**
 * Days as people name them, in Chinese and English — 明天, 后儿, 大后天, 3天后, 下礼拜一, 这周五,
 * 5月1日, 下个月1号, 国庆, "tmrw", "next Tue", "in 10 days", "March 20", "Christmas" — found in a
 * message, then resolved against a today the caller supplies (the clock tool's, in the zone asked).
 */
import { addDays, daysBetween, inMonth, mondayOf, validMonthDay, weekdayOf, type Day } from './calendar.js';
import { holidaysIn, type Holiday } from './holidays.js';
import { chineseNumeral } from './numerals.js';

/** Which week a weekday or weekend is in. `coming`: the next one, today included; `past`: the last one before today. */
export type Which = 'this' | 'next' | 'nextnext' | 'last' | 'coming' | 'past';
export type Unit = 'day' | 'week' | 'month' | 'year';

export type DateExpr =
  /** `counted`: said as a number of days (3天后), not as a word (大后天). */
  | { kind: 'offset'; n: number; unit: Unit; counted?: boolean }
  | { kind: 'weekday'; weekday: number; which: Which }
  | { kind: 'weekend'; which: Which }
  /** A stretch of days: 这两天, 未来三天, 下周, "this week", "the next few days"; `said`: the words used. */
  | { kind: 'range'; from: number; days: number; week?: Which; said?: string }
  /** `yearShift`: 明年 (1), 去年 (-1), 今年 (0); without a year or a shift, the caller's rule decides. */
  | { kind: 'date'; month: number; day: number; year?: number; yearShift?: number }
  | { kind: 'monthDay'; months: number; day: number }
  | { kind: 'monthEnd'; months: number }
  /** The year named with it (2027年春节, 明年中秋, "Easter 2027"); without one, the next. */
  | { kind: 'holiday'; holiday: Holiday; year?: number; yearShift?: number };

/** A day expression found in a message. */
export interface Found {
  expr: DateExpr;
  index: number;
  length: number;
}

const NUM_ZH = '\\d{1,4}|[零〇一二两三四五六七八九十百]{1,4}';
const NUM_EN =
  '\\d{1,4}|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fourteen|fifteen|twenty|thirty|a\\s+couple\\s+(?:of\\s+)?';
const WORD_NUMBERS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fourteen: 14,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
};

/** 3, 三, 十五, 两, "a", "ten", "a couple of" → the number. */
export function numberOf(text: string): number | undefined {
  const t = text.trim().toLowerCase();
  if (/^\d+$/.test(t)) return Number(t);
  if (/^a\s+couple/.test(t)) return 2;
  if (t in WORD_NUMBERS) return WORD_NUMBERS[t];
  const digits = chineseNumeral(t);
  return digits === undefined || !/^\d+$/.test(digits) ? undefined : Number(digits);
}

const WEEKDAY_ZH = '一二三四五六日';
const zhWeekday = (ch: string): number =>
  ch === '日' || ch === '天' || ch === '7' ? 0 : /\d/.test(ch) ? Number(ch) : WEEKDAY_ZH.indexOf(ch) + 1;
const WHICH_ZH: Record<string, Which> = {
  这: 'this',
  本: 'this',
  这个: 'this',
  下: 'next',
  下个: 'next',
  下下: 'nextnext',
  下下个: 'nextnext',
  上: 'last',
  上个: 'last',
};
const whichZh = (w: string | undefined): Which => (w ? (WHICH_ZH[w.replace(/\s/g, '')] ?? 'coming') : 'coming');
const UNIT_ZH: Record<string, Unit> = {
  天: 'day',
  日: 'day',
  周: 'week',
  星期: 'week',
  礼拜: 'week',
  个星期: 'week',
  个礼拜: 'week',
  个月: 'month',
  月: 'month',
  年: 'year',
};

const MONTHS_EN = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_EN =
  'january|february|march|april|may|june|july|august|september|sept|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec';
const monthEn = (w: string): number => MONTHS_EN.indexOf(w.slice(0, 3).toLowerCase()) + 1;
const WEEKDAYS_EN = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const WEEKDAY_EN =
  'sunday|monday|tuesday|wednesday|thursday|friday|saturday|tues|thurs|thur|weds|sun|mon|tue|wed|thu|fri|sat';
const ORDINAL_EN: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
};

/** 下, 这, 上 before 周: not the end of another word (「记一下周五」 is 周五, not 下周五). */
const WHICH_WORD = '(?<![一以往之底早晚马路网线])(下下个?|下个?|上个?|这个?|本)';
/** 今年, 明年, 去年, 后年 as years from this one. */
const YEAR_SHIFT: Record<string, number> = { 今: 0, 明: 1, 去: -1, 后: 2 };

type Rule = [RegExp, (m: RegExpExecArray) => DateExpr | undefined];

const fixedOffset = (n: number): DateExpr => ({ kind: 'offset', n, unit: 'day' });
const RELATIVE: Record<string, number> = {
  大大后天: 4,
  大后天: 3,
  后天: 2,
  后儿: 2,
  后儿个: 2,
  明天: 1,
  明日: 1,
  明儿: 1,
  明儿个: 1,
  明早: 1,
  明晚: 1,
  今天: 0,
  今日: 0,
  今儿: 0,
  今儿个: 0,
  今晚: 0,
  今早: 0,
  昨天: -1,
  昨日: -1,
  昨儿: -1,
  昨儿个: -1,
  昨晚: -1,
  前天: -2,
  前儿: -2,
  前儿个: -2,
  大前天: -3,
};
const monthOffsetZh = (w: string | undefined): number => (!w ? 0 : /下/.test(w) ? 1 : /上/.test(w) ? -1 : 0);

// 「一周一次」 is once a week, not Monday: a count before 周 makes it a number of weeks.
const RULES: Rule[] = [
  // 后天 and 前天 also end 以后/之前 (「三天以后天气」): only where they start a word.
  [
    /大大后天|大后天|大前天|(?<![以之午然最往此随落])后天(?!气)|(?<![以之提从])前天(?!气)|后儿个?|前儿个?|明天|明日|明儿个?|明早|明晚|今天|今日|今儿个?|今晚|今早|昨天|昨日|昨儿个?|昨晚/g,
    (m) => fixedOffset(RELATIVE[m[0]]),
  ],
  [
    new RegExp(`(${NUM_ZH})\\s*(个星期|个礼拜|个月|天|日|周|星期|礼拜|年)\\s*(?:以|之)?(后|前)`, 'g'),
    (m) => ({
      kind: 'offset',
      n: (numberOf(m[1]) ?? 0) * (m[3] === '前' ? -1 : 1),
      unit: UNIT_ZH[m[2]],
      counted: true,
    }),
  ],
  [
    new RegExp(`(?:再过|过)\\s*(${NUM_ZH})\\s*(个星期|个礼拜|个月|天|周|星期|礼拜|年)`, 'g'),
    (m) => ({ kind: 'offset', n: numberOf(m[1]) ?? 0, unit: UNIT_ZH[m[2]], counted: true }),
  ],
  [
    new RegExp(
      `(?:${WHICH_WORD}\\s*)?(?<![一二两三四五六七八九十\\d几])(?:周|星期|礼拜|週)\\s*([一二三四五六日1-7]|天(?!气))`,
      'g',
    ),
    (m) => ({ kind: 'weekday', weekday: zhWeekday(m[2]), which: whichZh(m[1]) }),
  ],
  [
    new RegExp(`(?:${WHICH_WORD}\\s*)?(?:周末|礼拜六日|双休日?)`, 'g'),
    (m) => ({ kind: 'weekend', which: whichZh(m[1]) }),
  ],
  [
    new RegExp(`${WHICH_WORD}\\s*(?:周|星期|礼拜)(?![一二三四五六日1-7末]|天(?!气))`, 'g'),
    (m) => ({ kind: 'range', from: 0, days: 7, week: whichZh(m[1]) }),
  ],
  [/这两天|今明两?天/g, (m) => ({ kind: 'range', from: 0, days: 2, said: m[0] })],
  [/明后两?天/g, (m) => ({ kind: 'range', from: 1, days: 2, said: m[0] })],
  [
    new RegExp(
      `(?:未来|接下来的?|之后的?|往后)\\s*(${NUM_ZH}|几)\\s*(个星期|个礼拜|周|天)|这几天|最近几天|近几天|最近一周|这一周`,
      'g',
    ),
    (m) => ({ kind: 'range', from: 0, days: m[2] && /天/.test(m[2]) ? (numberOf(m[1]) ?? 7) : 7, said: m[0] }),
  ],
  [
    new RegExp(`(?:(\\d{4}|今|明|去|后)\\s*年\\s*)?(${NUM_ZH})\\s*月\\s*(${NUM_ZH})\\s*(?:日|号)?`, 'g'),
    (m) => {
      const month = numberOf(m[2]);
      const day = numberOf(m[3]);
      if (!month || !day || !validMonthDay(month, day)) return undefined;
      if (!m[1]) return { kind: 'date', month, day };
      if (/\d/.test(m[1])) return { kind: 'date', month, day, year: Number(m[1]) };
      return { kind: 'date', month, day, yearShift: YEAR_SHIFT[m[1]] };
    },
  ],
  [
    /(\d{4})\s*[-/.]\s*(\d{1,2})\s*[-/.]\s*(\d{1,2})/g,
    (m) => {
      const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
      return validMonthDay(month, day, year) ? { kind: 'date', year, month, day } : undefined;
    },
  ],
  // 8.20 is a date only where a weekday or 是 follows; elsewhere it is a number.
  [
    /(?<![\d/.])(\d{1,2})\/(\d{1,2})(?![\d/])|(?<![\d.])(\d{1,2})\.(\d{1,2})(?![\d.])(?=\s*(?:是|号|日|星期|周|礼拜))/g,
    (m) => {
      const [month, day] = [Number(m[1] ?? m[3]), Number(m[2] ?? m[4])];
      return validMonthDay(month, day) ? { kind: 'date', month, day } : undefined;
    },
  ],
  [
    new RegExp(
      `(?:(这个月|本月|下个?月|上个?月)\\s*)?(${NUM_ZH})\\s*(?:号|日)(?![子期本元记历语文线楼床门位码店馆机车口厅院房台])`,
      'g',
    ),
    (m) => {
      const day = numberOf(m[2]);
      return day && day <= 31 ? { kind: 'monthDay', months: monthOffsetZh(m[1]), day } : undefined;
    },
  ],
  [/(?:(这个月|本月|下个?月)\s*)?(?:月底|月末)/g, (m) => ({ kind: 'monthEnd', months: monthOffsetZh(m[1]) })],
  [/年底|年末/g, () => ({ kind: 'date', month: 12, day: 31 })],

  [/\b(?:the\s+)?day\s+after\s+(?:tomorrow|tmrw|tmr)\b|\bovermorrow\b/gi, () => fixedOffset(2)],
  [/\b(?:the\s+)?day\s+before\s+yesterday\b/gi, () => fixedOffset(-2)],
  [
    /\b(?:today|tonight|tonite|tomorrow|tomorow|tommorow|tommorrow|tmrw|tmr|tmw|2moro|2morrow|yesterday)\b/gi,
    (m) => fixedOffset(/^(?:today|tonight|tonite)$/i.test(m[0]) ? 0 : /^yesterday$/i.test(m[0]) ? -1 : 1),
  ],
  [
    new RegExp(
      `\\bin\\s+(${NUM_EN})\\s*(days?|weeks?|months?|years?)\\b|\\b(${NUM_EN})\\s*(days?|weeks?|months?|years?)\\s+(from\\s+(?:now|today)|later|after\\s+today|hence|ago|before\\s+today|back)\\b`,
      'gi',
    ),
    (m) => {
      const n = numberOf(m[1] ?? m[3]);
      const unit = (m[2] ?? m[4]).toLowerCase().replace(/s$/, '') as Unit;
      return n === undefined
        ? undefined
        : { kind: 'offset', n: /^(?:ago|before|back)/i.test(m[5] ?? '') ? -n : n, unit, counted: true };
    },
  ],
  [/\b(?:in\s+)?a\s+fortnight\b/gi, () => fixedOffset(14)],
  [
    new RegExp(
      `\\b(?:(next|this|last|coming|this\\s+coming|upcoming|on|until|till|til|by|before)\\s+)?(${WEEKDAY_EN})\\b(\\s+after\\s+next)?`,
      'gi',
    ),
    (m) => {
      const word = m[2].toLowerCase();
      // "sun", "sat" and "wed" are also words: abbreviations count only when written as a day is.
      if (word.length <= 4 && !/day$/.test(word) && !m[1] && !/^[A-Z]/.test(m[2])) return undefined;
      const weekday = WEEKDAYS_EN.indexOf(word.slice(0, 3));
      const q = m[1]?.toLowerCase().replace(/\s+/g, ' ');
      const which: Which = m[3]
        ? 'nextnext'
        : q === 'next'
          ? 'next'
          : q === 'this'
            ? 'this'
            : q === 'last'
              ? 'past'
              : 'coming';
      return { kind: 'weekday', weekday, which };
    },
  ],
  [
    /\b(?:(next|this|last|coming|the)\s+)?weekend\b/gi,
    (m) => {
      const q = m[1]?.toLowerCase();
      return {
        kind: 'weekend',
        which: q === 'next' ? 'next' : q === 'last' ? 'last' : q === 'this' ? 'this' : 'coming',
      };
    },
  ],
  [/\b(next|this|last)\s+week\b/gi, (m) => ({ kind: 'range', from: 0, days: 7, week: m[1].toLowerCase() as Which })],
  [
    new RegExp(
      `\\b(?:the\\s+)?(?:next|coming|following)\\s+(?:few|couple(?:\\s+of)?|(${NUM_EN}))\\s+days\\b|\\bthe\\s+week\\s+ahead\\b|\\bthe\\s+(?:next|coming)\\s+(?:days|week)\\b`,
      'gi',
    ),
    (m) => ({
      kind: 'range',
      from: 0,
      days: m[1] ? (numberOf(m[1]) ?? 7) : /couple/i.test(m[0]) ? 2 : 7,
      said: m[0].toLowerCase(),
    }),
  ],
  [
    new RegExp(
      `\\b(${MONTH_EN})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?:,?\\s+(\\d{4})\\b)?|\\b(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?(${MONTH_EN})\\b\\.?(?:,?\\s+(\\d{4})\\b)?`,
      'gi',
    ),
    (m) => {
      const month = monthEn(m[1] ?? m[5]);
      const day = Number(m[2] ?? m[4]);
      const year = m[3] ?? m[6];
      return validMonthDay(month, day)
        ? { kind: 'date', month, day, year: year ? Number(year) : undefined }
        : undefined;
    },
  ],
  [
    /\b(?:the\s+)?(first|second|third|fourth|fifth|tenth|\d{1,2}(?:st|nd|rd|th))\s+of\s+(this|next|last)\s+month\b|\bnext\s+month'?s\s+(\d{1,2})(?:st|nd|rd|th)?\b/gi,
    (m) => {
      const day = m[3] ? Number(m[3]) : (ORDINAL_EN[m[1].toLowerCase()] ?? parseInt(m[1], 10));
      const months = m[3] ? 1 : m[2].toLowerCase() === 'next' ? 1 : m[2].toLowerCase() === 'last' ? -1 : 0;
      return day >= 1 && day <= 31 ? { kind: 'monthDay', months, day } : undefined;
    },
  ],
  [
    /\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b(?!\s+(?:of|one|item|todo|task|line|file)\b)/gi,
    (m) => {
      const day = Number(m[1]);
      return day >= 1 && day <= 31 ? { kind: 'monthDay', months: 0, day } : undefined;
    },
  ],
  [
    /\b(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?(next\s+)?month\b/gi,
    (m) => ({ kind: 'monthEnd', months: m[1] ? 1 : 0 }),
  ],
  [/\b(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?year\b/gi, () => ({ kind: 'date', month: 12, day: 31 })],
];

const HOLIDAY_YEAR_BEFORE = /(?:(今|明|去|后)年|(\d{4})\s*年)\s*的?\s*$/;
const HOLIDAY_YEAR_AFTER = /^\s*(?:in\s+)?(\d{4})\b/i;

/** Every day named in the text, in order; where two overlap, the one that starts first (then the longer) wins. */
export function datesIn(text: string): Found[] {
  const all: Found[] = [];
  for (const [pattern, build] of RULES) {
    for (const m of text.matchAll(pattern)) {
      const expr = build(m as RegExpExecArray);
      if (expr) all.push({ expr, index: m.index ?? 0, length: m[0].length });
    }
  }
  for (const h of holidaysIn(text)) {
    // 「明年春节」「2027年的中秋」 "Easter 2027": the year goes with the holiday.
    const before = HOLIDAY_YEAR_BEFORE.exec(text.slice(Math.max(0, h.index - 8), h.index));
    const after = HOLIDAY_YEAR_AFTER.exec(text.slice(h.index + h.length, h.index + h.length + 9));
    const start = before ? h.index - before[0].length : h.index;
    const end = h.index + h.length + (after ? after[0].length : 0);
    const year = before?.[2] ?? after?.[1];
    const expr: DateExpr = year
      ? { kind: 'holiday', holiday: h.holiday, year: Number(year) }
      : before
        ? { kind: 'holiday', holiday: h.holiday, yearShift: YEAR_SHIFT[before[1]] }
        : { kind: 'holiday', holiday: h.holiday };
    all.push({ expr, index: start, length: end - start });
  }
  all.sort((a, b) => a.index - b.index || b.length - a.length);
  const kept: Found[] = [];
  for (const f of all) {
    const last = kept.at(-1);
    if (!last || f.index >= last.index + last.length) kept.push(f);
    else if (f.index === last.index && f.length > last.length) kept[kept.length - 1] = f;
  }
  return kept;
}

/** Whether the text names days and nothing else (「后天」, "next friday"). */
export function onlyDays(text: string): boolean {
  const found = datesIn(text);
  let rest = text;
  for (const f of [...found].reverse()) rest = rest.slice(0, f.index) + rest.slice(f.index + f.length);
  return found.length > 0 && rest.trim() === '';
}

/** The weekday `weekday` of the week `which` relative to `today`'s. */
function weekdayIn(today: Day, weekday: number, which: Which): Day {
  const monday = mondayOf(today);
  const inWeek = (weeks: number) => addDays(monday, weeks * 7 + ((weekday + 6) % 7));
  switch (which) {
    case 'this':
      return inWeek(0);
    case 'next':
      return inWeek(1);
    case 'nextnext':
      return inWeek(2);
    case 'last':
      return inWeek(-1);
    case 'past':
      return addDays(today, -(((weekdayOf(today) - weekday + 6) % 7) + 1));
    case 'coming':
      return addDays(today, (weekday - weekdayOf(today) + 7) % 7);
  }
}

/** Saturday of the weekend meant; on a weekend day, "this weekend" is the one under way. */
function saturdayOf(today: Day, which: Which): Day {
  const sunday = weekdayOf(today) === 0;
  if ((which === 'coming' || which === 'this') && sunday) return addDays(today, -1);
  return weekdayIn(today, 6, which === 'coming' ? 'this' : which);
}

/**
 * The days an expression means, first to last: one day, or a weekend or stretch. A date without a
 * year, or a holiday, is this year's unless `toward` says to take the next one (counting down to it)
 * or the last one (counting since it).
 */
export function daysOf(expr: DateExpr, today: Day, toward?: 'next' | 'last'): Day[] {
  const forward = toward === 'next';
  switch (expr.kind) {
    case 'offset': {
      if (expr.unit === 'day' || expr.unit === 'week') return [addDays(today, expr.n * (expr.unit === 'week' ? 7 : 1))];
      const months = expr.n * (expr.unit === 'year' ? 12 : 1);
      return [inMonth(today, months, today.day)];
    }
    case 'weekday':
      return [weekdayIn(today, expr.weekday, expr.which)];
    case 'weekend': {
      const saturday = saturdayOf(today, expr.which);
      return [saturday, addDays(saturday, 1)];
    }
    case 'range': {
      const start = expr.week && expr.week !== 'this' ? weekdayIn(today, 1, expr.week) : addDays(today, expr.from);
      const days = expr.week === 'this' ? 7 - ((weekdayOf(today) + 6) % 7) : expr.days;
      return Array.from({ length: Math.max(1, days) }, (_, i) => addDays(start, i));
    }
    case 'date': {
      const year = expr.year ?? today.year + (expr.yearShift ?? 0);
      const d = { year, month: expr.month, day: expr.day };
      // Counting towards 5月1日 after it has passed this year means next year's.
      const free = expr.year === undefined && expr.yearShift === undefined;
      if (free && forward && daysBetween(today, d) < 0) return [{ ...d, year: year + 1 }];
      if (free && toward === 'last' && daysBetween(today, d) > 0) return [{ ...d, year: year - 1 }];
      return [d];
    }
    case 'monthDay': {
      const d = inMonth(today, expr.months, expr.day);
      return [forward && expr.months === 0 && daysBetween(today, d) < 0 ? inMonth(today, 1, expr.day) : d];
    }
    case 'monthEnd':
      return [inMonth(today, expr.months, 31)];
    case 'holiday': {
      if (toward === 'last') {
        // The one before the next: search from a year ago, and take a later one if it has also passed.
        const yearAgo = expr.holiday.next(addDays(today, -366));
        const later = yearAgo && expr.holiday.next(addDays(yearAgo, 1));
        const d = later && daysBetween(later, today) >= 0 ? later : yearAgo;
        return d ? [d] : [];
      }
      const year = expr.year ?? (expr.yearShift === undefined ? undefined : today.year + expr.yearShift);
      const d = year === undefined ? expr.holiday.next(today) : expr.holiday.next({ year, month: 1, day: 1 });
      return d ? [d] : [];
    }
  }
}
