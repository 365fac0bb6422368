import type { Bus } from '../bus/bus.js';
import type { Lang } from '../i18n.js';
import type { Llm } from '../llm/types.js';
import type { Message, SummaryCoverage } from '../contract/message.js';
import type { Store } from '../store/store.js';
import { extractiveSummary } from './summary-extract.js';
import { modelSummary } from './summary-model.js';

/** A summary's request holds at most this share of the window in old messages, leaving room for the template and the answer. */
const TRANSCRIPT_SHARE = 0.5;
/** The transcript's characters per token of budget: low, since code and Chinese pack fewer. */
const TRANSCRIPT_CHARS_PER_TOKEN = 2;

export interface Summary {
  text: string;
  covers: SummaryCoverage;
}

export interface CompactInput {
  sessionId: string;
  turnId: string;
  lang: Lang;
  window: number;
  signal: AbortSignal;
  /** The summary in force, folded into the new one. */
  previous?: Summary;
  /** The messages to summarise, oldest first; every one after `previous` covers. */
  messages: Message[];
}

/**
 * Summarises older messages and stores the summary as a `summary` part of a message of its own:
 * every stored message stays. The model writes it; offline, code does. An empty or failed summary
 * stores nothing and is said in an event: the caller goes on with plain windowing.
 */
export async function compact(
  deps: { store: Store; bus: Bus; llm: Llm; now: () => number; summaryTimeoutMs?: number },
  input: CompactInput,
): Promise<Summary | undefined> {
  const { store, bus, llm } = deps;
  const { sessionId, turnId } = input;
  const last = input.messages.at(-1);
  if (!last) return undefined;
  let text: string;
  try {
    text =
      llm.mode === 'offline'
        ? extractiveSummary({ previous: input.previous?.text, messages: input.messages, lang: input.lang })
        : await modelSummary({
            llm,
            previous: input.previous?.text,
            messages: input.messages,
            lang: input.lang,
            maxChars: Math.floor(input.window * TRANSCRIPT_SHARE * TRANSCRIPT_CHARS_PER_TOKEN),
            signal: input.signal,
            timeoutMs: deps.summaryTimeoutMs,
          });
  } catch (err) {
    bus.emit({ type: 'context.compaction_failed', sessionId, turnId, reason: failure(err, input.signal) });
    return undefined;
  }
  if (!text.trim()) {
    bus.emit({
      type: 'context.compaction_failed',
      sessionId,
      turnId,
      reason: 'the model answered with an empty summary',
    });
    return undefined;
  }
  const covers: SummaryCoverage = {
    upTo: last.id,
    upToCreatedAt: last.createdAt,
    // Messages that carry an earlier summary are views, not conversation: they are not counted again.
    messages:
      (input.previous?.covers.messages ?? 0) +
      input.messages.filter((m) => !m.parts.every((p) => p.type === 'summary')).length,
    model: llm.model,
  };
  const messageId = store.newId('msg');
  const partId = store.newId('prt');
  const at = deps.now();
  store.transaction(() => {
    store.messages.addMessage({ id: messageId, sessionId, turnId, role: 'assistant', now: at }, [
      { id: partId, type: 'summary', text, covers, now: at },
    ]);
  });
  bus.emit({
    type: 'context.compacted',
    sessionId,
    turnId,
    messageId,
    partId,
    messages: covers.messages,
    model: covers.model,
  });
  return { text, covers };
}

function failure(err: unknown, signal: AbortSignal): string {
  if (signal.aborted) return 'the turn was stopped while the summary was written';
  const e = err as { name?: string; message?: string };
  if (e?.name === 'TimeoutError') return 'the model took too long to write the summary';
  return `the model could not write the summary: ${e?.message ?? String(err)}`;
}
