import type { Bus } from '../bus/bus.js';
import type { Lang } from '../i18n.js';
import type { ChatMessage, Llm, ToolSpec } from '../llm/types.js';
import type { MemoryHit } from '../contract/memory.js';
import { deadline } from '../net/deadline.js';
import type { Store } from '../store/store.js';
import { COMPACT_AT, KEEP_AFTER_COMPACTION, requestBudget, type Budget } from './context-budget.js';
import { fitRequest, type FitResult } from './context-fit.js';
import { systemMessage } from './context-system.js';
import { createTokenCounter, ESTIMATE_MARGIN, type TokenCounter } from './context-tokens.js';
import { groupExchanges, toUnit, type Entry, type Unit } from './context-units.js';
import { compact, type Summary } from './compaction.js';
import { HISTORY_WINDOW } from './context.js';

/** Recall that has not answered by then is left out of this turn: memories help, they must not stall it. */
const RECALL_TIMEOUT_MS = 5_000;
/** After a failed summary, the wait before a session tries compacting again. */
const RETRY_COMPACTION_AFTER_MS = 10 * 60_000;

/** The last reply's text that goes with the user's words into the recall query. */
const RECALL_REPLY_CHARS = 500;

export interface ContextSettings {
  /** The model's context window, in tokens. */
  window: number;
  /** Summarise older messages past COMPACT_AT of the budget; off, the context only windows. */
  compaction: boolean;
}

export interface ContextDeps {
  store: Store;
  bus: Bus;
  llm: Llm;
  settings: ContextSettings;
  /** The user's standing instructions, read at each turn's start. */
  preferences?: () => string[];
  /** Long-term memories relevant to the turn, at most `maxTokens` of them. */
  recall?: (input: {
    sessionId: string;
    text: string;
    maxTokens: number;
    signal?: AbortSignal;
  }) => Promise<MemoryHit[]>;
  counter?: TokenCounter;
  now?: () => number;
  summaryTimeoutMs?: number;
}

export interface TurnContextInput {
  sessionId: string;
  turnId: string;
  /** The system prompt, before preferences, memories and the summary are added. */
  systemPrompt: string;
  tools: ToolSpec[];
  lang: Lang;
  signal: AbortSignal;
}

/** One turn's context: asked before every model step. */
export interface TurnContext {
  /** The request's messages: the turn's own steps so far (assistant and tool messages) after what was stored before. */
  messages(steps: ChatMessage[]): Promise<ChatMessage[]>;
  /** What the last `messages` did to fit, for tests and benchmarks. */
  readonly last?: FitResult;
  /** How many long-term memories were recalled into the system message (stored text a steered turn may have written). */
  readonly recalled?: number;
}

export interface ContextService {
  /**
   * At a turn's start, once its user message is stored: reads the newest stored messages that
   * could fit (after the latest summary), recalls memories, and compacts when the history is near the budget.
   */
  begin(input: TurnContextInput): Promise<TurnContext>;
}

