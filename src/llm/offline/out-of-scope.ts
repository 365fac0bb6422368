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
  [
    'fileDelete',
    /(?:删除|删掉|删了|移除|重命名|移动)(?:一下)?(?:这个|那个)?文件|(?:删除|删掉|删了|移除|重命名|改名|移动)\s*\S*\.[A-Za-z][A-Za-z0-9]{0,9}(?![A-Za-z0-9])|\S\.[A-Za-z][A-Za-z0-9]{0,9}\s*(?:删除|删掉|删了|重命名|改名)|\b(?:delete|remove|rename|move)\s+(?:the\s+|this\s+|a\s+)?(?:file\b|\S+\.[A-Za-z][A-Za-z0-9]{0,9}\b)/i,
  ],
  [
    'todo',
    /闹钟|提醒|叫醒|叫我起床|wake me|日程|日历|预约|预订|订[^，。,.]{0,12}?(?:机票|车票|酒店|餐厅|位子|座位|票)|开会|会议|约会|\b(?:alarm|remind|reminder|schedule|calendar|appointment|meeting|book|reserve)\b/i,
  ],
  [
    'files',
    /(?:新建|创建|建)(?:一个|个)?(?:新的?)?(?:文件夹|目录)|\b(?:create|make) (?:a |the |new )*(?:folder|directory)\b|邮件|邮箱|发给|发送|发消息|短信|微信|保存|存一下|\b(?:e-?mail|send|message|text|save)\b/i,
  ],
  [
    'calculator',
    /汇率|换算|兑换|折合|多少(?:美元|人民币|欧元|日元|公里|英里|斤|公斤|磅)|(?:美元|美金|人民币|欧元|日元|英镑|港币)(?:换|兑|是|等于|能换)|换(?:成)?(?:美元|美金|人民币|欧元|日元|英镑|港币)|\b(?:usd|cny|eur|jpy|gbp|rmb)\b|\b(?:exchange rate|convert|conversion|in (?:dollars|euros|yuan|miles|km|pounds|kilos))\b/i,
  ],
  ['time', /倒计时|计时|秒表|时区|\b(?:timer|countdown|stopwatch|time ?zone)\b/i],
  ['weather', /穿什么|穿啥|出门|晒衣服|洗车|\b(?:wear|outfit|go outside|jacket)\b/i],
];

/** The tools each group needs. */
const NEEDS: Readonly<Record<Nearest, string>> = {
  todo: 'todo_add',
  files: 'file_write',
  fileDelete: 'file_list',
  calculator: 'calculator',
  time: 'current_time',
  weather: 'weather',
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
      return zh
        ? '我能做的最接近的是记成待办，比如「记一下 明天下午三点开会」（不过不会到点提醒）。'
        : 'The closest I can do is a todo, e.g. "add a todo: dentist Friday" (no reminder will fire).';
    case 'files':
      return zh
        ? '我能做的最接近的是把内容写进工作区的文件，比如「把 内容 写到 notes/a.txt」。'
        : 'The closest I can do is write the text to a workspace file, e.g. "write hello to notes/a.txt".';
    case 'fileDelete':
      return zh
        ? '我只能读、写和列出工作区里的文件，比如「有哪些文件」。'
        : 'I can only read, write and list workspace files, e.g. "list files".';
    case 'calculator':
      return zh
        ? '如果你知道比例，我可以帮你算，比如「算一下 100*7.2」。'
        : 'If you know the rate, I can do the arithmetic, e.g. "calculate 100*7.2".';
    case 'time':
      return zh
        ? '我能告诉你现在几点，也能查别的城市的时间，比如「东京现在几点」。'
        : 'I can tell you the time here or in another city, e.g. "time in Tokyo".';
    case 'weather':
      return zh
        ? '我能查天气帮你判断，比如「北京天气怎么样」。'
        : 'I can look up the weather to help you decide, e.g. "weather in Paris".';
    default:
      return zh ? '说「你能做什么」看看我能做的事。' : 'Say "help" to see what I can do.';
  }
}

/** What to ask first, before other words: 「帮我…」「能不能…」 "can you …". */
const POLITE =
  '^(?:请|麻烦你?|能不能|能否|可以|可不可以|你|please|can you|could you|would you)?\\s*(?:帮我|给我|帮忙|替我)?\\s*';
/**
 * Requests no tool serves, said at the start of a message: translating, writing an essay, a joke,
 * music, calling or texting someone, booking. Read before weather and time, whose words they may
 * hold (「把这段话翻译成英文：今天天气很好」).
 */
const CLEARLY_OUT = new RegExp(
  POLITE +
    '(?:(?:把.{0,60}?)?翻译|写(?:一|个)?(?:篇|首|段|封|份)|讲个?笑话|说个笑话|唱(?:一)?首|放(?:一)?首|播放|' +
    '打开.{0,6}?(?:音乐|视频|app|软件|网站|网页|微信|淘宝|抖音|b站)|(?:给.{1,8}?)?打(?:个|一个)?电话|(?:给.{1,8}?)?发(?:个|条|一条|一封)?(?:微信|短信|消息|邮件)|' +
    '(?:预)?订(?:一张|个|张|一间|间)?(?:\\S{0,12}?)(?:票|机票|酒店|餐厅|座位|会议室)|点(?:个|份)?外卖|叫(?:个|辆|一辆)?(?:车|出租车|网约车|滴滴)|打(?:个|辆)?车(?!费)|' +
    'translate|summari[sz]e|write (?:me )?(?:an? |the )?(?:essay|poem|story|song|letter|email|article|code|program|script)|tell me a joke|sing\\b|' +
    'play (?:some |a |the |me )?(?:music|songs?|video|movie)|call (?:my |mom|dad)|text (?:my |someone)|send (?:an? )?(?:email|text|message)|' +
    'book (?:a |me a )?(?:flight|hotel|table|ticket|room)|order (?:some )?(?:food|pizza|takeout)|turn (?:on|off) the)',
  'i',
);

/** A request that is plainly out of scope, whatever other words it holds. */
export const clearlyOutOfScope = (u: Utterance): boolean => CLEARLY_OUT.test(u.norm) && !SUM_ASKED.test(u.norm);
/** Numbers and a question of how much: arithmetic about a taxi fare, not a taxi. */
const SUM_ASKED = /\d[\s\S]*(?:多少|几)|(?:多少|几)[\s\S]*\d|\bhow (?:much|many)\b/i;
