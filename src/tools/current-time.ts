import { z } from 'zod';
import { say, type Lang } from '../i18n.js';
import { defineTool, type Tool } from './tool.js';
import { ToolError } from '../contract/tool-error.js';
import { zoneOfPlace } from '../time-zones.js';

const MS_PER_MINUTE = 60_000;
const SATURDAY = 6;
const SUNDAY = 0;

const WEEKDAYS_ZH = ['星期日', '星期一', '星期二', '星期三', '星期四', '星期五', '星期六'];
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

/** Dependencies of the current_time tool. */
export interface CurrentTimeToolDeps {
  /** The clock; tests pin it. Default: `new Date()`. */
  now?: () => Date;
  /** IANA zone used when the call names none. Default: the host's zone. */
  defaultTimeZone?: string;
}

const CurrentTimeArgs = z.object({
  timezone: z.string().optional().describe("IANA time zone such as Asia/Shanghai; default: the user's own"),
});

export function createCurrentTimeTool(deps: CurrentTimeToolDeps = {}): Tool {
  const now = deps.now ?? (() => new Date());
  // Read when first needed: loading the time-zone data costs milliseconds every start otherwise.
  const defaultZone = () => deps.defaultTimeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;

  return defineTool({
    name: 'current_time',
    annotations: { readOnly: true },
    description:
      'The current date, time and weekday in a time zone (IANA name, or a big city such as Tokyo / 纽约), ' +
      'with the UTC offset and how many days remain until the weekend.',
    parameters: CurrentTimeArgs,
    execute({ timezone }, ctx) {
      const asked = timezone?.trim() || defaultZone();
      const zone = resolveZone(asked);
      if (!zone) {
        throw new ToolError(
          say(
            ctx.lang,
            `无法识别时区「${asked}」，请使用 IANA 时区名，例如 Asia/Shanghai 或 America/New_York。`,
            `"${asked}" is not a time zone I know. Use an IANA name such as Asia/Shanghai or America/New_York.`,
          ),
        );
      }
      const clock = wallClock(now(), zone);
      return { output: formatTime(clock, ctx.lang), ...timeCard(clock) };
    },
  });
}

/** A zone valid here, in the form Intl reports it, or undefined. */
function validZone(name: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined; // RangeError: invalid time zone
  }
}

/** Zones for the offsets that are not whole hours, each the zone most people on it live in. */
const PART_HOUR_ZONES: Readonly<Record<string, string>> = {
  '+5:30': 'Asia/Kolkata',
  '+5:45': 'Asia/Kathmandu',
  '+6:30': 'Asia/Yangon',
  '+3:30': 'Asia/Tehran',
  '+4:30': 'Asia/Kabul',
  '+9:30': 'Australia/Darwin',
  '+10:30': 'Australia/Lord_Howe',
  '-3:30': 'America/St_Johns',
  '-9:30': 'Pacific/Marquesas',
};

/** "UTC+8", "GMT-5", "utc+5:30" → a zone on that offset (Etc/GMT-8: the Etc names count the other way). */
function offsetZone(word: string): string | undefined {
  const m = /^(?:utc|gmt)\s*([+-])\s*(\d{1,2})(?::?(\d{2}))?$/i.exec(word.trim());
  if (!m) return undefined;
  const [sign, hours, minutes] = [m[1], Number(m[2]), Number(m[3] ?? 0)];
  if (minutes) return PART_HOUR_ZONES[`${sign}${hours}:${String(minutes).padStart(2, '0')}`];
  if (hours === 0) return 'UTC';
  return hours <= 14 ? validZone(`Etc/GMT${sign === '+' ? '-' : '+'}${hours}`) : undefined;
}

/**
 * City word or IANA name → IANA name, or undefined. A place we know keeps its zone's current name
 * (Asia/Kolkata, not ICU's older Asia/Calcutta); any other city that names a zone ("Reykjavik",
 * "Ho Chi Minh") is found by the zone's last part.
 */
