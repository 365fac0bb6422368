/**
 * The offline planner: a rule-based model behind the same `Llm` interface as the real client, so
 * with no key and no network the agent loop still runs through the real tools. Every decision comes
 * from the request's messages and the preferences store (its one cache, the last plan, is keyed by
 * all a plan reads), so one planner serves any number of sessions.
 */
import { withoutFences } from '../../markdown-fence.js';
import { estimateTokens, messageText } from '../tokens.js';
import type { ChatMessage, Llm, LlmEvent, LlmRequest, ToolCall } from '../types.js';
import type { Usage } from '../../contract/usage.js';
import { classifyAlone, plan } from './intents.js';
import { previousOf } from './followup.js';
import {
  NAME_KEY,
  parseArgs,
  str,
  type PlanContext,
  type PlannedCall,
  type Second,
  type WordingContext,
} from './intent.js';
import { appendStep } from './file-append.js';
import { findFileStep } from './file-lookup.js';
import { saveStep } from './save-result.js';
import { detectLang, say, type Lang } from '../../i18n.js';
import { lookupNext } from './todo-lookup.js';
import { decimalsAsked } from './arithmetic-words.js';
import { composeResults, composeTogether, renderReply, type CallResult } from './replies.js';
import { dayIn, type Day } from './calendar.js';
import { failed } from './tool-results.js';
import type { ToolResultData } from '../../contract/tool-data.js';

export { detectLang } from '../../i18n.js';

const ID_PREFIX = 'call_off_';
/** A todo added with these words was meant as a reminder, which does not exist yet: say so. */
const REMIND =
  /提醒我|提醒\s*[:：]|叫醒我|叫我起床|到时(?:候)?(?:叫|通知)我|(?:设|定|建|加|弄)(?:一)?个提醒|别忘了|别忘记|不要忘了?|\bremind me\b|\bset (?:an? )?(?:alarm|reminder)\b|\bwake me\b|\bdon'?t let me forget\b/i;

interface Step {
  calls: ToolCall[];
  outputs: Map<string, string>;
  /** The data each result carried, by call id. */
  results: Map<string, ToolResultData>;
}

/** What the offline planner needs. */
export interface OfflinePlannerDeps {
  /** User preferences that outlive sessions; the user's name is kept under `user.name`. */
  prefs: { get(key: string): string | undefined; set(key: string, value: string): void };
  /** Forced reply language (ZHIXING_LANG); otherwise each message's own language. */
  lang?: Lang;
  /** The clock, for the days a reply names (明天 is 3月13日). Default: `new Date()`. */
  now?: () => Date;
  /** The user's own IANA zone. Default: the host's. */
  timeZone?: string;
  /** The workspace's absolute path, to tell the user where files are kept. */
  workspace?: string;
}

function usage(messages: ChatMessage[], output: string): Usage {
  const promptTokens = messages.reduce((n, m) => n + estimateTokens(messageText(m)), 0);
  const completionTokens = estimateTokens(output);
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
}

/** The reply in a few pieces, as a streaming model would send it. */
function pieces(text: string): string[] {
  return text.match(/[^。！？!?\n]+[。！？!?\n]*|[。！？!?\n]+/g) ?? [text];
}

function lastIndexOf(messages: ChatMessage[], role: ChatMessage['role']): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === role) return i;
  return -1;
}

