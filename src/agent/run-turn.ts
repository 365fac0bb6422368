import { setMaxListeners } from 'node:events';
import type { Bus } from '../bus/bus.js';
import type { ActionRecord } from '../contract/tool-outcome.js';
import type { Llm, LlmRequest, ToolCall, ChatMessage } from '../llm/types.js';
import type { Usage } from '../contract/usage.js';
import type { Store } from '../store/store.js';
import { StoreError } from '../store/store-error.js';
import type { PreparedCall, ToolRegistry, ToolResult } from '../tools/registry.js';
import { errorText, say, type Lang } from '../i18n.js';
import type { ToolContext } from '../tools/tool.js';
import type { PermissionRecord, PermissionRequest } from '../contract/permission.js';
import type { UntrustedSource } from '../permission/turn-trust.js';
import { describedInto, keepOutside, observe, recalledInto, trustOf } from './turn-trust-feed.js';
import { createContextService, type ContextService } from './context-service.js';
import { createTurnWriter, type ToolPartHandle } from './turn-writer.js';
import { readStep, type StepCut, type StepLimits } from './read-step.js';
import { honestReply } from './honest-reply.js';
import { createRepeatGuard, reachedMaxSteps, type StopReason } from './stop-conditions.js';
import { createTurnDeadline, deadlineText } from './turn-deadline.js';

export interface TurnDeps {
  llm: Llm;
  tools: ToolRegistry;
  bus: Bus;
  store: Store;
  /** A call's `ask` (and why it refused), from the permission layer: it learns the call, turn and session, and the turn's signal withdraws an open ask. */
  askFor(call: { tool: string; callId: string; sessionId: string; turnId: string; signal: AbortSignal }): Pick<
    ToolContext,
    'ask' | 'refusal'
  > & {
    /** Every request the call made and how each was decided: kept with the call and shown on its card. */
    records?(): PermissionRecord[];
  };
  now?: () => number;
  /**
   * Workspace snapshots for undo: `before` runs once per turn, just before the first call of a tool
   * that may change the workspace; `after` when that turn ends. None: turns are not undoable.
   */
  snapshots?: TurnSnapshots;
  /**
   * Builds each model step's request to fit the model's window. None: a 32,000-token window
   * without compaction, as a bare turn (tests, benchmarks) has no settings to read.
   */
  context?: ContextService;
}

/** Listeners the turn's signal may hold before Node warns of a leak: far above any step's calls. */
const TURN_SIGNAL_LISTENERS = 1_000;

/** The window a turn without a context service fits its requests to. */
const BARE_TURN_WINDOW = 32_000;

/** What a turn tells the undo store. */
export interface TurnSnapshots {
  before(sessionId: string, turnId: string): Promise<void> | void;
  after(turnId: string): boolean;
}

