/**
 * The provider interface. Two implementations share it: the OpenAI-compatible client
 * (any provider speaking Chat Completions) and the offline planner (rules, no network).
 * Tests add a third: a scripted model.
 */

import type { Usage } from '../contract/usage.js';
import type { ToolResultData } from '../contract/tool-data.js';

/** A tool call as the model proposed it. `arguments` is the raw JSON text, validated later. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** Chat history in the OpenAI Chat Completions shape, which every provider here understands. */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  /**
   * `reasoning` is the model's own thinking from earlier in the same turn. Thinking models with
   * tools (DeepSeek, Kimi) expect it back while the turn's tool calls go on; it is never shown as reply.
   */
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[]; reasoning?: string }
  /**
   * `result` is what the tool's result says as data (whether it worked, the todo list, the forecast),
   * for a model that reads data (the offline planner). It is never sent to a provider.
   */
  | { role: 'tool'; tool_call_id: string; content: string; result?: ToolResultData };

/** What the model sees of a tool: name, description and a JSON Schema for its input. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface LlmRequest {
  messages: ChatMessage[];
  tools: ToolSpec[];
  signal?: AbortSignal;
  /** Told before a retry of this request (rate limits, server errors); the caller knows whose request it is. */
  onRetry?: (info: { attempt: number; maxRetries: number; reason: string; status?: number; delayMs?: number }) => void;
  /** Told while this request waits for the model service to start answering. */
  onWaiting?: (info: { elapsedMs: number }) => void;
}

/**
 * What a model step yields, in order. Tool calls come out whole (deltas already
 * reassembled), in the order the model made them.
 */
export type LlmEvent =
  | { type: 'text'; delta: string }
  | { type: 'reasoning'; delta: string }
  | { type: 'tool_call'; call: ToolCall }
  | { type: 'usage'; usage: Usage }
  | { type: 'finish'; reason: string };

export interface Llm {
  /** `offline` for the rule-based planner, `llm` for a real model. */
  readonly mode: 'offline' | 'llm';
  readonly provider: string;
  /** The model requests use now; `setModel` changes it. */
  readonly model: string;
  stream(request: LlmRequest): AsyncIterable<LlmEvent>;
  /**
   * Switches the model every request from now on uses (the next step of a turn already running
   * included), for this process only. Absent where there is nothing to switch (offline).
   */
  setModel?(model: string): void;
  /** The model names the provider offers (its `GET /models`); throws when it cannot say. */
  listModels?(options: { timeoutMs: number; signal?: AbortSignal }): Promise<string[]>;
  /** A short title for a conversation, from its first message. Optional: offline uses the first words. */
  title?(firstMessage: string, signal?: AbortSignal): Promise<string>;
}
