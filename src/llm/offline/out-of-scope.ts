/**
 * What to say when no rule matched: one short, honest sentence in the user's language, with the
 * nearest thing the offline planner can do for it (a reminder → a todo, an email → a file), instead
 * of the full capability list, which stays for an explicit "help".
 */
import type { Utterance } from './extract.js';

/** The tool group nearest to a request the planner cannot do. */
export type Nearest = 'todo' | 'files' | 'fileDelete' | 'calculator' | 'time' | 'weather';

/** Checked in order: the first group whose words appear is the nearest. */
const NEAR: ReadonlyArray<readonly [Nearest, RegExp]> = [
  ['fileDelete', /(?:删除|删掉|删了|移除|重命名|移动)(?:一下)?(?:这个|那个)?文件|\b(?:delete|remove|rename|move)\s+(?:the\s+|this\s+|a\s+)?file\b/i],
  ['todo', /闹钟|提醒|叫醒|叫我起床|wake me|日程|日历|预约|预订|订[^，。,.]{0,12}?(?:机票|车票|酒店|餐厅|位子|座位|票)|开会|会议|约会|\b(?:alarm|remind|reminder|schedule|calendar|appointment|meeting|book|reserve)\b/i],
  ['files', /邮件|邮箱|发给|发送|发消息|短信|微信|保存|存一下|\b(?:e-?mail|send|message|text|save)\b/i],
  ['calculator', /汇率|换算|兑换|折合|多少(?:美元|人民币|欧元|日元|公里|英里|斤|公斤|磅)|(?:美元|美金|人民币|欧元|日元|英镑|港币)(?:换|兑|是|等于|能换)|换(?:成)?(?:美元|美金|人民币|欧元|日元|英镑|港币)|\b(?:usd|cny|eur|jpy|gbp|rmb)\b|\b(?:exchange rate|convert|conversion|in (?:dollars|euros|yuan|miles|km|pounds|kilos))\b/i],
  ['time', /倒计时|计时|秒表|时区|\b(?:timer|countdown|stopwatch|time ?zone)\b/i],
  ['weather', /穿什么|穿啥|出门|晒衣服|洗车|\b(?:wear|outfit|go outside|jacket)\b/i],
];

/** The tools each group needs. */
const NEEDS: Readonly<Record<Nearest, string>> = {
  todo: 'todo_add', files: 'file_write', fileDelete: 'file_list', calculator: 'calculator', time: 'current_time', weather: 'weather',
};

/** The nearest group to what the user asked for, if one fits. */
export function nearestTo(u: Utterance): Nearest | undefined {
  return NEAR.find(([, words]) => words.test(u.norm))?.[0];
}

/** The second half of the sentence: what Zhixing can do instead, or where to find what it can do. */
export function nearestOffer(lang: 'zh' | 'en', near: Nearest | undefined, tools: ReadonlySet<string>): string {
  const zh = lang === 'zh';
  switch (near && tools.has(NEEDS[near]) ? near : undefined) {
    case 'todo':
      return zh ? '我能做的最接近的是记成待办，比如「记一下 明天下午三点开会」（不过不会到点提醒）。' : 'The closest I can do is a todo, e.g. "add a todo: dentist Friday" (no reminder will fire).';
    case 'files':
      return zh ? '我能做的最接近的是把内容写进工作区的文件，比如「把 内容 写到 notes/a.txt」。' : 'The closest I can do is write the text to a workspace file, e.g. "write hello to notes/a.txt".';
    case 'fileDelete':
      return zh ? '我只能读、写和列出工作区里的文件，比如「有哪些文件」。' : 'I can only read, write and list workspace files, e.g. "list files".';
    case 'calculator':
      return zh ? '如果你知道比例，我可以帮你算，比如「算一下 100*7.2」。' : 'If you know the rate, I can do the arithmetic, e.g. "calculate 100*7.2".';
    case 'time':
      return zh ? '我能告诉你现在几点，也能查别的城市的时间，比如「东京现在几点」。' : 'I can tell you the time here or in another city, e.g. "time in Tokyo".';
    case 'weather':
      return zh ? '我能查天气帮你判断，比如「北京天气怎么样」。' : 'I can look up the weather to help you decide, e.g. "weather in Paris".';
    default:
      return zh ? '说「你能做什么」看看我能做的事。' : 'Say "help" to see what I can do.';
  }
}
