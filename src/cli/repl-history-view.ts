/** `/history`: a session's last exchanges, shown the way they were seen. */
import type { Message } from '../store/messages-repo.js';
import type { CliIo } from './one-shot.js';
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
      if (p.type === 'text') lines.push(m.role === 'user' ? io.style.bold(`› ${plainText(p.text)}`) : plainText(p.text));
      else if (p.type === 'tool') {
        const ok = p.state === 'completed';
        const output = p.output ?? (p.state === 'error' ? '' : 'interrupted');
        lines.push(traceLine({ tool: p.tool, input: p.input, ok, output, ms: p.ms ?? 0, metadata: p.metadata, permission: p.permission }, io.style, io.lang?.()));
      }
    }
  }
  return lines.join('\n');
}
