/**
 * The offline planner: a rule-based model behind the same `Llm` interface as the real client, so
 * with no key and no network the agent loop still runs through the real tools. It keeps no state of
 * its own — every decision comes from the request's messages and the preferences store — so one
 * planner serves any number of sessions.
 */
import { estimateTokens, messageText } from '../tokens.js';
import type { ChatMessage, Llm, LlmEvent, LlmRequest, ToolCall, Usage } from '../types.js';
import { classifyAlone, plan } from './intents.js';
import { previousOf } from './followup.js';
import { NAME_KEY, parseArgs, type PlanContext, type PlannedCall } from './intent.js';
import { detectLang, type Lang } from '../../i18n.js';
import { decimalsAsked } from './arithmetic-words.js';
import { composeResults, renderReply, type CallResult } from './replies.js';

export { detectLang } from '../../i18n.js';

const ID_PREFIX = 'call_off_';

/** What the offline planner needs. */
export interface OfflinePlannerDeps {
  /** User preferences that outlive sessions; the user's name is kept under `user.name`. */
  prefs: { get(key: string): string | undefined; set(key: string, value: string): void };
  /** Forced reply language (ZHIXING_LANG); otherwise each message's own language. */
  lang?: Lang;
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

  /** Plans the user message at `index` with what preceded it. */
  const planAt = (messages: ChatMessage[], index: number) => {
    const ctx: PlanContext = { prefs, previous: previousOf(messages, index, classifyAlone(prefs)) };
    return plan(messages[index].content ?? '', ctx);
  };

  /** The final answer after our tool calls ran: one line per result, plus what was not available. */
  function compose(messages: ChatMessage[], tools: ReadonlySet<string>, lang: Lang, userIndex: number): string {
    const asked = lastIndexOf(messages, 'assistant');
    const step = messages[asked];
    const calls: ToolCall[] = step?.role === 'assistant' ? (step.tool_calls ?? []) : [];
    const outputs = new Map<string, string>();
    for (const m of messages.slice(asked + 1)) if (m.role === 'tool') outputs.set(m.tool_call_id, m.content);
    const results: CallResult[] = calls.map((c) => ({ call: { name: c.name, args: parseArgs(c.arguments) }, output: outputs.get(c.id) }));
    const decimals = userIndex >= 0 ? decimalsAsked(messages[userIndex].content ?? '')?.places : undefined;
    let text = composeResults(lang, results, { decimals });
    if (userIndex >= 0) {
      const planned = planAt(messages, userIndex);
      const missing = planned.kind === 'calls' ? planned.calls.filter((c) => !tools.has(c.name)).map((c) => c.name) : [];
      if (missing.length) text += '\n' + renderReply({ kind: 'missing', tools: missing }, { lang, tools });
    }
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
      out = reply(compose(messages, tools, lang, userIndex));
    } else if (userIndex >= 0 && userIndex === messages.length - 1) {
      const planned = planAt(messages, userIndex);
      if (planned.kind === 'calls') {
        const available = planned.calls.filter((c) => tools.has(c.name));
        out = available.length
          ? { text: '', calls: available }
          : reply(renderReply({ kind: 'missing', tools: planned.calls.map((c) => c.name) }, { lang, tools }));
      } else {
        if (planned.remember) prefs.set(planned.remember.key, planned.remember.value);
        out = reply(renderReply(planned.reply, { lang, tools, name: prefs.get(NAME_KEY) }));
      }
    } else {
      out = reply(renderReply({ kind: 'ack' }, { lang, tools }));
    }

    // Ids continue across the conversation, so no two calls in one history share an id.
    const before = messages.reduce((n, m) => n + (m.role === 'assistant' ? (m.tool_calls?.length ?? 0) : 0), 0);
    const calls: ToolCall[] = out.calls.map((c, i) => ({ id: `${ID_PREFIX}${before + i + 1}`, name: c.name, arguments: JSON.stringify(c.args) }));
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
