import { describe, expect, it } from 'vitest';
import {
  addDays,
  dayIn,
  daysBetween,
  easter,
  inMonth,
  isoDate,
  isoWeek,
  nthWeekday,
  qingming,
  weekdayOf,
  type Day,
} from './calendar.js';
import { datesIn, daysOf, onlyDays } from './dates.js';
import { holidaysIn } from './holidays.js';

const day = (iso: string): Day => {
  const [year, month, d] = iso.split('-').map(Number);
  return { year, month, day: d };
};
/** The days a phrase names, from `today`, as ISO dates (each expression's days joined by +). */
const named = (text: string, today: string, toward?: 'next' | 'last'): string[] =>
  datesIn(text).map((f) => daysOf(f.expr, day(today), toward).map(isoDate).join('+'));

describe('calendar', () => {
  it('counts calendar days across months, years and leap days', () => {
    expect(isoDate(addDays(day('2026-12-30'), 3))).toBe('2027-01-02');
    expect(isoDate(addDays(day('2028-02-28'), 1))).toBe('2028-02-29');
    expect(isoDate(addDays(day('2026-03-01'), -1))).toBe('2026-02-28');
    expect(daysBetween(day('2026-03-12'), day('2026-12-25'))).toBe(288);
    expect(daysBetween(day('2026-03-12'), day('2026-03-01'))).toBe(-11);
    expect(weekdayOf(day('2026-03-12'))).toBe(4);
  });

  it('keeps a day inside a shorter month', () => {
    expect(isoDate(inMonth(day('2026-01-31'), 1, 31))).toBe('2026-02-28');
    expect(isoDate(inMonth(day('2026-12-15'), 1, 1))).toBe('2027-01-01');
  });

  it('takes the calendar day of a moment in a zone, not the host’s', () => {
    const moment = new Date('2026-12-26T15:30:00Z');
    expect(isoDate(dayIn(moment, 'Asia/Shanghai'))).toBe('2026-12-26');
    expect(isoDate(dayIn(moment, 'Asia/Tokyo'))).toBe('2026-12-27');
    expect(isoDate(dayIn(moment, 'America/Los_Angeles'))).toBe('2026-12-26');
  });

  it('computes the days defined by rules', () => {
    expect(isoDate(easter(2026))).toBe('2026-04-05');
    expect(isoDate(easter(2027))).toBe('2027-03-28');
    expect(isoDate(nthWeekday(2026, 11, 4, 4))).toBe('2026-11-26'); // Thanksgiving
    expect(isoDate(nthWeekday(2026, 5, 0, 2))).toBe('2026-05-10'); // Mother's Day
    expect(isoDate(nthWeekday(2026, 5, 1, -1))).toBe('2026-05-25'); // last Monday of May
    expect(isoDate(qingming(2026))).toBe('2026-04-05');
    expect(isoDate(qingming(2028))).toBe('2028-04-04');
    expect(isoWeek(day('2026-03-12'))).toBe(11);
    expect(isoWeek(day('2027-01-01'))).toBe(53);
  });
});

describe('holidays', () => {
  const next = (word: string, today: string) => named(word, today, 'next')[0];

  it('finds the next one, this year or the next', () => {
    expect(next('圣诞节', '2026-03-12')).toBe('2026-12-25');
    expect(next('christmas', '2026-12-26')).toBe('2027-12-25');
    expect(next('元旦', '2026-12-26')).toBe('2027-01-01');
    expect(next('国庆', '2026-10-01')).toBe('2026-10-01');
    expect(next('五一', '2026-05-02')).toBe('2027-05-01');
  });

  it('follows the Chinese calendar, with the official date where ICU is a day off', () => {
    expect(next('中秋节', '2026-03-12')).toBe('2026-09-25');
    expect(next('端午', '2026-03-12')).toBe('2026-06-19');
    expect(next('春节', '2026-01-10')).toBe('2026-02-17');
    expect(next('春节', '2026-03-12')).toBe('2027-02-06');
    expect(next('除夕', '2026-03-12')).toBe('2027-02-05');
    expect(next('元宵节', '2026-03-12')).toBe('2027-02-20');
    expect(next('过年', '2029-03-01')).toBe('2030-02-03');
  });

  it('takes the last one when counting since', () => {
    expect(named('since christmas', '2026-03-12', 'last')[0]).toBe('2025-12-25');
    expect(named('元旦以来', '2026-03-12', 'last')[0]).toBe('2026-01-01');
  });

  it('prefers the longer name where two overlap', () => {
    expect(datesIn("new year's eve").map((f) => f.expr.kind === 'holiday' && f.expr.holiday.id)).toEqual([
      'newYearsEve',
    ]);
    expect(datesIn('christmas eve').map((f) => f.expr.kind === 'holiday' && f.expr.holiday.id)).toEqual([
      'christmasEve',
    ]);
    expect(holidaysIn('七夕情人节').map((h) => h.holiday.id)).toEqual(['qixi']);
  });
});

