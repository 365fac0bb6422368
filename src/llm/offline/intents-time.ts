/**
 * Rules for the clock (current_time), and how its results are said: the time in a place, the date
 * and weekday of days people name (明天, 下周三, "in 10 days"), days until one, and how far apart
 * two places' clocks are. Days are worked out from the today the tool reports, in the zone asked.
 */
import { calls, call, PRIORITY, str, type Intent, type PlannedCall, type ToolRules } from './intent.js';
import { say, type Lang } from '../../i18n.js';
import { placeAround } from './places.js';
import { placesIn, type PlaceMention } from '../../time-zones.js';
import { conversionLine, conversionSides } from './time-convert.js';
import { datesIn } from './dates.js';
import { DATE_CUES, dateQuestion } from './date-questions.js';
import { scopeOf } from './clause-scope.js';
import { WEATHER_WORDS } from './weather-wording.js';
import { answerDates, dateName, onlyToday, weekdayName } from './date-answers.js';
import { readClock } from './clock-output.js';
// The message as the rules read it: a long one is its beginning and end, so wording stays fast too.
import { utterance } from './extract.js';

const TIME_ZH =
  /几点|什么时间|什么时候了|时间是|现在时间|当前时间|北京时间|几号|几月几[日号]|星期几|周几|礼拜几|日期|什么日子|哪一天/;
const TIME_EN =
  /\bwhat time\b|\bthe time\b|\bcurrent time\b|\btime is it\b|\btime now\b|\bwhat day\b|\bwhich day\b|\bthe date\b|\btoday'?s date\b|\bwhat'?s today\b|\bday of the week\b|\bwhat year\b|\btime in\b|\blocal time\b|\btime (?:over )?there\b/i;
/** An IANA name, or UTC/GMT with an offset ("UTC+8", "GMT-5", "UTC+5:30"). */
const IANA_ZONE =
  /\b(?:[A-Z][A-Za-z]+\/[A-Za-z_]+(?:\/[A-Za-z_]+)?|(?:UTC|GMT|utc|gmt)(?:\s*[+-]\s*\d{1,2}(?::?\d{2})?(?!\d))?)(?![\w/])/;
/** How far apart two clocks are: 「东京和北京差几个小时」, "time difference between London and Shanghai". */
const TIME_DIFF =
  /时差|差(?:几|多少)个?(?:小时|钟头)|(?:快|慢|早|晚)(?:了)?(?:几|多少)个?(?:小时|钟头)|相差(?:几|多少)|\btime\s*(?:zone\s+)?difference\b|\btime\s+gap\b|\bhow\s+many\s+hours\s+(?:ahead|behind|apart|difference)\b|\bhours?\s+(?:ahead|behind)\b|\bhow\s+far\s+(?:ahead|behind)\b/i;

const PLACE_TIME = /时间|\btime\b/i;

/** The sides of a conversion, unless the only clock time is the digits of an offset ("UTC+5:30"). */
function sidesOf(text: string, places: PlaceMention[]): ReturnType<typeof conversionSides> {
  const zone = IANA_ZONE.exec(text)?.[0];
  return zone && /\d/.test(zone) ? undefined : conversionSides(text, places);
}

const zoneCall = (timezone?: string): PlannedCall => ({ name: 'current_time', args: timezone ? { timezone } : {} });

/** The places named in a message that we know the zone of, one per zone, outside the words for days. */
function mentions(text: string): PlaceMention[] {
  const days = datesIn(text);
  const inDay = (i: number) => days.some((d) => i >= d.index && i < d.index + d.length);
  const seen = new Set<string>();
  return placesIn(text).filter((p) => {
    if (inDay(p.index) || seen.has(p.zone)) return false;
    seen.add(p.zone);
    return true;
  });
}

const currentTime: Intent = {
  id: 'current_time',
  priority: PRIORITY.time,
  match(u) {
    const text = u.norm;
    const places = mentions(text);
    const zone = IANA_ZONE.exec(text)?.[0];
    // A time said in one place, asked in another: the place it is said in first.
    const sides = sidesOf(text, places);
    if (sides) return calls(zoneCall(sides.source), zoneCall(sides.target));
    if (TIME_DIFF.test(text) && places.length) {
      // One place is compared with the user's own clock.
      return calls(zoneCall(places[0].text), zoneCall(places[1]?.text));
    }
    if (dateQuestion(text)) return calls(zoneCall(zone ?? places[0]?.text));
    const zh = TIME_ZH.exec(text);
    const keyword = zh ?? TIME_EN.exec(text);
    if (!keyword) {
      // 「首尔时间」, "Tokyo time?": a place we know and the word for time is enough.
      const where = zone ?? places[0]?.text;
      return where && PLACE_TIME.test(text) ? call('current_time', { timezone: where }) : null;
    }
    // 「东京和伦敦现在几点」: both clocks, and how far apart they are.
    if (places.length > 1) return calls(zoneCall(places[0].text), zoneCall(places[1].text));
    if (keyword[0] === '北京时间') return call('current_time', { timezone: 'Asia/Shanghai' });
    // The tool knows IANA names and many places (东京, London) and says so when it does not.
    const where = zone ?? places[0]?.text ?? placeAround(text, keyword, keyword === zh ? TIME_ZH : TIME_EN);
    return call('current_time', where && where.length > 1 ? { timezone: where } : {});
  },
};

