/**
 * Answers to questions about days, worked out from the today the clock tool reported: always the
 * date and its weekday, and for "until" questions the number of days too.
 * 「明天是 3月13日，星期五。」 / "Tomorrow is Friday, March 13."
 */
import { say, type Lang } from '../../i18n.js';
import { addDays, dayOfYear, daysBetween, inMonth, isoWeek, isWeekend, weekdayOf, type Day } from './calendar.js';
import { daysOf, type DateExpr, type Found } from './dates.js';
import type { DateQuestion } from './date-questions.js';

const WEEKDAYS_ZH = ['星期日', '星期一', '星期二', '星期三', '星期四', '星期五', '星期六'];
const SHORT_ZH = ['周日', '周一', '周二', '周三', '周四', '周五', '周六'];
const WEEKDAYS_EN = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS_EN = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const SATURDAY = 6;

export const weekdayName = (d: Day, lang: Lang): string => (lang === 'zh' ? WEEKDAYS_ZH : WEEKDAYS_EN)[weekdayOf(d)];

/** 3月13日 / March 13, with the year when it is not this one. */
export function dateName(d: Day, today: Day, lang: Lang): string {
  const year = d.year !== today.year;
  return lang === 'zh'
    ? `${year ? `${d.year}年` : ''}${d.month}月${d.day}日`
    : `${MONTHS_EN[d.month - 1]} ${d.day}${year ? `, ${d.year}` : ''}`;
}

/** 3月13日，星期五 / Friday, March 13. */
export const fullName = (d: Day, today: Day, lang: Lang): string =>
  lang === 'zh'
    ? `${dateName(d, today, lang)}，${weekdayName(d, lang)}`
    : `${weekdayName(d, lang)}, ${dateName(d, today, lang)}`;

const days = (n: number, lang: Lang): string => say(lang, `${n} 天`, `${n} day${n === 1 ? '' : 's'}`);

const UNIT_ZH = { day: '天', week: '周', month: '个月', year: '年' } as const;
const OFFSET_ZH: Record<number, string> = {
  [-3]: '大前天',
  [-2]: '前天',
  [-1]: '昨天',
  0: '今天',
  1: '明天',
  2: '后天',
  3: '大后天',
};
const OFFSET_EN: Record<number, string> = {
  [-2]: 'the day before yesterday',
  [-1]: 'yesterday',
  0: 'today',
  1: 'tomorrow',
  2: 'the day after tomorrow',
};
const WHICH_ZH = { this: '这', next: '下', nextnext: '下下', last: '上', coming: '', past: '上' } as const;
const WHICH_EN = {
  this: 'this ',
  next: 'next ',
  nextnext: 'the one after next ',
  last: 'last ',
  coming: '',
  past: 'last ',
} as const;

/** The day as the user named it, in words: 明天, 下周三, 国庆节, "next Wednesday", "in 10 days". */
export function labelOf(expr: DateExpr, today: Day, lang: Lang): string {
  switch (expr.kind) {
    case 'offset': {
      const { n, unit } = expr;
      if (unit === 'day' && !expr.counted && (lang === 'zh' ? OFFSET_ZH : OFFSET_EN)[n])
        return (lang === 'zh' ? OFFSET_ZH : OFFSET_EN)[n];
      if (lang === 'zh') return `${Math.abs(n)}${UNIT_ZH[unit]}${n < 0 ? '前' : '后'}`;
      const amount = `${Math.abs(n)} ${unit}${Math.abs(n) === 1 ? '' : 's'}`;
      return n < 0 ? `${amount} ago` : `in ${amount}`;
    }
    case 'weekday':
      return lang === 'zh'
        ? `${WHICH_ZH[expr.which]}${SHORT_ZH[expr.weekday]}`
        : expr.which === 'nextnext'
          ? `${WEEKDAYS_EN[expr.weekday]} after next`
          : `${WHICH_EN[expr.which]}${WEEKDAYS_EN[expr.weekday]}`;
    case 'weekend':
      return lang === 'zh'
        ? `${WHICH_ZH[expr.which] ? `${WHICH_ZH[expr.which]}个` : ''}周末`
        : `${WHICH_EN[expr.which] || 'the '}weekend`;
    case 'range':
      if (expr.week) return lang === 'zh' ? `${WHICH_ZH[expr.week]}周` : `${WHICH_EN[expr.week]}week`;
      if (expr.said && (lang === 'zh') === /[\u4e00-\u9fff]/.test(expr.said))
        return lang === 'zh' || /^the\b/.test(expr.said) ? expr.said : `the ${expr.said}`;
      return say(lang, `这 ${expr.days} 天`, `the next ${expr.days} days`);
    case 'date':
    case 'monthEnd':
    case 'monthDay': {
      const d = daysOf(expr, today)[0];
      if (expr.kind === 'monthEnd')
        return say(
          lang,
          expr.months ? '下个月底' : '月底',
          expr.months ? 'the end of next month' : 'the end of the month',
        );
      return dateName(d, today, lang);
    }
    case 'holiday':
      return say(lang, expr.holiday.zh, expr.holiday.en);
  }
}

