/**
 * Argument extraction for the offline planner: normalizing what the user typed and pulling
 * numbers, dates, paths and names out of it without swallowing the words around them.
 */
import { chineseNumeral } from './numerals.js';

/** A user message as the rules see it. `norm` has exactly the same length as `raw`, so an index
 * found in one slices the other: match on `norm`, take user content (todo text, file content) from `raw`.
 * A long message is seen as its beginning and its end with one mark for the middle (see `elided`):
 * what rules cost grows faster than the text, and a message may be 100,000 characters. */
export interface Utterance {
  /** The message as typed, trimmed (the middle of a long one replaced by `elided.mark`). */
  raw: string;
  /** Full-width ASCII and ideographic space folded to half-width, one UTF-16 unit for one. */
  norm: string;
  /** The middle of a long message, left out of `raw` and `norm`; `restore` puts it back into user content. */
  elided?: { mark: string; text: string };
}

const FULL_WIDTH_FIRST = 0xff01;
const FULL_WIDTH_LAST = 0xff5e;
const FULL_WIDTH_OFFSET = 0xfee0;
const IDEOGRAPHIC_SPACE = 0x3000;
/** Of a longer message the rules read this many characters from the start… */
export const HEAD_CHARS = 2_000;
/** …and this many from the end, where 「…写到 a.txt」 and "… to a.txt" name the file. */
export const TAIL_CHARS = 500;
/** First candidate for the mark standing for the middle: a private-use character, matched only by `.` and negated classes. */
const FIRST_MARK = 0xe000;

/** A character not in `text`, so the mark can never be mistaken for something the user typed. */
function markFor(text: string): string {
  let code = FIRST_MARK;
  while (text.includes(String.fromCharCode(code))) code++;
  return String.fromCharCode(code);
}

/** An index near `i` that does not split a surrogate pair. */
function boundary(text: string, i: number): number {
  const code = text.charCodeAt(i - 1);
  return code >= 0xd800 && code <= 0xdbff ? i - 1 : i;
}

export function utterance(text: string): Utterance {
  let raw = text.trim();
  let elided: Utterance['elided'];
  if (raw.length > HEAD_CHARS + TAIL_CHARS + 1) {
    const head = boundary(raw, HEAD_CHARS);
    const tail = boundary(raw, raw.length - TAIL_CHARS);
    elided = { mark: markFor(raw), text: raw.slice(head, tail) };
    raw = raw.slice(0, head) + elided.mark + raw.slice(tail);
  }
  let norm = '';
  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i);
    if (code >= FULL_WIDTH_FIRST && code <= FULL_WIDTH_LAST) norm += String.fromCharCode(code - FULL_WIDTH_OFFSET);
    else if (code === IDEOGRAPHIC_SPACE) norm += ' ';
    else norm += raw[i];
  }
  return elided ? { raw, norm, elided } : { raw, norm };
}

/** User content taken from `u.raw`, with the middle of a long message put back in. */
export function restore(u: Utterance, text: string): string {
  const { elided } = u;
  return elided ? text.replace(elided.mark, () => elided.text) : text;
}

/** A sub-range of an utterance, e.g. one clause of "算一下 1+1，然后看看待办". */
export function slice(u: Utterance, start: number, end: number): Utterance {
  const raw = u.raw.slice(start, end);
  const lead = raw.length - raw.trimStart().length;
  const kept = raw.trim().length;
  const part = { raw: raw.substr(lead, kept), norm: u.norm.slice(start, end).substr(lead, kept) };
  return u.elided ? { ...part, elided: u.elided } : part;
}

/**
 * `text` without the characters of `chars` (a one-character class) at its end. A regex like
 * /[\s.]+$/ would retry from every character of a long run of them inside the text.
 */
export function trimEndOf(text: string, chars: RegExp): string {
  let end = text.length;
  while (end > 0 && chars.test(text[end - 1])) end--;
  return text.slice(0, end);
}

const QUOTES: ReadonlyArray<readonly [string, string]> = [
  ['"', '"'],
  ["'", "'"],
  ['“', '”'],
  ['‘', '’'],
  ['「', '」'],
  ['『', '』'],
  ['《', '》'],
  ['`', '`'],
];

/** Drops one pair of surrounding quotes: 把“你好 世界”写到 a.txt → 你好 世界. */
export function unquote(text: string): string {
  const t = text.trim();
  for (const [open, close] of QUOTES) {
    if (t.length >= 2 && t.startsWith(open) && t.endsWith(close)) return t.slice(open.length, -close.length);
  }
  return t;
}

