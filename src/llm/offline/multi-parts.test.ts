/**
 * Several requests in one message beyond the connector words: sentences that each ask something,
 * 并/和 before a verb, commas alone, parts that point back (「这个文件」「那边」), several places or
 * todos at once, and a question asked twice.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { calculatorTool } from '../../tools/calculator.js';
import { fileListTool } from '../../tools/file-list.js';
import { fileReadTool } from '../../tools/file-read.js';
import { fileWriteTool } from '../../tools/file-write.js';
import { createToolRegistry } from '../../tools/registry.js';
import type { ToolContext } from '../../tools/tool.js';
import { createOfflinePlanner, detectLang } from './planner.js';
import { agentTurn, memoryPrefs, step, replyOf } from './testing.js';

const planner = () => createOfflinePlanner({ prefs: memoryPrefs() });
const calls = async (text: string) => (await step(planner(), [{ role: 'user', content: text }])).parsed;

/** [message, the calls, in order] */
const CASES: Array<[string, Array<{ name: string; args: Record<string, unknown> }>]> = [
  [
    '今天几号？我还有哪些事没做？',
    [
      { name: 'current_time', args: {} },
      { name: 'todo_list', args: { status: 'pending' } },
    ],
  ],
  [
    '算一下 2+2 并告诉我现在几点',
    [
      { name: 'calculator', args: { expression: '2+2' } },
      { name: 'current_time', args: {} },
    ],
  ],
  [
    '记一下买牛奶。看看待办',
    [
      { name: 'todo_add', args: { content: '买牛奶' } },
      { name: 'todo_list', args: {} },
    ],
  ],
  [
    'Calculate 5*5. Show my todos.',
    [
      { name: 'calculator', args: { expression: '5*5' } },
      { name: 'todo_list', args: {} },
    ],
  ],
  [
    '东京现在几点，那边天气怎么样',
    [
      { name: 'current_time', args: { timezone: '东京' } },
      { name: 'weather', args: { city: '东京' } },
    ],
  ],
  [
    '帮我算一下 12*3，记一下买菜',
    [
      { name: 'calculator', args: { expression: '12*3' } },
      { name: 'todo_add', args: { content: '买菜' } },
    ],
  ],
  [
    '查一下上海和北京的天气',
    [
      { name: 'weather', args: { city: '上海' } },
      { name: 'weather', args: { city: '北京' } },
    ],
  ],
  ['what time is it and what is the date', [{ name: 'current_time', args: {} }]],
  [
    '记两个待办：买菜、洗衣服',
    [
      { name: 'todo_add', args: { content: '买菜' } },
      { name: 'todo_add', args: { content: '洗衣服' } },
    ],
  ],
  [
    '帮我记三个待办：买牛奶和鸡蛋，周五交报告，给妈妈打电话',
    [
      { name: 'todo_add', args: { content: '买牛奶和鸡蛋' } },
      { name: 'todo_add', args: { content: '周五交报告', due: '周五' } },
      { name: 'todo_add', args: { content: '给妈妈打电话' } },
    ],
  ],
  [
    '记两个待办：买菜和洗衣服',
    [
      { name: 'todo_add', args: { content: '买菜' } },
      { name: 'todo_add', args: { content: '洗衣服' } },
    ],
  ],
  [
    'add two todos: buy eggs and call the bank',
    [
      { name: 'todo_add', args: { content: 'buy eggs' } },
      { name: 'todo_add', args: { content: 'call the bank' } },
    ],
  ],
  [
    '往 a.txt 写入 hi，然后读一下 a.txt',
    [
      { name: 'file_write', args: { path: 'a.txt', content: 'hi' } },
      { name: 'file_read', args: { path: 'a.txt' } },
    ],
  ],
  [
    "Can you add 'call Sam' to my todos and also tell me what 18% of 65 is?",
    [
      { name: 'todo_add', args: { content: 'call Sam' } },
      { name: 'calculator', args: { expression: '18/100*65' } },
    ],
  ],
  [
    '列出我的文件然后把 hello world 写进 greet.txt',
    [
      { name: 'file_list', args: {} },
      { name: 'file_write', args: { path: 'greet.txt', content: 'hello world' } },
    ],
  ],
  [
    '帮我写个文件 todo.md 内容是 1. 买菜 2. 做饭，然后告诉我现在几点',
    [
      { name: 'file_write', args: { path: 'todo.md', content: '1. 买菜 2. 做饭' } },
      { name: 'current_time', args: {} },
    ],
  ],
  [
    '把第2条删了，再列一下剩下的',
    [
      { name: 'todo_delete', args: { id: 2 } },
      { name: 'todo_list', args: {} },
    ],
  ],
  [
    '算 3+5；记录：明天买菜；查看文件',
    [
      { name: 'calculator', args: { expression: '3+5' } },
      { name: 'todo_add', args: { content: '明天买菜', due: '明天' } },
      { name: 'file_list', args: {} },
    ],
  ],
  [
    '我想知道伦敦几点了还有纽约几点',
    [
      { name: 'current_time', args: { timezone: '伦敦' } },
      { name: 'current_time', args: { timezone: '纽约' } },
    ],
  ],
  [
    '计算 15*15 和 16*16',
    [
      { name: 'calculator', args: { expression: '15*15' } },
      { name: 'calculator', args: { expression: '16*16' } },
    ],
  ],
  [
    '添加待办买菜并显示全部待办',
    [
      { name: 'todo_add', args: { content: '买菜' } },
      { name: 'todo_list', args: { status: 'all' } },
    ],
  ],
  [
    '把 a.txt 和 b.txt 都读一下',
    [
      { name: 'file_read', args: { path: 'a.txt' } },
      { name: 'file_read', args: { path: 'b.txt' } },
    ],
  ],
  [
    'read notes.md and todo.md',
    [
      { name: 'file_read', args: { path: 'notes.md' } },
      { name: 'file_read', args: { path: 'todo.md' } },
    ],
  ],
  ['天气怎么样，北京的', [{ name: 'weather', args: { city: '北京' } }]],
  [
    '第一，算一下 5*5；第二，看看待办；第三，现在几点',
    [
      { name: 'calculator', args: { expression: '5*5' } },
      { name: 'todo_list', args: {} },
      { name: 'current_time', args: {} },
    ],
  ],
  [
    '首先记一下买菜，其次看看有哪些文件',
    [
      { name: 'todo_add', args: { content: '买菜' } },
      { name: 'file_list', args: {} },
    ],
  ],
  [
    'first calculate 3*3, second show my todos',
    [
      { name: 'calculator', args: { expression: '3*3' } },
      { name: 'todo_list', args: {} },
    ],
  ],
  [
    'weather in Paris and time in Tokyo',
    [
      { name: 'weather', args: { city: 'Paris' } },
      { name: 'current_time', args: { timezone: 'Tokyo' } },
    ],
  ],
  ['mark 1 and 2 as done', [{ name: 'todo_list', args: { status: 'all' } }]],
  [
    "Add 'buy coffee' to my list, then calculate 2*3, and finally what's 45*3",
    [
      { name: 'todo_add', args: { content: 'buy coffee' } },
      { name: 'calculator', args: { expression: '2*3' } },
      { name: 'calculator', args: { expression: '45*3' } },
    ],
  ],
  [
    '帮我看看待办，把第一个删掉，再加一个买面包',
    [
      { name: 'todo_list', args: {} },
      { name: 'todo_delete', args: { id: 1 } },
      { name: 'todo_add', args: { content: '买面包' } },
    ],
  ],
  [
    '算 1+1 算 2+2',
    [
      { name: 'calculator', args: { expression: '1+1' } },
      { name: 'calculator', args: { expression: '2+2' } },
    ],
  ],
  [
    '我要做三件事：买菜、做饭、洗碗，帮我都记下来',
    [
      { name: 'todo_add', args: { content: '买菜' } },
      { name: 'todo_add', args: { content: '做饭' } },
      { name: 'todo_add', args: { content: '洗碗' } },
    ],
  ],
  [
    '看看待办和文件',
    [
      { name: 'todo_list', args: {} },
      { name: 'file_list', args: {} },
    ],
  ],
  [
    'list my todos and files',
    [
      { name: 'todo_list', args: {} },
      { name: 'file_list', args: {} },
    ],
  ],
];

