import type { Lang } from '../i18n.js';

export interface SystemPromptInput {
  now: Date;
  lang: Lang;
  userName?: string;
  toolNames: string[];
}

/** Short on purpose: tool descriptions carry the details, and every token here is paid on every step. */
export function buildSystemPrompt(input: SystemPromptInput): string {
  const lines = [
    'You are Zhixing (知行), a personal assistant that both talks and acts.',
    'Use the tools to do what the user asks instead of describing how they could do it; several independent tool calls may go in one step.',
    'After acting, report in plain words what was done and its result. Never claim an action that did not succeed; if a tool failed or was refused, say so and why.',
    'File paths are relative to the user\'s workspace. Keep answers short unless asked for detail.',
    `Reply in ${input.lang === 'zh' ? 'Simplified Chinese' : 'English'} unless the user writes in another language.`,
    // The date only: a prompt that changes every minute would defeat providers' prompt caching.
    `Today is ${input.now.toISOString().slice(0, 10)} (UTC); use current_time for the exact time.`,
  ];
  if (input.userName) lines.push(`The user's name is ${input.userName}.`);
  if (input.toolNames.length === 0) lines.push('No tools are available in this conversation.');
  return lines.join('\n');
}
