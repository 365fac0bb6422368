/**
 * Long messages: the planner must answer at once however a message is shaped (messages may be
 * 100,000 characters), and a long file content must still be written whole.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileWriteTool } from '../../tools/file-write.js';
import type { ToolContext } from '../../tools/tool.js';
import type { ChatMessage } from '../types.js';
import { HEAD_CHARS, TAIL_CHARS } from './extract.js';
import { createOfflinePlanner } from './planner.js';
import { memoryPrefs, step, turn } from './testing.js';

const MESSAGE_CHARS = 100_000;
/**
 * Per message: not a speed target (bench/ holds those) but a blowup detector. A pattern that backtracks
 * takes minutes to hours on 100,000 characters, a normal plan well under a second even on a busy
 * machine; ten seconds tells them apart without failing a run because the machine was busy.
 */
const BUDGET_MS = 10_000;
/** The longest message the rules read whole, without leaving out its middle. */
const WHOLE_CHARS = HEAD_CHARS + TAIL_CHARS;

const planner = () => createOfflinePlanner({ prefs: memoryPrefs() });

/** An earlier turn that made calls, so follow-up rules run on the message too. */
const HISTORY: ChatMessage[] = [
  { role: 'user', content: '北京天气怎么样' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: 'call_off_1', name: 'weather', arguments: '{"city":"北京"}' },
      { id: 'call_off_2', name: 'calculator', arguments: '{"expression":"1+1"}' },
      { id: 'call_off_3', name: 'file_read', arguments: '{"path":"a.txt"}' },
    ],
  },
  { role: 'tool', tool_call_id: 'call_off_1', content: '晴' },
  { role: 'tool', tool_call_id: 'call_off_2', content: '2' },
  { role: 'tool', tool_call_id: 'call_off_3', content: 'x' },
  { role: 'assistant', content: '好的' },
];

/** Runs one planning step on `text`, alone and after HISTORY, and returns the slower time. */
async function timedStep(text: string): Promise<number> {
  let slowest = 0;
  for (const history of [[], HISTORY]) {
    const started = performance.now();
    const r = await step(planner(), [...history, { role: 'user', content: text }]);
    slowest = Math.max(slowest, performance.now() - started);
    expect(r.finish).toBeDefined();
  }
  return slowest;
}

/** `lead` + a run of `fill` + `trail`, `total` characters long. */
const shaped = (total: number, lead: string, fill: string, trail = ''): string => {
  const body = fill.repeat(Math.ceil(total / fill.length)).slice(0, total - lead.length - trail.length);
  return lead + body + trail;
};

/**
 * Shapes that made a rule retry from every character of a long run: `\s*` next to another
 * quantifier over the same characters, before `$` or inside a lookbehind.
 */
