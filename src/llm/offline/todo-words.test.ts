/**
 * Todos as people talk about them, through the real todo tools and store: by content, natural list
 * questions, stable numbers and honest reminders. Each turn runs the planner step by step, as the agent does.
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
import { memoryPrefs, step } from './testing.js';

const NOW = Date.parse('2026-11-30T01:00:00Z'); // a Monday morning in Shanghai

let dir: string;
let store: Store;
let registry: ToolRegistry;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'zhixing-todo-words-'));
  store = createStore(join(dir, 'z.db'));
  registry = createToolRegistry([calculatorTool, ...createTodoTools(store.todos, () => NOW, 'Asia/Shanghai')]);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const ctxFor = (lang: 'zh' | 'en'): ToolContext => ({
  sessionId: 's',
  turnId: 't',
  callId: 'c',
  workspace: dir,
  signal: new AbortController().signal,
  lang,
  ask: async () => 'allow',
  progress: () => {},
});

/** One turn as the agent loop runs it: steps until the planner stops calling tools. */
async function say(text: string) {
  const llm = createOfflinePlanner({ prefs: memoryPrefs() });
  const ctx = ctxFor(detectLang(text));
  const messages: ChatMessage[] = [{ role: 'user', content: text }];
  const calls: Array<{ name: string; args: Record<string, unknown> }> = [];
  for (let i = 0; i < 4; i++) {
    const r = await step(llm, messages, registry.specs());
    if (!r.calls.length) return { reply: r.text, calls };
    calls.push(...r.parsed);
    messages.push({ role: 'assistant', content: null, tool_calls: r.calls });
    for (const c of r.calls)
      messages.push({ role: 'tool', tool_call_id: c.id, content: (await registry.run(c, ctx)).output });
  }
  throw new Error('the planner did not stop');
}

const contents = () => store.todos.list().map((t) => `${t.number}${t.done ? 'x' : ''} ${t.content}`);

async function seed() {
  for (const text of [
    '记一下 交电费',
    '记一下 周三去看牙医',
    '记一下 买牛奶和鸡蛋',
    'add a todo: call the dentist about the filling',
    'add a todo: renew passport',
  ])
    await say(text);
}

describe('todos by content', () => {
  it.each([
    ['把交电费那条删掉', 'delete', 1],
    ['交电费那个不要了', 'delete', 1],
    ['帮我把买牛奶的待办删了', 'delete', 3],
    ['交电费搞定了', 'done', 1],
    ['牙医那个做完了', 'done', 2],
    ['把买牛奶那条标记为完成', 'done', 3],
    ['电费已经交了，那条划掉吧', 'done', 1],
    ['remove the passport one', 'delete', 5],
    ['delete renew passport from my list', 'delete', 5],
    ['I renewed my passport, cross it off… the passport task', 'done', 5],
    ["I'm done with the filling", 'done', 4],
    ['mark the passport todo as done', 'done', 5],
    ['finished renewing the passport', 'done', 5],
    ['交电费那件事我办完了', 'done', 1],
    ['把买牛奶划掉', 'done', 3],
    ['不用买牛奶了，删了吧', 'delete', 3],
    ['删掉关于交电费的待办', 'delete', 1],
    ['买牛奶已完成', 'done', 3],
    ['scratch the passport one', 'delete', 5],
    ['the filling thing is done', 'done', 4],
    ['remove passport', 'delete', 5],
    ['I sorted out the passport, tick it off', 'done', 5],
    ['forget about the passport todo', 'delete', 5],
    ['done: renew passport', 'done', 5],
    ['get rid of the filling todo', 'delete', 4],
    ['把看牙医那条删掉', 'delete', 2],
    ['去看牙医那个已经搞定了', 'done', 2],
  ] as const)('%s → %s #%d', async (text, action, number) => {
    await seed();
    const r = await say(text);
    expect(r.calls.map((c) => c.name)).toEqual(['todo_list', action === 'done' ? 'todo_done' : 'todo_delete']);
    expect(r.calls[1].args).toEqual({ id: number });
    expect(r.reply).toMatch(action === 'done' ? /已完成第|Marked item/ : /已删除第|Deleted item/);
    expect(r.reply).not.toContain('[ ]'); // the list was only for finding the item
  });

  it('asks which one when several match, and changes nothing', async () => {
    await seed();
    const r = await say("I'm done with the dentist");
    // 周三去看牙医 is Chinese; only the English item says dentist.
    expect(r.calls.map((c) => c.name)).toEqual(['todo_list', 'todo_done']);
    await say('记一下 给牙医打电话');
    const two = await say('牙医那条删掉');
    expect(two.calls.map((c) => c.name)).toEqual(['todo_list']);
    expect(two.reply).toMatch(/有几条待办都像「牙医」/);
    expect(two.reply).toContain('2. 周三去看牙医');
    expect(contents()).toHaveLength(6);
    // The answer to "which one?" is a number.
    const llm = createOfflinePlanner({ prefs: memoryPrefs() });
    const history: ChatMessage[] = [{ role: 'user', content: '牙医那条删掉' }];
    const first = await step(llm, history, registry.specs());
    history.push({ role: 'assistant', content: null, tool_calls: first.calls });
    for (const c of first.calls)
      history.push({ role: 'tool', tool_call_id: c.id, content: (await registry.run(c, ctxFor('zh'))).output });
    const asked = await step(llm, history, registry.specs());
    history.push({ role: 'assistant', content: asked.text }, { role: 'user', content: '第 2 条' });
    expect((await step(llm, history, registry.specs())).parsed).toEqual([{ name: 'todo_delete', args: { id: 2 } }]);
  });

  it('says so when nothing matches, and changes nothing', async () => {
    await seed();
    const r = await say('把健身那条删掉');
    expect(r.reply).toBe('待办里没有找到「健身」，没有做任何改动。说「看看待办」可以查看全部。');
    expect((await say("I'm done with the laundry")).reply).toMatch(/^I found no todo about "laundry"/);
    expect(contents()).toHaveLength(5);
  });

  it('does the rest of the message too', async () => {
    await seed();
    const r = await say('把交电费那条删掉，然后算一下 2+3');
    expect(r.reply).toBe('好的，已删除第 1 条：交电费\n2+3 = 5');
  });
});

