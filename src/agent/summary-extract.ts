import type { Lang } from '../i18n.js';
import type { Message } from '../contract/message.js';

/** The most lines each section keeps: the newest, with a count of the rest. */
const MAX_LINES = 12;
const MAX_LINE_CHARS = 200;
/** The earlier summary folded in is cut to this. */
const MAX_PREVIOUS_CHARS = 3_000;
/** Tools that name a file in their `path` argument. */
const FILE_TOOLS = /^file_/;
/** Tools that add a todo, with its text in `content`. */
const TODO_TOOLS = /^todo_add$/;

const line = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_LINE_CHARS ? `${flat.slice(0, MAX_LINE_CHARS - 1)}…` : flat;
};
const field = (input: unknown, name: string): string | undefined => {
  const v = input && typeof input === 'object' ? (input as Record<string, unknown>)[name] : undefined;
  return typeof v === 'string' && v.trim() ? v : undefined;
};

function section(title: string, items: string[], lang: Lang): string {
  const unique = [...new Set(items)];
  const shown = unique.slice(-MAX_LINES);
  const more = unique.length - shown.length;
  const lines = shown.length ? shown.map((s) => `- ${s}`) : ['-'];
  if (more > 0) lines.unshift(lang === 'zh' ? `- （更早的 ${more} 项略去）` : `- (${more} earlier ones left out)`);
  return [`## ${title}`, ...lines].join('\n');
}

/**
 * A summary written by code, for the offline planner: the user's requests, the replies' first
 * lines, the files the tools touched and the todos added, in the same sections a model writes.
 */
export function extractiveSummary(input: { previous?: string; messages: Message[]; lang: Lang }): string {
  const requests: string[] = [];
  const results: string[] = [];
  const files: string[] = [];
  const todos: string[] = [];
  for (const m of input.messages) {
    for (const p of m.parts) {
      if (p.type === 'text' && p.text.trim()) (m.role === 'user' ? requests : results).push(line(p.text));
      if (p.type !== 'tool') continue;
      const path = FILE_TOOLS.test(p.tool) ? field(p.input, 'path') : undefined;
      if (path) files.push(`${path} (${p.tool})`);
      const todo = TODO_TOOLS.test(p.tool) ? field(p.input, 'content') : undefined;
      if (todo) todos.push(line(todo));
    }
  }
  const zh = input.lang === 'zh';
  const parts = [
    // The earlier summary already opens with this heading: once is enough.
    input.previous
      ? `${zh ? '更早的摘要' : 'Earlier summary'}:\n${input.previous.replace(/^(?:(?:更早的摘要|Earlier summary):\n)+/, '').slice(0, MAX_PREVIOUS_CHARS)}`
      : '',
    section(zh ? '用户的请求' : "User's requests", requests, input.lang),
    section(zh ? '主要结果' : 'Key results', results, input.lang),
    section(zh ? '涉及的文件' : 'Files touched', files, input.lang),
    section(zh ? '待办事项' : 'Todos added', todos, input.lang),
  ];
  return parts.filter(Boolean).join('\n\n');
}
