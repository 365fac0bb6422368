/**
 * Finding a place name in what surrounds a weather or time keyword:
 * 「帮我查一下北京的天气」 → 北京, 「上海明天会下雨吗」 → 上海, "weather in New York today" → New York.
 */
import { trimEndOf } from './extract.js';

const MAX_PLACE_CHARS = 20;

const alternation = (words: string[]): string => [...words].sort((a, b) => b.length - a.length).join('|');

/** Words about when, not where; a place is never one of these. */
const WHEN_ZH = [
  '今天',
  '明天',
  '后天',
  '大后天',
  '现在',
  '当前',
  '目前',
  '今日',
  '明日',
  '今晚',
  '明晚',
  '明早',
  '今早',
  '这几天',
  '最近',
  '这周',
  '本周',
  '下周',
  '周末',
  '未来几天',
  '一周',
  '早上',
  '上午',
  '中午',
  '下午',
  '晚上',
];
const LEAD_ZH = [
  '那么',
  '那',
  '还有',
  '换成',
  '改成',
  '再',
  '帮我',
  '帮忙',
  '请问',
  '请',
  '麻烦你',
  '麻烦',
  '给我',
  '你知道',
  '你知道吗',
  '我想知道',
  '想知道',
  '我想问',
  '问一下',
  '查询一下',
  '查询',
  '查一下',
  '查下',
  '查查',
  '查',
  '看一下',
  '看下',
  '看看',
  '看',
  '问下',
  '告诉我',
  '说一下',
  '说说',
  '一下',
  '的',
  '在',
  '我这',
  '去',
  '到',
  '回',
  '出差去',
  '出差到',
  '不',
  '呢',
  ...WHEN_ZH,
];
const TRAIL_ZH_WORDS = [
  '的',
  '时间',
  '会不会',
  '会',
  '要不要',
  '需不需要',
  '需要',
  '用不用',
  '要',
  '得',
  '是不是',
  '是',
  '很',
  '还',
  '比较',
  '有点',
  '呢',
  '吗',
  '怎么样',
  '如何',
  '咋样',
  '好不好',
  '好吗',
  '啊',
  '呀',
  '的话',
  '那边',
  '那里',
  '这边',
  '有没有',
  '有',
  '更',
  '出门',
  '最高',
  '最低',
  '气温',
  '温度',
  // What people go to a city for: 「周六去杭州爬山」 asks about 杭州.
  '玩',
  '玩儿',
  '旅游',
  '旅行',
  '出差',
  '开会',
  '爬山',
  '逛街',
  '逛逛',
  '看海',
  '看展',
  '拍照',
  '跑步',
  '露营',
  '野餐',
  '徒步',
  '骑车',
  '滑雪',
  '游泳',
  '度假',
  '办事',
  '上课',
  '考试',
  '面试',
  '看演唱会',
  '看比赛',
  '见朋友',
  ...WHEN_ZH,
];
/** Words stripped off one end, with the length of the longest (an end is searched only that far in). */
interface EdgeWords {
  pattern: RegExp;
  maxChars: number;
}
const edgeWords = (words: string[], source: (alternatives: string) => string, flags = ''): EdgeWords => ({
  pattern: new RegExp(source(alternation(words)), flags),
  maxChars: Math.max(...words.map((w) => w.length)),
});