const SHAPES: Array<[string, string, string, string?]> = [
  ['all spaces', '', ' '],
  ['letters and spaces', '', 'a '],
  ['a sum', '', '1 + '],
  ['a word, spaces, a word', 'a', ' ', 'a'],
  ['a digit, spaces, plus', '1', ' ', 'plus 2'],
  ['把, spaces, no verb', '把', ' ', 'x'],
  ['把, spaces, a verb, no file', '把', ' ', '写到 。'],
  ['write, spaces, no file', 'write', ' ', 'x'],
  ['往 a file, spaces, no verb', '往 a.txt', ' ', 'x'],
  ['add, spaces, no todo list', 'add', ' ', 'x'],
  ['看, spaces, no file', '看', ' ', '。'],
  ['a file, spaces, 文件, spaces', 'a.txt', ' ', '文件 x'],
  ['weather in, spaces, a new line', 'weather in', ' ', 'x\ny'],
  ['那, spaces, no follow-up', '那', ' ', 'x'],
  ['spaces before then', 'a', ' ', 'thenx'],
  ['我叫, spaces', '我叫', ' ', '。'],
  ['todo, spaces', 'todo', ' ', '#'],
  ['早上, spaces', '提醒我 早上', ' ', 'x'],
  ['tabs and new lines', 'a', '\t\n', 'a'],
  ['digits', '', '1'],
  ['digits, then a percent sign', '', '1', '%'],
  ['numerals, then 分之', '', '一', '分之一'],
  ['Chinese numerals', '', '一'],
  ['closing parentheses', '', ')'],
  ['的', '天气', '的'],
  ['path characters', '', 'a/'],
  ['dots', 'a', '. ', 'b'],
  ['Chinese text', '', '今天天气不错，'],
  ['离, spaces, 还有几天', '离', ' ', '还有几天'],
  ['a count, spaces, 天后', '3', ' ', '天后是几号'],
  ['下, spaces, a weekday', '下', ' ', '周三是几号'],
  ['in, spaces, days', 'in', ' ', '10 days what date'],
  ['two places, spaces, 差几个小时', '东京和', ' ', '北京差几个小时'],
  ['dates', '', '3/20 ', '是星期几'],
  ['a city and a day, spaces, weather', '北京明天', ' ', '天气'],
  ['a clock time, spaces, a place', '晚上', ' ', '8点是纽约几点'],
  ['places, spaces, which is colder', '北京和', ' ', '上海哪个冷'],
  ['把, spaces, 写到 a file, no end word', '把', ' ', '写到 a.txt'],
  ['在 a file, spaces, no verb', '在 a.txt', ' ', '末尾'],
  ['a file, spaces, 末尾', 'a.txt', ' ', '末尾 加'],
  ['append, spaces, no file', 'append', ' ', 'to x'],
  ['add, spaces, to a word', 'add', ' ', 'to b'],
  ['在 a folder, spaces, a new file', '在 docs 文件夹', ' ', '建 a.txt'],
  ['where, spaces', 'where', ' ', 'x'],
  ['CJK, then 末尾', '', '日记', '.md 末尾加一行 x'],
  ['question marks', '', '? '],
  ['requests between commas', '', '算一下 1+1，'],
  ['sentences', '', '看看待办。'],
  ['并, spaces, a verb', '并', ' ', '告诉我'],
  ['a list of todos', '记两个待办：', '买菜、'],
  ['percent words, spaces', '从 80 涨到', ' ', '百分之几'],
  ['每, spaces, a number', '每天', ' ', '20 页，一年多少'],
  ['a rate, spaces', '汇率', ' ', '7.2'],
];

describe('offline planner: long messages are planned at once', () => {
  it.each(SHAPES)('%s, 100,000 characters', async (_name, lead, fill, trail) => {
    const text = shaped(MESSAGE_CHARS, lead, fill, trail);
    expect(text).toHaveLength(MESSAGE_CHARS);
    expect(await timedStep(text)).toBeLessThan(BUDGET_MS);
  });

  // Short enough to be read whole: what keeps these fast is the rules, not leaving out the middle.
  it.each(SHAPES)('%s, read whole', async (_name, lead, fill, trail) => {
    const text = shaped(WHOLE_CHARS, lead, fill, trail);
    expect(await timedStep(text)).toBeLessThan(BUDGET_MS);
  });

  it('answers a long message that asks for nothing it knows, without a tool', async () => {
    const r = await step(planner(), [
      { role: 'user', content: shaped(MESSAGE_CHARS, '', 'lorem ipsum dolor sit amet. ') },
    ]);
    expect(r.calls).toEqual([]);
    expect(r.text).not.toBe('');
  });

  it('words the answer to a long message at once, after the tools ran', async () => {
    const clock = [
      '现在是 2026年3月12日 星期四 10:00:00',
      '时区：Asia/Shanghai（UTC+08:00）',
      '距离周末（星期六）还有 2 天。',
    ].join('\n');
    const weather = 'X\n当前（当地 12:30）：多云，气温 17.7°C\n建议：天气平稳，照常出门即可。';
    for (const text of [
      shaped(MESSAGE_CHARS, '离', ' ', '还有几天到周五'),
      shaped(MESSAGE_CHARS, '北京和上海', ' ', '明天哪个冷'),
      shaped(MESSAGE_CHARS, '3', ' 1', '天后是几号'),
    ]) {
      const started = performance.now();
      const r = await turn(planner(), [], text, (c) => (c.name === 'current_time' ? clock : weather));
      expect(performance.now() - started).toBeLessThan(BUDGET_MS);
      expect(r.reply).not.toBe('');
    }
  });

  it('still reads a request at the end of a long message', async () => {
    const r = await step(planner(), [
      { role: 'user', content: shaped(MESSAGE_CHARS, '', '今天心情不错，', '。看看我的待办') },
    ]);
    expect(r.parsed).toEqual([{ name: 'todo_list', args: {} }]);
  });
});

