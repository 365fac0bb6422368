/**
 * A clock time said in one place, asked in another: 「北京时间晚上8点是纽约几点」, "what time is it
 * in London when it's 9am in Tokyo", 「下午3点东京是几点」. Which place the time belongs to is read
 * from the words around it; a side with no place is the user's own clock.
 */
import { say, type Lang } from '../../i18n.js';
import { chineseNumeral } from './numerals.js';
import type { PlaceMention } from '../../time-zones.js';

const MINUTES_PER_DAY = 24 * 60;
/** How close a place must stand to a clock time to be the place it is said in: 「东京 8点」, "9am in Tokyo". */
const NEAR_CHARS = 4;

export interface ClockTime {
  /** Minutes after midnight. */
  minutes: number;
  index: number;
  length: number;
}

const ZH_CLOCK =
  /(?:(凌晨|早上|早晨|上午|中午|下午|傍晚|晚上|半夜|夜里)\s*)?(\d{1,2}|[零一二两三四五六七八九十]{1,3})\s*(?:点钟?|时)\s*(半|一刻|三刻|(\d{1,2}|[零一二两三四五六七八九十]{1,3})\s*分?)?|(\d{1,2})[:：](\d{2})/;
const EN_CLOCK = /\b(\d{1,2})(?::(\d{2}))?\s*(a\.?m\.?|p\.?m\.?)(?![a-z])|\b(noon|midday|midnight)\b/i;
const ASKS_TIME = /几点|什么时间|多少点|what\s+time|\bwhen\b.*\bwhat\b|\bconvert\b/i;

function hourOf(text: string): number | undefined {
  if (/^\d+$/.test(text)) return Number(text);
  const digits = chineseNumeral(text);
  return digits === undefined ? undefined : Number(digits);
}

/** The clock time said in a message, if any. */
export function clockIn(text: string): ClockTime | undefined {
  // "9:30 PM" before 9:30: the English form says which half of the day.
  const en = EN_CLOCK.exec(text);
  if (en) {
    if (en[4]) return { minutes: /midnight/i.test(en[4]) ? 0 : 12 * 60, index: en.index, length: en[0].length };
    let hour = Number(en[1]);
    const minute = en[2] ? Number(en[2]) : 0;
    if (hour < 1 || hour > 12 || minute > 59) return undefined;
    if (/^p/i.test(en[3]) && hour < 12) hour += 12;
    if (/^a/i.test(en[3]) && hour === 12) hour = 0;
    return { minutes: hour * 60 + minute, index: en.index, length: en[0].length };
  }
  const zh = ZH_CLOCK.exec(text);
  if (!zh) return undefined;
  let hour = hourOf(zh[2] ?? zh[5]);
  if (hour === undefined || hour > 24) return undefined;
  const part = zh[1];
  if (part && /下午|傍晚|晚上|夜里/.test(part) && hour < 12) hour += 12;
  if (part && /中午/.test(part) && hour < 6) hour += 12;
  if (part && /凌晨|半夜/.test(part) && hour === 12) hour = 0;
  const extra = zh[3];
  const minute = zh[6]
    ? Number(zh[6])
    : extra === '半'
      ? 30
      : extra === '一刻'
        ? 15
        : extra === '三刻'
          ? 45
          : extra
            ? (hourOf(zh[4] ?? '0') ?? 60)
            : 0;
  return minute < 60 ? { minutes: (hour % 24) * 60 + minute, index: zh.index, length: zh[0].length } : undefined;
}

/** Words that put the clock time on the user's own clock: 「我这边晚上8点」, "9am here". */
const HERE = /我这边?|我们这边?|这边|本地|当地时间|\bhere\b|\bmy\s+time\b|\blocal\s+time\b/i;
/** After a place, it is the one asked about: 「纽约几点」「纽约那边是几点」. */
const ASKED_AFTER = /^\s*(?:那边|那里|这边)?\s*(?:是|就是|应该是)?\s*(?:几点|什么时间|多少点)/;
/** Before a place, it is the one asked about: "what time is it in London", "what time will it be in". */
const ASKED_BEFORE = /\btime\s+(?:is\s+it|will\s+it\s+be|would\s+it\s+be|is\s+that)\s+(?:in|at|for)\s*$/i;

/** The two sides of a conversion: the place the time is said in and the place asked about (undefined: the user's own). */
export function conversionSides(
  text: string,
  places: PlaceMention[],
): { clock: ClockTime; source?: string; target?: string } | undefined {
  const clock = clockIn(text);
  if (!clock || !places.length || !(ASKS_TIME.test(text) || places.length > 1)) return undefined;
  const end = clock.index + clock.length;
  const distance = (p: PlaceMention) =>
    p.index >= end ? p.index - end : Math.max(0, clock.index - (p.index + p.text.length));
  const asked = (p: PlaceMention) =>
    ASKED_AFTER.test(text.slice(p.index + p.text.length)) ||
    ASKED_BEFORE.test(text.slice(Math.max(0, p.index - 30), p.index));
  const here = HERE.exec(text);
  const hereNear =
    here && (here.index >= end ? here.index - end : clock.index - (here.index + here[0].length)) <= NEAR_CHARS;
  let target = places.find(asked);
  let source = hereNear ? undefined : places.filter((p) => p !== target).sort((a, b) => distance(a) - distance(b))[0];
  if (source && distance(source) > NEAR_CHARS + 4 && !target) [source, target] = [undefined, source];
  if (!target) target = places.find((p) => p !== source);
  if (!source && !target) return undefined;
  return { clock, source: source?.text, target: target?.text };
}

const pad = (n: number): string => String(n).padStart(2, '0');
const hhmm = (m: number): string => `${pad(Math.floor(m / 60))}:${pad(m % 60)}`;

/** 「北京 20:00 是纽约 08:00（前一天）。」 from the two clocks' offsets. */
export function conversionLine(
  lang: Lang,
  minutes: number,
  from: { name: string; offsetMinutes: number; local?: boolean },
  to: { name: string; offsetMinutes: number; local?: boolean },
): string {
  const total = minutes - from.offsetMinutes + to.offsetMinutes;
  const shift = Math.floor(total / MINUTES_PER_DAY);
  const at = ((total % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY;
  const day =
    shift === 0
      ? say(lang, '同一天', 'the same day')
      : shift < 0
        ? say(lang, '前一天', 'the day before')
        : say(lang, '第二天', 'the next day');
  const inEn = (side: { name: string; local?: boolean }) => (side.local ? 'your time' : `in ${side.name}`);
  return say(
    lang,
    `${from.name} ${hhmm(minutes)} 是${to.name} ${hhmm(at)}（${day}）。`,
    `${hhmm(minutes)} ${inEn(from)} is ${hhmm(at)} ${inEn(to)}, ${day}.`,
  );
}
