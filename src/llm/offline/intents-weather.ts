/** Rules for the weather tool, and how its results are said. */
import { call, PRIORITY, reply, str, type Intent, type ToolRules } from './intent.js';
import { say } from '../../i18n.js';
import { placeAround } from './places.js';

const WEATHER_ZH = /天气|气温|温度|下雨|下雪|有雨|有雪|刮风|风大|多少度|几度|冷不冷|热不热|带伞|预报|雾霾|空气质量/;
const WEATHER_EN =
  /\b(?:weather|temperature|forecast|raining|rain|snowing|snow|sunny|windy|humid|umbrella)\b|\b(?:is|will) it (?:be )?(?:cold|hot|warm|chilly)\b|\bhow (?:cold|hot|warm) is it\b/i;
/**
 * Hot or cold as a question (会冷吗, 热吗, 多冷): weather only with a city or a day beside it,
 * since 「你冷吗」 asks about the listener, not the sky.
 */
const FEEL_ZH = /(?:(?:会不会|会|很|太|有点|比较|多)(?:冷|热|凉快|暖和)|(?:冷|热|凉快|暖和)(?=[吗么嘛]))(?=[吗么嘛啊呀呢吧不?!.,\s]|$)/;
const WEATHER_DAY_ZH = /今天|明天|后天|今晚|明早|明晚|这几天|周末|外面/;
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

export const WEATHER_RULES: ToolRules = {
  intents: [weather],
  failure: {
    weather: (lang, args, why) => say(lang, `抱歉，没能查到${str(args.city)}的天气：${why}`, `Sorry, I couldn't get the weather for ${str(args.city)}: ${why}`),
  },
};
