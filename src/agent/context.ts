import { CHARS_PER_TOKEN, estimateTokens, messageText } from '../llm/tokens.js';
import type { ChatMessage, ToolCall } from '../llm/types.js';
import type { Message } from '../contract/message.js';

/** Rough budget for history sent to the model; the newest messages are kept. */
export const DEFAULT_HISTORY_BUDGET_TOKENS = 24_000;

/**
 * What to read from the store for a context: no more characters than the budget could ever hold,
 * so the builder below trims a window, never a whole long session, and one giant message is cut.
 */
export const HISTORY_WINDOW = {
  maxChars: DEFAULT_HISTORY_BUDGET_TOKENS * CHARS_PER_TOKEN,
  maxPartChars: DEFAULT_HISTORY_BUDGET_TOKENS * CHARS_PER_TOKEN,
};

/** What each message costs beyond its text (role, separators). */
const PER_MESSAGE_TOKENS = 4;
const messageTokens = (m: ChatMessage) => estimateTokens(messageText(m)) + PER_MESSAGE_TOKENS;

const INTERRUPTED = 'Error: interrupted before it finished (the program stopped).';

/**
 * Turns stored messages into Chat Completions messages. An assistant step with tool calls is
 * always followed by one tool message per call, even for calls a crash interrupted.
 */
export function toChatMessages(messages: Message[]): ChatMessage[][] {
  const units: ChatMessage[][] = [];
  for (const m of messages) {
    // A summary stands for older messages in the system message; its own message is not history.
    if (m.parts.every((p) => p.type === 'summary') && m.parts.length > 0) continue;
    const text = m.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
    if (m.role === 'user') {
      units.push([{ role: 'user', content: text }]);
      continue;
    }
    const tools = m.parts.filter((p) => p.type === 'tool');
    const calls: ToolCall[] = tools.map((p) => ({
      id: p.callId,
      name: p.tool,
      arguments: typeof p.input === 'string' ? p.input : JSON.stringify(p.input ?? {}),
    }));
    const unit: ChatMessage[] = [
      calls.length
        ? { role: 'assistant', content: text || null, tool_calls: calls }
        : { role: 'assistant', content: text },
    ];
    for (const p of tools) {
      const finished = p.state === 'completed' || p.state === 'error';
      unit.push({ role: 'tool', tool_call_id: p.callId, content: finished ? (p.output ?? '') : INTERRUPTED });
    }
    // Assistant steps belong to the unit of the user message they answer, so a cut never separates them.
    const last = units.at(-1);
    if (last) last.push(...unit);
    else units.push(unit);
  }
  return units;
}

/**
 * The request history: system prompt + the most recent whole exchanges that fit the budget.
 * Cuts fall only before a user message, so a tool call is never separated from its results.
 */
export function buildContext(options: {
  systemPrompt: string;
  history: Message[];
  budgetTokens?: number;
}): ChatMessage[] {
  const budget = options.budgetTokens ?? DEFAULT_HISTORY_BUDGET_TOKENS;
  const units = toChatMessages(options.history);
  const kept: ChatMessage[][] = [];
  let used = estimateTokens(options.systemPrompt) + PER_MESSAGE_TOKENS;
  for (let i = units.length - 1; i >= 0; i--) {
    const unit = units[i]!;
    const cost = unit.reduce((n, m) => n + messageTokens(m), 0);
    // The newest exchange is always sent, whatever its size.
    if (kept.length > 0 && used + cost > budget) break;
    kept.unshift(unit);
    used += cost;
  }
  return [{ role: 'system', content: options.systemPrompt }, ...kept.flat()];
}
