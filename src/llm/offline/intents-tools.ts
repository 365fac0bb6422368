/** Rules for weather, time and the calculator. */
import { findExpression } from './expression.js';
import type { Utterance } from './extract.js';
import { call, PRIORITY, reply, str, type FailureWording, type Intent } from './intent.js';
import { say } from '../../i18n.js';
import { placeEn, placeZh } from './places.js';

const WEATHER_ZH = /天气|气温|温度|下雨|下雪|有雨|有雪|刮风|风大|多少度|几度|冷不冷|热不热|带伞|预报|雾霾|空气质量/;
const WEATHER_EN =
  /\b(?:weather|temperature|forecast|raining|rain|snowing|snow|sunny|windy|humid|umbrella)\b|\b(?:is|will) it (?:be )?(?:cold|hot|warm|chilly)\b|\bhow (?:cold|hot|warm) is it\b/i;
/**
 * Hot or cold as a question (会冷吗, 热吗, 多冷): weather only with a city or a day beside it,
 * since 「你冷吗」 asks about the listener, not the sky.
 */
const FEEL_ZH = /(?:(?:会不会|会|很|太|有点|比较|多)(?:冷|热|凉快|暖和)|(?:冷|热|凉快|暖和)(?=[吗么嘛]))(?=[吗么嘛啊呀呢吧不?!.,\s]|$)/;
const WEATHER_DAY_ZH = /今天|明天|后天|今晚|明早|明晚|这几天|周末|外面/;
// The place starts and ends with a non-space: `\s+(.+?)\s*` is retried for every split of a long run of spaces.
const IN_PLACE = /\b(?:in|for|at)\s+(\S.*?)(?<!\s)\s*[?.!]*$/i;

/**
 * The place around a keyword: an English "in X", else before it (北京天气), else after it (天气 北京).
 * Other keywords are cut out first, so 「现在北京时间几点」 does not take 几点 for a place.
 */
function placeAround(text: string, keyword: RegExpExecArray, keywords: RegExp): string | undefined {
  const others = new RegExp(keywords.source, 'gi');
  const before = text.slice(0, keyword.index).replace(others, ' ');
  const after = text.slice(keyword.index + keyword[0].length).replace(others, ' ');
  const inPlace = IN_PLACE.exec(after) ?? IN_PLACE.exec(text);
  return (inPlace ? placeEn(inPlace[1]) : undefined) ?? placeZh(before) ?? placeZh(after);
}

const weather: Intent = {
  id: 'weather',
  priority: PRIORITY.weather,
  match(u) {
    const zh = WEATHER_ZH.exec(u.norm);
    const keyword = zh ?? WEATHER_EN.exec(u.norm);
    if (keyword) {
      const city = placeAround(u.norm, keyword, keyword === zh ? WEATHER_ZH : WEATHER_EN);
      return city ? call('weather', { city }) : reply({ kind: 'askCity' });
    }
    const feel = FEEL_ZH.exec(u.norm);
    if (!feel) return null;
    const city = placeAround(u.norm, feel, FEEL_ZH);
    if (city) return call('weather', { city });
    return WEATHER_DAY_ZH.test(u.norm) ? reply({ kind: 'askCity' }) : null;
  },
};

const TIME_ZH = /几点|什么时间|什么时候了|时间是|现在时间|当前时间|北京时间|几号|几月几[日号]|星期几|周几|礼拜几|日期|什么日子|哪一天/;
const TIME_EN =
  /\bwhat time\b|\bthe time\b|\bcurrent time\b|\btime is it\b|\btime now\b|\bwhat day\b|\bwhich day\b|\bthe date\b|\btoday'?s date\b|\bwhat'?s today\b|\bday of the week\b|\bwhat year\b|\btime in\b/i;
const IANA_ZONE = /\b(?:[A-Z][A-Za-z]+\/[A-Za-z_]+(?:\/[A-Za-z_]+)?|UTC|GMT)\b/;

const currentTime: Intent = {
  id: 'current_time',
  priority: PRIORITY.time,
  match(u) {
    const zh = TIME_ZH.exec(u.norm);
    const keyword = zh ?? TIME_EN.exec(u.norm);
    if (!keyword) return null;
    if (keyword[0] === '北京时间') return call('current_time', { timezone: 'Asia/Shanghai' });
    // The tool knows IANA names and big cities (东京, London) and says so when it does not.
    const zone = IANA_ZONE.exec(u.norm)?.[0] ?? placeAround(u.norm, keyword, keyword === zh ? TIME_ZH : TIME_EN);
    return call('current_time', zone && zone.length > 1 ? { timezone: zone } : {});
  },
};

const STRONG_CALC = /算一下|算算|算一算|计算|帮我算|算下|算出|算个|^算\s|\b(?:calculate|compute|calc|evaluate|work out|solve)\b/i;
const WEAK_CALC = /等于|是多少|多少|几|=|\b(?:what is|what's|whats|how much is|equals?)\b/i;
// What may surround a bare expression: 「(3+5)*12 等于多少」, 「那 3*3 呢」, "2^10 = ?".
const CALC_FILLER = /等于多少|等于几|等于|是多少|是几|多少|结果|答案|那么|那|呢|吗|啊|呀|就是|是|=|\?|\bwhat is\b|\bwhat's\b|\bwhats\b|\bhow much is\b|\bequals?\b|\bis\b|[,.!。]|\s/gi;

/** Arithmetic with a request to compute it, or alone: 「算一下 (3+5)*2」, 「0.1+0.2」, "calculate 2^10". */
export function calculation(u: Utterance): ReturnType<Intent['match']> {
  const found = findExpression(u.norm);
  if (found) {
    const bare = found.rest.replace(CALC_FILLER, '') === '';
    if (bare || STRONG_CALC.test(u.norm) || WEAK_CALC.test(u.norm)) return call('calculator', { expression: found.expression });
    return null;
  }
  return STRONG_CALC.test(u.norm) ? reply({ kind: 'askExpression' }) : null;
}

const calculator: Intent = { id: 'calculator', priority: PRIORITY.calculator, match: calculation };

export const WEATHER_TIME_INTENTS: Intent[] = [weather, currentTime];
export const CALCULATOR_INTENTS: Intent[] = [calculator];

/** How these tools' failures are said. */
export const WEATHER_TIME_FAILURES: Record<string, FailureWording> = {
  weather: (lang, args, why) => say(lang, `抱歉，没能查到${str(args.city)}的天气：${why}`, `Sorry, I couldn't get the weather for ${str(args.city)}: ${why}`),
  current_time: (lang, _args, why) => say(lang, `抱歉，没能查到时间：${why}`, `Sorry, I couldn't get the time: ${why}`),
};
export const CALCULATOR_FAILURES: Record<string, FailureWording> = {
  calculator: (lang, args, why) => say(lang, `抱歉，${str(args.expression)} 算不出来：${why}`, `Sorry, I couldn't calculate ${str(args.expression)}: ${why}`),
};