export function createContextService(deps: ContextDeps): ContextService {
  const { store } = deps;
  const counter = deps.counter ?? createTokenCounter();
  const now = deps.now ?? Date.now;
  const count = (m: ChatMessage) => counter.message(m);

  /** Tokens of a request, exact when the estimate is not clearly under `limit`. */
  async function measure(messages: ChatMessage[], limit: number): Promise<number> {
    let n = 0;
    for (const m of messages) n += count(m);
    if (counter.exact || n * ESTIMATE_MARGIN <= limit) return n;
    await counter.load();
    n = 0;
    for (const m of messages) n += count(m);
    return n;
  }

  // A summary that failed is not asked for again at every turn (each try can cost retries and seconds):
  // the session goes on windowing until this long has passed.
  const failedAt = new Map<string, number>();

  async function recall(input: TurnContextInput, units: Unit[], budget: Budget): Promise<MemoryHit[]> {
    if (!deps.recall) return [];
    const limit = deadline(input.signal, RECALL_TIMEOUT_MS);
    const { signal } = limit;
    try {
      const hits = await Promise.race([
        deps.recall({ sessionId: input.sessionId, text: recallQuery(units), maxTokens: budget.recall, signal }),
        new Promise<never>((_, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
        ),
      ]);
      return withinTokens(hits, budget.recall);
    } catch {
      // Without memories the turn still answers; the memory service reports its own trouble.
      return [];
    } finally {
      limit.clear();
    }
  }

  function withinTokens(hits: MemoryHit[], max: number): MemoryHit[] {
    const kept: MemoryHit[] = [];
    let used = 0;
    for (const h of hits) {
      used += counter.text(h.content) + 8;
      if (used > max) break;
      kept.push(h);
    }
    return kept;
  }

  return {
    async begin(input) {
      const { sessionId } = input;
      const budget = requestBudget(deps.settings.window, counter.text(JSON.stringify(input.tools)));
      let summary: Summary | undefined = store.messages.latestSummary(sessionId);
      // A part is read whole up to what one message may hold (piped input is cut to that, with a note the
      // model should see); one larger than the budget is cut by the fit below, which says so.
      const maxPartChars = Math.max(budget.readChars, HISTORY_WINDOW.maxPartChars);
      const stored = store.messages.listRecent(sessionId, {
        maxChars: budget.readChars,
        maxPartChars,
        after: summary?.covers.upTo,
      });
      const exchanges = groupExchanges(stored);
      let units = exchanges.map(toUnit);
      const preferences = deps.preferences?.() ?? [];
      const memories = await recall(input, units, budget);
      const system = (): ChatMessage => ({
        role: 'system',
        content: systemMessage({
          prompt: input.systemPrompt,
          preferences,
          memories,
          summary: summary?.text,
          limits: budget,
        }),
      });

      const all = [system(), ...units.flatMap((u) => u.entries.map((e) => e.msg))];
      const resting = (failedAt.get(sessionId) ?? -Infinity) > now() - RETRY_COMPACTION_AFTER_MS;
      if (
        deps.settings.compaction &&
        !resting &&
        units.length > 1 &&
        (await measure(all, budget.tokens * COMPACT_AT)) > budget.tokens * COMPACT_AT
      ) {
        const keep = await keptExchanges(units, budget.tokens * KEEP_AFTER_COMPACTION);
        const older = exchanges.slice(0, exchanges.length - keep).flat();
        const made = await compact(
          { store, bus: deps.bus, llm: deps.llm, now, summaryTimeoutMs: deps.summaryTimeoutMs },
          {
            sessionId,
            turnId: input.turnId,
            lang: input.lang,
            window: deps.settings.window,
            signal: input.signal,
            previous: summary,
            messages: older,
          },
        );
        if (!made && !input.signal.aborted) failedAt.set(sessionId, now());
        if (made) {
          failedAt.delete(sessionId);
          summary = made;
          units = units.slice(units.length - keep);
        }
      }

      const history = units.slice(0, -1).map((u) => u.entries);
      const current: Entry[] = units.at(-1)?.entries ?? [];
      const sys = system();
      let last: FitResult | undefined;
      // Each step's messages are seen again at every later step: their entry (and its time) is made once.
      const seen = new WeakMap<ChatMessage, Entry>();
      const entryOf = (msg: ChatMessage, steps: ChatMessage[]): Entry => {
        let e = seen.get(msg);
        if (!e)
          seen.set(
            msg,
            (e = { msg, at: now(), tool: msg.role === 'tool' ? toolName(steps, msg.tool_call_id) : undefined }),
          );
        return e;
      };
      // What every step of the turn starts with, counted once: a step adds only its own messages.
      const base = [sys, ...history.flat().map((e) => e.msg), ...current.map((e) => e.msg)];
      const baseEstimate = counter.exact ? 0 : base.reduce((n, m) => n + count(m), 0);
      return {
        async messages(steps) {
          if (!counter.exact) {
            let n = baseEstimate;
            for (const m of steps) n += count(m);
            // Clearly under the budget by the estimate: sent as it is, no tokenizer loaded.
            if (n * ESTIMATE_MARGIN <= budget.tokens) {
              last = { messages: base.concat(steps), tokens: n, pruned: 0, dropped: 0, cut: 0 };
              return last.messages;
            }
            await counter.load();
          }
          const stepEntries = steps.map((msg) => entryOf(msg, steps));
          last = fitRequest({
            system: sys,
            history,
            current: [...current, ...stepEntries],
            budget: budget.tokens,
            count,
          });
          return last.messages;
        },
        get last() {
          return last;
        },
        recalled: memories.length,
      };
    },
  };

  /** How many of the newest exchanges fill at most `tokens`: at least the current one. */
  async function keptExchanges(units: Unit[], tokens: number): Promise<number> {
    let used = 0;
    let keep = 0;
    for (let i = units.length - 1; i >= 0; i--) {
      const cost = units[i]!.entries.reduce((n, e) => n + count(e.msg), 0);
      if (keep > 0 && used + cost > tokens) break;
      used += cost;
      keep++;
    }
    return Math.min(keep, units.length - 1);
  }
}

/** The tool an earlier step's call named, for a pruned output's marker. */
function toolName(steps: ChatMessage[], callId: string): string | undefined {
  for (const m of steps) {
    if (m.role !== 'assistant') continue;
    const call = m.tool_calls?.find((c) => c.id === callId);
    if (call) return call.name;
  }
  return undefined;
}

/** The user's newest words, with the start of the reply before them: what the turn is about. */
function recallQuery(units: Unit[]): string {
  const current = units.at(-1)?.entries ?? [];
  const user = current.find((e) => e.msg.role === 'user')?.msg.content ?? '';
  const previous = units.at(-2)?.entries ?? [];
  const reply = [...previous].reverse().find((e) => e.msg.role === 'assistant' && e.msg.content)?.msg.content ?? '';
  return reply ? `${user}\n${String(reply).slice(0, RECALL_REPLY_CHARS)}` : String(user);
}