const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
/** A label that is itself the date says nothing more: 「3月20日是星期五」, not 「3月20日是 3月20日，星期五」. */
const isDateLabel = (e: DateExpr): boolean => e.kind === 'date' || e.kind === 'monthDay';

/** One line per day asked about: its date and weekday. */
function whichDates(found: Found[], today: Day, lang: Lang): string[] {
  return found.map(({ expr }) => {
    const span = daysOf(expr, today, expr.kind === 'holiday' ? 'next' : undefined);
    const label = labelOf(expr, today, lang);
    if (!span.length) return say(lang, `${label}的日期我算不出来。`, `I can't work out the date of ${label}.`);
    if (span.length > 1) {
      const [a, b] = [span[0], span.at(-1)!];
      return say(
        lang,
        `${label}是 ${fullName(a, today, lang)} 到 ${fullName(b, today, lang)}。`,
        `${capitalize(label)} is ${fullName(a, today, lang)} to ${fullName(b, today, lang)}.`,
      );
    }
    const d = span[0];
    const ahead = daysBetween(today, d);
    const past = ahead < 0;
    if (isDateLabel(expr)) {
      return say(
        lang,
        `${label}是${weekdayName(d, lang)}。`,
        `${capitalize(label)} ${past ? 'was' : 'is'} a ${weekdayName(d, lang)}.`,
      );
    }
    const away =
      expr.kind === 'holiday' && ahead > 1 ? say(lang, `（还有 ${ahead} 天）`, ` (${days(ahead, lang)} from now)`) : '';
    if (lang === 'zh') return `${label}是 ${fullName(d, today, lang)}${away}。`;
    if (expr.kind === 'offset' && expr.n !== 0 && (expr.counted || !OFFSET_EN[expr.n])) {
      return `${capitalize(label)} it ${past ? 'was' : 'will be'} ${fullName(d, today, lang)}.`;
    }
    // "Next Tuesday is March 17": the label already says the weekday.
    const named = expr.kind === 'weekday' ? dateName(d, today, lang) : fullName(d, today, lang);
    return `${capitalize(label)} ${past ? 'was' : 'is'} ${named}${away}.`;
  });
}