describe('numbers the user saw', () => {
  it('keeps the announced numbers through deletions, in lists and commands', async () => {
    await seed();
    expect((await say('删除第 2 条')).reply).toBe('好的，已删除第 2 条：周三去看牙医');
    const list = await say('看看待办');
    expect(list.reply).toContain('1. [ ] 交电费');
    expect(list.reply).toContain('3. [ ] 买牛奶和鸡蛋');
    expect(list.reply).not.toMatch(/^2\. /m);
    expect((await say('完成第 3 条')).reply).toBe('好的，已完成第 3 条：买牛奶和鸡蛋');
    expect((await say('记一下 倒垃圾')).reply).toMatch(/#6/);
  });
});

describe('natural list questions', () => {
  it.each([
    ['还有啥没做', 'pending'],
    ['我还有什么事没做完', 'pending'],
    ['还剩哪些事', 'pending'],
    ['我有哪些待办', undefined],
    ["what's left", 'pending'],
    ['看下我的清单', undefined],
    ['any todos left?', 'pending'],
    ['what do I have on my plate', undefined],
    ['what do I still have to do', 'pending'],
    ["what's on my list", undefined],
    ['show me my todos', undefined],
  ] as const)('%s', async (text, status) => {
    await seed();
    const r = await say(text);
    expect(r.calls).toEqual([{ name: 'todo_list', args: status ? { status } : {} }]);
    expect(r.reply).toMatch(/交电费/);
  });

  it('leaves arithmetic alone', async () => {
    expect((await say('我有100块花了30还剩多少')).calls.map((c) => c.name)).toEqual(['calculator']);
  });
});

describe('reminders and due dates', () => {
  it.each([
    ['提醒我明天交房租', '2026-12-01 周二'],
    ['明天早上提醒我给妈妈打电话', '2026-12-01 周二'],
    ['remind me to pay rent tomorrow', 'Tue 2026-12-01'],
    ['remind me on friday to call the bank', 'Fri 2026-12-04'],
    ['下周一提醒我交报告', '2026-12-07 周一'],
    ['后天下午3点提醒我去取快递', '2026-12-02 周三下午3点'],
  ])('%s: a todo with a real date, and no pretence of a reminder', async (text, due) => {
    const r = await say(text);
    expect(r.calls[0].name).toBe('todo_add');
    expect(r.reply).toContain(due);
    expect(r.reply).toMatch(/不会有提醒|no reminders yet/);
    expect(store.todos.list()[0].due).toContain(due);
  });

  it('takes 记住 as a todo, but not 记住我叫…', async () => {
    expect((await say('帮我记住明天要买菜')).calls).toEqual([
      { name: 'todo_add', args: { content: '明天要买菜', due: '明天' } },
    ]);
    expect((await say('记住我叫小明')).calls).toEqual([]);
  });

  it('does not add the reminder note to a plain todo', async () => {
    expect((await say('记一下 明天交房租')).reply).not.toMatch(/提醒/);
    expect((await say('记一下 买个闹钟')).reply).not.toMatch(/不会有提醒/);
    expect((await say('add a todo: set up the reminder app')).reply).not.toMatch(/no reminders yet/);
  });
});
