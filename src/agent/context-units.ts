import type { ChatMessage } from '../llm/types.js';
import type { Message } from '../contract/message.js';
import { toChatMessages } from './context.js';

/** One request message, with what a pruning marker names: the tool that wrote it and when. */
export interface Entry {
  msg: ChatMessage;
  tool?: string;
  at: number;
}

/** An exchange: a user message and everything that answered it. Cuts fall only between exchanges. */
export interface Unit {
  entries: Entry[];
  /** The stored messages it was made from, oldest first. */
  messages: Message[];
}

/** Stored messages, oldest first, grouped into exchanges; assistant messages before any user message make one of their own. */
export function groupExchanges(messages: Message[]): Message[][] {
  const groups: Message[][] = [];
  for (const m of messages) {
    const last = groups.at(-1);
    if (m.role === 'user' || !last) groups.push([m]);
    else last.push(m);
  }
  return groups;
}

/** An exchange as request messages, each tool result named with its tool and time. */
export function toUnit(messages: Message[]): Unit {
  const chat = toChatMessages(messages).flat();
  const toolOf = new Map<string, { tool: string; at: number }>();
  for (const m of messages) {
    for (const p of m.parts) if (p.type === 'tool') toolOf.set(p.callId, { tool: p.tool, at: m.createdAt });
  }
  const at = messages[0]?.createdAt ?? 0;
  const entries = chat.map((msg): Entry => {
    if (msg.role !== 'tool') return { msg, at };
    const of = toolOf.get(msg.tool_call_id);
    return { msg, at: of?.at ?? at, tool: of?.tool };
  });
  return { entries, messages };
}
