import type { ActionRecord, Bus } from '../bus/bus.js';
import type { Llm, ToolCall, ChatMessage, Usage } from '../llm/types.js';
import type { Store } from '../store/store.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Lang, PermissionDecision, PermissionRequest } from '../tools/tool.js';
import { buildContext } from './context.js';
import { honestReply } from './honest-reply.js';
import { createRepeatGuard, reachedMaxSteps, type StopReason } from './stop-conditions.js';

export interface TurnDeps {
  llm: Llm;
  tools: ToolRegistry;
  bus: Bus;
  store: Store;
  ask(request: PermissionRequest, sessionId: string): Promise<PermissionDecision>;
  now?: () => number;
}

export interface TurnOptions {
  sessionId: string;
  text: string;
  /** Absolute path of the session's sandbox. */
  workspace: string;
  systemPrompt: string;
  lang: Lang;
  maxSteps: number;
  signal?: AbortSignal;
}

export interface TurnResult {
  turnId: string;
  reply: string;
  actions: ActionRecord[];
  stopReason: StopReason;
  usage: Usage;
  /** Set when the model call failed; the reply says so in plain words. */
  error?: { code: string; message: string };
}

interface StepOutput {
  text: string;
  reasoning: string;
  calls: ToolCall[];
  usage?: Usage;
}

/** The arguments as parsed JSON when they are valid, else the raw text (the registry reports it). */
const parseInput = (raw: string): unknown => {
  try {
    return JSON.parse(raw || '{}');
  } catch {
    return raw;
  }
};

const isAbort = (err: unknown, signal: AbortSignal) =>
  signal.aborted || (err as Error)?.name === 'AbortError' || (err as { code?: string })?.code === 'aborted';

/**
 * One turn of the agent: model step, tools, results back, until the model answers without tools
 * or a stop condition fires. Every part is persisted as it happens; failures become tool results.
 */