describe('offline planner: long file content is written whole', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zhixing-long-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const ctx: ToolContext = {
    sessionId: 's1',
    turnId: 't1',
    callId: 'c1',
    workspace: dir,
    signal: new AbortController().signal,
    lang: 'zh',
    ask: async (r) => (r.insideSandbox ? 'allow' : 'deny'),
    progress: () => {},
  };
  // Several lines, full-width characters, a 然后 that must not split it, and a $ that must stay literal.
  const content = `第一行：今天也要加油！然后 $& $1\n${'The quick brown fox. 敏捷的狐狸。\n'.repeat(3_400)}最后一行`;

  const requests: Array<[string, string]> = [
    ['把 … 写到', `把 ${content} 写到 notes/long.txt`],
    ['往 … 里写', `往 notes/long.txt 里写：${content}`],
    ['创建文件 …，内容是', `创建文件 notes/long.txt，内容是：${content}`],
    ['write … to', `write ${content} to notes/long.txt`],
    ['write to …:', `write to notes/long.txt: ${content}`],
    ['在 … 文件夹里建 …，内容是', `在 notes 文件夹里建一个 long.txt，内容是：${content}`],
  ];
  it.each(requests)('%s', async (_name, text) => {
    expect(text.length).toBeGreaterThan(MESSAGE_CHARS - 5_000);
    expect(text.length).toBeLessThanOrEqual(MESSAGE_CHARS);
    const started = performance.now();
    const r = await step(planner(), [{ role: 'user', content: text }]);
    expect(performance.now() - started).toBeLessThan(BUDGET_MS);
    expect(r.parsed).toEqual([{ name: 'file_write', args: { path: 'notes/long.txt', content } }]);
    await fileWriteTool.execute(r.parsed[0].args as { path: string; content: string }, ctx);
    expect(readFileSync(join(dir, 'notes/long.txt'), 'utf8')).toBe(content);
  });

  it.each([
    ['把 … 追加到', `把 ${content} 追加到 notes/long.txt`],
    ['append … to', `append ${content} to notes/long.txt`],
  ])('%s: the text to add is kept whole for the write after the read', async (_name, text) => {
    const started = performance.now();
    const r = await step(planner(), [{ role: 'user', content: text }]);
    expect(performance.now() - started).toBeLessThan(BUDGET_MS);
    expect(r.parsed).toEqual([{ name: 'file_read', args: { path: 'notes/long.txt' } }]);
    const read: ChatMessage = {
      role: 'tool',
      tool_call_id: r.calls[0].id,
      content: 'Error: notes/long.txt was not found: there is no such file or folder.',
    };
    const next = await step(planner(), [
      { role: 'user', content: text },
      { role: 'assistant', content: null, tool_calls: r.calls },
      read,
    ]);
    expect(next.parsed).toEqual([{ name: 'file_write', args: { path: 'notes/long.txt', content: `${content}\n` } }]);
  });

  it('keeps a private-use character the user typed', async () => {
    const typed = `\u{e000}${content}\u{e000}`;
    const r = await step(planner(), [{ role: 'user', content: `把 ${typed} 写到 a.txt` }]);
    expect(r.parsed).toEqual([{ name: 'file_write', args: { path: 'a.txt', content: typed } }]);
  });

  it('writes content of several lines from a short message too', async () => {
    const r1 = await step(planner(), [{ role: 'user', content: '往 a.txt 写：第一行\n第二行' }]);
    expect(r1.parsed).toEqual([{ name: 'file_write', args: { path: 'a.txt', content: '第一行\n第二行' } }]);
    const r2 = await step(planner(), [{ role: 'user', content: '创建文件 a.txt，内容是：x\ny' }]);
    expect(r2.parsed).toEqual([{ name: 'file_write', args: { path: 'a.txt', content: 'x\ny' } }]);
    const r3 = await step(planner(), [{ role: 'user', content: '把 第一行\n第二行 写到 a.txt' }]);
    expect(r3.parsed).toEqual([{ name: 'file_write', args: { path: 'a.txt', content: '第一行\n第二行' } }]);
  });

  it('hands a long todo to the tool whole, which says it is too long', async () => {
    const todo = `买牛奶${'，还有面包'.repeat(20_000)}`;
    const r = await step(planner(), [{ role: 'user', content: `记一下：${todo}` }]);
    expect(r.parsed).toEqual([{ name: 'todo_add', args: { content: todo } }]);
  });
});
