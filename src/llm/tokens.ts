import type { ChatMessage } from './types.js';

/** CJK and full-width characters: each about one token in the common tokenizers. */
const WIDE_CHARS = /[\u3000-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/g;
/** Characters of other text per token; no text has more characters per token than this. */
export const CHARS_PER_TOKEN = 4;

/** A cheap token estimate, good enough for budgets and for usage when a provider reports none. */
export function estimateTokens(text: string): number {
  const wide = text.match(WIDE_CHARS)?.length ?? 0;
  return wide + Math.ceil((text.length - wide) / CHARS_PER_TOKEN);
}

/** The text of a message as a model reads it, tool calls included. */
export function messageText(m: ChatMessage): string {
  if (m.role === 'assistant') return (m.content ?? '') + (m.tool_calls ?? []).map((c) => c.name + c.arguments).join('');
  return m.content;
}