export async function runTurn(deps: TurnDeps, opts: TurnOptions): Promise<TurnResult> {
  const { llm, tools, bus, store } = deps;
  const now = deps.now ?? Date.now;
  const signal = opts.signal ?? new AbortController().signal;
  const { sessionId } = opts;
  const turnId = store.newId('trn');
  const usage: Usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  const actions: ActionRecord[] = [];
  const guard = createRepeatGuard();

  store.transaction(() => {
    store.turns.start({ id: turnId, sessionId, mode: llm.mode, model: llm.model, now: now() });
    const messageId = store.newId('msg');
    store.messages.addMessage({ id: messageId, sessionId, turnId, role: 'user', now: now() });
    store.messages.addPart({ id: store.newId('prt'), messageId, type: 'text', text: opts.text, now: now() });
    store.sessions.touch(sessionId, now());
  });
  bus.emit({ type: 'turn.start', sessionId, turnId, text: opts.text });

  const messages: ChatMessage[] = buildContext({
    systemPrompt: opts.systemPrompt,
    history: store.messages.list(sessionId),
  });

  const finish = (reply: string, stopReason: StopReason, persistReply: boolean, error?: TurnResult['error']): TurnResult => {
    if (persistReply && reply) persistAssistant(reply, '', []);
    const at = now();
    store.defer(() => store.turns.end(turnId, stopReason, at));
    // The turn is on disk before anyone hears it ended.
    store.flush();
    if (error) bus.emit({ type: 'error', sessionId, turnId, code: error.code, message: error.message });
    bus.emit({ type: 'turn.end', sessionId, turnId, reply, stopReason });
    return { turnId, reply, actions, stopReason, usage, error };
  };

  /**
   * Writes one assistant step in one transaction: its text, its tool calls (the first one already
   * running, as it starts at once) and, for a model step, its usage. Returns the tool part ids.
   */
  function persistAssistant(text: string, reasoning: string, calls: ToolCall[], step?: { usage?: Usage }): string[] {
    const messageId = store.newId('msg');
    const partIds = calls.map(() => store.newId('prt'));
    const at = now();
    store.defer(() => {
      if (step) store.turns.addStep(turnId, step.usage);
      store.messages.addMessage({ id: messageId, sessionId, turnId, role: 'assistant', now: at });
      const base = { messageId, now: at };
      if (reasoning) store.messages.addPart({ ...base, id: store.newId('prt'), type: 'reasoning', text: reasoning });
      if (text) store.messages.addPart({ ...base, id: store.newId('prt'), type: 'text', text });
      calls.forEach((c, i) => {
        const state = i === 0 ? 'running' : 'pending';
        store.messages.addPart({ ...base, id: partIds[i]!, type: 'tool', callId: c.id, tool: c.name, input: parseInput(c.arguments), state });
      });
    });
    return partIds;
  }

  for (let step = 0; ; step++) {
    if (signal.aborted) return finish(honestReply('aborted', actions, opts.lang), 'aborted', true);
    if (reachedMaxSteps(step, opts.maxSteps)) return finish(honestReply('max_steps', actions, opts.lang), 'max_steps', true);

    const out: StepOutput = { text: '', reasoning: '', calls: [] };
    try {
      for await (const ev of llm.stream({ messages, tools: tools.specs(), signal })) {
        if (ev.type === 'text') {
          out.text += ev.delta;
          bus.emit({ type: 'text.delta', sessionId, turnId, delta: ev.delta });
        } else if (ev.type === 'reasoning') out.reasoning += ev.delta;
        else if (ev.type === 'tool_call') out.calls.push(ev.call);
        else if (ev.type === 'usage') out.usage = ev.usage;
      }
    } catch (err) {
      if (out.text) persistAssistant(out.text, out.reasoning, []);
      if (isAbort(err, signal)) return finish(honestReply('aborted', actions, opts.lang), 'aborted', true);
      const code = (err as { code?: string }).code ?? 'llm_error';
      const message = err instanceof Error ? err.message : String(err);
      return finish(honestReply('error', actions, opts.lang, message), 'error', true, { code, message });
    }

    if (out.usage) {
      usage.promptTokens += out.usage.promptTokens;
      usage.completionTokens += out.usage.completionTokens;
      usage.totalTokens += out.usage.totalTokens;
    }
    const partIds = persistAssistant(out.text, out.reasoning, out.calls, { usage: out.usage });
    if (out.calls.length === 0) return finish(out.text, 'done', false);

    messages.push({ role: 'assistant', content: out.text || null, tool_calls: out.calls, ...(out.reasoning ? { reasoning: out.reasoning } : {}) });
    let repeated = false;
    for (const [i, call] of out.calls.entries()) {
      // Once a loop is detected, the rest of the step is not run either.
      const skip = repeated ? 'stopped' : guard.isRepeat(call) ? 'repeat' : signal.aborted ? 'stopped' : undefined;
      if (skip === 'repeat') repeated = true;
      await runCall(call, partIds[i]!, partIds[i + 1], skip);
      messages.push({ role: 'tool', tool_call_id: call.id, content: actions.at(-1)!.output });
    }
    if (repeated) return finish(honestReply('repeated_call', actions, opts.lang), 'repeated_call', true);
  }

  /** Runs one call; its completion and the next call's start are written together. */
  async function runCall(call: ToolCall, partId: string, nextPartId: string | undefined, skip?: 'repeat' | 'stopped'): Promise<void> {
    const input = parseInput(call.arguments);
    bus.emit({ type: 'tool.start', sessionId, turnId, callId: call.id, tool: call.name, input });

    const result =
      skip
        ? {
            ok: false,
            input,
            ms: 0,
            output:
              skip === 'repeat'
                ? 'Error: not run — this exact call was already made twice in this turn.'
                : 'Error: not run — the turn was stopped.',
          }
        : await tools.run(call, {
            sessionId,
            workspace: opts.workspace,
            signal,
            lang: opts.lang,
            ask: (request) => deps.ask(request, sessionId),
            progress: (message) => bus.emit({ type: 'tool.progress', sessionId, turnId, callId: call.id, message }),
          });
    const action: ActionRecord = { callId: call.id, tool: call.name, input: result.input, ok: result.ok, output: result.output, ms: result.ms };
    actions.push(action);
    const at = now();
    store.defer(() => {
      store.messages.updateToolPart(partId, { state: result.ok ? 'completed' : 'error', output: result.output, ms: result.ms, now: at });
      if (nextPartId) store.messages.updateToolPart(nextPartId, { state: 'running', now: at });
    });
    bus.emit({ type: 'tool.end', sessionId, turnId, ...action });
  }
}
