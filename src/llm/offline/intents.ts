/**
 * The rule table and how a message becomes a plan. Each rule carries its priority (PRIORITY in
 * intent.ts says who goes first and why); the table is only where rules are collected. To add a
 * tool, write its module (a `ToolRules`) and list it in RULES.
 */
import { clauses, commaClauses } from './clauses.js';
import { fixTypos } from './typos.js';
import { folderMade, intoFolder, planned, pointingBack, savingTo } from './plan-parts.js';
import { severalTodos } from './intents-todo-add.js';
import { utterance, type Utterance } from './extract.js';
import { followUp } from './followup.js';
import { nearestTo } from './out-of-scope.js';
import {
  callsOf,
  reply,
  str,
  type Intent,
  type Outcome,
  type PlanContext,
  type PlannedCall,
  type Reply,
  type ToolRules,
} from './intent.js';
import { CHAT_INTENTS, CODE_INTENTS, OUT_OF_SCOPE_INTENTS } from './intents-chat.js';
import { MEMORY_RULES } from './intents-memory.js';
import { CALCULATOR_RULES } from './intents-calculator.js';
import { FILE_RULES } from './intents-files.js';
import { commandIn, SHELL_RULES } from './intents-shell.js';
import { TIME_RULES } from './intents-time.js';
import { TODO_RULES } from './intents-todo.js';
import { WEATHER_RULES } from './intents-weather.js';
import { WEB_RULES } from './intents-web.js';

/** One module per tool (or group of tools): its rules, and how its results and failures are said. */
export const RULES: readonly ToolRules[] = [
  SHELL_RULES,
  FILE_RULES,
  TODO_RULES,
  WEATHER_RULES,
  TIME_RULES,
  CALCULATOR_RULES,
  MEMORY_RULES,
  WEB_RULES,
];