const placeName = (lang: Lang, c: PlannedCall): string => str(c.args.timezone) || say(lang, '你这里', 'your time');
const pad = (n: number): string => String(n).padStart(2, '0');

function hoursText(minutes: number, lang: Lang): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (!m) return say(lang, `${h} 小时`, `${h} hour${h === 1 ? '' : 's'}`);
  return say(lang, `${h} 小时 ${m} 分钟`, `${h} h ${m} min`);
}

/** 「东京：3月12日 星期四 11:00（UTC+09:00）」: one clock, briefly, for a comparison. */
function clockLine(lang: Lang, c: PlannedCall, output: string): string | undefined {
  const clock = readClock(output);
  if (!clock) return undefined;
  const time = `${pad(clock.hour)}:${pad(clock.minute)}`;
  const when = say(
    lang,
    `${dateName(clock.day, clock.day, lang)} ${weekdayName(clock.day, lang)} ${time}`,
    `${weekdayName(clock.day, lang)}, ${dateName(clock.day, clock.day, lang)}, ${time}`,
  );
  return say(
    lang,
    `${placeName(lang, c)}：${when}（${clock.zone}，${clock.offsetText}）`,
    `${placeName(lang, c)}: ${when} (${clock.zone}, ${clock.offsetText})`,
  );
}

/** Whether a message asks about two clocks: a difference, a conversion, or the time in two places. */
const twoClocks = (text: string): boolean =>
  TIME_DIFF.test(text) || mentions(text).length > 1 || !!sidesOf(text, mentions(text));

function timeSuccess(lang: Lang, c: PlannedCall, output: string, message: string): string {
  if (twoClocks(message)) return clockLine(lang, c, output) ?? output;
  // 「北京明天天气怎么样，另外今天星期几」: 明天 is the weather's, not this question's.
  const userText = scopeOf(message, DATE_CUES, WEATHER_WORDS);
  const clock = readClock(output);
  const q = dateQuestion(userText) ?? followUpDays(userText);
  if (!clock || !q || onlyToday(q, clock.day)) return output;
  const answer = answerDates(q, clock.day, lang);
  const place = str(c.args.timezone);
  return place ? say(lang, `按${place}当地日期：`, `By the calendar in ${place}: `) + answer : answer;
}

/** 「那后天呢」, "and friday?" after a question about a day: the days alone, asked the same way. */
function followUpDays(text: string): ReturnType<typeof dateQuestion> {
  const found = datesIn(text);
  if (!found.length) return undefined;
  let rest = text;
  for (const f of [...found].reverse()) rest = rest.slice(0, f.index) + rest.slice(f.index + f.length);
  return /^\s*(?:那么?|还有|and|what about|how about)?\s*(?:的|呢|吗|是|\?|？|\s)*$/i.test(rest)
    ? { kind: 'dates', found }
    : undefined;
}

/** How far apart the clocks of the first two results are. */
function difference(
  lang: Lang,
  results: ReadonlyArray<{ call: PlannedCall; output: string | undefined }>,
  userText: string,
): string | undefined {
  if (!twoClocks(userText)) return undefined;
  const clocks = results.flatMap((r) => {
    const clock = r.call.name === 'current_time' && r.output ? readClock(r.output) : undefined;
    return clock ? [{ call: r.call, clock }] : [];
  });
  if (clocks.length < 2) return undefined;
  const [a, b] = clocks;
  const [nameA, nameB] = [placeName(lang, a.call), placeName(lang, b.call)];
  // The calls were planned with the place the time is said in first.
  const sides = sidesOf(userText, mentions(userText));
  if (sides) {
    const side = (x: typeof a, name: string) => ({
      name,
      offsetMinutes: x.clock.offsetMinutes,
      local: !str(x.call.args.timezone),
    });
    return conversionLine(lang, sides.clock.minutes, side(a, nameA), side(b, nameB));
  }
  const diff = a.clock.offsetMinutes - b.clock.offsetMinutes;
  if (diff === 0) return say(lang, `${nameA}和${nameB}没有时差。`, `${nameA} and ${nameB} have no time difference.`);
  const amount = hoursText(Math.abs(diff), lang);
  return diff > 0
    ? say(lang, `${nameA}比${nameB}快 ${amount}。`, `${nameA} is ${amount} ahead of ${nameB}.`)
    : say(lang, `${nameA}比${nameB}慢 ${amount}。`, `${nameA} is ${amount} behind ${nameB}.`);
}

export const TIME_RULES: ToolRules = {
  intents: [currentTime],
  failure: {
    current_time: (lang, _args, why) =>
      say(lang, `抱歉，没能查到时间：${why}`, `Sorry, I couldn't get the time: ${why}`),
  },
  success: {
    current_time: (lang, c, output, ctx) => timeSuccess(lang, c, output, utterance(ctx.userText).norm),
  },
  together: (lang, results, ctx) => difference(lang, results, utterance(ctx.userText).norm),
};
