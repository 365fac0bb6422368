/**
 * Follow-ups: 「那上海呢」 after a weather question, 「北京」 after we asked which city, 「那 3*3 呢」
 * after a calculation. Everything comes from the conversation itself, never from planner state.
 */
import type { ChatMessage } from '../types.js';
import { findExpression } from './expression.js';
import { CLAUSE_END, looksLikeFile, PATH, restore, todoId, trimEndOf, utterance, type Utterance } from './extract.js';
import { goOn } from './calc-followup.js';
import {
  call,
  calls,
  parseArgs,
  PRIORITY,
  str,
  type Intent,
  type Outcome,
  type PlannedCall,
  type Previous,
} from './intent.js';
import { isWhenOnly, placeZh } from './places.js';
import { onlyDays } from './dates.js';

const LEAD =
  /^(?:那么|那|还有|换成|改成|再查一下|再查查|再看看|再查|再来|(?:what about|how about|and for|and in|and)\b)\s*/i;
const TRAIL_PUNCT = /[?？.!。]/;
/** Words that close a follow-up, each anchored at the end; 的呢 before its suffix 呢. */
const TRAIL_WORDS = /(?:的呢|呢|怎么样|如何|咋样|吧|\bthen)$/i;
/** The longest of these words, so only the last few characters are searched. */
const TRAIL_WORD_MAX_CHARS = 4;

/**
 * The closing part of a follow-up: spaces, one of TRAIL_WORDS, spaces, sentence-end marks, each
 * optional. Peeled off the end one part at a time: as one regex (`\s*(?:呢…)?\s*[?.!]*$`) it is
 * retried from every character of a long run of spaces, at a cost that grows with the cube of the run.
 */
function trailOf(body: string): string {
  let rest = trimEndOf(body, TRAIL_PUNCT).trimEnd();
  // One character more than the longest word, so `\b` still sees the character before "then".
  const word = TRAIL_WORDS.exec(rest.slice(-(TRAIL_WORD_MAX_CHARS + 1)));
  if (word) rest = rest.slice(0, rest.length - word[0].length).trimEnd();
  return body.slice(rest.length);
}

/**
 * What the message at `userIndex` follows: the calls of the latest step that made any, or a question
 * we asked in reply to the previous user message (「今天天气怎么样」 → which city?).
 */
export function previousOf(
  messages: ChatMessage[],
  userIndex: number,
  classifyAlone: (u: Utterance) => Outcome,
): Previous | undefined {
  for (let i = userIndex - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === 'assistant' && m.tool_calls?.length) {
      const asked = lookupAsked(messages, i, classifyAlone);
      if (asked) return asked;
      return {
        kind: 'calls',
        calls: m.tool_calls.map((c): PlannedCall => ({ name: c.name, args: parseArgs(c.arguments) })),
      };
    }
    if (m.role === 'user') {
      const earlier = classifyAlone(utterance(m.content));
      return earlier.kind === 'reply' ? { kind: 'asked', reply: earlier.reply } : undefined;
    }
  }
  return undefined;
}

/**
 * A todo named by content that matched several items (or none) ended its turn on the lookup: the
 * user was asked which one, so 「2」 or 「第二条」 next is the answer.
 */
function lookupAsked(
  messages: ChatMessage[],
  stepIndex: number,
  classifyAlone: (u: Utterance) => Outcome,
): Previous | undefined {
  const calls = messages[stepIndex].role === 'assistant' ? (messages[stepIndex].tool_calls ?? []) : [];
  if (calls.length !== 1 || calls[0].name !== 'todo_list') return undefined;
  for (let j = stepIndex - 1; j >= 0; j--) {
    const m = messages[j];
    if (m.role === 'assistant' && m.tool_calls?.length) return undefined;
    if (m.role !== 'user') continue;
    const earlier = classifyAlone(utterance(m.content));
    const lookup = earlier.kind === 'call' ? earlier.call.lookup : undefined;
    return lookup
      ? { kind: 'asked', reply: { kind: 'askTodoId', action: lookup.action === 'todo_done' ? 'done' : 'delete' } }
      : undefined;
  }
  return undefined;
}

const PATH_TOKEN = new RegExp(PATH);

/** The same tool again with the new subject, if the subject fits that tool. */
function again(prev: PlannedCall, subject: string): Outcome | null {
  switch (prev.name) {
    case 'weather': {
      if ((isWhenOnly(subject) || onlyDays(subject)) && typeof prev.args.city === 'string')
        return call('weather', { city: prev.args.city });
      const city = placeZh(subject);
      return city ? call('weather', { city }) : null;
    }
    case 'current_time': {
      // 「那后天呢」 after 「明天几号」: the same clock again; the wording answers the new day.
      if (onlyDays(subject)) return call('current_time', prev.args);
      const zone = placeZh(subject);
      return zone ? call('current_time', { timezone: zone }) : null;
    }
    case 'calculator': {
      const found = findExpression(subject);
      return found ? call('calculator', { expression: found.expression }) : null;
    }
    case 'todo_done':
    case 'todo_delete': {
      const id = todoId(subject);
      return id !== undefined ? call(prev.name, { id }) : null;
    }
    case 'file_read':
    case 'file_list': {
      const path = PATH_TOKEN.exec(subject)?.[0];
      return path && (looksLikeFile(path) || prev.name === 'file_list') ? call(prev.name, { path }) : null;
    }
    default:
      return null;
  }
}

export const followUp: Intent = {
  id: 'follow_up',
  priority: PRIORITY.followUp,
  match(u, ctx) {
    const prev = ctx.previous;
    if (!prev) return null;
    const lead = LEAD.exec(u.norm)?.[0] ?? '';
    const body = u.norm.slice(lead.length);
    const trail = trailOf(body);
    const subject = body.slice(0, body.length - trail.length).trim();
    if (!subject) return null;
    if (prev.kind === 'asked') {
      // We asked a question: a bare answer is enough.
      switch (prev.reply.kind) {
        case 'askCity': {
          const city = placeZh(subject);
          return city ? call('weather', { city }) : null;
        }
        case 'askExpression': {
          const found = findExpression(subject);
          return found ? call('calculator', { expression: found.expression }) : null;
        }
        case 'askTodoId': {
          const id = todoId(subject);
          return id !== undefined ? call(prev.reply.action === 'done' ? 'todo_done' : 'todo_delete', { id }) : null;
        }
        case 'askTodoContent':
          return call('todo_add', { content: restore(u, trimEndOf(u.raw, CLAUSE_END)) });
        default:
          return null;
      }
    }
    // 「再加 50」「结果除以 3」 "double it": the last calculation taken further.
    const sum = prev.calls.find((c) => c.name === 'calculator');
    const further = sum && goOn(str(sum.args.expression), u.norm);
    if (further) return call('calculator', { expression: further });
    // Otherwise it must read as a follow-up: 「那…」「…呢」 "what about …".
    if (!lead.trim() && !trail.trim()) return null;
    // 「那明天呢」 after two cities: both cities again, for the new day.
    const cities = prev.calls.filter((c) => c.name === 'weather' && typeof c.args.city === 'string');
    if (cities.length > 1 && (isWhenOnly(subject) || onlyDays(subject))) return calls(cities[0], ...cities.slice(1));
    for (const c of prev.calls) {
      const outcome = again(c, subject);
      if (outcome) return outcome;
    }
    return null;
  },
};
