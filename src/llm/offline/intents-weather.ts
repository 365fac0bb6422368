/**
 * Rules for the weather tool, and how its results are said. The words for days (明天, 这两天,
 * 周末, "tmrw", "on Saturday") are cut out before the city is looked for, so 「成都这两天会下雨吗」
 * asks about 成都; two cities compared (「北京和上海哪个冷」) are two calls.
 */
import { calls, PRIORITY, reply, str, type Intent, type PlannedCall, type ToolRules } from './intent.js';
import { say } from '../../i18n.js';
import { placeAround, placeZh } from './places.js';
import { datesIn } from './dates.js';
import { utterance } from './extract.js';
import { compareWeather, WEATHER_EN, WEATHER_ZH, weatherSuccess } from './weather-wording.js';

/** Which of two places is colder or warmer; the places are on either side of these words. */
const COMPARE_ZH =
  /哪(?:个|边|里|一个)(?:城市|地方)?(?:更|比较|会)?(?:冷|热|暖和?|凉快?|舒服)|谁(?:更)?(?:冷|热)|对比一?下|比较一?下/;
const COMPARE_EN = /\b(?:warmer|colder|hotter|cooler|compare)\b/i;
/**
 * Hot or cold as a question (会冷吗, 热吗, 多冷): weather only with a city or a day beside it,
 * since 「你冷吗」 asks about the listener, not the sky.
 */
const FEEL_ZH =
  /(?:(?:会不会|会|很|太|有点|比较|多|更)(?:冷|热|凉快|暖和)|(?:冷|热|凉快|暖和)(?=[吗么嘛]))(?=[吗么嘛啊呀呢吧不?!.,\s]|$)/;
/** What to wear: a weather question only when a city is named (「明天去北京穿什么」); alone it is advice we cannot give. */
const WEAR = /穿什么|穿啥|穿多少|该怎么穿|\bwhat\s+(?:should\s+i|do\s+i|to)\s+wear\b/i;
const WEATHER_DAY_ZH = /今天|明天|后天|今晚|明早|明晚|这几天|周末|外面/;
/** Between the places of one request: 「北京和上海」「上海比北京」 "London or Paris". */
const PLACE_JOINT = /\s*(?:和|跟|与|及|同|以及|还是|还有|比|、|,|\/|&|\band\b|\bor\b|\bvs\.?|\bversus\b|\bthan\b)\s*/i;

/** The message with the words for days replaced by spaces of the same length, so indexes still match. */
function withoutDays(text: string): string {
  let out = text;
  for (const f of datesIn(text)) out = out.slice(0, f.index) + ' '.repeat(f.length) + out.slice(f.index + f.length);
  return out;
}

/** Words no place name has, lower-case as they stand in a sentence ("the time in London"). */
const NOT_IN_NAMES = /\b(?:the|in|at|of|to|for|time|weather|and|what|is|me|my|tell|how)\b/;
const placePart = (text: string): string | undefined => {
  const p = placeZh(text);
  return p && !NOT_IN_NAMES.test(p) ? p : undefined;
};

/**
 * 「北京和上海」 → 北京, 上海 when every part is a place. When only the first parts are
 * ("Tokyo and the time in London"), the rest is another request: the places before it.
 */
function splitPlaces(place: string | undefined): string[] {
  if (!place) return [];
  const parts = place.split(PLACE_JOINT).map(placePart);
  if (parts.length < 2) return [place];
  const leading: string[] = [];
  for (const p of parts) {
    if (!p) break;
    leading.push(p);
  }
  return leading.length ? [...new Set(leading)] : [place];
}

/** The cities around a keyword: the place found there, or several joined (「北京、天津的天气」). */
function citiesAround(text: string, keyword: RegExpExecArray, source: RegExp): string[] {
  const place = placeAround(text, keyword, source);
  if (place) return splitPlaces(place);
  for (const side of [text.slice(0, keyword.index), text.slice(keyword.index + keyword[0].length)]) {
    const parts = side.split(PLACE_JOINT).map(placePart);
    if (parts.length > 1 && parts.every((p): p is string => !!p)) return [...new Set(parts)];
  }
  return [];
}

const cityCalls = (cities: string[]) =>
  calls(
    ...(cities.map((city): PlannedCall => ({ name: 'weather', args: { city } })) as [PlannedCall, ...PlannedCall[]]),
  );

const weather: Intent = {
  id: 'weather',
  priority: PRIORITY.weather,
  match(u) {
    const text = withoutDays(u.norm);
    const zhCompare = COMPARE_ZH.exec(text);
    const compare = zhCompare ?? COMPARE_EN.exec(text);
    if (compare) {
      // Places stand on both sides: 「哪个冷，北京还是上海」, "is London colder than Paris".
      const source = zhCompare ? COMPARE_ZH : COMPARE_EN;
      const before = text.slice(0, compare.index);
      const after = text.slice(compare.index + compare[0].length);
      const around = citiesAround(text, compare, source);
      const both = [...splitPlaces(placeZh(before)), ...splitPlaces(placeZh(after))];
      const cities = around.length > 1 || both.length < 2 ? around : [...new Set(both)];
      if (cities.length) return cityCalls(cities);
    }
    const zh = WEATHER_ZH.exec(text);
    const keyword = zh ?? WEATHER_EN.exec(text);
    if (keyword) {
      const cities = citiesAround(text, keyword, keyword === zh ? WEATHER_ZH : WEATHER_EN);
      return cities.length ? cityCalls(cities) : reply({ kind: 'askCity' });
    }
    const wear = WEAR.exec(text);
    if (wear) {
      const cities = citiesAround(text, wear, WEAR);
      if (cities.length) return cityCalls(cities);
    }
    const feel = FEEL_ZH.exec(text);
    if (!feel) return compare ? reply({ kind: 'askCity' }) : null;
    const cities = citiesAround(text, feel, FEEL_ZH);
    if (cities.length) return cityCalls(cities);
    return WEATHER_DAY_ZH.test(u.norm) ? reply({ kind: 'askCity' }) : null;
  },
};

export const WEATHER_RULES: ToolRules = {
  intents: [weather],
  failure: {
    weather: (lang, args, why) =>
      say(
        lang,
        `抱歉，没能查到${str(args.city)}的天气：${why}`,
        `Sorry, I couldn't get the weather for ${str(args.city)}: ${why}`,
      ),
  },
  success: {
    // The message as the rules read it: a long one is its beginning and end, so wording stays fast too.
    weather: (lang, c, output, ctx, result) =>
      weatherSuccess(lang, c, output, utterance(ctx.userText).norm, ctx.today, result),
  },
  together: (lang, results, ctx) => compareWeather(lang, results, utterance(ctx.userText).norm, ctx.today),
};
