/** Rules for the clock (current_time), and how its results are said. */
import { call, PRIORITY, type Intent, type ToolRules } from './intent.js';
import { say } from '../../i18n.js';
import { placeAround } from './places.js';

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

export const TIME_RULES: ToolRules = {
  intents: [currentTime],
  failure: {
    current_time: (lang, _args, why) => say(lang, `抱歉，没能查到时间：${why}`, `Sorry, I couldn't get the time: ${why}`),
  },
};