/** Every rule, highest priority first (a stable sort: equal priorities keep the order listed). */
export const INTENTS: readonly Intent[] = [
  ...RULES.flatMap((r) => r.intents),
  ...OUT_OF_SCOPE_INTENTS,
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

/** What to do about one user message: tool calls, or a reply. */
export type Plan =
  /** `notes`: parts of the message that are no tool call, said after the first `at` calls' results. */
  | { kind: 'calls'; calls: PlannedCall[]; notes?: Array<{ at: number; reply: Reply }> }
  | { kind: 'reply'; reply: Reply };

const CONTINUES_SUM =
  /^(?:减去?|加上?|乘以?|除以?|少|便宜|优惠|打|开根号|开方|平方|minus|plus|times|divided|less|take off|squared)/i;

/** Replies that say nothing about a request, dropped when other parts of the message do something. */
const SMALL_TALK = new Set<Reply['kind']>(['greeting', 'ack', 'thanks', 'bye']);

/**
 * Each part of a message on its own; a part that is no request alone may go on with the one before
 * (「查一下上海天气，还有杭州的」: 还有杭州的 asks the weather too), or name its subject by pointing back
 * (「…追加到 notes.txt，然后读一下这个文件」, 「东京现在几点，那边天气怎么样」).
 */
function classifyParts(parts: Utterance[], ctx: PlanContext): Array<Outcome & { part: Utterance }> {
  const outcomes: Array<Outcome & { part: Utterance }> = [];
  let last: PlannedCall | undefined;
  let folder: string | undefined;
  for (const part of parts.flatMap((p) => byCommas(p, ctx))) {
    // 「建个文件夹 notes，然后在里面建 a.txt」: folders are made by writing into them, so the part
    // that only makes one is done by the write that follows.
    const made = folderMade(part);
    if (made) folder = made;
    // 「…，然后把结果保存到 result.txt」: the call before also keeps its result there.
    const keep = savingTo(part);
    const prior = outcomes.at(-1);
    if (keep && prior?.kind === 'call' && !prior.also) {
      outcomes[outcomes.length - 1] = { ...prior, call: { ...prior.call, saveTo: keep } };
      continue;
    }
    let o = classify(part, ctx);
    if (last) o = pointingBack(part, o, last, (p) => classify(p, ctx)) ?? o;
    if (o.kind === 'reply' && last)
      o = followUp.match(part, { ...ctx, previous: { kind: 'calls', calls: [last] } }) ?? o;
    // 「天气怎么样，北京的」: a part answers the question the part before raised.
    const before = outcomes.at(-1);
    if (o.kind === 'reply' && before?.kind === 'reply' && before.reply.kind === 'askCity') {
      const answer = followUp.match(part, { ...ctx, previous: { kind: 'asked', reply: before.reply } });
      if (answer) {
        outcomes.pop();
        o = answer;
      }
    }
    const into = intoFolder(o, part, folder);
    if (into !== o) {
      // Done by this write: the part that only made the folder says nothing of its own.
      const at = outcomes.findIndex((x) => x.kind === 'reply' && folderMade(x.part) === folder);
      if (at >= 0) outcomes.splice(at, 1);
      o = into;
    }
    if (o.kind === 'call') last = callsOf(o).at(-1);
    outcomes.push({ ...o, part });
  }
  return outcomes.filter((o) => !(o.kind === 'reply' && SMALL_TALK.has(o.reply.kind)));
}

/**
 * A part that is itself several requests between commas (「帮我看看待办，把第一个删掉」): its pieces,
 * when each is a request; the part as it is otherwise. A piece that is only a noun takes the verb of
 * the piece before (「看看待办和文件」 asks to see the files too).
 */
function byCommas(part: Utterance, ctx: PlanContext): Utterance[] {
  const pieces = commaPieces(part, ctx);
  return pieces.length > 1 && pieces.every((p) => classify(p, ctx).kind === 'call') ? pieces : [part];
}

/** The pieces between commas, a bare noun given the verb of the piece before. */
function commaPieces(part: Utterance, ctx: PlanContext): Utterance[] {
  const pieces = commaClauses(part);
  const verb = pieces.length > 1 ? LEAD_VERB.exec(pieces[0].norm)?.[0] : undefined;
  if (!verb) return pieces;
  return pieces.map((p, i) => {
    if (i === 0 || p.norm.length > MAX_NOUN_CHARS || classify(p, ctx).kind === 'call') return p;
    const withVerb = utterance(`${verb} ${p.raw}`);
    return classify(withVerb, ctx).kind === 'call' ? withVerb : p;
  });
}

/** The verb a list of nouns shares: 「看看」「列出」 "show me", "list". */
const LEAD_VERB = /^(?:帮我|请|给我)?\s*(?:看看|看一下|看下|查看|查一下|列出|列一下|显示|show(?: me)?|list|check)/i;
/** A piece this short may be only a noun, sharing the verb before it. */
const MAX_NOUN_CHARS = 8;

/**
 * Whether the parts that are no request only add a detail to the one request: the whole message
 * makes the same calls with more in them (a place, a path), and nothing else was asked.
 */
function givesDetail(whole: Outcome, calls: PlannedCall[], outcomes: Outcome[]): boolean {
  const all = callsOf(whole);
  const key = (c: PlannedCall) => `${c.name} ${JSON.stringify(c.args)}`;
  return (
    all.length === calls.length &&
    all.every((c, i) => c.name === calls[i].name) &&
    all.some((c, i) => key(c) !== key(calls[i])) &&
    outcomes.every((o) => o.kind === 'call' || o.reply.kind === 'cannot')
  );
}

/** The same tool on the same file, and an append where the other appends. */
const sameFile = (a: PlannedCall, b: PlannedCall): boolean =>
  (a.name === b.name && a.args.path === b.args.path && !a.append === !b.append) ||
  (a.saveTo !== undefined && a.saveTo === b.args.path);

/** A part with no request of its own that belongs to a sum around it: it asks how much, or gives numbers. */
const ASKS_OF_SUM = /多少|几|\d|%|\bhow (?:much|many)\b|\bwhat(?:'s| is)\b/i;

/** Calls whose words are the user's own text, kept whole unless a split keeps all of them. */
const verbatim = (c: PlannedCall): boolean => c.name === 'file_write' || c.append !== undefined;

export function plan(text: string, ctx: PlanContext): Plan {
  const u = utterance(fixTypos(text));
  // 「记两个待办：买菜、洗衣服」: one todo each.
  const several = severalTodos(u);
  if (several) return { kind: 'calls', calls: several };
  // A command handed over runs exactly as typed: no typo fixed in it, no clause split inside it.
  const command = commandIn(text);
  if (command) return planned([{ name: 'shell', args: { command } }]);
  const whole = classify(u, ctx);
  const parts = clauses(u, { lists: !(whole.kind === 'call' && verbatim(whole.call)) });
  // 「打 75 折，再减 10 块」 goes on with the same sum: one calculation, not two.
  const continues =
    whole.kind === 'call' &&
    whole.call.name === 'calculator' &&
    parts.slice(1).some((p) => CONTINUES_SUM.test(p.norm.trim()));
  if (continues) {
    // 「算一下 100*3，再除以4」: the sum taken further in each part; the last part holds all of it.
    const chain = classifyParts(parts, ctx).flatMap(callsOf);
    const last = chain.at(-1);
    if (
      chain.length === parts.length &&
      chain.every((c) => c.name === 'calculator') &&
      last &&
      str(last.args.expression).startsWith(`(${str(chain[0].args.expression)})`)
    ) {
      return planned([last]);
    }
  } else if (parts.length > 1) {
    const outcomes = classifyParts(parts, ctx);
    const calls = outcomes.flatMap(callsOf);
    if (whole.kind === 'call' && verbatim(whole.call)) {
      // File content is verbatim and may itself say 然后 (「内容是：先吃饭，然后睡觉」): split only when
      // every part is a request of its own, the first one writing the same file.
      if (outcomes.every((o) => o.kind === 'call') && calls.some((c) => sameFile(c, whole.call))) return planned(calls);
    } else if (
      whole.kind === 'call' &&
      whole.call.name === 'calculator' &&
      outcomes.every((o) => (o.kind === 'call' ? o.call.name === 'calculator' : ASKS_OF_SUM.test(o.part.norm)))
    ) {
      // 「税后多少？税前8000，税率3%」: one problem over several sentences, asked once.
      if (calls.length <= 1) return planned([whole.call]);
      return planned(calls);
    } else {
      if (outcomes.every((o) => o.kind === 'call') && calls.length) return planned(calls);
      // 「现在几点？我在纽约」: the rest only gives what the request needs, which the whole message read.
      if (whole.kind === 'call' && givesDetail(whole, calls, outcomes)) return planned(callsOf(whole));
      // Some parts are no tool call (「先算 1+1，再给我唱首歌」): do the rest and say what was not done.
      // A todo's words are the user's, so a todo that would lose some of them is kept whole.
      const keepsTodo =
        whole.kind === 'call' &&
        whole.call.name === 'todo_add' &&
        calls.some((c) => c.name === 'todo_add' && c.args.content === whole.call.args.content);
      // 「算一下 1+1\n记一下 买菜\n第三行」: a todo that would swallow another tool's request is no todo of those words.
      const othersAsked = calls.some((c) => c.name !== 'todo_add');
      if (calls.length && (!(whole.kind === 'call' && whole.call.name === 'todo_add') || keepsTodo || othersAsked)) {
        const notes: Array<{ at: number; reply: Reply }> = [];
        let at = 0;
        for (const o of outcomes) {
          if (o.kind === 'call') at += callsOf(o).length;
          else notes.push({ at, reply: o.reply });
        }
        return { ...planned(calls), notes };
      }
    }
  } else if (parts.length === 1) {
    // No word joins the requests, only commas (「东京现在几点，那边天气怎么样」): split there when every
    // piece is a request of its own; 「原价 300，打七折」 is one.
    const pieces = commaPieces(u, ctx);
    const outcomes = pieces.length > 1 ? classifyParts(pieces, ctx) : [];
    const calls = outcomes.flatMap(callsOf);
    if (
      (calls.length > 1 || (calls.length && whole.kind === 'reply')) &&
      outcomes.every((o) => o.kind === 'call') &&
      !(whole.kind === 'call' && (verbatim(whole.call) || whole.call.lookup))
    )
      return planned(calls);
  }
  return whole.kind === 'call' ? planned(callsOf(whole)) : whole;
}

/** Classifies a message with no context; used to find what an earlier message asked for. */
export const classifyAlone =
  (prefs: PlanContext['prefs']) =>
  (u: Utterance): Outcome =>
    classify(u, { prefs });
