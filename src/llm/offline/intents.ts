/**
 * The rule table and how a message becomes a plan. Order is priority: specific rules before broad
 * ones, so 「创建文件 notes.txt，内容是：今天也要加油」 is a write although it says 今天, and
 * 「记一下 明天 9 点…」 is a todo although it says 9 点. To add a tool, add its Intent where it belongs.
 */
import { slice, utterance, type Utterance } from './extract.js';
import { followUp } from './followup.js';
import { nearestTo } from './out-of-scope.js';
import { reply, type Intent, type Outcome, type PlanContext, type PlannedCall, type Reply } from './intent.js';
import { CHAT_INTENTS, CODE_INTENTS, NAME_INTENTS } from './intents-chat.js';
import { FILE_READ_INTENTS, FILE_WRITE_INTENTS } from './intents-files.js';
import { CALCULATOR_INTENTS, WEATHER_TIME_INTENTS } from './intents-tools.js';
import { TODO_INTENTS } from './intents-todo.js';

/** Every rule, highest priority first. */
export const INTENTS: readonly Intent[] = [
  ...FILE_WRITE_INTENTS, // carries free text (内容是：…), so it must see the message before anything reads words in it
  ...TODO_INTENTS, // add (free text too), delete, done, list
  ...FILE_READ_INTENTS, // read, list
  ...NAME_INTENTS,
  ...WEATHER_TIME_INTENTS, // weather before time: 「现在天气怎么样」 is about weather
  ...CODE_INTENTS, // before the calculator: code is refused, never computed
  ...CALCULATOR_INTENTS,
  ...CHAT_INTENTS,
  followUp, // after chat: 「你好」 after "which city?" is a greeting, not a city
];

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
const CONNECTOR = /(?:[,;.!?。]\s*)?(?:然后再?|接着再?|之后再?|并且|顺便再?|另外再?|同时)|[,;。]\s*再(?!见)|;|(?:,\s*)?\b(?:and then|then|and also)\b/gi;

function clauses(u: Utterance): Utterance[] {
  const parts: Utterance[] = [];
  let start = 0;
  for (const m of u.norm.matchAll(CONNECTOR)) {
    const at = m.index ?? 0;
    parts.push(slice(u, start, at));
    start = at + m[0].length;
  }
  parts.push(slice(u, start, u.norm.length));
  return parts.filter((p) => p.norm.replace(/[\s,.!?。]/g, '') !== '');
}

/** What to do about one user message: tool calls, or a reply (and maybe something to remember). */
export type Plan =
  | { kind: 'calls'; calls: PlannedCall[] }
  | { kind: 'reply'; reply: Reply; remember?: { key: string; value: string } };

export function plan(text: string, ctx: PlanContext): Plan {
  const u = utterance(text);
  const whole = classify(u, ctx);
  // File content is verbatim text and may itself say 然后; everything else may be several requests.
  if (!(whole.kind === 'call' && whole.call.name === 'file_write')) {
    const parts = clauses(u);
    if (parts.length > 1) {
      const outcomes = parts.map((p) => classify(p, ctx));
      const calls = outcomes.flatMap((o) => (o.kind === 'call' ? [o.call] : []));
      if (calls.length === outcomes.length) return { kind: 'calls', calls };
    }
  }
  return whole.kind === 'call' ? { kind: 'calls', calls: [whole.call] } : whole;
}

/** Classifies a message with no context; used to find what an earlier message asked for. */
export const classifyAlone = (prefs: PlanContext['prefs']) => (u: Utterance): Outcome => classify(u, { prefs });
