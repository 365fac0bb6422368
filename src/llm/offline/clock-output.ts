/**
 * Reading the clock tool's answer back (either language): the wall-clock date and time it reports
 * and the zone's UTC offset. The planner counts days from this, so 「明天」 is tomorrow where the
 * question was asked, not where the server runs.
 */
import type { Day } from './calendar.js';

export interface ClockReading {
  day: Day;
  hour: number;
  minute: number;
  zone: string;
  /** "UTC+09:00" */
  offsetText: string;
  offsetMinutes: number;
}

const MONTHS_EN = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
// 「现在是 2026年3月12日 星期四 10:00:00」 / "It is Thursday, March 12, 2026, 10:00:00"
const WHEN_ZH = /(\d{4})年(\d{1,2})月(\d{1,2})日\s*星期[日一二三四五六]\s*(\d{2}):(\d{2})/;
const WHEN_EN = /\bIt is [A-Za-z]+, ([A-Za-z]+) (\d{1,2}), (\d{4}), (\d{2}):(\d{2})/;
// 「时区：Asia/Tokyo（UTC+09:00）」 / "Time zone: Asia/Tokyo (UTC+09:00)"
const ZONE = /(?:时区：|Time zone: )(\S+?)\s*[（(](UTC([+-])(\d{2}):(\d{2}))[）)]/;

/** The clock the tool reported, or undefined when the text is not its answer. */
export function readClock(output: string): ClockReading | undefined {
  const zone = ZONE.exec(output);
  if (!zone) return undefined;
  let day: Day;
  let hour: number;
  let minute: number;
  const zh = WHEN_ZH.exec(output);
  if (zh) {
    day = { year: Number(zh[1]), month: Number(zh[2]), day: Number(zh[3]) };
    [hour, minute] = [Number(zh[4]), Number(zh[5])];
  } else {
    const en = WHEN_EN.exec(output);
    const month = en ? MONTHS_EN.indexOf(en[1].toLowerCase()) + 1 : 0;
    if (!en || !month) return undefined;
    day = { year: Number(en[3]), month, day: Number(en[2]) };
    [hour, minute] = [Number(en[4]), Number(en[5])];
  }
  const sign = zone[3] === '-' ? -1 : 1;
  return {
    day,
    hour,
    minute,
    zone: zone[1],
    offsetText: zone[2],
    offsetMinutes: sign * (Number(zone[4]) * 60 + Number(zone[5])),
  };
}