/** Sentence ends trimmed off a clause, one character at a time. */
export const CLAUSE_END = /[\s。.!！]/;

/** Strips the leading colon or comma that follows a marker ("记一下：…") and trailing sentence ends. */
export function trimClause(text: string): string {
  return trimEndOf(text.replace(/^[\s:：,，、]+/, ''), CLAUSE_END);
}

/** "3" → 3, "十二" → 12, "二十" → 20, "两" → 2, "一百零五" → 105; undefined if it is not a whole number. */
export function parseNumber(text: string): number | undefined {
  if (/^\d+$/.test(text)) return Number(text);
  const digits = /点/.test(text) ? undefined : chineseNumeral(text);
  return digits === undefined ? undefined : Number(digits);
}

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];
const CN_NUM = '[0-9]+|[零〇一二两三四五六七八九十百]+';
const ID_PATTERNS: RegExp[] = [
  new RegExp(`第\\s*(${CN_NUM})\\s*(?:条|个|项|件|号|行)?`),
  new RegExp(`(?:编号|序号|#)\\s*(${CN_NUM})`),
  new RegExp(`(${CN_NUM})\\s*号`),
  /\b(?:todo|task|item|number|no\.?)\s*(?:#\s*)?(\d+)\b/i,
  /\b(\d+)(?:st|nd|rd|th)\b/i,
  new RegExp(`\\b(${ORDINALS.join('|')})\\b`, 'i'),
];

const ONE_ID = `(?:第\\s*)?(${CN_NUM})\\s*(?:条|个|项|件|号)?`;
/** Numbers listed together: 「第一个和第三个」「2和3」「1、2」 "1 and 2", "#2, #3". */
const ID_LIST = new RegExp(`${ONE_ID}(?:\\s*(?:和|跟|与|及|、|,|，|/|&|\\band\\b)\\s*(?:#\\s*)?${ONE_ID})+`, 'gi');

/** Several todo numbers named together, in order; one number or none gives fewer than two. */
export function todoIds(text: string): number[] {
  for (const m of text.matchAll(ID_LIST)) {
    const ids = [...m[0].matchAll(new RegExp(CN_NUM, 'g'))]
      .map((n) => parseNumber(n[0]))
      .filter((n): n is number => n !== undefined && n > 0);
    // A sum ("2 和 3 加起来") or a date is no list of items: only a short list of small numbers is.
    if (ids.length > 1 && ids.length <= 20 && ids.every((n) => n < 10_000)) return [...new Set(ids)];
  }
  return [];
}

/** The todo number a message refers to: 第二条, 1号, #3, item 2, the second one, or a lone number. */
export function todoId(text: string): number | undefined {
  for (const pattern of ID_PATTERNS) {
    const m = pattern.exec(text);
    if (!m) continue;
    const word = m[1].toLowerCase();
    const ordinal = ORDINALS.indexOf(word);
    const n = ordinal >= 0 ? ordinal + 1 : parseNumber(word);
    if (n !== undefined && n > 0) return n;
  }
  // A lone number counts too ("done 2"), but not a quantity ("完成了 3 个报告").
  const lone = text.match(/(?<![\d.])\d{1,4}(?![\d.]|\s*(?:个|份|篇|本|次|天|小时|分钟|元|块|%))/g);
  return lone && lone.length === 1 && Number(lone[0]) > 0 ? Number(lone[0]) : undefined;
}

const ZH_DAY =
  '(?:大后天|后天|今天|今晚|明天|明晚|明早|(?:下下?|这|本)?(?:周|星期|礼拜)[一二三四五六日天1-7]|(?:下|这|本)(?:周|星期)|月底|月末|年底|年末|周末' +
  '|(?:\\d{1,3}|[一二两三四五六七八九十]{1,3})\\s*(?:天|日|个?(?:周|星期|礼拜))(?:之后|以后|后)' +
  '|\\d{4}-\\d{1,2}-\\d{1,2}|\\d{1,2}月\\d{1,2}[日号]|\\d{1,2}[日号])';
// The spaces after a part of the day belong to it: a bare `\s*` here would be retried from every space of a run.
const ZH_CLOCK =
  '(?:(?:早上|上午|中午|下午|晚上|傍晚|凌晨)\\s*)?(?:\\d{1,2}|[一二两三四五六七八九十]{1,3})\\s*(?:点(?:\\s*(?:半|一刻|三刻|\\d{1,2}\\s*分?))?|:\\d{2}|时)';
const ZH_DUE = new RegExp(`${ZH_DAY}(?:\\s*${ZH_CLOCK})?|${ZH_CLOCK}`);
const MONTH_EN =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)(?![a-z])\\.?';
const EN_DAY =
  '(?:today|tonight|tomorrow|(?:next |this )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|week|weekend)|\\d{4}-\\d{1,2}-\\d{1,2}' +
  '|in (?:\\d{1,3}|a|an|one|two|three|four|five|six|seven|ten) (?:days?|weeks?)|end of (?:the |this )?(?:month|year)|the \\d{1,2}(?:st|nd|rd|th)\\b' +
  `|${MONTH_EN}\\s+\\d{1,2}(?:st|nd|rd|th)?(?!\\d)|\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH_EN})`;
