/**
 * How the planner says a weather result: the day or days asked about (明天, 周末, 这两天, "on
 * Saturday") from the report's dated lines; when the service sent nothing for a day, it says so,
 * naming the day by date and weekday, and gives the current conditions. Two cities asked about
 * together get a line comparing them.
 */
import { say, type Lang } from '../../i18n.js';
import { addDays, daysBetween, type Day } from './calendar.js';
import { dateName, labelOf, weekdayName } from './date-answers.js';
import { datesIn, daysOf, type Found } from './dates.js';
import { str, type PlannedCall } from './intent.js';
import { weatherOf, type WeatherFigures, type WeatherReport } from './weather-output.js';
import type { ToolResultData } from '../../contract/tool-data.js';
import { scopeOf } from './clause-scope.js';
import { DATE_CUES } from './date-questions.js';

export const WEATHER_ZH =
  /天气|气温|温度|下雨|下雪|下不下[雨雪]|有雨|有雪|有没有雨|刮风|风大|多少度|几度|冷不冷|热不热|带伞|预报|雾霾|空气质量|紫外线|湿度|风力|降温|升温|台风|暴雨/;
export const WEATHER_EN =
  /\b(?:weather|temperature|forecast|raining|rain|snowing|snow|sunny|windy|humid|umbrella)\b|\b(?:like|nice|cold|hot|warm|chilly)\s+out(?:side)?\b|\b(?:need|bring|take|wear|pack)\s+(?:a\s+|an\s+|my\s+)?(?:jacket|coat|umbrella|sunscreen|raincoat)\b|\b(?:is|will) it (?:be )?(?:cold|hot|warm|chilly)\b|\bhow (?:cold|hot|warm|chilly) (?:is it|will it be|is it going to be)\b/i;
/** Any word about the sky, for telling a weather request from the others in a message. */
export const WEATHER_WORDS = new RegExp(
  `${WEATHER_ZH.source}|冷|热|伞|${WEATHER_EN.source}|\\b(?:warmer|colder|hotter|cooler|compare)\\b`,
  'i',
);

/** Two or more cities compared: 「哪个冷」, 「比…热」, "warmer", "compare". */
export const COMPARE =
  /哪(?:个|边|里|一个)(?:城市|地方)?(?:更|比较|会)?(?:冷|热|暖和?|凉快?|舒服|高|低)|谁(?:更)?(?:冷|热)|比.{0,12}?(?:冷|热|暖和?|凉快?)|对比|比较一?下|\bcompare\b|\b(?:warmer|colder|hotter|cooler)\b|\bvs\.?\b|\bversus\b/i;
const RAIN_ASK = /伞|下雨|有雨|雨吗|下雪|\brain|\bumbrella\b|\bshowers?\b|\bsnow/i;
const COLD_ASK = /冷|凉|低|\bcold|\bcool/i;
const HOT_ASK = /热|\bhot/i;
/** A chance of rain from which we say to take an umbrella. */
const UMBRELLA_PCT = 50;

/** The days a weather question names, each with its expression; none when it names only now or today. */
function askedDays(text: string, today: Day): Array<{ found: Found; days: Day[] }> {
  return datesIn(text)
    .map((found) => ({ found, days: daysOf(found.expr, today, found.expr.kind === 'holiday' ? 'next' : undefined) }))
    .filter(({ days }) => days.length && !(days.length === 1 && daysBetween(today, days[0]) === 0));
}

/** Today where the report was made: its own date, else the day before its first coming day, else the user's. */
function reportToday(r: WeatherReport, fallback: Day | undefined): Day | undefined {
  return r.today?.day ?? (r.days[0] ? addDays(r.days[0].day, -1) : fallback);
}

const dayWords = (d: Day, today: Day, lang: Lang): string =>
  say(
    lang,
    `${dateName(d, today, lang)} ${weekdayName(d, lang)}`,
    `${weekdayName(d, lang)}, ${dateName(d, today, lang)}`,
  );

function dayList(days: Day[], today: Day, lang: Lang): string {
  if (days.length > 3)
    return say(
      lang,
      `${dayWords(days[0], today, lang)} 到 ${dayWords(days.at(-1)!, today, lang)}`,
      `${dayWords(days[0], today, lang)} to ${dayWords(days.at(-1)!, today, lang)}`,
    );
  return days.map((d) => dayWords(d, today, lang)).join(say(lang, '、', '; '));
}

const rainy = (f: WeatherFigures): boolean => f.wet || (f.rainChance ?? 0) >= UMBRELLA_PCT;