describe('days people name', () => {
  // Thursday 12 March 2026; this week runs Monday 9 to Sunday 15.
  const THU = '2026-03-12';
  const cases: Array<[string, string[]]> = [
    ['明天几号', ['2026-03-13']],
    ['后儿个星期几', ['2026-03-14']],
    ['大后天', ['2026-03-15']],
    ['昨儿', ['2026-03-11']],
    ['前天呢', ['2026-03-10']],
    ['大前天', ['2026-03-09']],
    ['3天后', ['2026-03-15']],
    ['十天以后', ['2026-03-22']],
    ['再过两天', ['2026-03-14']],
    ['两个星期后', ['2026-03-26']],
    ['5天前', ['2026-03-07']],
    ['三个月后', ['2026-06-12']],
    ['下礼拜一', ['2026-03-16']],
    ['下个星期天', ['2026-03-22']],
    ['这周五', ['2026-03-13']],
    ['本周一', ['2026-03-09']],
    ['周日', ['2026-03-15']],
    ['星期四', ['2026-03-12']],
    ['上周五', ['2026-03-06']],
    ['下下周三', ['2026-03-25']],
    ['周末', ['2026-03-14+2026-03-15']],
    ['下周末', ['2026-03-21+2026-03-22']],
    ['5月1日', ['2026-05-01']],
    ['五月一号', ['2026-05-01']],
    ['3/20', ['2026-03-20']],
    ['2027-01-05', ['2027-01-05']],
    ['明年1月1日', ['2027-01-01']],
    ['下个月1号', ['2026-04-01']],
    ['15号', ['2026-03-15']],
    ['月底', ['2026-03-31']],
    ['明后天', ['2026-03-13+2026-03-14']],
    ['这两天', ['2026-03-12+2026-03-13']],
    ['tmrw', ['2026-03-13']],
    ['the day after tomorrow', ['2026-03-14']],
    ['in 10 days', ['2026-03-22']],
    ['a week from now', ['2026-03-19']],
    ['3 days ago', ['2026-03-09']],
    ['a couple of days ago', ['2026-03-10']],
    ['next Tue', ['2026-03-17']],
    ['this Friday', ['2026-03-13']],
    ['on Sat', ['2026-03-14']],
    ['last monday', ['2026-03-09']],
    ['friday after next', ['2026-03-27']],
    ['this weekend', ['2026-03-14+2026-03-15']],
    ['March 20', ['2026-03-20']],
    ['the 1st of next month', ['2026-04-01']],
    ['end of the month', ['2026-03-31']],
    ['从3月1日到3月20日', ['2026-03-01', '2026-03-20']],
    ['today and tomorrow', ['2026-03-12', '2026-03-13']],
  ];
  it.each(cases)('%s', (text, days) => {
    expect(named(text, THU)).toEqual(days);
  });

  it('takes a date without a year as the next one when counting towards it', () => {
    expect(named('3月1日', THU, 'next')).toEqual(['2027-03-01']);
    expect(named('3月1日', THU)).toEqual(['2026-03-01']);
    expect(named('15号', '2026-03-20', 'next')).toEqual(['2026-04-15']);
  });

  it('on a Sunday, "this weekend" is the one under way', () => {
    expect(named('this weekend', '2026-03-15')).toEqual(['2026-03-14+2026-03-15']);
    expect(named('下周一', '2026-03-15')).toEqual(['2026-03-16']);
  });

  it('does not read days into other words', () => {
    for (const text of [
      '三天以后天气怎么样',
      '这周天气',
      '坐3号线',
      '今年之前天气',
      'will there be sun',
      'the weather is nice',
      '一周一次',
    ]) {
      const kinds = datesIn(text).map((f) => `${f.expr.kind}:${text.slice(f.index, f.index + f.length)}`);
      expect(
        kinds.some((k) => /后天|前天|周天|3号|sun|weekday/.test(k)),
        `${text}: ${kinds.join(', ')}`,
      ).toBe(false);
    }
  });

  it('tells a message of days alone from a request', () => {
    expect(onlyDays(' 后天 ')).toBe(true);
    expect(onlyDays('next friday')).toBe(true);
    expect(onlyDays('后天去北京')).toBe(false);
  });
});