const EN_CLOCK = '\\d{1,2}(?::\\d{2})?\\s*(?:am|pm)';
// "7am tomorrow" as well as "tomorrow at 7am": the clock before the day keeps the day.
const EN_DUE = new RegExp(
  `\\b${EN_CLOCK}\\s+(?:on\\s+)?${EN_DAY}\\b|\\b${EN_DAY}(?:\\s+(?:at\\s+)?${EN_CLOCK}\\b)?|\\b${EN_CLOCK}\\b`,
  'i',
);

/** When a todo is due, as the user said it: "周五前交周报" → 周五, "明天 9 点交作业" → 明天 9 点. */
export function dueOf(content: string): string | undefined {
  // English words first in English: 「11:59」 in "11:59pm tonight" would otherwise read as a Chinese clock.
  const m = /[\u4e00-\u9fff]/.test(content)
    ? (ZH_DUE.exec(content) ?? EN_DUE.exec(content))
    : (EN_DUE.exec(content) ?? ZH_DUE.exec(content));
  return m ? m[0].trim() : undefined;
}

// A path with a Chinese name must end in an extension, so 读一下笔记.txt吧 stops at .txt;
// an ASCII path is a run of path characters (notes/a.txt, ../secret.txt, README).
// A verb or a preposition typed against an ASCII name is no part of it: 「把a.txt的内容改成…」 names a.txt.
const NOT_A_NAME_START =
  '(?!(?:打开|看看|读取|查看|删除|创建|新建|保存|写入|追加|添加|把|将|往|向|给|在|到|读|写|删|从|跟|和|的|是|叫|看|开)[A-Za-z0-9_])';
const CJK_PATH = `${NOT_A_NAME_START}[A-Za-z0-9_.~\\-/\\\\]*[\\u4e00-\\u9fff][\\w\\u4e00-\\u9fff.\\-/]*?\\.[A-Za-z][A-Za-z0-9]{0,9}(?![A-Za-z0-9])`;
const ASCII_PATH = '(?:[A-Za-z]:[\\\\/])?[A-Za-z0-9_.~\\-/\\\\]*[A-Za-z0-9_~/\\\\]';
/** Regex source for a file path, for rules to embed. */
export const PATH = `(?:${CJK_PATH}|${ASCII_PATH})`;

/** A path as matched, without the full stop or comma that ended the sentence after it. */
export const cleanPath = (path: string): string => trimEndOf(path, /[.,]/);

/** True for tokens that name a file or folder (a slash or an extension), not a bare word. */
export function looksLikeFile(path: string): boolean {
  // 7/8 and 2026/3/12 are numbers.
  if (/^[\d./]+$/.test(path)) return false;
  return /[/\\]/.test(path) || /\.[A-Za-z][A-Za-z0-9]{0,9}$/.test(path);
}

const NAME_STOP = /^(?:什么|啥|谁|哪个|什么名字)/;

/** The name after 我叫 / my name is: "刘浩彬呀，你呢" → 刘浩彬; "alex smith" → alex smith. */
export function nameFrom(after: string): string | undefined {
  const zh = /^\s*(?:[:：]\s*)?([^\s,，.。!！?？;；:：、]{1,20})/.exec(after);
  if (!zh || NAME_STOP.test(zh[1])) return undefined;
  if (/^[A-Za-z]/.test(zh[1])) {
    // English: the first word, plus following capitalised words ("Alex Smith", not "Alex and I").
    const words = after
      .trim()
      .split(/[\s,.!?;:]+/)
      .filter(Boolean);
    const kept = [words[0]];
    for (const w of words.slice(1, 3)) {
      if (!/^[A-Z][a-z'-]*$/.test(w)) break;
      kept.push(w);
    }
    return kept.join(' ');
  }
  const name = zh[1].replace(/(?:呀|啊|哦|哈|吧|呢|啦|嘛)+$/, '');
  return name || undefined;
}
