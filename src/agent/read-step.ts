import type { Bus } from '../bus/bus.js';
import type { Llm, LlmRequest, ToolCall } from '../llm/types.js';
import type { Usage } from '../contract/usage.js';
import type { StepIds } from './turn-writer.js';

/** More calls than this in one step is a model out of control, not a plan: none of them is run. */
export const MAX_TOOL_CALLS_PER_STEP = 64;
/** Thinking may run longer than the answer it leads to, within reason. */
const REASONING_TO_REPLY_RATIO = 4;

export interface StepLimits {
  /** The most characters of text one model step may write (ZHIXING_MAX_REPLY_CHARS). */
  maxReplyChars: number;
}

/** Which limit ended a step early; the kept text is within it. */
export type StepCut = { limit: 'text' | 'reasoning'; max: number } | { limit: 'calls'; max: number };

export interface StepOutput {
  text: string;
  reasoning: string;
  calls: ToolCall[];
  usage?: Usage;
  /** Why the model said it stopped (`stop`, `tool_calls`, `length`…), when it said. */
  finishReason?: string;
  cut?: StepCut;
  /** Set when the stream failed; what came before the failure is kept above. */
  error?: unknown;
}

/**
 * Reads one model step: text deltas streamed to the bus as they come, reasoning, whole tool calls
 * and usage. Nothing a model sends can grow without bound: past a limit the request is stopped
 * (leaving the loop closes the stream) and the step ends with what was kept and the reason.
 * Never throws: a failed stream comes back as `error`.
 */
export async function readStep(
  llm: Llm,
  request: LlmRequest,
  limits: StepLimits,
  emit: { bus: Bus; sessionId: string; turnId: string; ids: StepIds },
): Promise<StepOutput> {
  const out: StepOutput = { text: '', reasoning: '', calls: [] };
  const { bus, sessionId, turnId, ids } = emit;
  const maxReasoning = limits.maxReplyChars * REASONING_TO_REPLY_RATIO;
  try {
    for await (const ev of llm.stream(request)) {
      if (ev.type === 'text') {
        const room = limits.maxReplyChars - out.text.length;
        const delta = ev.delta.length > room ? ev.delta.slice(0, room) : ev.delta;
        if (delta) {
          out.text += delta;
          bus.emit({ type: 'text.delta', sessionId, turnId, messageId: ids.messageId, partId: ids.textPartId, delta });
        }
        if (ev.delta.length > room) {
          out.cut = { limit: 'text', max: limits.maxReplyChars };
          break;
        }
      } else if (ev.type === 'reasoning') {
        const room = maxReasoning - out.reasoning.length;
        const delta = ev.delta.slice(0, Math.max(0, room));
        if (delta) {
          out.reasoning += delta;
          bus.emit({
            type: 'reasoning.delta',
            sessionId,
            turnId,
            messageId: ids.messageId,
            partId: ids.reasoningPartId,
            delta,
          });
        }
        if (ev.delta.length > room) {
          out.cut = { limit: 'reasoning', max: maxReasoning };
          break;
        }
      } else if (ev.type === 'tool_call') {
        if (out.calls.length >= MAX_TOOL_CALLS_PER_STEP) {
          out.cut = { limit: 'calls', max: MAX_TOOL_CALLS_PER_STEP };
          break;
        }
        out.calls.push(ev.call);
      } else if (ev.type === 'usage') out.usage = ev.usage;
      else if (ev.type === 'finish') out.finishReason = ev.reason;
    }
  } catch (err) {
    // What was said before the failure is kept: the caller stores it with the error.
    out.error = err;
  }
  // A step cut short is not a plan to act on.
  if (out.cut) out.calls = [];
  return out;
}
