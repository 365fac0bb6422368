/**
 * A message of several requests, split into one part per request: 「算一下 1+1，然后看看待办」,
 * "add milk to my todos, then show them", 「先…再…」, a pasted numbered list, one request a line,
 * sentences that each ask something. The planner decides whether the parts stand alone.
 */
import { slice, type Utterance } from './extract.js';

// 「算一下 1+1，然后看看待办」, "add milk to my todos, then show them": one clause per tool call.
// The spaces before "then" are left to the clause before, which is trimmed: `,?\s*\bthen` would be
// tried from every space of a long run.
const CONNECTOR = new RegExp(
  [
    '(?:[,;.!?。，；！？]\\s*)?(?:然后再?|接着再?|之后再?|并且|顺便再?|另外再?|同时|还有就是|最后再?)',
    '[,;。，；]\\s*(?:再|还要|也)(?!见)',
    '再(?=帮我|帮忙|看看|看一下|查一下|查查|查|算|记|读|写|删|把|告诉|列|问)',
    // 「算一下 2+2 并告诉我现在几点」「…和帮我查下天气」: 并 and 和 before a verb of asking
    '(?:并|和|跟)(?=(?:帮我|给我|再)?(?:告诉|查一下|查下|查查|查|看看|看一下|看下|算一下|算算|算|记一下|记下|列出|列一下|读一下|打开|写|删除|删掉|提醒|显示|展示|列))',
    // 「计算 15*15 和 16*16」 "3+4 and 5*6": two sums
    '(?<=\\d)\\s*(?:和|以及|跟|\\band\\b)\\s*(?=\\d+(?:\\.\\d+)?\\s*[-+*/^×÷])',
    // 「伦敦几点了还有纽约几点」: 还有 after a question's last word starts the next one
    '(?<=[了吗呢吧啊呀])\\s*还有(?!\\s*(?:多少|几|什么|哪些|啥))',
    ';',
    // A question or an exclamation ends a request: 「今天几号？我还有哪些事没做？」 (not 5! nor 3.5)
    '[?？]\\s*(?=\\S)|[。！]\\s*(?=\\S)|(?<![\\d!])!\\s*(?=\\S)|(?<=[a-z0-9)])\\.\\s+(?=[A-Z])',
    '(?:,\\s*)?\\b(?:and then|then|and also|also|and finally|and lastly|after that|afterwards|plus(?!\\s*\\$?\\d)|finally|lastly)\\b',
    // 「算 1+1 算 2+2」: a second 算 begins a second sum
    '(?<=\\d)\\s+(?=(?:再)?(?:算一下|算算|计算|算)\\s*\\d)',
    '(?<=[,，;；?？。!！])\\s*(?=还有)',
    // 「第一，…；第二，…」「首先…，其次…」 "first …, second …": an ordinal begins the next request
    '[,;。，；]\\s*(?=第[二三四五六七八九十]+(?:步|点|件事?|个)?\\s*[，,、：:])',
    '(?:[,;。，；]\\s*)?(?:其次|再次|再者)',
    ',\\s*(?=(?:second|secondly|third|thirdly|lastly)\\b)',
    "(?:,\\s*)?\\band\\s+(?=(?:show|list|tell|check|calculate|compute|add|read|write|delete|remove|mark|what|what's|how|give|find|look|remind|save|put|store|export|open|append|create|make)\\b)",
  ].join('|'),
  'gi',
);
/** 「先算一下 1+1 再看看待办」: 先 opens the first request, so the 再 after it starts the next. */
const FIRST = /^(?:请|麻烦你?|帮我)?\s*(?:首先|先)/;
/** An ordinal that only numbers a request: 「第一，」「首先，」 "first,", "secondly". */
const ORDINAL =
  /^(?:(?:第[一二三四五六七八九十]+(?:步|点|件事?|个)?|首先|其次|再次|最后|firstly|secondly|thirdly|first|second|third|lastly|finally)\s*[，,、：:]\s*|(?:其次|再次|secondly|thirdly)\s*)/i;