describe('several requests, however they are joined', () => {
  it.each(CASES)('%s', async (text, expected) => {
    expect(await calls(text)).toEqual(expected);
  });

  it('keeps one problem told over several sentences as one calculation', async () => {
    expect(await calls('税后多少？税前8000，税率3%')).toEqual([
      { name: 'calculator', args: { expression: '8000*(1-3/100)' } },
    ]);
    expect(await calls('原价300，打七折')).toEqual([{ name: 'calculator', args: { expression: '300*0.7' } }]);
  });

  it('keeps verbatim text whole when its parts are no requests', async () => {
    expect(await calls('创建文件 a.txt，内容是：你好。明天见')).toEqual([
      { name: 'file_write', args: { path: 'a.txt', content: '你好。明天见' } },
    ]);
    expect(await calls('记一下：买牛奶，鸡蛋')).toEqual([{ name: 'todo_add', args: { content: '买牛奶，鸡蛋' } }]);
  });

  it('names a file typed against a verb without taking the verb into it', async () => {
    expect(await calls('把a.txt的内容改成hello')).toEqual([
      { name: 'file_write', args: { path: 'a.txt', content: 'hello' } },
    ]);
    expect(await calls('读一下读书笔记.md')).toEqual([{ name: 'file_read', args: { path: '读书笔记.md' } }]);
  });
});

