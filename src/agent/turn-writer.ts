import type { ToolCall } from '../llm/types.js';
import type { Usage } from '../contract/usage.js';
import type { ToolCard, ToolState } from '../contract/tool-outcome.js';
import type { NewPart, StoredAttachment } from '../store/messages-repo.js';
import type { Store } from '../store/store.js';

/** How a call ended, as stored: its output and duration, and what its card shows. */
type Outcome = { output: string; ms: number; attachments?: StoredAttachment[] } & ToolCard;

/** A tool call's part while its turn runs. */
export interface ToolPartHandle {
  /** The part's id, as stored: events about the call carry it. */
  readonly id: string;
  /** The call starts running. */
  start(): void;
  /** The call ended; `ok` decides completed or error. */
  end(result: { ok: boolean } & Outcome): void;
}

/**
 * The ids a model step will be stored under, known before it streams, so the events of the stream
 * can name the message and parts the history will hold.
 */
export interface StepIds {
  messageId: string;
  textPartId: string;
  reasoningPartId: string;
}

interface PartRecord extends ToolCard {
  id: string;
  state: ToolState;
  output?: string;
  ms?: number;
  attachments?: StoredAttachment[];
  at: number;
  /** Set once the insert has been committed; later changes become updates. */
  written: boolean;
}

/**
 * Writes one turn to the store as it happens. Writes are queued to commit together at the end of
 * the event-loop tick (the store's group commit); a change to a tool part whose insert is still
 * queued is folded into that insert, so a quick call costs one row write, not three.
 */
export function createTurnWriter(options: {
  store: Store;
  sessionId: string;
  turnId: string;
  mode: string;
  model: string;
  now: () => number;
}) {
  const { store, sessionId, turnId, now } = options;
  let failure: unknown;
  /** A write that failed is kept here and raised by `check` or `end`, in the turn it belongs to. */
  const onError = (err: unknown) => {
    failure ??= err;
  };
  const defer = (write: () => void) => store.defer(write, onError);
  const check = () => {
    if (failure !== undefined) throw failure;
  };
  /** The turn's totals so far: each write stores them whole, so writing them twice changes nothing. */
  const usage: Usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  let steps = 0;
  let usageQueued = false;

  /** Step counts and token usage, written at most once per commit. */
  function queueUsage(step: Usage | undefined) {
    steps++;
    if (step) {
      usage.promptTokens += step.promptTokens;
      usage.completionTokens += step.completionTokens;
      usage.totalTokens += step.totalTokens;
    }
    if (usageQueued) return;
    usageQueued = true;
    defer(() => {
      usageQueued = false;
      store.turns.setSteps(turnId, steps, usage);
    });
  }

  function change(record: PartRecord, state: ToolState, result?: Outcome) {
    record.state = state;
    record.at = now();
    if (result) Object.assign(record, result);
    if (!record.written) return;
    const { id, output, ms, at, title, metadata, attachments, permission } = record;
    defer(() =>
      store.messages.updateToolPart(id, { state, output, ms, now: at, title, metadata, attachments, permission }),
    );
  }

  const newStepIds = (): StepIds => ({
    messageId: store.newId('msg'),
    textPartId: store.newId('prt'),
    reasoningPartId: store.newId('prt'),
  });

  return {
    /** The user's message and the turn's row, committed at once: the turn exists before anything runs. */
    begin(text: string): { messageId: string } {
      const messageId = store.newId('msg');
      store.transaction(() => {
        store.turns.start({ id: turnId, sessionId, mode: options.mode, model: options.model, now: now() });
        store.messages.addMessage({ id: messageId, sessionId, turnId, role: 'user', now: now() }, [
          { id: store.newId('prt'), type: 'text', text, now: now() },
        ]);
        store.sessions.touch(sessionId, now());
      });
      return { messageId };
    },

    /** One assistant step: its reasoning, text and tool calls (with their parsed input); `usage` is given for model steps. */
    /** Fresh ids for the next step. */
    stepIds: newStepIds,

    step(
      text: string,
      reasoning: string,
      calls: Array<{ call: ToolCall; input: unknown }>,
      model?: { usage?: Usage },
      ids: StepIds = newStepIds(),
    ): ToolPartHandle[] {
      if (model) queueUsage(model.usage);
      const { messageId } = ids;
      const at = now();
      const records: PartRecord[] = calls.map(() => ({ id: store.newId('prt'), state: 'pending', at, written: false }));
      defer(() => {
        const parts: Array<NewPart & { id: string; now: number }> = [];
        if (reasoning) parts.push({ id: ids.reasoningPartId, type: 'reasoning', text: reasoning, now: at });
        if (text) parts.push({ id: ids.textPartId, type: 'text', text, now: at });
        calls.forEach(({ call, input }, i) => {
          const r = records[i]!;
          parts.push({
            now: r.at,
            id: r.id,
            type: 'tool',
            callId: call.id,
            tool: call.name,
            input,
            state: r.state,
            output: r.output,
            ms: r.ms,
            title: r.title,
            metadata: r.metadata,
            attachments: r.attachments,
            permission: r.permission,
          });
        });
        store.messages.addMessage({ id: messageId, sessionId, turnId, role: 'assistant', now: at }, parts);
        // Only once every row of the step is in: a failed step leaves nothing to update.
        records.forEach((r) => (r.written = true));
      });
      return records.map((r) => ({
        id: r.id,
        start: () => change(r, 'running'),
        end: ({ ok, output, ms, title, metadata, attachments, permission }) =>
          change(r, ok ? 'completed' : 'error', { output, ms, title, metadata, attachments, permission }),
      }));
    },

    /** Throws if a write of this turn failed, so the turn stops instead of carrying on unrecorded. */
    check,

    /** Ends the turn and commits everything: the turn is on disk before anyone hears it ended. */
    end(stopReason: string) {
      const at = now();
      defer(() => store.turns.end(turnId, stopReason, at));
      store.flush();
      check();
    },
  };
}
