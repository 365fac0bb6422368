import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStore, type Store } from '../store/store.js';
import { createToolRegistry, type ToolRegistry } from './registry.js';
import type { Lang } from '../i18n.js';
import type { ToolContext } from './tool.js';
import { createTodoTools } from './todos.js';

/** A Monday morning in Shanghai. */
const NOW = Date.parse('2026-11-30T01:00:00Z');

let dir: string;
let store: Store;
let tools: ToolRegistry;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'zhixing-todos-'));
  store = createStore(join(dir, 'z.db'));
  tools = createToolRegistry(createTodoTools(store.todos, () => NOW, 'Asia/Shanghai'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const ctx = (lang: Lang = 'zh'): ToolContext => ({
  sessionId: 's',
  turnId: 't1',
  callId: 'c1',
  workspace: dir,
  signal: new AbortController().signal,
  lang,
  ask: async () => 'allow',
  progress: () => {},
});
const run = (name: string, args: unknown, lang: Lang = 'zh') =>
  tools.run({ id: 'c', name, arguments: JSON.stringify(args) }, ctx(lang));

describe('todo tools', () => {
  it('gives the list shown as data beside the text: numbers, words without the due date, done', async () => {
    await run('todo_add', { content: '周五前交周报', due: '周五' });
    await run('todo_add', { content: 'buy milk' });
    await run('todo_done', { id: 2 });
    const all = await run('todo_list', { status: 'all' });
    expect(all.data).toEqual({
      kind: 'todo_list',
      status: 'all',
      items: [
        { number: 1, content: '周五前交周报', done: false, due: '2026-12-04 周五' },
        { number: 2, content: 'buy milk', done: true, due: null },
      ],
    });
    expect((await run('todo_list', { status: 'done' })).data).toMatchObject({ items: [{ number: 2 }] });
    const missing = await run('todo_done', { id: 9 });
    expect(missing).toMatchObject({ ok: false, error: 'not_found' });
  });

  it('adds, lists with numbers, completes and deletes', async () => {
    expect((await run('todo_add', { content: '周五前交周报', due: '周五' })).output).toBe(
      '已添加待办 #1：周五前交周报（截止：2026-12-04 周五）',
    );
    expect((await run('todo_add', { content: 'buy milk' }, 'en')).output).toBe('Added todo #2: buy milk');
    await run('todo_add', { content: '明天 9 点交软件工程作业' });
    expect((await run('todo_list', {})).output).toBe(
      '待办（3 条未完成）：\n1. [ ] 周五前交周报（截止：2026-12-04 周五）\n2. [ ] buy milk\n3. [ ] 明天 9 点交软件工程作业',
    );
    expect((await run('todo_done', { id: 1 })).output).toBe('已完成第 1 条：周五前交周报');
    expect((await run('todo_done', { id: 1 })).output).toContain('已经是完成状态');
    // Pending view keeps the numbers todo_done and todo_delete use.
    expect((await run('todo_list', {}, 'en')).output).toBe(
      'Todos (2 pending):\n2. [ ] buy milk\n3. [ ] 明天 9 点交软件工程作业',
    );
    expect((await run('todo_list', { status: 'all' }, 'en')).output).toContain(
      '1. [x] 周五前交周报 (due 2026-12-04 周五)',
    );
    expect((await run('todo_delete', { id: 2 })).output).toBe('已删除第 2 条：buy milk');
    expect(store.todos.list().map((t) => t.content)).toEqual(['周五前交周报', '明天 9 点交软件工程作业']);
  });

  it('keeps every number it announced: a deletion renumbers nothing, and the list shows the same numbers', async () => {
    for (const c of ['a', 'b', 'c', 'd']) await run('todo_add', { content: c });
    await run('todo_delete', { id: 2 });
    await run('todo_done', { id: 1 });
    expect((await run('todo_list', {}, 'en')).output).toBe('Todos (2 pending):\n3. [ ] c\n4. [ ] d');
    expect((await run('todo_done', { id: 3 }, 'en')).output).toBe('Marked item 3 as done: c');
    expect((await run('todo_delete', { id: 2 }, 'en')).output).toBe(
      'Error: There is no item 2 (the list has 3, numbered 1, 3–4).',
    );
    // A new item is numbered after the highest one still there.
    expect((await run('todo_add', { content: 'e' }, 'en')).output).toBe('Added todo #5: e');
    await run('todo_delete', { id: 5 });
    expect((await run('todo_add', { content: 'f' }, 'en')).output).toBe('Added todo #5: f');
    for (const n of [1, 3, 4, 5]) await run('todo_delete', { id: n });
    expect((await run('todo_add', { content: 'g' }, 'en')).output).toBe('Added todo #1: g');
  });

  it.each([
    ['明天', '2026-12-01 周二'],
    ['明天 9 点', '2026-12-01 周二 9 点'],
    ['后天下午', '2026-12-02 周三下午'],
    ['大后天', '2026-12-03 周四'],
    ['今晚8点', '2026-11-30 周一 晚上8点'],
    ['周一', '2026-11-30 周一'],
    ['星期天', '2026-12-06 周日'],
    ['下周三', '2026-12-09 周三'],
    ['下个星期一', '2026-12-07 周一'],
    ['这周六', '2026-12-05 周六'],
    ['2026-12-24', '2026-12-24'],
    ['tomorrow', 'Tue 2026-12-01'],
    ['tomorrow 3pm', 'Tue 2026-12-01 3pm'],
    ['next friday', 'Fri 2026-12-11'],
    ['by Friday', 'by Fri 2026-12-04'],
    ['the day after tomorrow', 'Wed 2026-12-02'],
    ['周末', '2026-12-05 周六'],
    ['下周末', '2026-12-12 周六'],
    ['this weekend', 'Sat 2026-12-05'],
    ['by the weekend', 'by Sat 2026-12-05'],
    ['tonight', 'Mon 2026-11-30 evening'],
    ['end of month', 'Mon 2026-11-30'],
    ['before the exam', 'before the exam'],
    // A month and day with no year: this year's, or next year's once it has passed; a day alone is this month's or next.
    ['12月24日', '2026-12-24 周四'],
    ['3月1日前', '2027-03-01 周一前'],
    ['15号', '2026-12-15 周二'],
    ['1号', '2026-12-01 周二'],
    ['30号', '2026-11-30 周一'],
    ['3天后', '2026-12-03 周四'],
    ['两周后', '2026-12-14 周一'],
    ['in 3 days', 'Thu 2026-12-03'],
    ['in a week', 'Mon 2026-12-07'],
    ['月底', '2026-11-30 周一'],
    ['年底前', '2026-12-31 周四前'],
    ['end of the month', 'Mon 2026-11-30'],
    ['Dec 25', 'Fri 2026-12-25'],
    ['by the 15th', 'by Tue 2026-12-15'],
    ['by December 24th', 'by Thu 2026-12-24'],
    ['15th of January', 'Fri 2027-01-15'],
    ['2月30日', '2月30日'],
    ['3楼 15号房', '3楼 15号房'],
  ])('stores the due day %s as a date: %s', async (due, stored) => {
    await run('todo_add', { content: 'x', due });
    expect(store.todos.list()[0].due).toBe(stored);
  });

  it('shows a due date as the same day when listed later', async () => {
    await run('todo_add', { content: '交房租', due: '明天' });
    const later = createToolRegistry(createTodoTools(store.todos, () => NOW + 86_400_000, 'Asia/Shanghai'));
    const listed = await later.run({ id: 'c', name: 'todo_list', arguments: '{}' }, ctx());
    expect(listed.output).toContain('1. [ ] 交房租（截止：2026-12-01 周二）');
  });

  it('refuses empty content and numbers that do not exist', async () => {
    const empty = await run('todo_add', { content: '   ' });
    expect(empty).toMatchObject({ ok: false, output: 'Error: 待办内容不能为空，请告诉我要记什么。' });
    expect(store.todos.list()).toEqual([]);
    expect((await run('todo_done', { id: 1 }, 'en')).output).toBe('Error: There is no item 1: the todo list is empty.');
    await run('todo_add', { content: 'a' });
    expect((await run('todo_delete', { id: 5 }, 'en')).output).toBe(
      'Error: There is no item 5 (the list has 1, numbered 1).',
    );
    expect((await run('todo_done', { id: 0 })).ok).toBe(false);
    expect((await run('todo_done', { id: 'two' })).ok).toBe(false);
    expect((await run('todo_add', { content: 'x'.repeat(501) })).output).toContain('太长');
  });

  it('says when the list is empty or all done, and persists across reopening', async () => {
    expect((await run('todo_list', {}, 'en')).output).toBe('The todo list is empty.');
    await run('todo_add', { content: 'a' });
    await run('todo_done', { id: '1' });
    expect((await run('todo_list', {}, 'en')).output).toBe('Everything is done (1 item).');
    store.close();
    store = createStore(join(dir, 'z.db'));
    expect(store.todos.list()).toMatchObject([{ number: 1, content: 'a', done: true }]);
  });

  it('gives each call a card: the item as the title, its number, words and due date as metadata', async () => {
    const card = async (name: string, args: unknown) => {
      const { title, metadata } = await run(name, args, 'en');
      return { title, metadata };
    };
    expect(await card('todo_add', { content: '周五前交周报', due: '周五' })).toEqual({
      title: '#1 周五前交周报',
      metadata: { number: 1, content: '周五前交周报', due: '2026-12-04 周五' },
    });
    await run('todo_add', { content: 'buy milk' });
    expect(await card('todo_list', {})).toEqual({
      title: 'Todos (2 pending)',
      metadata: { status: 'pending', shown: 2, pending: 2, total: 2 },
    });
    expect(await card('todo_done', { id: 2 })).toEqual({
      title: '#2 buy milk',
      metadata: { number: 2, content: 'buy milk', due: null, alreadyDone: false },
    });
    expect((await card('todo_done', { id: 2 })).metadata).toMatchObject({ alreadyDone: true });
    expect(await card('todo_delete', { id: 1 })).toEqual({
      title: '#1 周五前交周报',
      metadata: { number: 1, content: '周五前交周报', due: '2026-12-04 周五' },
    });
    expect(await card('todo_list', { status: 'pending' })).toEqual({
      title: 'Everything is done (1 item).',
      metadata: { status: 'pending', shown: 0, pending: 0, total: 1 },
    });
  });
});
