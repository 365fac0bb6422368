/**
 * Relative due dates made real when a todo is added: 「明天 9 点」 said on 30 November is stored as
 * 「2026-12-01（周二）9 点」, so the list still means the right day tomorrow. Words it does not know
 * ("before the exam", 「下个月」) are kept as said.
 */

const WEEKDAYS_ZH = '一二三四五六日';
const WEEKDAYS_EN = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const SHORT_ZH = ['周一', '周二', '周三', '周四', '周五', '周六', '周日'];
const SHORT_EN = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** The local calendar day of `now` in `timeZone`, as UTC midnight of that day, and its weekday (0 = Monday). */
function today(now: number, timeZone: string): { day: number; weekday: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
  }).formatToParts(new Date(now));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const day = Date.UTC(get('year'), get('month') - 1, get('day'));
  return { day, weekday: (new Date(day).getUTCDay() + 6) % 7 };
}

const DAY_MS = 86_400_000;

const ZH = new RegExp(
  `大后天|后天|明天|明早|明晚|明儿|今天|今晚|今早|(?:(下下|下|这|本)(?:个)?)?(?:周|星期|礼拜)([${WEEKDAYS_ZH}天末])`,
);
const EN = new RegExp(
  `\\b(?:the day after tomorrow|tomorrow|today|tonight|(?:(next|this)\\s+)?(${WEEKDAYS_EN.join('|')}|weekend))\\b`,
  'i',
);

/** Days from today for a Chinese day word, and what of the word is a time of day (明晚 → 晚上). */
function zhOffset(m: RegExpExecArray, weekday: number): { days: number; rest: string } {
  const fixed: Record<string, [number, string]> = {
    大后天: [3, ''],
    后天: [2, ''],
    明天: [1, ''],
    明儿: [1, ''],
    明早: [1, '早上'],
    明晚: [1, '晚上'],
    今天: [0, ''],
    今晚: [0, '晚上'],
    今早: [0, '早上'],
  };
  if (m[0] in fixed) return { days: fixed[m[0]][0], rest: fixed[m[0]][1] };
  // 周末 is taken as its Saturday.
  const target = m[2] === '天' ? 6 : m[2] === '末' ? 5 : WEEKDAYS_ZH.indexOf(m[2]);
  return { days: weekOffset(m[1], target, weekday), rest: '' };
}

/** 周五: the next Friday (today if it is Friday); 下周五: Friday of next week; 这周五: of this week. */
function weekOffset(which: string | undefined, target: number, weekday: number): number {
  const w = which?.toLowerCase();
  if (w === '下' || w === 'next') return 7 - weekday + target;
  if (w === '下下') return 14 - weekday + target;
  if (w === '这' || w === '本' || w === 'this') return target - weekday;
  return (target - weekday + 7) % 7;
}

function enOffset(m: RegExpExecArray, weekday: number): { days: number; rest: string } {
  const word = m[0].toLowerCase();
  if (word === 'the day after tomorrow') return { days: 2, rest: '' };
  if (word === 'tomorrow') return { days: 1, rest: '' };
  if (word === 'today') return { days: 0, rest: '' };
  if (word === 'tonight') return { days: 0, rest: 'evening' };
  const day = m[2].toLowerCase();
  return { days: weekOffset(m[1], day === 'weekend' ? 5 : WEEKDAYS_EN.indexOf(day), weekday), rest: '' };
}

const MONTHS_EN = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_EN =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)(?![a-z])\\.?';
/** A month and day without a year: 3月15日, 3/15 is left alone (15/3 reads the other way), April 15, 15th of April. */
const MONTH_DAY_ZH = /(?<!\d)(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]/;
/** 「15号」 alone, not part of 3月15号 or a room number; "the 15th". */
const DAY_ONLY_ZH =
  /(?<![\d月.\-/])(\d{1,2})\s*[日号](?![楼房室])|\bthe (\d{1,2})(?:st|nd|rd|th)\b(?!\s+(?:of\s+)?[a-z])/i;
const MONTH_DAY_EN = new RegExp(
  `\\b${MONTH_EN}\\s+(\\d{1,2})(?:st|nd|rd|th)?(?!\\d)|\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH_EN}`,
  'i',
);

/** Days from today to a month and day: this year's, or next year's once this year's has passed. */
function monthDayOffset(month: number, date: number, day: number): number | undefined {
  const year = new Date(day).getUTCFullYear();
  for (const y of [year, year + 1]) {
    const target = Date.UTC(y, month - 1, date);
    // 2月30日 rolls into March: not a date.
    if (new Date(target).getUTCDate() !== date) return undefined;
    if (target >= day) return Math.round((target - day) / DAY_MS);
  }
  return undefined;
}

