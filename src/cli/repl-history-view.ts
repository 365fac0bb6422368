/** `/history`: a session's last exchanges, shown the way they were seen. */
import type { Message } from '../contract/message.js';
import type { CliIo } from './cli-io.js';
import { traceLine } from './printer.js';
import { plainText } from './terminal-text.js';

/** The messages of the last `n` turns: each user message with everything that answered it. */
export function lastTurns(messages: Message[], n: number): Message[] {
  const turnIds = [...new Set(messages.map((m) => m.turnId))].slice(-n);
  const keep = new Set(turnIds);
  return messages.filter((m) => keep.has(m.turnId));
}

/** Renders stored messages the way they were seen: text, and a trace line per tool call. */
export function renderHistory(messages: Message[], io: Pick<CliIo, 'style' | 'lang'>): string {
  const lines: string[] = [];
  for (const m of messages) {
    for (const p of m.parts) {
      if (p.type === 'text')
        lines.push(m.role === 'user' ? io.style.bold(`› ${plainText(p.text)}`) : plainText(p.text));
      else if (p.type === 'summary')
        lines.push(io.style.dim(summaryBlock(p.text, p.covers.messages, io.lang?.() ?? 'en')));
      else if (p.type === 'tool') {
        const ok = p.state === 'completed';
        const output = p.output ?? (p.state === 'error' ? '' : 'interrupted');
        lines.push(
          traceLine(
            { tool: p.tool, input: p.input, ok, output, ms: p.ms ?? 0, metadata: p.metadata, permission: p.permission },
            io.style,
            io.lang?.(),
          ),
        );
      }
    }
  }
  return lines.join('\n');
}

/** A summary part in the history: what the model reads from now on in place of the earlier messages above it. */
function summaryBlock(text: string, messages: number, lang: 'zh' | 'en'): string {
  const head =
    lang === 'zh'
      ? `🗜 较早的 ${messages} 条消息的摘要（模型从此读它，原消息仍在上面）：`
      : `🗜 Summary of the ${messages} earlier messages (what the model reads from now on; they are still above):`;
  return [
    head,
    ...plainText(text)
      .split('\n')
      .map((l) => `  ${l}`),
  ].join('\n');
}
