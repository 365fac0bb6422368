/**
 * Calendar days without a clock: what the planner counts with when someone asks about 明天, next
 * Friday or 中秋节. Days are counted on the calendar (UTC arithmetic on the date alone), never by
 * adding 24 hours to a moment, so a daylight-saving change cannot move an answer by a day.
 */

/** A date on the calendar, in no zone. `month` is 1–12. */
export interface Day {
  year: number;
  month: number;
  day: number;
}

const MS_PER_DAY = 86_400_000;
const SATURDAY = 6;
const SUNDAY = 0;

const utc = (d: Day): number => Date.UTC(d.year, d.month - 1, d.day);

function fromUtc(ms: number): Day {
  const t = new Date(ms);
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

/** Day `n` days after `d` (before it when negative). */
export const addDays = (d: Day, n: number): Day => fromUtc(Date.UTC(d.year, d.month - 1, d.day + n));

/** 0 = Sunday … 6 = Saturday. */
export const weekdayOf = (d: Day): number => new Date(utc(d)).getUTCDay();

/** Calendar days from `a` to `b`: 1 from today to tomorrow, negative when `b` came first. */
export const daysBetween = (a: Day, b: Day): number => Math.round((utc(b) - utc(a)) / MS_PER_DAY);

export const sameDay = (a: Day, b: Day): boolean => daysBetween(a, b) === 0;

export const isWeekend = (d: Day): boolean => weekdayOf(d) === SATURDAY || weekdayOf(d) === SUNDAY;

/** How many days the month has. */
export const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** Whether a month and day exist (in a leap year, for 2月29日 said without a year). */
export const validMonthDay = (month: number, day: number, year = 2024): boolean =>
  month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);

/** The month `n` months after `d`'s, and the day `day` in it, kept inside the month (1月31日 + 1 month → 2月28日). */
export function inMonth(d: Day, n: number, day: number): Day {
  const first = new Date(Date.UTC(d.year, d.month - 1 + n, 1));
  const year = first.getUTCFullYear();
  const month = first.getUTCMonth() + 1;
  return { year, month, day: Math.min(day, daysInMonth(year, month)) };
}

/** Monday of `d`'s week: weeks start on Monday, as calendars in China and most of Europe do. */
export const mondayOf = (d: Day): Day => addDays(d, -((weekdayOf(d) + 6) % 7));

/** The ISO 8601 week number (1–53). */
export function isoWeek(d: Day): number {
  const thursday = addDays(mondayOf(d), 3);
  const jan1 = { year: thursday.year, month: 1, day: 1 };
  return Math.floor(daysBetween(jan1, thursday) / 7) + 1;
}

/** The day of the year, 1 on 1 January. */
export const dayOfYear = (d: Day): number => daysBetween({ year: d.year, month: 1, day: 1 }, d) + 1;

export const isoDate = (d: Day): string =>
  `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;

/** `2026-03-13` → the day, or undefined. */
export function parseIsoDate(text: string): Day | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return undefined;
  const d = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  return validMonthDay(d.month, d.day, d.year) ? d : undefined;
}

/** The calendar day a moment falls on in a time zone. */
export function dayIn(moment: Date, timeZone: string): Day {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
  }).formatToParts(moment);
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value);
  return { year: get('year'), month: get('month'), day: get('day') };
}

/** The `nth` (1-based; -1 for the last) given weekday of a month: Thanksgiving is the 4th Thursday of November. */
export function nthWeekday(year: number, month: number, weekday: number, nth: number): Day {
  if (nth < 0) {
    const last = { year, month, day: daysInMonth(year, month) };
    return addDays(last, -((weekdayOf(last) - weekday + 7) % 7));
  }
  const first = { year, month, day: 1 };
  return addDays(first, ((weekday - weekdayOf(first) + 7) % 7) + (nth - 1) * 7);
}

/** Easter Sunday (Gregorian), by the anonymous computus. */
export function easter(year: number): Day {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  return { year, month, day: ((h + l - 7 * m + 114) % 31) + 1 };
}

/** 清明: the solar term falls on 4 or 5 April; this is the usual formula for 2000–2099. */
export function qingming(year: number): Day {
  const y = year % 100;
  return { year, month: 4, day: Math.floor(y * 0.2422 + 4.81) - Math.floor(y / 4) };
}

// The Chinese calendar as the runtime's ICU data knows it (leap months are reported as e.g. "6bis").
// Made on first use: building a formatter for the Chinese calendar costs milliseconds, and most
// runs never name a lunar holiday.
let chinese: Intl.DateTimeFormat | undefined;
const chineseCalendar = (): Intl.DateTimeFormat =>
  (chinese ??= new Intl.DateTimeFormat('en-u-ca-chinese', { timeZone: 'UTC', month: 'numeric', day: 'numeric' }));
/** Lunar dates fall within this many days after the same Gregorian month and day of the lunar date, plus a margin. */
const LUNAR_SEARCH_DAYS = 400;

/** The first day on or after `from` whose Chinese-calendar date is lunar `month`/`day` (not in a leap month). */
export function nextLunar(from: Day, month: number, day: number): Day | undefined {
  for (let i = 0; i < LUNAR_SEARCH_DAYS; i++) {
    const d = addDays(from, i);
    const parts = chineseCalendar().formatToParts(new Date(utc(d)));
    const m = parts.find((p) => p.type === 'month')?.value;
    const dd = Number(parts.find((p) => p.type === 'day')?.value);
    if (m === String(month) && dd === day) return d;
  }
  return undefined;
}