export interface TurnOptions {
  sessionId: string;
  text: string;
  /** Absolute path of the session's sandbox. */
  workspace: string;
  systemPrompt: string;
  /** Outside text in the system prompt or the tools' descriptions (turn-trust-feed.ts promptSources): the turn starts with it. */
  inPrompt?: UntrustedSource[];
  lang: Lang;
  maxSteps: number;
  limits: StepLimits;
  signal?: AbortSignal;
  /** The most the whole turn may take, in milliseconds; none when unset. Time waiting on a permission ask does not count. */
  deadlineMs?: number;
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

/**
 * Groups a step's calls, in order, into runs that may go at once: consecutive read-only calls
 * together, anything that changes something alone (so `todo_add` then `todo_list` stays in order).
 */
export function batchCalls(calls: ToolCall[], isReadOnly: (call: ToolCall) => boolean): number[][] {
  const batches: number[][] = [];
  calls.forEach((call, i) => {
    const last = batches.at(-1);
    if (last && isReadOnly(call) && isReadOnly(calls[last[0]!]!)) last.push(i);
    else batches.push([i]);
  });
  return batches;
}

const isAbort = (err: unknown, signal: AbortSignal) =>
  signal.aborted || (err as Error)?.name === 'AbortError' || (err as { code?: string })?.code === 'aborted';

/**
 * One turn of the agent: model step, tools, results back, until the model answers without tools
 * or a stop condition fires. Every part is persisted as it happens; failures become tool results.
 */
export async function runTurn(deps: TurnDeps, opts: TurnOptions): Promise<TurnResult> {
  const { llm, tools, bus, store } = deps;
  const now = deps.now ?? Date.now;
  const { sessionId } = opts;
  const turnId = store.newId('trn');
  const deadline = opts.deadlineMs
    ? createTurnDeadline({ bus, sessionId, turnId, ms: opts.deadlineMs, now })
    : undefined;
  const outer = opts.signal ?? new AbortController().signal;
  const signal = deadline ? AbortSignal.any([outer, deadline.signal]) : outer;
  // Every call of a step listens on this signal (web tools, permission asks, time limits), and a step
  // may run many read-only calls at once: past Node's default of 10 it would print a leak warning.
  setMaxListeners(TURN_SIGNAL_LISTENERS, signal);
  const usage: Usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  const actions: ActionRecord[] = [];
  const guard = createRepeatGuard();
  let snapshot: 'none' | 'taken' | 'closed' = 'none';

  const trust = trustOf(store, opts);
  const writer = createTurnWriter({ store, sessionId, turnId, mode: llm.mode, model: llm.model, now });
  const { messageId: userMessageId } = writer.begin(opts.text);
  bus.emit({ type: 'turn.start', sessionId, turnId, messageId: userMessageId, text: opts.text });
  // The model client tells these per request; the turn knows whose request it is.
  const onRetry: LlmRequest['onRetry'] = (info) => bus.emit({ type: 'llm.retry', sessionId, turnId, ...info });
  const onWaiting: LlmRequest['onWaiting'] = (info) =>
    bus.emit({ type: 'llm.waiting', sessionId, turnId, elapsedMs: info.elapsedMs });

  const context =
    deps.context ??
    createContextService({ store, bus, llm, now, settings: { window: BARE_TURN_WINDOW, compaction: false } });
  /** This turn's steps as the model reads them: assistant messages with their calls, and the calls' results. */
  const steps: ChatMessage[] = [];

  /** Before the turn's first change to the workspace: a snapshot to undo it. A failure is said, and the call still runs. */
  const snapshotBefore = async (tool: string) => {
    if (snapshot !== 'none' || !deps.snapshots || !tools.get(tool)?.changesWorkspace) return;
    snapshot = 'taken';
    try {
      await deps.snapshots.before(sessionId, turnId);
    } catch (err) {
      snapshot = 'closed';
      const message = say(
        opts.lang,
        `没能为撤销保存工作区快照（${(err as Error).message}），这一轮的改动无法撤销。`,
        `Could not snapshot the workspace for undo (${(err as Error).message}); this turn's changes cannot be undone.`,
      );
      bus.emit({ type: 'error', sessionId, turnId, code: 'snapshot_failed', message });
    }
  };
  /** The state the turn left, recorded before anyone hears the turn ended (so an undo right after finds it). */
  const snapshotAfter = () => {
    if (snapshot !== 'taken') return;
    snapshot = 'closed';
    try {
      if (deps.snapshots!.after(turnId)) bus.emit({ type: 'undo.available', sessionId, turnId });
    } catch {
      // Without the end state, undo takes what is on disk as what the turn left.
    }
  };

  const finish = (
    reply: string,
    stopReason: StopReason,
    persistReply: boolean,
    error?: TurnResult['error'],
  ): TurnResult => {
    if (persistReply && reply) writer.step(reply, '', []);
    writer.end(stopReason);
    snapshotAfter();
    if (error) bus.emit({ type: 'error', sessionId, turnId, code: error.code, message: error.message });
    bus.emit({ type: 'turn.end', sessionId, turnId, reply, stopReason });
    return { turnId, reply, actions, stopReason, usage, error };
  };

  /** The turn was stopped: by the user, or (`interrupted`) by the program shutting down. */
  const stopped = (): TurnResult => {
    // The user's stop, when it came first, is what they see; otherwise the deadline's.
    if (deadline?.fired && !outer.aborted) {
      const message = deadlineText(opts.deadlineMs!, opts.lang);
      return finish(honestReply('limit', actions, opts.lang, message), 'limit', true, {
        code: 'turn_timeout',
        message,
      });
    }
    const why = signal.reason === 'interrupted' ? 'interrupted' : 'aborted';
    return finish(honestReply(why, actions, opts.lang), why, true);
  };

  try {
    return await loop();
  } catch (err) {
    if (!(err instanceof StoreError)) throw err;
    return unsaved(err);
  } finally {
    snapshotAfter();
    deadline?.dispose();
  }

  /**
   * The database failed (a full disk, a read-only home). Nothing more can be recorded, so the turn
   * stops here and says so; the reply still lists what was done, so it matches the disk.
   */
  function unsaved(err: StoreError): TurnResult {
    const error = { code: err.code, message: err.message };
    const reply = honestReply('error', actions, opts.lang, errorText(err, opts.lang));
    try {
      writer.end('error');
    } catch {
      // Already known: it is why we are here.
    }
    snapshotAfter();
    bus.emit({ type: 'error', sessionId, turnId, ...error });
    bus.emit({ type: 'turn.end', sessionId, turnId, reply, stopReason: 'error' });
    return { turnId, reply, actions, stopReason: 'error', usage, error };
  }

  async function loop(): Promise<TurnResult> {
    const turnContext = await context.begin({
      sessionId,
      turnId,
      systemPrompt: opts.systemPrompt,
      tools: tools.specs(),
      lang: opts.lang,
      signal,
    });
    recalledInto(trust, turnContext.recalled ?? 0, opts.lang);
    keepOutside(store, turnId, trust);
    for (let step = 0; ; step++) {
      writer.check();
      if (signal.aborted) return stopped();
      if (reachedMaxSteps(step, opts.maxSteps))
        return finish(honestReply('max_steps', actions, opts.lang), 'max_steps', true);

      const ids = writer.stepIds();
      bus.emit({ type: 'step.start', sessionId, turnId, messageId: ids.messageId, step });
      // Asked before every step: the turn's own results may have grown past the window since the last.
      const messages = await turnContext.messages(steps);
      if (describedInto(trust, tools.list(), opts.lang)) keepOutside(store, turnId, trust);
      const out = await readStep(llm, { messages, tools: tools.specs(), signal, onRetry, onWaiting }, opts.limits, {
        bus,
        sessionId,
        turnId,
        ids,
      });
      bus.emit({
        type: 'step.end',
        sessionId,
        turnId,
        messageId: ids.messageId,
        calls: out.calls.length,
        ...(out.usage ? { usage: out.usage } : {}),
      });
      // The previous step's writes were committed while the model answered: if that failed, act on nothing more.
      writer.check();
      if (out.error !== undefined) {
        const err = out.error;
        if (out.text) writer.step(out.text, out.reasoning, [], undefined, ids);
        if (isAbort(err, signal)) return stopped();
        const code = (err as { code?: string }).code ?? 'llm_error';
        const message = err instanceof Error ? err.message : String(err);
        // The reply speaks the user's language; the error object keeps the one sentence scripts match on.
        return finish(honestReply('error', actions, opts.lang, errorText(err, opts.lang)), 'error', true, {
          code,
          message,
        });
      }
      if (out.cut) {
        writer.step(out.text, out.reasoning, [], { usage: out.usage }, ids);
        const message = limitText(out.cut, opts.lang);
        return finish(honestReply('limit', actions, opts.lang, message), 'limit', true, { code: 'limit', message });
      }

      if (out.usage) {
        usage.promptTokens += out.usage.promptTokens;
        usage.completionTokens += out.usage.completionTokens;
        usage.totalTokens += out.usage.totalTokens;
      }
      // Each call's arguments are read once, here, for the store, the repeat guard, the events and the tool.
      // Oversized arguments are kept only as a preview: the call is refused, and nothing huge is stored or sent back.
      const calls = out.calls.map((call) => tools.prepare(call));
      const parts = writer.step(out.text, out.reasoning, calls, { usage: out.usage }, ids);
      if (out.calls.length === 0) {
        // An answer cut by the model's own token limit, or no answer at all, is not a finished turn.
        const trouble = out.finishReason === 'length' ? 'length' : out.text.trim() === '' ? 'empty_reply' : undefined;
        if (!trouble) return finish(out.text, 'done', false);
        const message = troubleText(trouble, opts.lang);
        return finish(honestReply('error', actions, opts.lang, message), 'error', true, { code: trouble, message });
      }

      steps.push({
        role: 'assistant',
        content: out.text || null,
        tool_calls: calls.map((c) => ({ ...c.call, arguments: c.arguments })),
        ...(out.reasoning ? { reasoning: out.reasoning } : {}),
      });
      let repeated = false;
      for (const batch of batchCalls(out.calls, (c) => tools.get(c.name)?.annotations?.readOnly === true)) {
        // Decided in call order before the batch starts; once a loop is detected, the rest is not run.
        const runs = batch.map((i) => {
          const prepared = calls[i]!;
          const skip = repeated
            ? 'stopped'
            : guard.isRepeat(prepared.call.name, prepared.input)
              ? 'repeat'
              : signal.aborted
                ? 'stopped'
                : undefined;
          if (skip === 'repeat') repeated = true;
          return runCall(prepared, ids.messageId, parts[i]!, skip);
        });
        // Read-only calls side by side run at once; results still go back in call order.
        for (const { action, reply } of runs.length === 1 ? [await runs[0]!] : await Promise.all(runs)) {
          actions.push(action);
          steps.push(reply);
        }
      }
      if (repeated) return finish(honestReply('repeated_call', actions, opts.lang), 'repeated_call', true);
    }
  }

  async function runCall(
    prepared: PreparedCall,
    messageId: string,
    part: ToolPartHandle,
    skip?: 'repeat' | 'stopped',
  ): Promise<{ action: ActionRecord; reply: ChatMessage }> {
    const { call, input } = prepared;
    part.start();
    const where = { sessionId, turnId, messageId, partId: part.id, callId: call.id };
    bus.emit({ type: 'tool.start', ...where, tool: call.name, input: inputPreview(input) });

    if (!skip) await snapshotBefore(call.name);
    const permissions = skip ? undefined : deps.askFor({ tool: call.name, callId: call.id, sessionId, turnId, signal });
    /** Why the trust record made this call's requests ask: said to the model if the call was refused. */
    const lifted: string[] = [];
    const ask: ToolContext['ask'] = (request) => {
      const why = trust.review(request);
      if (!why) return permissions!.ask(trust.personIfAsked(request) ? { ...request, personOnly: true } : request);
      lifted.push(why);
      const lift: PermissionRequest = {
        ...request,
        mustAsk: request.mustAsk ? `${request.mustAsk} ${why}` : why,
        personOnly: true,
      };
      return permissions!.ask(lift);
    };
    const result: ToolResult = skip
      ? {
          ok: false,
          input,
          ms: 0,
          error: skip === 'repeat' ? 'repeated' : 'stopped',
          output:
            skip === 'repeat'
              ? 'Error: not run — this exact call was already made twice in this turn.'
              : 'Error: not run — the turn was stopped.',
        }
      : await tools.run(prepared, {
          sessionId,
          turnId,
          callId: call.id,
          workspace: opts.workspace,
          signal,
          lang: opts.lang,
          ask,
          refusal: permissions!.refusal,
          progress: (message) => bus.emit({ type: 'tool.progress', ...where, message }),
          trust,
        });
    const records = permissions?.records?.() ?? [];
    if (!skip) observe(trust, call.name, tools.get(call.name)?.source, result, records);
    if (!result.ok && lifted.length > 0 && records.some((r) => r.decision === 'deny' && r.reason !== undefined)) {
      // The tool says it was refused; the model (and, offline, the user) should also hear why it had to ask.
      result.output = `${result.output}\n${lifted.at(-1)}`;
    }
    const action: ActionRecord = {
      callId: call.id,
      tool: call.name,
      input: result.input,
      ok: result.ok,
      output: result.output,
      ms: result.ms,
      ...cardOf(result),
      ...(records.length > 0 && { permission: records }),
    };
    part.end({ ...result, permission: action.permission });
    bus.emit({ type: 'tool.end', ...where, ...action, input: inputPreview(action.input) });
    // The model reads the output; the result's data travels beside it for code that reads results (offline).
    const reply: ChatMessage = {
      role: 'tool',
      tool_call_id: call.id,
      content: result.output,
      result: {
        ok: result.ok,
        ...(result.ok ? {} : { error: result.error ?? 'failed' }),
        ...(result.data === undefined ? {} : { data: result.data }),
      },
    };
    return { action, reply };
  }
}

/** What a call's card shows, for the events and the turn's record: attachments named and sized, without their bytes. */
function cardOf({
  title,
  metadata,
  attachments,
}: ToolResult): Pick<ActionRecord, 'title' | 'metadata' | 'attachments'> {
  return {
    ...(title !== undefined && { title }),
    ...(metadata !== undefined && { metadata }),
    ...(attachments !== undefined && {
      attachments: attachments.map(({ name, mimeType, size }) => ({ name, mimeType, size })),
    }),
  };
}

/** Which limit stopped the model, and where to change it. */
function limitText(cut: StepCut, lang: Lang): string {
  const n = cut.max.toLocaleString('en-US');
  if (cut.limit === 'calls') {
    return say(
      lang,
      `模型在一步里要求了超过 ${n} 个工具调用，一个都没有执行。`,
      `The model asked for more than ${n} tool calls in one step; none of them was run.`,
    );
  }
  const what = cut.limit === 'text' ? say(lang, '回复', 'reply') : say(lang, '思考过程', 'reasoning');
  return say(
    lang,
    `模型的${what}超过了 ${n} 个字符的上限，已在此截断（可用 ZHIXING_MAX_REPLY_CHARS 调整）。`,
    `The model's ${what} passed the limit of ${n} characters and was cut off there (ZHIXING_MAX_REPLY_CHARS sets it).`,
  );
}

/** The model ended its answer early, or gave none. */
function troubleText(trouble: 'length' | 'empty_reply', lang: Lang): string {
  return trouble === 'length'
    ? say(
        lang,
        '模型达到了它自己的输出长度上限（max tokens），回答在中途停止了。',
        'the model reached its own output limit (max tokens) and stopped mid-answer.',
      )
    : say(
        lang,
        '模型返回了空回复。请再试一次，或换一个模型。',
        'the model returned an empty reply. Try again, or try another model.',
      );
}

/** The longest string an event shows of a call's arguments; the store keeps them whole. */
const EVENT_STRING_CHARS = 10_000;

/**
 * A call's arguments as events carry them: a 5 MB file's content would make one event 5 MB on every
 * stream and in the replay log, where a card needs its first lines. Long strings are cut, with a count.
 */
export function inputPreview(input: unknown): unknown {
  try {
    return preview(input);
  } catch {
    // Nesting deeper than the stack: nothing a card could show anyway.
    return '(arguments nested too deeply to show)';
  }
}

function preview(input: unknown): unknown {
  if (typeof input === 'string') {
    return input.length <= EVENT_STRING_CHARS
      ? input
      : `${input.slice(0, EVENT_STRING_CHARS)}… [${input.length - EVENT_STRING_CHARS} more characters]`;
  }
  if (Array.isArray(input)) return input.map(preview);
  if (input && typeof input === 'object') {
    return Object.fromEntries(Object.entries(input as Record<string, unknown>).map(([k, v]) => [k, preview(v)]));
  }
  return input;
}
