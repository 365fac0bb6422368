/**
 * The rule table and how a message becomes a plan. Each rule carries its priority (PRIORITY in
 * intent.ts says who goes first and why); the table is only where rules are collected. To add a
 * tool, write its module (a `ToolRules`) and list it in RULES.
 */
import { slice, utterance, type Utterance } from './extract.js';
import { followUp } from './followup.js';
import { nearestTo } from './out-of-scope.js';
import { reply, type Intent, type Outcome, type PlanContext, type PlannedCall, type Reply, type ToolRules } from './intent.js';
import { CHAT_INTENTS, CODE_INTENTS, NAME_INTENTS } from './intents-chat.js';
import { CALCULATOR_RULES } from './intents-calculator.js';
import { FILE_RULES } from './intents-files.js';
import { TIME_RULES } from './intents-time.js';
import { TODO_RULES } from './intents-todo.js';
import { WEATHER_RULES } from './intents-weather.js';

/** One module per tool (or group of tools): its rules, and how its results and failures are said. */
export const RULES: readonly ToolRules[] = [FILE_RULES, TODO_RULES, WEATHER_RULES, TIME_RULES, CALCULATOR_RULES];

/** Every rule, highest priority first (a stable sort: equal priorities keep the order listed). */
export const INTENTS: readonly Intent[] = [
  ...RULES.flatMap((r) => r.intents),
  ...NAME_INTENTS,
  ...CODE_INTENTS,
  ...CHAT_INTENTS,
  followUp,
].sort((a, b) => b.priority - a.priority);

/** The first rule's outcome, or the honest "cannot do that offline". */
export function classify(u: Utterance, ctx: PlanContext, intents: readonly Intent[] = INTENTS): Outcome {
  if (!u.norm) return reply({ kind: 'ack' });
  for (const intent of intents) {
    const outcome = intent.match(u, ctx);
    if (outcome) return outcome;
  }
  const near = nearestTo(u);
  return reply(near ? { kind: 'cannot', near } : { kind: 'cannot' });
}

// 「算一下 1+1，然后看看待办」, "add milk to my todos, then show them": one clause per tool call.
// The spaces before "then" are left to the clause before, which is trimmed: `,?\s*\bthen` would be
// tried from every space of a long run.
const CONNECTOR =
  /(?:[,;.!?。，；！？]\s*)?(?:然后再?|接着再?|之后再?|并且|顺便再?|另外再?|同时|还有就是|最后再?)|[,;。，；]\s*(?:再|还要|也)(?!见)|再(?=帮我|帮忙|看看|看一下|查一下|查查|查|算|记|读|写|删|把|告诉|列|问)|;|(?:,\s*)?\b(?:and then|then|and also|also|after that|afterwards|plus(?!\s*\$?\d)|finally)\b|(?<=[,，;；])\s*(?=还有)|(?:,\s*)?\band\s+(?=(?:show|list|tell|check|calculate|compute|add|read|write|delete|remove|mark|what|what's|how|give|find|look|remind)\b)/gi;
/** 「先算一下 1+1 再看看待办」: 先 opens the first request, so the 再 after it starts the next. */
const FIRST = /^(?:请|麻烦你?|帮我)?\s*先/;
/** What asks about the part before it and nothing more. */
const QUESTION_ONLY = /^(?:多少钱?|是多少|等于多少|等于几|是几|几|结果|是|呢|吗|啊|呀|的|了|吧|\bhow much\b|\bwhat is it\b|\bis that\b|[\s,.!?。，！？~])+$/i;
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

function clauses(u: Utterance): Utterance[] {
  const lines = u.norm.includes('\n') ? undefined : listItems(u);
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
  // 「帮我做三件事：」 only introduces the list; 「…七五折之后多少」 leaves 「多少」, no request of its own.
  return parts.filter((p) => p.norm.replace(/[\s,.!?。，！？；;]/g, '') !== '' && !/[:：]\s*$/.test(p.norm) && !QUESTION_ONLY.test(p.norm));
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

/** What to do about one user message: tool calls, or a reply (and maybe something to remember). */
export type Plan =
  /** `notes`: parts of the message that are no tool call, said after the first `at` calls' results. */
  | { kind: 'calls'; calls: PlannedCall[]; notes?: Array<{ at: number; reply: Reply }> }
  | { kind: 'reply'; reply: Reply; remember?: { key: string; value: string } };

const CONTINUES_SUM = /^(?:减去?|加上?|乘以?|除以?|少|便宜|优惠|打|开根号|开方|平方|minus|plus|times|divided|less|take off|squared)/i;

/** Replies that say nothing about a request, dropped when other parts of the message do something. */
const SMALL_TALK = new Set<Reply['kind']>(['greeting', 'ack', 'thanks', 'bye']);

/**
 * Each part of a message on its own; a part that is no request alone may go on with the one before
 * (「查一下上海天气，还有杭州的」: 还有杭州的 asks the weather too).
 */
function classifyParts(parts: Utterance[], ctx: PlanContext): Outcome[] {
  const outcomes: Outcome[] = [];
  let last: PlannedCall | undefined;
  for (const part of parts) {
    let o = classify(part, ctx);
    if (o.kind === 'reply' && last) o = followUp.match(part, { ...ctx, previous: { kind: 'calls', calls: [last] } }) ?? o;
    if (o.kind === 'call') last = o.call;
    outcomes.push(o);
  }
  return outcomes.filter((o) => !(o.kind === 'reply' && SMALL_TALK.has(o.reply.kind)));
}

const sameCall = (a: PlannedCall, b: PlannedCall): boolean => a.name === b.name && JSON.stringify(a.args) === JSON.stringify(b.args);

export function plan(text: string, ctx: PlanContext): Plan {
  const u = utterance(text);
  const whole = classify(u, ctx);
  const parts = clauses(u);
  // 「打 75 折，再减 10 块」 goes on with the same sum: one calculation, not two.
  const continues = whole.kind === 'call' && whole.call.name === 'calculator' && parts.slice(1).some((p) => CONTINUES_SUM.test(p.norm.trim()));
  if (parts.length > 1 && !continues) {
    const outcomes = classifyParts(parts, ctx);
    const calls = outcomes.flatMap((o) => (o.kind === 'call' ? [o.call] : []));
    if (whole.kind === 'call' && whole.call.name === 'file_write') {
      // File content is verbatim and may itself say 然后: split only when the write keeps all its words.
      if (calls.length === outcomes.length && sameCall(calls[0], whole.call)) return { kind: 'calls', calls };
    } else {
      if (calls.length === outcomes.length && calls.length) return { kind: 'calls', calls };
      // Some parts are no tool call (「先算 1+1，再给我唱首歌」): do the rest and say what was not done.
      // A todo's words are the user's, so a todo that would lose some of them is kept whole.
      if (calls.length && !(whole.kind === 'call' && whole.call.name === 'todo_add')) {
        const notes: Array<{ at: number; reply: Reply }> = [];
        let at = 0;
        for (const o of outcomes) {
          if (o.kind === 'call') at++;
          else notes.push({ at, reply: o.reply });
        }
        return { kind: 'calls', calls, notes };
      }
    }
  }
  return whole.kind === 'call' ? { kind: 'calls', calls: [whole.call] } : whole;
}

/** Classifies a message with no context; used to find what an earlier message asked for. */
export const classifyAlone = (prefs: PlanContext['prefs']) => (u: Utterance): Outcome => classify(u, { prefs });