describe('parts that point back to a file', () => {
  let root: string;
  let workspace: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'zhixing-multi-parts-'));
    workspace = join(root, 'workspace');
    mkdirSync(workspace);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const registry = createToolRegistry([fileReadTool, fileWriteTool, fileListTool]);
  const say = (text: string) => {
    const ctx: ToolContext = {
      sessionId: 's',
      turnId: 't',
      callId: 'c',
      workspace,
      signal: new AbortController().signal,
      lang: detectLang(text),
      ask: async () => 'allow',
      progress: () => {},
    };
    return agentTurn(
      createOfflinePlanner({ prefs: memoryPrefs(), workspace }),
      [],
      text,
      async (c) => replyOf(await registry.run(c, ctx)),
      registry.specs(),
    );
  };

  it('reads the file after the append, to show the new text', async () => {
    writeFileSync(join(workspace, 'notes.txt'), 'old\n');
    const r = await say("帮我把'周会改到三点'追加到 notes.txt，然后读一下这个文件");
    expect(r.calls.map((c) => c.name)).toEqual(['file_read', 'file_write', 'file_read']);
    expect(r.reply).toMatch(/已追加到 notes\.txt[\s\S]*notes\.txt 的内容：\n```\nold\n周会改到三点\n```/);
  });

  it('adds to the end of the file the part before read', async () => {
    writeFileSync(join(workspace, 'notes.md'), '开始\n');
    const r = await say('先看看 notes.md 写了啥，再在末尾加一句 完成');
    expect(r.calls.map((c) => c.name)).toEqual(['file_read', 'file_read', 'file_write']);
    expect(readFileSync(join(workspace, 'notes.md'), 'utf8')).toBe('开始\n完成\n');
  });

  it.each([
    ['算一下 25*4，然后把结果保存到 result.txt', 'result.txt', '25*4 = 100', 'calculator'],
    ['calculate 12*12 and save the result to math.txt', 'math.txt', '12*12 = 144', 'calculator'],
    ['把 25*4 的结果写到 a.txt', 'a.txt', '25*4 = 100', 'calculator'],
    ['把待办清单存到 todo.txt', 'todo.txt', '1. [ ] 买菜', 'todo_list'],
    ['save my todo list to todos.md', 'todos.md', '1. [ ] 买菜', 'todo_list'],
    ['看看有哪些文件，然后把它们存到 files.txt', 'files.txt', 'a.txt', 'file_list'],
  ])('%s: the result, then the file it was kept in', async (text, file, kept, tool) => {
    writeFileSync(join(workspace, 'a.txt'), 'x');
    const todos = createOfflinePlanner({ prefs: memoryPrefs(), workspace });
    const ctx: ToolContext = {
      sessionId: 's',
      turnId: 't',
      callId: 'c',
      workspace,
      signal: new AbortController().signal,
      lang: detectLang(text),
      ask: async () => 'allow',
      progress: () => {},
    };
    // The todo list is answered as the tool would, so the file holds what the user saw.
    const tools = createToolRegistry([fileReadTool, fileWriteTool, fileListTool, calculatorTool]);
    const run = async (c: { name: string; arguments: string; id: string }) =>
      c.name === 'todo_list' ? '待办（1 条未完成）：\n1. [ ] 买菜' : replyOf(await tools.run(c, ctx));
    const r = await agentTurn(todos, [], text, run, [
      ...tools.specs(),
      { name: 'todo_list', description: '', parameters: {} },
    ]);
    expect(r.calls.map((c) => c.name)).toEqual([tool, 'file_write']);
    expect(readFileSync(join(workspace, file), 'utf8')).toContain(kept);
    expect(r.reply.split('\n')[0]).not.toMatch(/已写入|Wrote/); // the result first
    expect(r.reply).toContain(join(workspace, file));
  });

  it.each([
    ['把 a.txt 复制到 b.txt', 'x'],
    ['copy a.txt to backup/b.txt', 'x'],
  ])('%s', async (text) => {
    writeFileSync(join(workspace, 'a.txt'), 'x\ny');
    const r = await say(text);
    const target = text.includes('backup') ? 'backup/b.txt' : 'b.txt';
    expect(r.calls).toEqual([
      { name: 'file_read', args: { path: 'a.txt' } },
      { name: 'file_write', args: { path: target, content: 'x\ny' } },
    ]);
    expect(readFileSync(join(workspace, target), 'utf8')).toBe('x\ny');
  });

  it('writes the file the part before opened', async () => {
    writeFileSync(join(workspace, 'a.txt'), 'x');
    const r = await say('打开a.txt并且把内容改成hello');
    expect(r.calls).toEqual([
      { name: 'file_read', args: { path: 'a.txt' } },
      { name: 'file_write', args: { path: 'a.txt', content: 'hello' } },
    ]);
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('hello');
    const en = await say('read a.txt and then write bye to it');
    expect(en.calls.at(-1)).toEqual({ name: 'file_write', args: { path: 'a.txt', content: 'bye' } });
  });
});
