/**
 * Shared set-up for the model client's tests: a local OpenAI wire-format server per test and
 * helpers that drive the real client against it and sum up what it yielded.
 */
import { afterEach, beforeEach, expect } from 'vitest';
import { createOpenAiLlm, LlmError, type OpenAiLlmOptions } from '../../src/llm/openai-client.js';
import type { Llm, LlmEvent, LlmRequest, ToolCall } from '../../src/llm/types.js';
import type { Usage } from '../../src/contract/usage.js';
import { startOpenAiServer, type OpenAiServer } from './openai-server.js';

export const FAKE_KEY = 'sk-test-abcdefghijklmnop1234';
export const WEATHER_TOOL = {
  name: 'weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/** The current test's server (a live binding: each test gets its own). */
export let server: OpenAiServer;

/** Starts a fresh server before each test of the calling file and closes it after. */
export function useOpenAiServer(): void {
  beforeEach(async () => {
    server = await startOpenAiServer();
  });
  afterEach(async () => {
    await server.close();
  });
}

export function llmFor(overrides: Partial<OpenAiLlmOptions> = {}): Llm {
  return createOpenAiLlm({
    baseUrl: server.url,
    apiKey: FAKE_KEY,
    model: 'test-model',
    provider: 'test',
    ...overrides,
  });
}

export interface Collected {
  events: LlmEvent[];
  text: string;
  reasoning: string;
  calls: ToolCall[];
  usage?: Usage;
  finish?: string;
}

export async function collect(llm: Llm, request: Partial<LlmRequest> = {}): Promise<Collected> {
  const events: LlmEvent[] = [];
  for await (const event of llm.stream({ messages: [{ role: 'user', content: 'hi' }], tools: [], ...request }))
    events.push(event);
  return summarize(events);
}

export function summarize(events: LlmEvent[]): Collected {
  const out: Collected = { events, text: '', reasoning: '', calls: [] };
  for (const event of events) {
    if (event.type === 'text') out.text += event.delta;
    if (event.type === 'reasoning') out.reasoning += event.delta;
    if (event.type === 'tool_call') out.calls.push(event.call);
    if (event.type === 'usage') out.usage = event.usage;
    if (event.type === 'finish') out.finish = event.reason;
  }
  return out;
}

export async function failure(promise: Promise<unknown>): Promise<LlmError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(LlmError);
    return error as LlmError;
  }
  throw new Error('expected the call to fail');
}

export const parsedCalls = (calls: ToolCall[]) =>
  calls.map((c) => ({ id: c.id, name: c.name, args: JSON.parse(c.arguments) }));
