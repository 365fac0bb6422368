/**
 * `/memory` in the REPL: this session's memories or every session's, a search, an edit, a delete.
 * Numbers mean what the user last saw listed, even if memories were saved since.
 */
import { errorText, say, type Lang } from '../i18n.js';
import { MemoryError } from '../memory/service.js';
import type { MemoryService } from '../memory/types.js';
import type { Memory } from '../contract/memory.js';
import type { Style } from './style.js';
import { plainText } from './terminal-text.js';

export const MEMORY_VERBS = ['all', 'search ', 'edit ', 'delete '];
/** A listing shows this many; a search as many hits. More are in the web app and GET /api/memories. */
const SHOWN = 50;

export interface ReplResult {
  text: string;
  error?: boolean;
}

export interface MemoryReplContext {
  session: string;
  lang: Lang;
  style: Style;
  /** Asks a y/N question; true for yes. */
  confirm(question: string): Promise<boolean>;
  /** A session's title, for memories listed from every session. */
  titleOf(sessionId: string): string | undefined;
}

const usage = (lang: Lang) =>
  say(
    lang,
    '用法：/memory · /memory all · /memory search 关键词 · /memory edit N 新内容 · /memory delete N',
    'Usage: /memory · /memory all · /memory search QUERY · /memory edit N TEXT · /memory delete N',
  );

/** One line: number, kind, content, tags, and, across sessions, where it was saved. */
function memoryLine(m: Memory, n: number, ctx: MemoryReplContext, withSession: boolean): string {
  const kind = say(ctx.lang, { fact: '事实', preference: '偏好', note: '笔记' }[m.kind], m.kind);
  const tags = m.tags.length ? ctx.style.dim(`  ${m.tags.map((t) => `#${plainText(t)}`).join(' ')}`) : '';
  const from = withSession ? ctx.style.dim(`  (${plainText(ctx.titleOf(m.sessionId) || m.sessionId)})`) : '';
  // A memory is one line on screen: its own line breaks would break the numbering.
  return `${n}. [${kind}] ${plainText(m.content).replace(/\s*\n\s*/g, ' ')}${tags}${from}`;
}

export function createMemoryRepl(memory: MemoryService) {
  let shown: Memory[] = [];

  function listing(list: Memory[], ctx: MemoryReplContext, withSession: boolean, empty: string): ReplResult {
    shown = list;
    if (!list.length) return { text: empty };
    return { text: list.map((m, i) => memoryLine(m, i + 1, ctx, withSession)).join('\n') };
  }

  /** The memory numbered `arg` in the last listing, or a result saying why there is none. */
  function pick(arg: string, ctx: MemoryReplContext): Memory | ReplResult {
    const n = Number(arg);
    if (!/^\d+$/.test(arg) || n < 1 || n > shown.length) {
      return {
        text: say(
          ctx.lang,
          `没有第 ${plainText(arg.slice(0, 20))} 条记忆：先用 /memory 或 /memory all 列出来。`,
          `There is no memory number ${plainText(arg.slice(0, 20))}: list them first with /memory or /memory all.`,
        ),
        error: true,
      };
    }
    const m = memory.get(shown[n - 1]!.id);
    return m ?? { text: say(ctx.lang, '这条记忆已经被删除了。', 'That memory has been deleted.'), error: true };
  }

  async function edit(rest: string, ctx: MemoryReplContext): Promise<ReplResult> {
    const [arg = '', ...words] = rest.split(' ');
    const text = words.join(' ').trim();
    if (!text) return { text: usage(ctx.lang), error: true };
    const m = pick(arg, ctx);
    if ('text' in m) return m;
    try {
      const updated = await memory.update(m.id, { content: text });
      if (!updated)
        return { text: say(ctx.lang, '这条记忆已经被删除了。', 'That memory has been deleted.'), error: true };
      shown = shown.map((s) => (s.id === updated.id ? updated : s));
      return { text: say(ctx.lang, `已修改：${plainText(updated.content)}`, `Updated: ${plainText(updated.content)}`) };
    } catch (err) {
      if (err instanceof MemoryError) return { text: errorText(err, ctx.lang), error: true };
      throw err;
    }
  }

  async function remove(arg: string, ctx: MemoryReplContext): Promise<ReplResult> {
    const m = pick(arg, ctx);
    if ('text' in m) return m;
    const content = plainText(m.content).replace(/\s*\n\s*/g, ' ');
    const yes = await ctx.confirm(
      say(ctx.lang, `删除记忆「${content}」吗？[y/N] `, `Delete the memory "${content}"? [y/N] `),
    );
    if (!yes) return { text: say(ctx.lang, '没有删除。', 'Not deleted.') };
    memory.remove(m.id);
    shown = shown.filter((s) => s.id !== m.id);
    return { text: say(ctx.lang, '已删除这条记忆。', 'The memory is deleted.') };
  }

  return {
    async run(arg: string, ctx: MemoryReplContext): Promise<ReplResult> {
      const space = arg.indexOf(' ');
      const verb = space < 0 ? arg : arg.slice(0, space);
      const rest = space < 0 ? '' : arg.slice(space + 1).trim();
      const lang = ctx.lang;
      switch (verb) {
        case '':
          return listing(
            memory.list({ sessionId: ctx.session, limit: SHOWN }).memories,
            ctx,
            false,
            say(
              lang,
              '这个会话还没有记住什么。/memory all 列出所有会话的记忆。',
              "Nothing is remembered in this session yet. /memory all lists every session's.",
            ),
          );
        case 'all':
          return rest
            ? { text: usage(lang), error: true }
            : listing(
                memory.list({ limit: SHOWN }).memories,
                ctx,
                true,
                say(lang, '还没有记住任何东西。', 'Nothing is remembered yet.'),
              );
        case 'search':
          if (!rest) return { text: usage(lang), error: true };
          return listing(
            memory.list({ query: rest, limit: SHOWN }).memories,
            ctx,
            true,
            say(lang, `没有和「${plainText(rest)}」有关的记忆。`, `No memory matches "${plainText(rest)}".`),
          );
        case 'edit':
          return edit(rest, ctx);
        case 'delete':
          return remove(rest, ctx);
        default:
          return { text: usage(lang), error: true };
      }
    },
  };
}