/** Days until a day, or since it when it is past. */
function until(target: Found, today: Day, lang: Lang, from?: Found): string {
  // Between two named days both are taken as said (this year's); towards one, the next one.
  const start = from ? daysOf(from.expr, today)[0] : today;
  const span = daysOf(target.expr, today, from ? undefined : 'next');
  const label = labelOf(target.expr, today, lang);
  if (!span.length || !start) return say(lang, `${label}的日期我算不出来。`, `I can't work out the date of ${label}.`);
  if (target.expr.kind === 'weekend' && !from && span.some((d) => daysBetween(today, d) === 0)) {
    return say(
      lang,
      `已经是周末了：今天是 ${fullName(today, today, lang)}。`,
      `It's already the weekend: today is ${fullName(today, today, lang)}.`,
    );
  }
  const d = span[0];
  const n = daysBetween(start, d);
  const named = isDateLabel(target.expr)
    ? `${dateName(d, today, lang)}（${weekdayName(d, lang)}）`
    : `${label}（${fullName(d, today, lang)}）`;
  const namedEn = isDateLabel(target.expr) ? fullName(d, today, lang) : `${label} (${fullName(d, today, lang)})`;
  if (from && daysBetween(today, start) !== 0) {
    const bare = isDateLabel(from.expr);
    const fromZh = bare
      ? `${dateName(start, today, lang)}（${weekdayName(start, lang)}）`
      : `${labelOf(from.expr, today, lang)}（${fullName(start, today, lang)}）`;
    const fromEn = bare
      ? fullName(start, today, lang)
      : `${labelOf(from.expr, today, lang)} (${fullName(start, today, lang)})`;
    return say(
      lang,
      `从${fromZh}到${named}相隔 ${Math.abs(n)} 天。`,
      `From ${fromEn} to ${namedEn} is ${days(Math.abs(n), lang)}.`,
    );
  }
  if (n === 0) return say(lang, `今天就是${named}。`, `${capitalize(namedEn)} is today.`);
  if (n < 0) return say(lang, `${named}已经过去 ${-n} 天了。`, `${capitalize(namedEn)} was ${days(-n, lang)} ago.`);
  return say(lang, `离${named}还有 ${n} 天。`, `${days(n, lang)} until ${namedEn}.`);
}

function since(target: Found, today: Day, lang: Lang): string {
  const d = daysOf(target.expr, today, 'last')[0];
  if (!d) return until(target, today, lang);
  const n = daysBetween(d, today);
  if (n < 0) return until(target, today, lang);
  const label = labelOf(target.expr, today, lang);
  const zh = isDateLabel(target.expr) ? fullName(d, today, lang) : `${label}（${fullName(d, today, lang)}）`;
  const en = isDateLabel(target.expr) ? fullName(d, today, lang) : `${label} (${fullName(d, today, lang)})`;
  return say(lang, `从${zh}到今天已经过去 ${n} 天。`, `${capitalize(days(n, lang))} have passed since ${en}.`);
}

function dayOff(target: Found | undefined, ask: 'weekend' | 'workday', today: Day, lang: Lang): string {
  const d = target ? (daysOf(target.expr, today)[0] ?? today) : today;
  const label = target ? labelOf(target.expr, today, lang) : say(lang, '今天', 'today');
  const bare = !!target && isDateLabel(target.expr);
  // Stated, not answered yes or no: 「要上班吗」 and 「是周末吗」 want opposite answers for the same day.
  const named = bare ? fullName(d, today, lang) : `${label}（${fullName(d, today, lang)}）`;
  const namedEn = capitalize(bare ? fullName(d, today, lang) : `${label} (${fullName(d, today, lang)})`);
  const note =
    ask === 'workday'
      ? say(lang, '（只按星期算，没有算法定节假日和调休。）', ' (Counting weekdays only, not public holidays.)')
      : '';
  if (isWeekend(d))
    return say(lang, `${named}是周末，不是工作日。`, `${namedEn} is on the weekend, not a weekday.`) + note;
  const toSaturday = SATURDAY - weekdayOf(d);
  const saturday = addDays(d, toSaturday);
  const fromToday = daysBetween(today, d) === 0;
  const startsEn =
    toSaturday === 1
      ? fromToday
        ? 'tomorrow'
        : 'the day after'
      : fromToday
        ? `in ${toSaturday} days`
        : `${toSaturday} days later`;
  return (
    say(lang, `${named}是工作日，不是周末。`, `${namedEn} is a weekday, not the weekend.`) +
    say(
      lang,
      `离周末（${dateName(saturday, today, lang)}，星期六）还有 ${toSaturday} 天。`,
      ` The weekend starts ${startsEn} (Saturday, ${dateName(saturday, today, lang)}).`,
    ) +
    note
  );
}