/** A month and day in the due text, as days from today and where it stands. */
function absolute(due: string, day: number): Found | undefined {
  const only = DAY_ONLY_ZH.exec(due);
  if (only) {
    // 「15号」: this month's 15th, or next month's once it has passed.
    const today = new Date(day);
    const date = Number(only[1] ?? only[2]);
    let month = today.getUTCMonth() + 1;
    if (date < today.getUTCDate()) month = (month % 12) + 1;
    const days = monthDayOffset(month, date, day);
    if (days !== undefined)
      return { days, rest: '', index: only.index, length: only[0].length, zh: only[1] !== undefined };
  }
  const zh = MONTH_DAY_ZH.exec(due);
  const en = zh ? null : MONTH_DAY_EN.exec(due);
  const m = zh ?? en;
  if (!m) return undefined;
  const month = zh ? Number(zh[1]) : MONTHS_EN.indexOf((en![1] ?? en![4]).slice(0, 3).toLowerCase()) + 1;
  const date = Number(zh ? zh[2] : (en![2] ?? en![3]));
  const days = month >= 1 && month <= 12 ? monthDayOffset(month, date, day) : undefined;
  return days === undefined ? undefined : { days, rest: '', index: m.index, length: m[0].length, zh: !!zh };
}

/** The due text with its first relative day (or else month and day) replaced by the date (and weekday) it means. */
export function resolveDue(due: string, now: number, timeZone: string): string {
  const { day, weekday } = today(now, timeZone);
  const found = relative(due, weekday) ?? later(due, day) ?? absolute(due, day);
  if (!found || found.days < 0) return due; // 「这周一」 said on a Friday: keep the words rather than guess
  const { days, rest, index, length, zh } = found;
  const date = new Date(day + days * DAY_MS);
  const iso = date.toISOString().slice(0, 10);
  const wd = (date.getUTCDay() + 6) % 7;
  const shown = zh ? `${iso} ${SHORT_ZH[wd]}${rest && ` ${rest}`}` : `${SHORT_EN[wd]} ${iso}${rest && ` ${rest}`}`;
  const before = due.slice(0, index).replace(/\bthe\s+$/i, ''); // "by the weekend" → "by Sat …"
  const after = due.slice(index + length);
  return `${before}${shown}${after && (zh ? after : after.replace(/^(?=\S)/, ' '))}`.replace(/\s{2,}/g, ' ').trim();
}

/** Where a day word stands in the due text, and how many days from today it means. */
interface Found {
  days: number;
  /** What of the word is a time of day (明晚 → 晚上). */
  rest: string;
  index: number;
  length: number;
  zh: boolean;
}

const COUNT_WORDS: Readonly<Record<string, number>> = {
  一: 1,
  两: 2,
  二: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
  十: 10,
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  ten: 10,
};
/** 「3天后」「两周后」 "in 3 days", "in a week". */
const LATER =
  /(\d{1,3}|[一两二三四五六七八九十])\s*(天|日|个?(?:周|星期|礼拜))(?:之后|以后|后)|\bin (\d{1,3}|a|an|one|two|three|four|five|six|seven|ten) (days?|weeks?)\b/i;
/** 「月底」「年底」 "end of the month": the last day of it. */
const END_OF = /月底|月末|年底|年末|\bend of (?:the |this )?(month|year)\b/i;

/** A span from today («3 天后») or the end of the month or year, as days from today. */
function later(due: string, day: number): Found | undefined {
  const m = LATER.exec(due);
  if (m) {
    const n = /^\d/.test(m[1] ?? m[3]) ? Number(m[1] ?? m[3]) : COUNT_WORDS[(m[1] ?? m[3]).toLowerCase()];
    const unit = m[2] ?? m[4];
    const days = n * (/周|星期|礼拜|week/i.test(unit) ? 7 : 1);
    return { days, rest: '', index: m.index, length: m[0].length, zh: m[1] !== undefined };
  }
  const end = END_OF.exec(due);
  if (!end) return undefined;
  const today = new Date(day);
  const year = /年|year/i.test(end[0]);
  const last = year
    ? Date.UTC(today.getUTCFullYear(), 11, 31)
    : Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 0);
  return {
    days: Math.round((last - day) / DAY_MS),
    rest: '',
    index: end.index,
    length: end[0].length,
    zh: end[1] === undefined,
  };
}

/** The first relative day word: 明天, 下周五, tomorrow, next Friday. */
function relative(due: string, weekday: number): Found | undefined {
  const zh = ZH.exec(due);
  const en = zh ? null : EN.exec(due);
  const m = zh ?? en;
  if (!m) return undefined;
  return { ...(zh ? zhOffset(zh, weekday) : enOffset(m, weekday)), index: m.index, length: m[0].length, zh: !!zh };
}