/** What asks about the part before it and nothing more. */
const QUESTION_ONLY =
  /^(?:多少钱?|是多少|等于多少|等于几|是几|几|结果|是|呢|吗|啊|呀|的|了|吧|\bhow much\b|\bwhat is it\b|\bis that\b|[\s,.!?。，！？~])+$/i;
/** A pasted numbered list: 「1. 算一下 2+3 2. 看看待办」, "1) … 2) …", ①②. */
const ITEM_MARK = /(?:^|\s|[,;，；。])(?:\d{1,2}\s*[.)、）]|[①②③④⑤⑥⑦⑧⑨])(?!\d)\s*/g;

/** Where a numbered list's items begin, if the message is one (at least two items, numbered from 1). */
function listItems(u: Utterance): Utterance[] | undefined {
  const marks = [...u.norm.matchAll(ITEM_MARK)];
  if (marks.length < 2) return undefined;
  const numbers = marks.map((m) => {
    const t = m[0].replace(/[^\d①②③④⑤⑥⑦⑧⑨]/g, '');
    return /\d/.test(t) ? Number(t) : '①②③④⑤⑥⑦⑧⑨'.indexOf(t) + 1;
  });
  if (!numbers.every((n, i) => n === i + 1)) return undefined;
  return marks.map((m, i) => slice(u, (m.index ?? 0) + m[0].length, marks[i + 1]?.index ?? u.norm.length));
}

/**
 * The parts of a message that are requests of their own, in order. `lists: false` leaves numbered
 * items together, for text that is itself a list (「内容是 1. 买菜 2. 做饭」).
 */
export function clauses(u: Utterance, { lists = true }: { lists?: boolean } = {}): Utterance[] {
  const lines = u.norm.includes('\n') || !lists ? undefined : listItems(u);
  const pieces = lines ?? byLines(u);
  const parts: Utterance[] = [];
  for (const piece of pieces) {
    const first = FIRST.exec(piece.norm);
    let start = first ? first[0].length : 0;
    for (const m of piece.norm.matchAll(CONNECTOR)) {
      const at = m.index ?? 0;
      if (at < start) continue;
      parts.push(slice(piece, start, at));
      start = at + m[0].length;
    }
    parts.push(slice(piece, start, piece.norm.length));
  }
  for (let i = 0; i < parts.length; i++) {
    const mark = ORDINAL.exec(parts[i].norm);
    if (mark) parts[i] = slice(parts[i], mark[0].length, parts[i].norm.length);
  }
  // 「帮我做三件事：」 only introduces the list; 「…七五折之后多少」 leaves 「多少」, no request of its own.
  return parts.filter(
    (p) =>
      p.norm.replace(/[\s,.!?。，！？；;]/g, '') !== '' && !/[:：]\s*$/.test(p.norm) && !QUESTION_ONLY.test(p.norm),
  );
}

/** A message of several lines is several requests, one per line (a numbered list's marks dropped). */
function byLines(u: Utterance): Utterance[] {
  if (!u.norm.includes('\n')) return [u];
  const out: Utterance[] = [];
  let start = 0;
  for (const line of u.norm.split('\n')) {
    const end = start + line.length;
    const mark = /^\s*(?:\d{1,2}\s*[.)、）]|[①②③④⑤⑥⑦⑧⑨]|[-*•])(?!\d)\s*/.exec(line);
    out.push(slice(u, start + (mark ? mark[0].length : 0), end));
    start = end + 1;
  }
  return out;
}

/**
 * Plain commas and semicolons, and 和/and between requests, for a message whose parts all turn out to
 * be requests of their own: 「北京天气和东京时间」 "weather in Paris and time in Tokyo".
 */
const COMMA = /[,，;；]|\s*(?:和|跟|以及|\band\b)\s*/g;

/** The message cut at its commas: 「东京现在几点，那边天气怎么样」. Only one piece when it has none. */
export function commaClauses(u: Utterance): Utterance[] {
  const parts: Utterance[] = [];
  let start = 0;
  for (const m of u.norm.matchAll(COMMA)) {
    parts.push(slice(u, start, m.index ?? 0));
    start = (m.index ?? 0) + m[0].length;
  }
  parts.push(slice(u, start, u.norm.length));
  return parts.filter((p) => p.norm.trim() !== '');
}