const LEAD_ZH_RE = new RegExp(`^(?:${alternation(LEAD_ZH)})`);
const TRAIL_ZH = edgeWords(TRAIL_ZH_WORDS, (a) => `(?:${a})$`);
const EDGE_CHAR = /[\s?!,.:;'"“”、。]/;
const LEADING_EDGE = /^[\s?!,.:;'"“”、。]+/;
// Only the end is trimmed a character at a time: /[…]+$/ would be retried from every character of a run inside the text.
const trimEdges = (text: string): string => trimEndOf(text.replace(LEADING_EDGE, ''), EDGE_CHAR);

/** Words that stand where a place would but are not one: ask instead of guessing. */
const NOT_PLACES_ZH = new Set([
  '这里',
  '这边',
  '那里',
  '那边',
  '外面',
  '本地',
  '当地',
  '家里',
  '我这',
  '我们这',
  '这儿',
  '那儿',
  '附近',
  '天',
  '全国',
  '国内',
  '国外',
  '这',
  '那',
  '哪里',
  '哪儿',
  '什么',
  '你那',
  '你那边',
  '天气',
  '气温',
  '温度',
]);

/** A word of `trail` ending the text, looked for in its last few characters only. */
function trailingWord(text: string, trail: EdgeWords): string | undefined {
  // One character more than the longest word, so a `\b` before the word sees the character before it.
  return trail.pattern.exec(text.slice(-(trail.maxChars + 1)))?.[0];
}

function stripEdges(text: string, lead: RegExp, trail: EdgeWords): string {
  let t = trimEdges(text);
  for (;;) {
    let next = t.replace(lead, '');
    const word = trailingWord(next, trail);
    if (word) next = next.slice(0, next.length - word.length);
    next = trimEdges(next);
    if (next === t) return t;
    t = next;
  }
}

/** A Chinese place from the words around a keyword, or undefined if none is really named. */
export function placeZh(text: string): string | undefined {
  let place = stripEdges(text, LEAD_ZH_RE, TRAIL_ZH);
  if (/^[\u4e00-\u9fff]{2,}市$/.test(place)) place = place.slice(0, -1);
  if (!place || NOT_PLACES_ZH.has(place)) return undefined;
  if (/[我你他她它咱]/.test(place)) return undefined;
  // One character left over is debris from the sentence (「现在几点了」 → 了), not a place.
  if (/^[\u4e00-\u9fff·]+$/.test(place)) return place.length > 1 && place.length <= MAX_PLACE_CHARS ? place : undefined;
  return placeEn(place);
}

const WHEN_EN = [
  'today',
  'tonight',
  'tomorrow',
  'now',
  'right now',
  'rn',
  'currently',
  'this week',
  'this weekend',
  'next week',
  'this morning',
  'this afternoon',
  'this evening',
];
const LEAD_EN = [
  'what about',
  'how about',
  "what's",
  'what is',
  'whats',
  "how's",
  'how is',
  'how',
  'what',
  'tell me',
  'show me',
  'check',
  'get',
  'the',
  'current',
  "today's",
  "tomorrow's",
  'local',
  'in',
  'for',
  'at',
  'and',
  'then',
  'please',
  'is it',
  'will it',
  'is',
  'was',
  'than',
  'which',
  'which is',
  'which one is',
  'compare',
  'between',
  ...WHEN_EN,
];
const TRAIL_EN_WORDS = [
  'please',
  'like',
  'then',
  'be',
  'is',
  'going to be',
  'look like',
  'looks like',
  'which',
  'which one',
  'which city',
  ...WHEN_EN,
];
const LEAD_EN_RE = new RegExp(`^(?:${alternation(LEAD_EN)})\\b\\s*`, 'i');
// The spaces before a trailing word are trimmed with the edges after it.
const TRAIL_EN = edgeWords(TRAIL_EN_WORDS, (a) => `\\b(?:${a})$`, 'i');
const NOT_PLACES_EN = new Set([
  'here',
  'there',
  'outside',
  'my area',
  'my city',
  'my town',
  'town',
  'the city',
  'it',
  'you',
  'me',
  'i',
  'weather',
  'temperature',
  'forecast',
  'time',
  'the time',
]);

/** An English place name ("New York", "paris"), or undefined. */
export function placeEn(text: string): string | undefined {
  const place = stripEdges(text, LEAD_EN_RE, TRAIL_EN);
  if (!place || place.length > MAX_PLACE_CHARS * 2 || NOT_PLACES_EN.has(place.toLowerCase())) return undefined;
  if (!/^[A-Za-z][A-Za-z .'-]*$/.test(place)) return undefined;
  if (/\b(?:i|me|my|you|your|we|it)\b/i.test(place)) return undefined;
  return place;
}

/** Whether a phrase is only about when ("明天", "tomorrow"), as in 「那明天呢」. */
export function isWhenOnly(text: string): boolean {
  const t = trimEdges(text).toLowerCase();
  return WHEN_ZH.includes(t) || WHEN_EN.includes(t);
}

// The place starts and ends with a non-space: `\s+(.+?)\s*` is retried for every split of a long run of spaces.
const CHUNK_GAP = /[\s,.!?:;、。]+/;
const IN_PLACE = /\b(?:in|for|at)\s+(\S.*?)(?<!\s)\s*[?.!]*$/i;

/**
 * The place around a keyword: an English "in X", else before it (北京天气), else after it (天气 北京).
 * Other keywords are cut out first, so 「现在北京时间几点」 does not take 几点 for a place.
 */
export function placeAround(text: string, keyword: RegExpExecArray, keywords: RegExp): string | undefined {
  const others = new RegExp(keywords.source, 'gi');
  const before = text.slice(0, keyword.index).replace(others, ' ');
  const after = text.slice(keyword.index + keyword[0].length).replace(others, ' ');
  const inPlace = IN_PLACE.exec(after) ?? IN_PLACE.exec(text);
  return (inPlace ? placeEn(inPlace[1]) : undefined) ?? placeZh(before) ?? placeZh(after) ?? lastChunkZh(after);
}

/**
 * A Chinese place standing last, apart from the question before it: 「紫外线强吗 深圳」 → 深圳. Only
 * Chinese: an English sentence's last word is rarely a place.
 */
function lastChunkZh(text: string): string | undefined {
  const pieces = text.split(CHUNK_GAP);
  for (let i = pieces.length - 1; i >= 0; i--) {
    if (pieces[i]) return /^[\u4e00-\u9fff]/.test(pieces[i]) ? placeZh(pieces[i]) : undefined;
  }
  return undefined;
}