/** Yes or no to 「明天是周五吗」: the day's real date and weekday either way. */
function check(day: Found, claim: Found, today: Day, lang: Lang): string {
  const d = daysOf(day.expr, today)[0];
  if (!d) return whichDates([day], today, lang).join('');
  const label = labelOf(day.expr, today, lang);
  const named = isDateLabel(day.expr)
    ? `${dateName(d, today, lang)}`
    : say(lang, `${label}（${dateName(d, today, lang)}）`, `${label} (${dateName(d, today, lang)})`);
  const weekday = weekdayName(d, lang);
  if (claim.expr.kind === 'weekday') {
    const yes = claim.expr.weekday === weekdayOf(d);
    const claimed = (lang === 'zh' ? WEEKDAYS_ZH : WEEKDAYS_EN)[claim.expr.weekday];
    return yes
      ? say(lang, `是的，${named}是${weekday}。`, `Yes: ${capitalize(named)} is a ${weekday}.`)
      : say(
          lang,
          `不是，${named}是${weekday}，不是${claimed}。`,
          `No: ${capitalize(named)} is a ${weekday}, not a ${claimed}.`,
        );
  }
  const c = daysOf(claim.expr, today)[0];
  // 「16号」 alone names a day of whichever month the day falls in.
  const dayOnly = claim.expr.kind === 'monthDay' && claim.expr.months === 0;
  const yes = dayOnly && claim.expr.kind === 'monthDay' ? claim.expr.day === d.day : !!c && daysBetween(c, d) === 0;
  return yes
    ? say(
        lang,
        `是的，${label}是 ${fullName(d, today, lang)}。`,
        `Yes: ${capitalize(label)} is ${fullName(d, today, lang)}.`,
      )
    : say(
        lang,
        `不是，${label}是 ${fullName(d, today, lang)}。`,
        `No: ${capitalize(label)} is ${fullName(d, today, lang)}.`,
      );
}

/** The answer to a question about days, given today's date where the question was asked. */
export function answerDates(q: DateQuestion, today: Day, lang: Lang): string {
  switch (q.kind) {
    case 'dates':
      return whichDates(q.found, today, lang).join('\n');
    case 'until':
      return until(q.target, today, lang, q.from);
    case 'since':
      return since(q.target, today, lang);
    case 'dayOff':
      return dayOff(q.target, q.ask, today, lang);
    case 'dayOfYear': {
      const n = dayOfYear(today);
      const left = daysBetween(today, { year: today.year, month: 12, day: 31 });
      return say(
        lang,
        `今天（${fullName(today, today, lang)}）是 ${today.year} 年的第 ${n} 天，今年还剩 ${left} 天。`,
        `Today (${fullName(today, today, lang)}) is day ${n} of ${today.year}; ${days(left, lang)} are left this year.`,
      );
    }
    case 'weekNumber':
      return say(
        lang,
        `今天（${fullName(today, today, lang)}）在 ${today.year} 年第 ${isoWeek(today)} 周（按 ISO 周算，周一开始）。`,
        `Today (${fullName(today, today, lang)}) is in week ${isoWeek(today)} of ${today.year} (ISO weeks, starting on Monday).`,
      );
    case 'check':
      return check(q.day, q.claim, today, lang);
    case 'left': {
      const end =
        q.scope === 'month'
          ? inMonth(today, 0, 31)
          : q.scope === 'year'
            ? { year: today.year, month: 12, day: 31 }
            : addDays(today, (7 - weekdayOf(today)) % 7);
      const n = daysBetween(today, end);
      const zh = { month: '月底', year: '年底', week: '这周结束' }[q.scope];
      const en = { month: 'the end of the month', year: 'the end of the year', week: 'the end of the week' }[q.scope];
      return say(
        lang,
        `离${zh}（${fullName(end, today, lang)}）还有 ${n} 天。`,
        `${capitalize(days(n, lang))} until ${en} (${fullName(end, today, lang)}).`,
      );
    }
  }
}

/** Whether every day a question names is today: the clock's own answer says it best. */
export const onlyToday = (q: DateQuestion, today: Day): boolean =>
  q.kind === 'dates' &&
  q.found.every(({ expr }) => {
    const span = daysOf(expr, today);
    return span.length === 1 && daysBetween(today, span[0]) === 0 && expr.kind === 'offset';
  });
