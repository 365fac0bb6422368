/**
 * `/prefs` in the REPL: the user's standing instructions, which go into every system prompt.
 * Numbers are positions in the list as it is now: it changes only through the user.
 */
import { errorText, say, type Lang } from '../i18n.js';
import { PreferencesError } from '../memory/preferences.js';
import type { PreferencesService } from '../memory/types.js';
import type { ReplResult } from './memory-repl.js';
import { plainText } from './terminal-text.js';

export const PREFS_VERBS = ['add ', 'remove ', 'clear'];

export interface PrefsReplContext {
  lang: Lang;
  offline: boolean;
  confirm(question: string): Promise<boolean>;
}

const usage = (lang: Lang) =>
  say(
    lang,
    '用法：/prefs · /prefs add 内容 · /prefs remove N · /prefs clear',
    'Usage: /prefs · /prefs add TEXT · /prefs remove N · /prefs clear',
  );

function listing(list: string[], ctx: PrefsReplContext): string {
  if (!list.length) {
    return say(
      ctx.lang,
      '还没有长期指示。例如：/prefs add 回答简短',
      'No standing instructions yet. For example: /prefs add Keep answers short',
    );
  }
  const lines = list.map((line, i) => `${i + 1}. ${plainText(line)}`);
  // Offline, the rule planner has no prompt to put them in: said rather than silently ignored.
  if (ctx.offline)
    lines.push(
      say(
        ctx.lang,
        '（离线模式不使用这些指示；接入模型后它们会出现在每次对话的系统提示里。）',
        '(Offline mode does not use them; with a model they go into every system prompt.)',
      ),
    );
  return lines.join('\n');
}

function save(prefs: PreferencesService, next: string[], done: string, ctx: PrefsReplContext): ReplResult {
  try {
    return { text: `${done}\n${listing(prefs.set(next), ctx)}` };
  } catch (err) {
    if (err instanceof PreferencesError) return { text: errorText(err, ctx.lang), error: true };
    throw err;
  }
}

export async function prefsCommand(prefs: PreferencesService, arg: string, ctx: PrefsReplContext): Promise<ReplResult> {
  const space = arg.indexOf(' ');
  const verb = space < 0 ? arg : arg.slice(0, space);
  const rest = space < 0 ? '' : arg.slice(space + 1).trim();
  const list = prefs.list();
  const lang = ctx.lang;
  if (!verb) return { text: listing(list, ctx) };
  if (verb === 'add' && rest) return save(prefs, [...list, rest], say(lang, '已添加。', 'Added.'), ctx);
  if (verb === 'remove' && rest) {
    const n = Number(rest);
    if (!/^\d+$/.test(rest) || n < 1 || n > list.length) {
      return {
        text: say(
          lang,
          `没有第 ${plainText(rest.slice(0, 20))} 条指示（一共 ${list.length} 条）。`,
          `There is no instruction number ${plainText(rest.slice(0, 20))} (there are ${list.length}).`,
        ),
        error: true,
      };
    }
    return save(
      prefs,
      list.filter((_, i) => i !== n - 1),
      say(lang, `已删除：${plainText(list[n - 1]!)}`, `Removed: ${plainText(list[n - 1]!)}`),
      ctx,
    );
  }
  if (verb === 'clear' && !rest) {
    if (!list.length) return { text: listing(list, ctx) };
    const yes = await ctx.confirm(
      say(
        lang,
        `删除全部 ${list.length} 条长期指示吗？[y/N] `,
        `Remove all ${list.length} standing instructions? [y/N] `,
      ),
    );
    if (!yes) return { text: say(lang, '没有删除。', 'Not deleted.') };
    prefs.set([]);
    return { text: say(lang, '长期指示已清空。', 'The standing instructions are cleared.') };
  }
  return { text: usage(lang), error: true };
}
