import { z } from 'zod';
import { say, type Lang } from '../i18n.js';
import { MAX_MEMORY_CHARS, MAX_TAG_CHARS, MAX_TAGS, MemoryError } from '../memory/service.js';
import type { MemoryService } from '../memory/types.js';
import { MEMORY_KINDS, type Memory, type MemoryKind, type MemoryScope } from '../contract/memory.js';
import { defineTool, type Tool, type ToolContext } from './tool.js';
import { ToolError } from '../contract/tool-error.js';

/** A question is a sentence or a few keywords; more is a document, not a search. */
const MAX_QUERY_CHARS = 500;
const SEARCH_HITS = 8;

export interface MemoryToolsDeps {
  memory: MemoryService;
  /** A session's title, for hits from other sessions. */
  sessionTitle: (sessionId: string) => string | undefined;
}

const KIND_ZH: Record<MemoryKind, string> = { fact: '事实', preference: '偏好', note: '笔记' };
const kindLabel = (kind: MemoryKind, lang: Lang) => say(lang, KIND_ZH[kind], kind);

function line(m: Memory, lang: Lang): string {
  const tags = m.tags.length ? say(lang, `（标签：${m.tags.join('、')}）`, ` (tags: ${m.tags.join(', ')})`) : '';
  return `[${kindLabel(m.kind, lang)}] ${m.content}${tags}`;
}

/** The service's refusal as a tool error the model can act on. */
function refused(err: unknown, lang: Lang): never {
  if (err instanceof MemoryError)
    throw new ToolError(say(lang, `没能保存这条记忆：${err.zh}`, `Could not save the memory: ${err.message}`));
  throw err;
}

/**
 * Memories of other conversations are the user's private data, and a page the model read may ask it
 * to gather them: they are searched only when the user's own message of this turn asks for them, or a
 * person approves. Otherwise the search keeps to this conversation.
 */
async function widen(query: string, ctx: ToolContext): Promise<MemoryScope> {
  if (ctx.trust?.crossSessionAsked()) return 'all';
  const decision = await ctx.ask({
    action: 'memory.search_all',
    target: `all: ${query}`,
    insideSandbox: true,
    // A page may be what asks the model to gather them: --yes does not answer for the user, a person does.
    personOnly: true,
    mustAsk: say(
      ctx.lang,
      '要查找所有会话的记忆（你的私人数据），但你这一轮的话里没有要求查其他会话。',
      'This searches the memories of every conversation (your private data), and your message this turn did not ask for other conversations.',
    ),
  });
  return decision === 'allow' ? 'all' : 'session';
}

function narrowedText(ctx: ToolContext): string {
  const why = ctx.refusal?.();
  const who =
    why === 'unanswered'
      ? say(ctx.lang, '没有人可以批准（没有终端）', 'nobody was there to approve it (no terminal)')
      : why === 'declined'
        ? say(ctx.lang, '用户拒绝了', 'the user declined')
        : why === 'needs-person'
          ? say(ctx.lang, '只有用户本人能批准，--yes 不能代替', 'only the user can approve it, not --yes')
          : say(ctx.lang, '没有获得批准', 'it was not approved');
  return say(
    ctx.lang,
    `[只查了本会话：用户这一轮没有要求查其他会话，查所有会话需要用户批准，而${who}。]`,
    `[Searched this conversation only: the user did not ask this turn for other conversations, searching all of them needs their approval, and ${who}.]`,
  );
}

/** memory_save and memory_search over the memory service; the calling session is the memory's. */
export function createMemoryTools(deps: MemoryToolsDeps): Tool[] {
  const { memory } = deps;

  const save = defineTool({
    name: 'memory_save',
    annotations: { destructive: false },
    description:
      'Save something worth remembering about the user for later conversations: a fact ("对花生过敏"), a preference ("喜欢美式咖啡", "prefers short answers") or a note. ' +
      "Save it in one short self-contained sentence in the user's language. Do not save secrets (passwords, keys).",
    parameters: z.object({
      content: z
        .string()
        .min(1)
        .max(MAX_MEMORY_CHARS)
        .describe('What to remember, one self-contained sentence, e.g. "用户对花生过敏".'),
      kind: z.enum(MEMORY_KINDS).optional().describe('fact (default), preference or note.'),
      tags: z
        .array(z.string().min(1).max(MAX_TAG_CHARS))
        .max(MAX_TAGS)
        .optional()
        .describe('A few short keywords, e.g. ["health"]. Optional.'),
    }),
    async execute({ content, kind, tags }, ctx) {
      const m = await memory
        .save({ sessionId: ctx.sessionId, content, kind, tags })
        .catch((err: unknown) => refused(err, ctx.lang));
      return {
        output: say(ctx.lang, `已记住${line(m, ctx.lang)}`, `Remembered ${line(m, ctx.lang)}`),
        title: m.content,
        metadata: { id: m.id, kind: m.kind, tags: m.tags },
      };
    },
  });

  const search = defineTool({
    name: 'memory_search',
    annotations: { readOnly: true },
    description:
      'Search long-term memories for what the user told you before: by a question ("我对什么过敏？", "what do I drink?") or keywords ("咖啡"). ' +
      'By default only this conversation\'s memories are searched (scope "session"). Use scope "all" ONLY when the user explicitly asks to search all conversations or everything they ever told you.',
    parameters: z.object({
      query: z.string().min(1).max(MAX_QUERY_CHARS).describe('A question or keywords, in any language.'),
      scope: z
        .enum(['session', 'all'])
        .optional()
        .describe(
          '"session" (default): this conversation only. "all": every conversation, only when the user asks for it.',
        ),
    }),
    async execute({ query, scope: wanted = 'session' }, ctx) {
      const scope = wanted === 'all' ? await widen(query, ctx) : 'session';
      // Asked for every conversation and not given it: the result says so, and why.
      const narrowed = wanted === 'all' && scope === 'session' ? `\n${narrowedText(ctx)}` : '';
      const hits = await memory.search({
        query,
        sessionId: ctx.sessionId,
        scope,
        limit: SEARCH_HITS,
        signal: ctx.signal,
      });
      if (hits.length === 0) {
        const hint =
          scope === 'session'
            ? say(ctx.lang, '（只查了本会话的记忆。）', " (Only this conversation's memories were searched.)")
            : '';
        return {
          output:
            say(ctx.lang, `没有找到与「${query}」相关的记忆。${hint}`, `No memories match "${query}".${hint}`) +
            narrowed,
          title: query,
          metadata: { hits: 0, scope },
        };
      }
      const where = (sessionId: string) => {
        if (scope !== 'all') return '';
        const title = deps.sessionTitle(sessionId);
        const here = sessionId === ctx.sessionId ? say(ctx.lang, '，本会话', ', this conversation') : '';
        return say(
          ctx.lang,
          ` —— 会话「${title ?? '?'}」（${sessionId}${here}）`,
          ` — session "${title ?? '?'}" (${sessionId}${here})`,
        );
      };
      const lines = hits.map((h, i) => `${i + 1}. ${line(h, ctx.lang)}${where(h.sessionId)}`);
      const head = say(
        ctx.lang,
        `找到 ${hits.length} 条相关记忆${scope === 'all' ? '（所有会话）' : ''}：`,
        `${hits.length} matching memor${hits.length === 1 ? 'y' : 'ies'}${scope === 'all' ? ' (all sessions)' : ''}:`,
      );
      return { output: [head, ...lines].join('\n') + narrowed, title: query, metadata: { hits: hits.length, scope } };
    },
  });

  return [save, search];
}
