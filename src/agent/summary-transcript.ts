import type { Message } from '../contract/message.js';

/** How much of each piece the summariser reads: enough to tell what happened, not whole files. */
const MAX_TEXT_CHARS = 4_000;
const MAX_TOOL_CHARS = 1_200;

const cut = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max)}… [${text.length - max} more characters]` : text;
const args = (input: unknown) => cut(typeof input === 'string' ? input : JSON.stringify(input ?? {}), 400);

/**
 * Older messages as plain text for a summariser, newest kept when `maxChars` cannot hold them all
 * (the earlier summary, folded in first, stands for what is left out).
 */
export function transcript(messages: Message[], maxChars: number): string {
  const lines: string[] = [];
  for (const m of messages) {
    for (const p of m.parts) {
      if (p.type === 'text' && p.text.trim())
        lines.push(`${m.role === 'user' ? 'User' : 'Assistant'}: ${cut(p.text, MAX_TEXT_CHARS)}`);
      else if (p.type === 'tool')
        lines.push(`Tool ${p.tool}(${args(p.input)}) [${p.state}] → ${cut(p.output ?? '', MAX_TOOL_CHARS)}`);
    }
  }
  let used = 0;
  let from = lines.length;
  while (from > 0 && used + lines[from - 1]!.length + 1 <= maxChars) used += lines[--from]!.length + 1;
  const left = from > 0 ? [`[${from} earlier lines left out]`] : [];
  return [...left, ...lines.slice(from)].join('\n');
}
