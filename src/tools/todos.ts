import { z } from 'zod';
import type { TodoRow, TodosRepo } from '../store/todos-repo.js';
import { say, type Lang } from '../i18n.js';
import { resolveDue } from './todo-due.js';
import { defineTool, type Tool } from './tool.js';
import { ToolError } from '../contract/tool-error.js';
import type { TodoListData } from '../contract/tool-data.js';

const MAX_CONTENT_CHARS = 500;
/** A due date is a few words ("周五", "2026-12-01 9:00"); more would crowd out the list. */
const MAX_DUE_CHARS = 100;

const Number_ = z.coerce
  .number()
  .int()
  .positive()
  .describe('The item number exactly as shown by todo_list (1 is the first item).');

const line = (t: TodoRow, lang: Lang) => {
  const due = t.due ? say(lang, `（截止：${t.due}）`, ` (due ${t.due})`) : '';
  return `${t.number}. [${t.done ? 'x' : ' '}] ${t.content}${due}`;
};

/** One item's card: its number as todo_list shows it, its words and its due date. */
const card = (t: TodoRow) => ({
  title: `#${t.number} ${t.content}`,
  metadata: { number: t.number, content: t.content, due: t.due },
});

/** The numbers in use, short: "1–3, 5, 7". */
function numbersOf(items: TodoRow[]): string {
  const ranges: string[] = [];
  for (let i = 0; i < items.length;) {
    let j = i;
    while (j + 1 < items.length && items[j + 1].number === items[j].number + 1) j++;
    ranges.push(j > i ? `${items[i].number}–${items[j].number}` : String(items[i].number));
    i = j + 1;
  }
  return ranges.join(', ');
}

const noSuchItem = (n: number, all: TodoRow[], lang: Lang) =>
  new ToolError(
    all.length === 0
      ? say(lang, `没有第 ${n} 条待办：待办清单是空的。`, `There is no item ${n}: the todo list is empty.`)
      : say(
          lang,
          `没有第 ${n} 条待办（现在共有 ${all.length} 条，编号 ${numbersOf(all)}）。`,
          `There is no item ${n} (the list has ${all.length}, numbered ${numbersOf(all)}).`,
        ),
    { kind: 'not_found' },
  );

/** The four todo tools over one repository; an item's number is given when it is added and never changes. */
export function createTodoTools(repo: TodosRepo, now: () => number = Date.now, timeZone?: string): Tool[] {
  // The host's zone is read when a due date needs it: the first Intl formatter costs milliseconds at start.
  const zone = (): string => (timeZone ??= Intl.DateTimeFormat().resolvedOptions().timeZone);
  const find = (n: number, lang: Lang): TodoRow => {
    const all = repo.list();
    const item = all.find((t) => t.number === n);
    if (!item) throw noSuchItem(n, all, lang);
    return item;
  };

  const add = defineTool({
    name: 'todo_add',
    annotations: { destructive: false },
    description: "Add an item to the user's todo list. Keep the user's own wording as the content.",
    parameters: z.object({
      content: z.string().describe('What to do, in the user\'s words, e.g. "周五前交周报".'),
      due: z
        .string()
        .max(MAX_DUE_CHARS)
        .optional()
        .describe(
          'When it is due, as the user said it (e.g. "周五", "明天 9 点", "2026-12-01"); relative days are stored as dates. Optional.',
        ),
    }),
    execute({ content, due }, ctx) {
      const text = content.trim();
      if (!text)
        throw new ToolError(
          say(ctx.lang, '待办内容不能为空，请告诉我要记什么。', 'The todo is empty: say what to add.'),
        );
      if (text.length > MAX_CONTENT_CHARS) {
        throw new ToolError(
          say(
            ctx.lang,
            `待办内容太长（${text.length} 字，上限 ${MAX_CONTENT_CHARS}）。`,
            `The todo is too long (${text.length} characters, at most ${MAX_CONTENT_CHARS}).`,
          ),
        );
      }
      // 「明天」 is kept as the date it means today, so the list is still right tomorrow.
      const when = due?.trim() ? resolveDue(due.trim(), now(), zone()) : null;
      const item = repo.add(text, when, now());
      const shown = line(item, ctx.lang).replace(/^\d+\. \[ \] /, '');
      return {
        output: say(ctx.lang, `已添加待办 #${item.number}：${shown}`, `Added todo #${item.number}: ${shown}`),
        ...card(item),
      };
    },
  });

  const list = defineTool({
    name: 'todo_list',
    annotations: { readOnly: true },
    description: "Show the user's todo list, numbered. Use the numbers with todo_done and todo_delete.",
    parameters: z.object({
      status: z
        .enum(['pending', 'done', 'all'])
        .optional()
        .describe('Which items to show: pending (default), done, or all.'),
    }),
    execute({ status = 'pending' }, ctx) {
      const all = repo.list();
      const shown = all.filter((t) => status === 'all' || (status === 'done' ? t.done : !t.done));
      const pending = all.filter((t) => !t.done).length;
      const metadata = { status, shown: shown.length, pending, total: all.length };
      const data: TodoListData = {
        kind: 'todo_list',
        status,
        items: shown.map((t) => ({ number: t.number, content: t.content, done: t.done, due: t.due })),
      };
      if (shown.length === 0) {
        const output =
          all.length === 0
            ? say(ctx.lang, '待办清单是空的。', 'The todo list is empty.')
            : status === 'done'
              ? say(ctx.lang, '还没有完成的待办。', 'Nothing is done yet.')
              : say(
                  ctx.lang,
                  `所有待办都完成了（共 ${all.length} 条）。`,
                  `Everything is done (${all.length} ${all.length === 1 ? 'item' : 'items'}).`,
                );
        return { output, title: output, metadata, data };
      }
      const head =
        status === 'pending'
          ? say(ctx.lang, `待办（${pending} 条未完成）：`, `Todos (${pending} pending):`)
          : say(ctx.lang, `待办（共 ${shown.length} 条）：`, `Todos (${shown.length}):`);
      return {
        output: [head, ...shown.map((t) => line(t, ctx.lang))].join('\n'),
        title: head.replace(/[:：]$/, ''),
        metadata,
        data,
      };
    },
  });

  const done = defineTool({
    name: 'todo_done',
    annotations: { destructive: false, idempotent: true },
    description: 'Mark a todo item as done, by the number todo_list shows.',
    parameters: z.object({ id: Number_ }),
    execute({ id }, ctx) {
      const item = find(id, ctx.lang);
      const { title, metadata } = card(item);
      if (item.done) {
        return {
          output: say(
            ctx.lang,
            `第 ${id} 条已经是完成状态：${item.content}`,
            `Item ${id} was already done: ${item.content}`,
          ),
          title,
          metadata: { ...metadata, alreadyDone: true },
        };
      }
      repo.markDone(item.id, now());
      return {
        output: say(ctx.lang, `已完成第 ${id} 条：${item.content}`, `Marked item ${id} as done: ${item.content}`),
        title,
        metadata: { ...metadata, alreadyDone: false },
      };
    },
  });

  const remove = defineTool({
    name: 'todo_delete',
    annotations: { destructive: true },
    description: 'Delete a todo item, by the number todo_list shows. The other items keep their numbers.',
    parameters: z.object({ id: Number_ }),
    execute({ id }, ctx) {
      const item = find(id, ctx.lang);
      repo.delete(item.id);
      return {
        output: say(ctx.lang, `已删除第 ${id} 条：${item.content}`, `Deleted item ${id}: ${item.content}`),
        ...card(item),
      };
    },
  });

  return [add, list, done, remove];
}
