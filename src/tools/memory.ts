/**
 * PLACEHOLDER, to be replaced at merge: minimal `memory_save` and `memory_search` over the memory
 * service, so the offline planner's memory rules, the CLI and the web app can be tried end to end on
 * this branch. The engine's own tools (with vectors and hybrid ranking) are written on another branch
 * with the same names and arguments; keep that version.
 */
import { z } from 'zod';
import { say } from '../i18n.js';
import { MemoryError } from '../memory/service.js';
import { MEMORY_KINDS, type MemoryService } from '../memory/types.js';
import { defineTool, ToolError, type Tool } from './tool.js';

export function createMemoryTools(memory: MemoryService): Tool[] {
  const save = defineTool({
    name: 'memory_save',
    annotations: { destructive: false },
    description: 'Remember something about the user for later conversations (a fact, a preference, a note), in their own words.',
    parameters: z.object({
      content: z.string().describe('What to remember, e.g. "我喜欢喝美式咖啡".'),
      kind: z.enum(MEMORY_KINDS).optional().describe('preference for likes and dislikes; fact (default) or note otherwise.'),
      tags: z.array(z.string()).optional(),
    }),
    async execute(args, ctx) {
      try {
        const m = await memory.save({ sessionId: ctx.sessionId, ...args });
        return { output: say(ctx.lang, `已记住（${m.kind}）：${m.content}`, `Remembered (${m.kind}): ${m.content}`), title: m.content, metadata: { id: m.id, kind: m.kind } };
      } catch (err) {
        if (err instanceof MemoryError) throw new ToolError(err.message);
        throw err;
      }
    },
  });

  const search = defineTool({
    name: 'memory_search',
    annotations: { readOnly: true },
    description: 'Look through what was remembered about the user. scope "all" searches every session, only when the user asks for it.',
    parameters: z.object({
      query: z.string().min(1).describe('Keywords or the question itself.'),
      scope: z.enum(['session', 'all']).optional(),
    }),
    async execute({ query, scope }, ctx) {
      const hits = await memory.search({ query, sessionId: ctx.sessionId, scope, limit: 5 });
      if (!hits.length) return say(ctx.lang, '没有找到相关的记忆。', 'No memory matches.');
      return hits.map((h, i) => `${i + 1}. [${[h.kind, ...h.tags.map((t) => `#${t}`)].join(' ')}] ${h.content}`).join('\n');
    },
  });
  return [save, search];
}