const umbrellaLine = (lang: Lang, seen: WeatherFigures[]): string =>
  seen.some(rainy)
    ? say(lang, '有雨的可能，记得带伞。', 'Rain is likely: take an umbrella.')
    : say(lang, '看起来不会下雨，应该不用带伞。', "Rain looks unlikely; you probably won't need an umbrella.");

/** The lines for the days asked, and what could not be said (days with no forecast, days gone). */
function forDays(r: WeatherReport, asked: Array<{ found: Found; days: Day[] }>, today: Day, lang: Lang) {
  const lines: string[] = [];
  const missing: string[] = [];
  const past: string[] = [];
  const seen: WeatherFigures[] = [];
  let saidNow = false;
  for (const { found, days } of asked) {
    const label = labelOf(found.expr, today, lang);
    const single = days.length === 1 && found.expr.kind !== 'weekday' && found.expr.kind !== 'date';
    const gone: Day[] = [];
    const absent: Day[] = [];
    for (const d of days) {
      const ahead = daysBetween(today, d);
      const f = ahead === 0 ? (r.today ?? r.now) : r.days.find((x) => daysBetween(x.day, d) === 0);
      if (ahead < 0) gone.push(d);
      else if (!f) absent.push(d);
      else {
        seen.push(f);
        // Today without a forecast line is said by the current conditions.
        const nowOnly = ahead === 0 && !r.today;
        saidNow ||= nowOnly;
        const name =
          ahead === 0
            ? say(
                lang,
                `${nowOnly ? '现在' : '今天'}（${dayWords(d, today, lang)}）`,
                `${nowOnly ? 'Now' : 'Today'} (${dayWords(d, today, lang)})`,
              )
            : dayWords(d, today, lang);
        lines.push(
          `${name}${single && ahead !== 0 ? say(lang, `（${label}）`, ` (${label})`) : ''}${say(lang, '：', ': ')}${f.text}`,
        );
      }
    }
    // 「周日（3月15日）」: a weekday's label already says which day of the week.
    const list = (ds: Day[]) =>
      found.expr.kind === 'weekday' && ds.length === 1 ? dateName(ds[0], today, lang) : dayList(ds, today, lang);
    if (gone.length) past.push(`${label}${say(lang, `（${list(gone)}）`, ` (${list(gone)})`)}`);
    if (absent.length) missing.push(`${label}${say(lang, `（${list(absent)}）`, ` (${list(absent)})`)}`);
  }
  return { lines, missing, past, seen, saidNow };
}

/** What could not be said about the days asked, in a sentence each. */
function gaps(lang: Lang, missing: string[], past: string[]): string[] {
  const out: string[] = [];
  if (past.length)
    out.push(
      say(
        lang,
        `天气服务只有当前和未来几天的预报，查不到${past.join('、')}的天气。`,
        `The weather service only forecasts from today on, so I can't tell the weather for ${past.join(' or ')}.`,
      ),
    );
  if (missing.length)
    out.push(
      say(
        lang,
        `天气服务没有给出${missing.join('、')}的预报。`,
        `The weather service gave no forecast for ${missing.join(' or ')}.`,
      ),
    );
  return out;
}

/** The reply for one weather result, answering the day(s) the user asked about. */
export function weatherSuccess(
  lang: Lang,
  c: PlannedCall,
  output: string,
  message: string,
  userToday: Day | undefined,
  result?: ToolResultData,
): string {
  const text = scopeOf(message, WEATHER_WORDS, DATE_CUES);
  const r = weatherOf(output, result);
  if (!r) return output;
  const compare = COMPARE.test(text);
  const today = reportToday(r, userToday);
  const asked = today ? askedDays(text, today) : [];
  const city = `${str(c.args.city) || r.place}${say(lang, '：', ': ')}`;
  if (!today || !asked.length) {
    if (compare) return city + ((r.now ?? r.today)?.text ?? '');
    // Today only: the report without the coming days, and the umbrella answer if asked.
    const seen = [r.now, r.today].filter((f): f is WeatherFigures & { line: string } => !!f);
    const umbrella = RAIN_ASK.test(text) && seen.length ? umbrellaLine(lang, seen) : undefined;
    return [r.place, r.now?.line, r.today?.line, umbrella ?? r.advice].filter(Boolean).join('\n');
  }
  const { lines, missing, past, seen, saidNow } = forDays(r, asked, today, lang);
  // Compared with another city: this city's figures in a line; what is missing is said once, with the comparison.
  if (compare)
    return (
      city +
      (lines.length
        ? lines.join(say(lang, '；', '; '))
        : say(lang, `现在 ${r.now?.text ?? ''}`, `now ${r.now?.text ?? ''}`))
    );
  const out = [r.place, ...lines, ...gaps(lang, missing, past)];
  if ((missing.length || past.length) && r.now && !saidNow)
    out.push(say(lang, `现在的天气：${r.now.text}`, `Right now: ${r.now.text}`));
  if (RAIN_ASK.test(text)) {
    if (seen.length) {
      if (missing.length && !seen.some(rainy))
        out.push(
          say(
            lang,
            '已有的预报里看不出会下雨，其他日子没法确定。',
            "The forecast there is shows no rain; I can't say for the other days.",
          ),
        );
      else out.push(umbrellaLine(lang, seen));
    } else if (missing.length) {
      out.push(
        say(
          lang,
          '没有那天的预报，带不带伞我没法确定。',
          "Without that day's forecast I can't say whether you'll need an umbrella.",
        ),
      );
    }
  }
  return out.join('\n');
}