function resolveZone(word: string): string | undefined {
  const offset = offsetZone(word);
  if (offset) return offset;
  const known = zoneOfPlace(word);
  if (known && validZone(known)) return known;
  const exact = validZone(word.trim());
  // A name written as IANA writes it keeps its spelling: ICU would report Asia/Kolkata as Asia/Calcutta.
  if (exact) return /^[A-Z][a-z]+(?:\/[A-Z][A-Za-z_-]+)+$/.test(word.trim()) ? word.trim() : exact;
  const city = word
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '_');
  if (!/^[a-z_]+$/.test(city)) return undefined;
  return Intl.supportedValuesOf('timeZone').find((z) => z.toLowerCase().endsWith(`/${city}`));
}

interface WallClock {
  zone: string;
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 = Sunday … 6 = Saturday */
  weekday: number;
  offsetMinutes: number;
}

/** The moment as a clock on the wall in `zone` shows it. */
function wallClock(moment: Date, zone: string): WallClock {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
    hourCycle: 'h23',
  }).formatToParts(moment);
  const part = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((p) => p.type === type)?.value);
  const [year, month, day, hour, minute, second] = (['year', 'month', 'day', 'hour', 'minute', 'second'] as const).map(
    part,
  );
  // Reading the wall clock back as if it were UTC gives both the weekday and the offset without locale data.
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  const wholeSeconds = Math.floor(moment.getTime() / 1000) * 1000;
  return {
    zone,
    year,
    month,
    day,
    hour,
    minute,
    second,
    weekday: new Date(asUtc).getUTCDay(),
    offsetMinutes: Math.round((asUtc - wholeSeconds) / MS_PER_MINUTE),
  };
}

const pad = (n: number): string => String(n).padStart(2, '0');

function utcOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `UTC${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** The card: the wall-clock time as ISO 8601 with its offset, and the facts the text states. */
function timeCard(c: WallClock): { title: string; metadata: Record<string, unknown> } {
  const date = `${c.year}-${pad(c.month)}-${pad(c.day)}`;
  const time = `${pad(c.hour)}:${pad(c.minute)}:${pad(c.second)}`;
  const offset = utcOffset(c.offsetMinutes);
  const weekend = c.weekday === SATURDAY || c.weekday === SUNDAY;
  return {
    title: `${date} ${time} ${c.zone}`,
    metadata: {
      timeZone: c.zone,
      iso: `${date}T${time}${offset.slice('UTC'.length)}`,
      utcOffset: offset,
      weekday: WEEKDAYS_EN[c.weekday],
      daysUntilWeekend: weekend ? 0 : SATURDAY - c.weekday,
    },
  };
}

function formatTime(c: WallClock, lang: Lang): string {
  const time = `${pad(c.hour)}:${pad(c.minute)}:${pad(c.second)}`;
  const offset = utcOffset(c.offsetMinutes);
  const daysLeft = SATURDAY - c.weekday;

  let weekend: string;
  if (c.weekday === SATURDAY || c.weekday === SUNDAY) {
    weekend = say(lang, '今天是周末。', "It's the weekend.");
  } else if (daysLeft === 1) {
    weekend = say(lang, '明天（星期六）就是周末了。', 'The weekend starts tomorrow (Saturday).');
  } else {
    weekend = say(lang, `距离周末（星期六）还有 ${daysLeft} 天。`, `${daysLeft} days until the weekend (Saturday).`);
  }

  if (lang === 'zh') {
    return [
      `现在是 ${c.year}年${c.month}月${c.day}日 ${WEEKDAYS_ZH[c.weekday]} ${time}`,
      `时区：${c.zone}（${offset}）`,
      weekend,
    ].join('\n');
  }
  return [
    `It is ${WEEKDAYS_EN[c.weekday]}, ${MONTHS_EN[c.month - 1]} ${c.day}, ${c.year}, ${time}`,
    `Time zone: ${c.zone} (${offset})`,
    weekend,
  ].join('\n');
}