export function createOfflinePlanner(deps: OfflinePlannerDeps): Llm {
  const { prefs } = deps;
  const now = deps.now ?? (() => new Date());
  // Read when first needed: loading the time-zone data costs milliseconds every start otherwise.
  const timeZone = () => deps.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;

  /** Plans the user message at `index` with what preceded it. */
  // A turn plans its message when it starts and again to word the reply: the second time is the
  // same message after the same context, so the plan is kept rather than made again.
  let last: { key: string; planned: ReturnType<typeof plan> } | undefined;
  const planAt = (messages: ChatMessage[], index: number) => {
    const ctx: PlanContext = { prefs, previous: previousOf(messages, index, classifyAlone(prefs)) };
    const text = messages[index].content ?? '';
    const key = JSON.stringify([text, ctx.previous ?? null, prefs.get(NAME_KEY) ?? null]);
    if (last?.key !== key) last = { key, planned: plan(text, ctx) };
    return last.planned;
  };

  /** The tool steps since the user's message, each with the outputs that came back. */
  function stepsSince(messages: ChatMessage[], userIndex: number): Step[] {
    const steps: Step[] = [];
    for (const m of messages.slice(userIndex + 1)) {
      if (m.role === 'assistant' && m.tool_calls?.length)
        steps.push({ calls: m.tool_calls, outputs: new Map(), results: new Map() });
      else if (m.role === 'tool' && steps.length) {
        const step = steps[steps.length - 1];
        step.outputs.set(m.tool_call_id, m.content);
        if (m.result) step.results.set(m.tool_call_id, m.result);
      }
    }
    return steps;
  }

  /**
   * After the tools ran: the plan's calls in the order made, and for each call of two steps what comes
   * second — for a todo named by content (looked up in the list the first step fetched) the call on the
   * item found, for an append the write of the text read plus the new line — or what to say instead.
   */
  function afterTools(messages: ChatMessage[], tools: ReadonlySet<string>, userIndex: number, lang: Lang) {
    const planned = userIndex >= 0 ? planAt(messages, userIndex) : undefined;
    const wanted = planned?.kind === 'calls' ? planned.calls.filter((c) => tools.has(c.name)) : [];
    const steps = userIndex >= 0 ? stepsSince(messages, userIndex) : [];
    const first = steps[0];
    const aligned =
      !!first && first.calls.length === wanted.length && first.calls.every((c, i) => c.name === wanted[i].name);
    const second = new Map<number, Second>();
    // What earlier appends in this message made of a file, so two appends to one file keep both lines.
    const written = new Map<string, string>();
    if (aligned) {
      wanted.forEach((c, i) => {
        const output = first.outputs.get(first.calls[i].id);
        const result = first.results.get(first.calls[i].id);
        if (c.lookup) {
          if (!tools.has(c.lookup.action))
            return void second.set(i, {
              kind: 'note',
              note: renderReply({ kind: 'missing', tools: [c.lookup.action] }, { lang, tools }),
            });
          second.set(i, lookupNext(output ?? '', c.lookup, lang, result));
        } else if (c.findFile) {
          second.set(i, findFileStep(output, c.findFile, lang, result));
        } else if (c.saveTo) {
          second.set(i, saveStep(c, output, tools, lang, result));
        } else if (c.append) {
          const path = str(c.args.path);
          if (!tools.has('file_write'))
            return void second.set(i, {
              kind: 'note',
              note: renderReply({ kind: 'missing', tools: ['file_write'] }, { lang, tools }),
            });
          const s = appendStep(path, c.append, output, written.get(path), result);
          if (s.kind === 'stop') return void second.set(i, { kind: 'note', note: s.say(lang) });
          written.set(path, s.content);
          const write: PlannedCall = {
            name: 'file_write',
            args: { path, content: s.content },
            append: { ...c.append, created: s.created },
          };
          second.set(i, {
            kind: 'calls',
            calls: c.append.thenRead ? [write, { name: 'file_read', args: { path } }] : [write],
          });
        }
      });
    }
    const next = [...second.values()].flatMap((s) => (s.kind === 'calls' ? s.calls : []));
    return { planned, steps, aligned, second, next };
  }

  /** The final answer after our tool calls ran: one line per result, plus what was not available. */
  function compose(messages: ChatMessage[], tools: ReadonlySet<string>, lang: Lang, userIndex: number): string {
    const { planned, steps, aligned, second } = afterTools(messages, tools, userIndex, lang);
    const resultsOf = (step: Step | undefined): CallResult[] =>
      (step?.calls ?? []).map((c) => ({
        call: { name: c.name, args: parseArgs(c.arguments) },
        output: step!.outputs.get(c.id),
        result: step!.results.get(c.id),
      }));
    let results: CallResult[];
    if (aligned && second.size) {
      // A lookup's list or an append's read only served the second step: say what that did, or why nothing
      // was done. A result saved to a file is said, then its saving.
      const made = resultsOf(steps[1]);
      results = resultsOf(steps[0]).flatMap((r, i) => {
        const s = second.get(i);
        if (!s) return [r];
        if (s.kind === 'note') return s.keep ? [r, { ...r, note: s.note }] : [{ ...r, note: s.note }];
        const done = made.splice(0, s.calls.length);
        const then = done.map((d, j) => ({ ...d, call: s.calls[j] ?? d.call }));
        return s.keep ? [r, ...then] : then.length ? then : [r];
      });
    } else {
      results = resultsOf(steps.at(-1));
    }
    const userText = userIndex >= 0 ? (messages[userIndex].content ?? '') : '';
    const decimals = decimalsAsked(userText)?.places;
    let today: Day | undefined;
    const ctx: WordingContext = {
      decimals,
      userText,
      // Worked out only when a wording names a day: the first time-zone lookup starts ICU's zone data,
      // a cost a sum or a file read should not pay.
      get today() {
        return (today ??= dayIn(now(), timeZone()));
      },
      workspace: deps.workspace,
    };
    const lines = [...results.map((r) => composeResults(lang, [r], ctx)), ...composeTogether(lang, results, ctx)];
    // Parts of the message that were no tool call, said where they came in it.
    const notes = planned?.kind === 'calls' && (aligned || steps.length === 1) ? (planned.notes ?? []) : [];
    for (const note of [...notes].reverse()) {
      lines.splice(
        Math.min(note.at, lines.length),
        0,
        renderReply(note.reply, { lang, tools, name: prefs.get(NAME_KEY), workspace: deps.workspace }),
      );
    }
    let text = lines.join('\n');
    if (
      REMIND.test(userText) &&
      results.some((r) => r.call.name === 'todo_add' && r.output !== undefined && !failed(r.output, r.result))
    ) {
      text +=
        '\n' +
        say(
          lang,
          '注意：离线模式还没有提醒功能，到时不会有提醒，记得自己看一眼待办。',
          'Note: there are no reminders yet, so nothing will alert you; check your todos yourself.',
        );
    }
    const missing = planned?.kind === 'calls' ? planned.calls.filter((c) => !tools.has(c.name)).map((c) => c.name) : [];
    if (missing.length) text += '\n' + renderReply({ kind: 'missing', tools: missing }, { lang, tools });
    return text;
  }

  async function* stream(request: LlmRequest): AsyncGenerator<LlmEvent> {
    request.signal?.throwIfAborted();
    const { messages } = request;
    const tools = new Set(request.tools.map((t) => t.name));
    const userIndex = lastIndexOf(messages, 'user');
    const userText = userIndex >= 0 ? (messages[userIndex].content ?? '') : '';
    const lang = deps.lang ?? detectLang(userText);
    const reply = (text: string) => ({ text, calls: [] as PlannedCall[] });

    let out: { text: string; calls: PlannedCall[] };
    if (messages.at(-1)?.role === 'tool') {
      // A todo named by content was looked up in the list: now finish or delete the item found.
      const { steps, next } = afterTools(messages, tools, userIndex, lang);
      out =
        steps.length === 1 && next.length
          ? { text: '', calls: next }
          : reply(compose(messages, tools, lang, userIndex));
    } else if (userIndex >= 0 && userIndex === messages.length - 1) {
      // Fenced blocks are material (piped text, the names of uploaded files), not requests.
      const asked = withoutFences(userText).trim();
      const planned = planAt(
        asked && asked !== userText
          ? messages.map((m, i) => (i === userIndex ? { ...m, content: asked } : m))
          : messages,
        userIndex,
      );
      if (planned.kind === 'calls') {
        const available = planned.calls.filter((c) => tools.has(c.name));
        out = available.length
          ? { text: '', calls: available }
          : reply(renderReply({ kind: 'missing', tools: planned.calls.map((c) => c.name) }, { lang, tools }));
      } else {
        out = reply(renderReply(planned.reply, { lang, tools, name: prefs.get(NAME_KEY), workspace: deps.workspace }));
      }
    } else {
      out = reply(renderReply({ kind: 'ack' }, { lang, tools }));
    }

    // Ids continue across the conversation, so no two calls in one history share an id.
    const before = messages.reduce((n, m) => n + (m.role === 'assistant' ? (m.tool_calls?.length ?? 0) : 0), 0);
    const calls: ToolCall[] = out.calls.map((c, i) => ({
      id: `${ID_PREFIX}${before + i + 1}`,
      name: c.name,
      arguments: JSON.stringify(c.args),
    }));
    for (const piece of out.text ? pieces(out.text) : []) yield { type: 'text', delta: piece };
    for (const c of calls) yield { type: 'tool_call', call: c };
    yield { type: 'usage', usage: usage(messages, out.text + calls.map((c) => c.name + c.arguments).join('')) };
    yield { type: 'finish', reason: calls.length ? 'tool_calls' : 'stop' };
  }

  return {
    mode: 'offline',
    provider: 'offline',
    model: 'rules',
    // No title(): the sessions service names a session from its first words when no model can.
    stream,
  };
}
