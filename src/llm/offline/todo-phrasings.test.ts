/**
 * More of how people talk about their todos, through the real todo tools and store: the marker after
 * the words (「…，帮我记一下」), 记得/别忘了, things done said in the past tense, several numbers at once,
 * clearing what is done, and list questions about the day.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStore, type Store } from '../../store/store.js';
import { calculatorTool } from '../../tools/calculator.js';
import { createToolRegistry, type ToolRegistry } from '../../tools/registry.js';
import { createTodoTools } from '../../tools/todos.js';
import type { ToolContext } from '../../tools/tool.js';
import type { ChatMessage } from '../types.js';
import { createOfflinePlanner, detectLang } from './planner.js';
import { agentTurn, memoryPrefs, replyOf } from './testing.js';

const NOW = Date.parse('2026-03-12T02:00:00Z'); // Thursday 10:00 in Shanghai

let dir: string;
let store: Store;
let registry: ToolRegistry;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'zhixing-todo-phrasings-'));
  store = createStore(join(dir, 'z.db'));
  registry = createToolRegistry([calculatorTool, ...createTodoTools(store.todos, () => NOW, 'Asia/Shanghai')]);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function say(text: string, history: ChatMessage[] = []) {
  const ctx: ToolContext = {
    sessionId: 's',
    turnId: 't',
    callId: 'c',
    workspace: dir,
    signal: new AbortController().signal,
    lang: detectLang(text),
    ask: async () => 'allow',
    progress: () => {},
  };
  return agentTurn(
    createOfflinePlanner({ prefs: memoryPrefs() }),
    history,
    text,
    async (c) => replyOf(await registry.run(c, ctx)),
    registry.specs(),
  );
}

const seed = (...items: Array<string | { content: string; done: true }>) => {
  for (const t of items) {
    const row = store.todos.add(typeof t === 'string' ? t : t.content, null, NOW);
    if (typeof t !== 'string') store.todos.markDone(row.id, NOW);
  }
};
const items = () => store.todos.list().map((t) => `${t.number}${t.done ? 'x' : ''} ${t.content}`);

describe('adding, however it is said', () => {
  it.each([
    ['明天要交实验报告，帮我记一下', '明天要交实验报告', '2026-03-13'],
    ['周五之前要把PPT做完 记下来', '周五之前要把PPT做完', '2026-03-13'],
    ['下周一开组会，记一下吧', '下周一开组会', '2026-03-16'],
    ['记得下周三去体检', '下周三去体检', '2026-03-18'],
    ['别忘了明天交房租', '明天交房租', '2026-03-13'],
    ['别忘了提醒我后天还书', '后天还书', '2026-03-14'],
    ['加一条：周日给奶奶打电话', '周日给奶奶打电话', '2026-03-15'],
    ['帮我定个提醒，后天交水费', '后天交水费', '2026-03-14'],
    ['add dentist on friday to my list', 'dentist on friday', '2026-03-13'],
    ["put 'book flights' on my to do list", 'book flights', undefined],
    ['I need to remember to buy a gift for Amy on Saturday', 'buy a gift for Amy on Saturday', '2026-03-14'],
    ["don't let me forget to water the plants tomorrow", 'water the plants tomorrow', '2026-03-13'],
    ['note to self: back up laptop', 'back up laptop', undefined],
    ['set a reminder for 7am tomorrow to go running', 'go running', '2026-03-13'],
    ['记个事：下周四前把简历改好', '下周四前把简历改好', '2026-03-19'],
    ['添加一个待办事项，内容是学习英语，截止日期是明天', '学习英语', '2026-03-13'],
    ['新建任务 买火车票', '买火车票', undefined],
    ['待办：周四交物理实验报告', '周四交物理实验报告', '2026-03-12'],
    ['我要记一个待办：买洗发水', '买洗发水', undefined],
    ['记一下 4月1日前交党费', '4月1日前交党费', '2026-04-01'],
    ['记一下 15号还信用卡', '15号还信用卡', '2026-03-15'],
    ["Add 'submit tax form' to my todos, due April 15", 'submit tax form', '2026-04-15'],
    ['todo: call landlord about the heater, due friday', 'call landlord about the heater', '2026-03-13'],
    ['add to my todos: pick up dry cleaning', 'pick up dry cleaning', undefined],
    ['I have to finish the lab report by Monday, add it to my list', 'finish the lab report by Monday', '2026-03-16'],
    ['Remind me to submit the essay before 11:59pm tonight', 'submit the essay before 11:59pm tonight', '2026-03-12'],
    ['todo list 里加一个 review PR', 'review PR', undefined],
    ['清单里加一条 周末洗车', '周末洗车', '2026-03-14'],
    ['remind me about the meeting tomorrow at 10', 'the meeting tomorrow at 10', '2026-03-13'],
    ['add a todo for 3pm tomorrow: team meeting', 'team meeting', '2026-03-13'],
    ['待办+1：买洗衣液', '买洗衣液', undefined],
    ['新待办 周日大扫除', '周日大扫除', '2026-03-15'],
    ['help me remember the dentist on Monday', 'the dentist on Monday', '2026-03-16'],
    ['提醒：明天带身份证', '明天带身份证', '2026-03-13'],
  ])('%s', async (text, content, date) => {
    await say(text);
    const [item] = store.todos.list();
    expect(item.content).toBe(content);
    if (date) expect(item.due).toContain(date);
    else expect(item.due).toBeNull();
  });

  it('does not take thanks or a question as a todo', async () => {
    for (const text of ['谢谢你帮我记下来', '好的记下了', '记得我们上次说的吗', '你还记得我叫什么吗']) {
      expect(
        (await say(text)).calls.map((c) => c.name),
        text,
      ).not.toContain('todo_add');
    }
  });

  it('says no reminder will fire when one was asked for', async () => {
    for (const text of [
      '别忘了明天交房租',
      '帮我定个提醒，后天交水费',
      "don't let me forget to call Sam",
      'wake me up at 7',
    ]) {
      expect((await say(text)).reply, text).toMatch(/不会有提醒|no reminders yet/);
    }
    expect((await say('加一条：买牛奶')).reply).not.toMatch(/不会有提醒/);
  });
});

describe('the item just added, referred back to', () => {
  it.each([
    ['记一下 买牛奶', '把它删了', []],
    ['记一下 买牛奶', '搞定了', ['1x 买牛奶']],
    ['add a todo: buy milk', 'done', ['1x buy milk']],
    ['add a todo: buy milk', 'delete that one', []],
    ['add a todo: buy milk', 'mark it as done', ['1x buy milk']],
  ])('%s, then %s', async (first, then, after) => {
    const added = await say(first);
    const r = await say(then, added.messages);
    expect(r.calls.map((c) => c.name)).toEqual(['todo_list', after.length ? 'todo_done' : 'todo_delete']);
    expect(items()).toEqual(after);
  });

  it('takes a bare "done" as nothing without an item just added', async () => {
    seed('a', 'b');
    expect((await say('done')).calls).toEqual([]);
  });
});

describe('done and deleted by what was done', () => {
  it.each([
    ['帮我把周报那条勾上', 'done', 1],
    ['作业交完了，划掉', 'done', 3],
    ['水果买好了', 'done', 2],
    ['电费交了', 'done', 4],
    ['吃药已经做完啦', 'done', 5],
    ['交电费那个做好了', 'done', 4],
    ['取消掉买水果', 'delete', 2],
    ["I've called the plumber", 'done', 6],
    ['I already paid the electricity bill', 'done', 7],
    ['cancel the gym', 'delete', 8],
    ["I don't need to go to the gym anymore", 'delete', 8],
    ['买水果不用了', 'delete', 2],
    ['买水果 done', 'done', 2],
    ['我做完作业了', 'done', 3],
    ['作业写完了', 'done', 3],
    ['gym finished', 'done', 8],
  ] as const)('%s → %s #%d', async (text, action, number) => {
    seed('写周报', '买水果', '交高数作业', '交电费', '吃药', 'call the plumber', 'pay electricity bill', 'gym');
    const r = await say(text);
    expect(r.calls.map((c) => c.name)).toEqual(['todo_list', action === 'done' ? 'todo_done' : 'todo_delete']);
    expect(r.calls[1].args).toEqual({ id: number });
  });

  it('leaves a sum with a past tense to the calculator', async () => {
    const r = await say('I just bought 3 books at 25 each, how much is that');
    expect(r.calls.map((c) => c.name)).toEqual(['calculator']);
  });
});

describe('a result kept as a todo', () => {
  it('adds the sum with its answer', async () => {
    const r = await say('帮我算下 128*4 然后把结果记到待办里');
    expect(r.calls).toEqual([
      { name: 'calculator', args: { expression: '128*4' } },
      { name: 'todo_add', args: { content: '128*4 = 512' } },
    ]);
    expect(items()).toEqual(['1 128*4 = 512']);
  });
});

describe('several items at once', () => {
  it.each([
    ['第一个和第三个都完成了', 'done', [1, 3]],
    ['把2和3删掉', 'delete', [2, 3]],
    ['1、2号都搞定了', 'done', [1, 2]],
    ['mark 1 and 2 as done', 'done', [1, 2]],
    ['delete #2, #3', 'delete', [2, 3]],
  ] as const)('%s', async (text, action, numbers) => {
    seed('a', 'b', 'c');
    const r = await say(text);
    const tool = action === 'done' ? 'todo_done' : 'todo_delete';
    expect(r.calls).toEqual([
      { name: 'todo_list', args: { status: 'all' } },
      ...numbers.map((id) => ({ name: tool, args: { id } })),
    ]);
    for (const n of numbers) expect(r.reply).toMatch(new RegExp(`第 ${n} 条|item ${n}`));
  });

  it.each([
    ['把买水果和交电费都删掉', 'todo_delete', [2, 4]],
    ['买水果、交电费都搞定了', 'todo_done', [2, 4]],
    ['delete the plumber and the gym ones', 'todo_delete', [6, 8]],
  ] as const)('%s: each item named', async (text, tool, numbers) => {
    seed('写周报', '买水果', '交高数作业', '交电费', '吃药', 'call the plumber', 'pay electricity bill', 'gym');
    const r = await say(text);
    expect(r.calls).toEqual([
      { name: 'todo_list', args: { status: 'all' } },
      ...numbers.map((id) => ({ name: tool, args: { id } })),
    ]);
  });

  it('finishes everything still open when asked', async () => {
    seed('a', { content: 'b', done: true }, 'c');
    await say('把所有待办都标记为完成');
    expect(items()).toEqual(['1x a', '2x b', '3x c']);
    expect((await say('mark everything as done')).reply).toBe('Nothing is left to finish, so nothing was changed.');
  });

  it('says honestly that a todo cannot be changed in place', async () => {
    seed('写报告', '买牛奶');
    for (const text of [
      '第二条改成买酸奶',
      '把写报告改成明天截止',
      'move the dentist task to Friday',
      '把写报告推迟到周六',
    ]) {
      const r = await say(text);
      expect(r.calls, text).toEqual([]);
      expect(r.reply, text).toMatch(/不能直接修改|cannot be changed in place/);
    }
    expect(items()).toEqual(['1 写报告', '2 买牛奶']);
  });

  it('clears what is done, or everything when asked', async () => {
    seed('a', { content: 'b', done: true }, { content: 'c', done: true });
    const r = await say('清空已完成的待办');
    expect(items()).toEqual(['1 a']);
    expect(r.reply).toContain('已删除第 2 条');
    expect(r.reply).toContain('已删除第 3 条');
    expect((await say('delete all completed tasks')).reply).toBe('Nothing is done yet, so nothing was deleted.');
    await say('把完成的都删了');
    expect(items()).toEqual(['1 a']);
    await say('清空待办');
    expect(items()).toEqual([]);
  });
});

describe('list questions', () => {
  it.each([
    ['今天要干嘛', undefined],
    ['我今天有什么任务', undefined],
    ['列一下我的任务', undefined],
    ['今天的安排是什么', undefined],
    ['do I have anything to do today?', undefined],
    ['what do I need to get done this week', undefined],
    ['show me what I still need to do', 'pending'],
    ['我还有几件事没做？', 'pending'],
    ['完成了哪些', 'done'],
    ['what have I finished', 'done'],
    ['哪些已经做完了', 'done'],
    ['我这周要做的事', undefined],
    ['list everything including finished ones', 'all'],
    ['所有待办，包括完成的', 'all'],
    ["what's due tomorrow", undefined],
    ['明天有什么要交的', undefined],
    ['anything due this week?', undefined],
    ['看看已经完成的', 'done'],
    ['how many things do I have left to do', 'pending'],
  ] as const)('%s', async (text, status) => {
    seed('买水果', { content: '交作业', done: true });
    const r = await say(text);
    expect(r.calls).toEqual([{ name: 'todo_list', args: status ? { status } : {} }]);
  });
});
