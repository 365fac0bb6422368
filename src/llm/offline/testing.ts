/**
 * Small helpers for driving an `Llm` without the agent: one step, or a whole turn with scripted tool
 * outputs. Used by the planner's tests; also handy for eval scripts that replay conversations.
 */
import type { ChatMessage, Llm, LlmEvent, ToolCall, ToolSpec } from '../types.js';
import type { ToolData, ToolResultData } from '../../contract/tool-data.js';
import type { ToolErrorKind } from '../../contract/tool-error.js';

/** What a scripted call gives back: its text alone (as a result stored before results had data), or with data. */
export type ScriptedOutput = string | { content: string; result?: ToolResultData };

/** A registry's result as the agent loop hands it to the model: the output, with its data beside it. */
export function replyOf(r: { ok: boolean; output: string; error?: ToolErrorKind; data?: ToolData }): ScriptedOutput {
  return {
    content: r.output,
    result: { ok: r.ok, ...(r.ok ? {} : { error: r.error ?? 'failed' }), ...(r.data ? { data: r.data } : {}) },
  };
}

const toolMessage = (call: ToolCall, out: ScriptedOutput): ChatMessage =>
  typeof out === 'string'
    ? { role: 'tool', tool_call_id: call.id, content: out }
    : { role: 'tool', tool_call_id: call.id, content: out.content, ...(out.result ? { result: out.result } : {}) };

/** The built-in tools the offline planner knows, as bare specs. */
export const BUILTIN_TOOL_NAMES = [
  'calculator',
  'current_time',
  'todo_add',
  'todo_list',
  'todo_done',
  'todo_delete',
  'file_read',
  'file_write',
  'file_list',
  'weather',
] as const;

export const specsFor = (names: readonly string[] = BUILTIN_TOOL_NAMES): ToolSpec[] =>
  names.map((name) => ({ name, description: name, parameters: { type: 'object' } }));

/** A preferences store in memory, shaped like the real one. */
export function memoryPrefs(): { get(key: string): string | undefined; set(key: string, value: string): void } {
  const values = new Map<string, string>();
  return { get: (key) => values.get(key), set: (key, value) => void values.set(key, value) };
}

export interface StepResult {
  events: LlmEvent[];
  text: string;
  calls: ToolCall[];
  /** The calls with their arguments parsed. */
  parsed: Array<{ name: string; args: Record<string, unknown> }>;
  finish: string | undefined;
}

/** Runs one model step and collects what it yields. */
export async function step(llm: Llm, messages: ChatMessage[], tools: ToolSpec[] = specsFor()): Promise<StepResult> {
  const events: LlmEvent[] = [];
  for await (const event of llm.stream({ messages, tools })) events.push(event);
  const calls = events.flatMap((e) => (e.type === 'tool_call' ? [e.call] : []));
  return {
    events,
    text: events.map((e) => (e.type === 'text' ? e.delta : '')).join(''),
    calls,
    parsed: calls.map((c) => ({ name: c.name, args: JSON.parse(c.arguments) as Record<string, unknown> })),
    finish: events.flatMap((e) => (e.type === 'finish' ? [e.reason] : []))[0],
  };
}

export interface TurnResult {
  reply: string;
  calls: StepResult['parsed'];
  /** The history after the turn, for the next one. */
  messages: ChatMessage[];
  /** The step that answered after the tools, if any. */
  final: StepResult;
}

/**
 * One user turn: a step, then — if it called tools — their outputs from `outputs` (start one with
 * "Error: " for a failure) and a second step for the reply.
 */
export async function turn(
  llm: Llm,
  history: ChatMessage[],
  text: string,
  outputs: (call: ToolCall) => ScriptedOutput | Promise<ScriptedOutput> = () => 'ok',
  tools: ToolSpec[] = specsFor(),
): Promise<TurnResult> {
  const messages: ChatMessage[] = [...history, { role: 'user', content: text }];
  const first = await step(llm, messages, tools);
  if (first.calls.length === 0) {
    messages.push({ role: 'assistant', content: first.text });
    return { reply: first.text, calls: [], messages, final: first };
  }
  messages.push({ role: 'assistant', content: first.text || null, tool_calls: first.calls });
  for (const call of first.calls) messages.push(toolMessage(call, await outputs(call)));
  const final = await step(llm, messages, tools);
  messages.push({ role: 'assistant', content: final.text });
  return { reply: final.text, calls: first.parsed, messages, final };
}

/** How many steps a turn may take before the planner counts as stuck: two-step calls need two, plus the reply. */
const MAX_TURN_STEPS = 4;

/**
 * One user turn as the agent loop runs it: steps until the planner stops calling tools, each call
 * answered by `run` (the real registry in most tests). Follows two-step plans (a lookup, an append).
 */
export async function agentTurn(
  llm: Llm,
  history: ChatMessage[],
  text: string,
  run: (call: ToolCall) => ScriptedOutput | Promise<ScriptedOutput>,
  tools: ToolSpec[] = specsFor(),
): Promise<{ reply: string; calls: StepResult['parsed']; messages: ChatMessage[] }> {
  const messages: ChatMessage[] = [...history, { role: 'user', content: text }];
  const calls: StepResult['parsed'] = [];
  for (let i = 0; i < MAX_TURN_STEPS; i++) {
    const r = await step(llm, messages, tools);
    if (!r.calls.length) {
      messages.push({ role: 'assistant', content: r.text });
      return { reply: r.text, calls, messages };
    }
    calls.push(...r.parsed);
    messages.push({ role: 'assistant', content: null, tool_calls: r.calls });
    for (const c of r.calls) messages.push(toolMessage(c, await run(c)));
  }
  throw new Error('the planner did not stop calling tools');
}
