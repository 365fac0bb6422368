/**
 * Turns Chat Completions stream chunks into `LlmEvent`s. Pure: no network, no SDK types,
 * so every provider quirk seen in recorded streams can be tested with plain objects.
 *
 * Quirks handled (each one met in a real recording):
 * - tool-call deltas keyed by `index`, which may start at 1 (Anthropic-compat gateways);
 * - later deltas repeating `"id": ""` (DashScope/Qwen) must not wipe the id;
 * - a whole call in one delta (Groq); empty-argument deltas (Qwen, gateways);
 * - reasoning in `reasoning_content` (DeepSeek, Qwen, xAI) or `reasoning` (Ollama, OpenRouter);
 * - usage on the finish chunk, on a separate `choices: []` chunk, or only under `x_groq.usage`.
 *
 * A chunk that is not an object says nothing and is skipped. A tool call in the wrong shape
 * is the model's error: guessing at it turned a string into one nameless call per character.
 */
import { LlmError } from './llm-error.js';
import type { LlmEvent, ToolCall } from './types.js';
import type { Usage } from '../contract/usage.js';

/** One `choices[].delta.tool_calls[]` entry as providers send it. Every field may be missing. */
export interface ToolCallDelta {
  index?: number;
  id?: string | null;
  type?: string;
  function?: { name?: string | null; arguments?: unknown };
}

interface UsageLike {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
}

/** The parts of a `chat.completion.chunk` this module reads. */
export interface ChunkLike {
  choices?: Array<{
    index?: number;
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      reasoning?: unknown;
      tool_calls?: ToolCallDelta[] | null;
    } | null;
    finish_reason?: string | null;
  }> | null;
  usage?: UsageLike | null;
  x_groq?: { usage?: UsageLike | null } | null;
}

export interface ToolCallAssembler {
  add(delta: ToolCallDelta): void;
  /** Calls not yet taken, in index order; each call is returned once. */
  take(): ToolCall[];
  readonly size: number;
}

interface PartialCall {
  index: number;
  id: string;
  name: string;
  args: string;
  taken: boolean;
}

/**
 * What one step's tool calls may hold while they stream in: past either bound the stream is a model
 * out of control, and memory must not follow it. (A 5 MB file write, JSON-escaped, fits easily.)
 */
const MAX_TOOL_CALL_CHARS = 16_000_000;
const MAX_TOOL_CALLS = 1_000;

/** Default id for a call the provider sent without one: `call_<n>`, n counting from 1. */
const defaultMakeId = (n: number): string => `call_${n}`;

export function createToolCallAssembler(makeId: (n: number) => string = defaultMakeId): ToolCallAssembler {
  const calls = new Map<number, PartialCall>();
  let generated = 0;
  let lastIndex = -1;

  let chars = 0;
  const tooMuch = (what: string) =>
    new LlmError(
      'bad_response',
      `The model sent ${what} in one step, more than any answer needs; it was stopped. Try again, or try another model.`,
      undefined,
      `模型在一步里发来的内容远超任何回答所需（${what}），已停止。请再试一次，或换一个模型。`,
    );

  function slotFor(delta: ToolCallDelta): PartialCall {
    let index = typeof delta.index === 'number' ? delta.index : undefined;
    if (index === undefined) {
      // Some gateways omit `index`: a new non-empty id starts a call, anything else continues the last one.
      const last = calls.get(lastIndex);
      const id = delta.id || '';
      index = last && (!id || id === last.id) ? lastIndex : lastIndex + 1;
    }
    let call = calls.get(index);
    if (!call) {
      if (calls.size >= MAX_TOOL_CALLS) throw tooMuch(`over ${MAX_TOOL_CALLS.toLocaleString('en-US')} tool calls`);
      call = { index, id: '', name: '', args: '', taken: false };
      calls.set(index, call);
    }
    lastIndex = index;
    return call;
  }

  return {
    add(delta) {
      const call = slotFor(delta);
      if (!call.id && typeof delta.id === 'string' && delta.id) call.id = delta.id;
      const fn = delta.function;
      if (!fn) return;
      if (!call.name && typeof fn.name === 'string' && fn.name) call.name = fn.name;
      const piece =
        typeof fn.arguments === 'string'
          ? fn.arguments
          : fn.arguments && typeof fn.arguments === 'object'
            ? JSON.stringify(fn.arguments)
            : '';
      chars += piece.length;
      if (chars > MAX_TOOL_CALL_CHARS)
        throw tooMuch(`over ${MAX_TOOL_CALL_CHARS.toLocaleString('en-US')} characters of tool-call arguments`);
      call.args += piece;
    },
    take() {
      const ready = [...calls.values()].filter((c) => !c.taken).sort((a, b) => a.index - b.index);
      return ready.map((c) => {
        c.taken = true;
        if (!c.id) c.id = makeId(++generated);
        return { id: c.id, name: c.name, arguments: c.args.trim() === '' ? '{}' : c.args };
      });
    },
    get size() {
      return calls.size;
    },
  };
}