/** The comparison of the first two cities' results, when the user asked for one. */
export function compareWeather(
  lang: Lang,
  results: ReadonlyArray<{ call: PlannedCall; output: string | undefined; result?: ToolResultData }>,
  message: string,
  userToday: Day | undefined,
): string | undefined {
  const text = scopeOf(message, WEATHER_WORDS, DATE_CUES);
  if (!COMPARE.test(text)) return undefined;
  const cities = results.flatMap((x) => {
    const r = x.call.name === 'weather' && x.output ? weatherOf(x.output, x.result) : undefined;
    return r ? [{ name: str(x.call.args.city) || r.place, r }] : [];
  });
  if (cities.length < 2) return undefined;
  const [a, b] = cities;
  const today = reportToday(a.r, userToday);
  // A day asked about (明天哪个热) compares that day's highs (lows for 「哪个冷」), if both cities have it; else the current temperatures.
  const wanted = today ? askedDays(text, today)[0] : undefined;
  const day = wanted?.days[0];
  const cold = COLD_ASK.test(text);
  const pick = (r: WeatherReport) => (day ? r.days.find((x) => daysBetween(x.day, day) === 0) : undefined);
  const [da, db] = [pick(a.r), pick(b.r)];
  let va: number | undefined;
  let vb: number | undefined;
  let what: string;
  let note = '';
  if (day && today && da && db && (cold ? (da.min ?? da.max) : da.max) !== undefined) {
    [va, vb] = cold ? [da.min ?? da.max, db.min ?? db.max] : [da.max, db.max];
    const label = labelOf(wanted!.found.expr, today, lang);
    what = say(
      lang,
      `${label}（${dateName(day, today, lang)}）${cold && da.min !== undefined ? '最低' : '最高'}`,
      `${label}'s ${cold && da.min !== undefined ? 'low' : 'high'} (${dateName(day, today, lang)})`,
    );
  } else {
    [va, vb] = [a.r.now?.temp, b.r.now?.temp];
    what = say(lang, '现在', 'right now');
    if (day && today) {
      const label = `${labelOf(wanted!.found.expr, today, lang)}${say(lang, `（${dayWords(day, today, lang)}）`, ` (${dayWords(day, today, lang)})`)}`;
      note = say(
        lang,
        `（天气服务没有给出${label}的预报，所以按现在的气温比。）`,
        ` (The weather service gave no forecast for ${label}, so this compares the current temperatures.)`,
      );
    }
  }
  if (va === undefined || vb === undefined) return undefined;
  const diff = Math.round(Math.abs(va - vb) * 10) / 10;
  const figures = say(
    lang,
    `${a.name}${what} ${va}°C，${b.name} ${vb}°C`,
    `${capital(what)}: ${a.name} ${va}°C, ${b.name} ${vb}°C`,
  );
  if (diff === 0) return figures + say(lang, `，两地一样。`, ': the same.') + note;
  const [warm, coldOne] = va > vb ? [a.name, b.name] : [b.name, a.name];
  const verdict = cold
    ? say(lang, `，${coldOne}更冷，低 ${diff}°C。`, `: ${coldOne} is colder by ${diff}°C.`)
    : HOT_ASK.test(text)
      ? say(lang, `，${warm}更热，高 ${diff}°C。`, `: ${warm} is hotter by ${diff}°C.`)
      : say(lang, `，${warm}更暖和，高 ${diff}°C。`, `: ${warm} is warmer by ${diff}°C.`);
  return figures + verdict + note;
}

const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