export interface StreamAssembler {
  /**
   * Events to yield now for one chunk: text and reasoning deltas, and tool calls once finish_reason arrives.
   * Throws `LlmError('bad_response')` for a malformed tool call.
   */
  push(chunk: unknown): LlmEvent[];
  /** Events after the stream ended: any calls not yet emitted, usage (if any), finish. */
  end(): LlmEvent[];
  /** Chunks (objects) seen so far: zero means the body held no usable data at all. */
  readonly chunks: number;
}

export interface StreamAssemblerOptions {
  /** Id for calls that arrive without one (default `call_<n>`). */
  makeId?: (n: number) => string;
}

export function createStreamAssembler(options: StreamAssemblerOptions = {}): StreamAssembler {
  const tools = createToolCallAssembler(options.makeId);
  let usage: Usage | undefined;
  let finishReason: string | undefined;
  let chunks = 0;

  return {
    push(raw) {
      if (!isObject(raw)) return [];
      const chunk = raw as ChunkLike;
      chunks++;
      const events: LlmEvent[] = [];
      const found = readUsage(chunk);
      if (found) usage = found;
      // Only the first choice is ours; we never ask for n > 1.
      const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
      const choice = choices.find((c) => isObject(c) && (c.index ?? 0) === 0);
      if (!choice) return events;
      const delta = isObject(choice.delta) ? choice.delta : {};
      const toolCalls = checkedToolCalls(delta.tool_calls);
      const reasoning =
        typeof delta.reasoning_content === 'string'
          ? delta.reasoning_content
          : typeof delta.reasoning === 'string'
            ? delta.reasoning
            : '';
      if (reasoning) events.push({ type: 'reasoning', delta: reasoning });
      if (typeof delta.content === 'string' && delta.content) events.push({ type: 'text', delta: delta.content });
      for (const call of toolCalls) tools.add(call);
      if (typeof choice.finish_reason === 'string' && choice.finish_reason) {
        finishReason = choice.finish_reason;
        for (const call of tools.take()) events.push({ type: 'tool_call', call });
      }
      return events;
    },
    end() {
      const events: LlmEvent[] = tools.take().map((call) => ({ type: 'tool_call' as const, call }));
      if (usage) events.push({ type: 'usage', usage });
      // Some servers say `stop` even after tool calls; the agent keys off the reason, so say what happened.
      let reason = finishReason ?? 'stop';
      if (tools.size > 0 && reason === 'stop') reason = 'tool_calls';
      events.push({ type: 'finish', reason });
      return events;
    },
    get chunks() {
      return chunks;
    },
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The delta's tool calls, or a clear error when they are not in the one shape that means anything. */
function checkedToolCalls(value: unknown): ToolCallDelta[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw malformedToolCall('tool_calls is not a list');
  for (const entry of value) {
    if (!isObject(entry)) throw malformedToolCall('a tool_calls entry is not an object');
    if (entry.function !== undefined && entry.function !== null && !isObject(entry.function)) {
      throw malformedToolCall('function is not an object');
    }
  }
  return value as ToolCallDelta[];
}

function malformedToolCall(why: string): LlmError {
  return new LlmError(
    'bad_response',
    `The model sent a malformed tool call (${why}). Try again, or try another model.`,
    undefined,
    `模型发来的工具调用格式不对（${why}）。请再试一次，或换一个模型。`,
  );
}

function readUsage(chunk: ChunkLike): Usage | undefined {
  const raw = chunk.usage ?? chunk.x_groq?.usage;
  if (!raw || typeof raw !== 'object') return undefined;
  const prompt = num(raw.prompt_tokens);
  const completion = num(raw.completion_tokens);
  if (prompt === undefined && completion === undefined) return undefined;
  const promptTokens = prompt ?? 0;
  const completionTokens = completion ?? 0;
  return { promptTokens, completionTokens, totalTokens: num(raw.total_tokens) ?? promptTokens + completionTokens };
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
