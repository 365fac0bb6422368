import { describe, expect, it } from 'vitest';
import { createOfflinePlanner } from './planner.js';
import { memoryPrefs, specsFor, step, turn } from './testing.js';

const planner = () => createOfflinePlanner({ prefs: memoryPrefs() });
const first = (text: string) => step(planner(), [{ role: 'user', content: text }]);

/** Phrasings beyond the acceptance list, to show the rules generalise. */
const MORE_CALLS: Array<[string, string, Record<string, unknown>]> = [
  ['帮我算算 100 除以 4', 'calculator', { expression: '100 除以 4' }],
  ['1+1=?', 'calculator', { expression: '1+1' }],
  ['请问 3*7 是多少', 'calculator', { expression: '3*7' }],
  ['2的10次方是多少', 'calculator', { expression: '2的10次方' }],
  ['what is 15 times 4', 'calculator', { expression: '15 * 4' }],
  ['我今天花了 30+25+12 元，一共多少', 'calculator', { expression: '30+25+12' }],
  ['（3＋5）×2', 'calculator', { expression: '(3+5)×2' }],
  ['添加待办：下周一交报告', 'todo_add', { content: '下周一交报告', due: '下周一' }],
  ['提醒我明天下午3点开会', 'todo_add', { content: '明天下午3点开会', due: '明天下午3点' }],
  ['把买牛奶加到待办', 'todo_add', { content: '买牛奶' }],
  ['remind me to call mom tomorrow', 'todo_add', { content: 'call mom tomorrow', due: 'tomorrow' }],
  ['add buy eggs to my todo list', 'todo_add', { content: 'buy eggs' }],
  ['还有哪些待办没完成', 'todo_list', { status: 'pending' }],
  ['显示已完成的待办', 'todo_list', { status: 'done' }],
  ['list all my todos', 'todo_list', { status: 'all' }],
  ['完成第三项', 'todo_done', { id: 3 }],
  ['2号做完了', 'todo_done', { id: 2 }],
  ['I finished the second one', 'todo_done', { id: 2 }],
  ['mark 2 as done', 'todo_done', { id: 2 }],
  ['删除第十一条待办', 'todo_delete', { id: 11 }],
  ['把第两条删了', 'todo_delete', { id: 2 }],
  ['remove item 4', 'todo_delete', { id: 4 }],
  ['把“你好 世界”写入 hello.txt', 'file_write', { path: 'hello.txt', content: '你好 世界' }],
  ['往 a.txt 写入 abc', 'file_write', { path: 'a.txt', content: 'abc' }],
  ['写入 notes.txt：明天开会，记得带电脑', 'file_write', { path: 'notes.txt', content: '明天开会，记得带电脑' }],
  ['创建一个文件叫 plan.md，内容为：1. 学习 2. 运动', 'file_write', { path: 'plan.md', content: '1. 学习 2. 运动' }],
  ['帮我创建文件 a.txt，内容是：先吃饭，然后睡觉', 'file_write', { path: 'a.txt', content: '先吃饭，然后睡觉' }],
  ['新建文件 empty.txt', 'file_write', { path: 'empty.txt', content: '' }],
  ['create a file notes/d.txt with content hi there', 'file_write', { path: 'notes/d.txt', content: 'hi there' }],
  ['看看 notes.txt 里写了什么', 'file_read', { path: 'notes.txt' }],
  ['打开笔记.md', 'file_read', { path: '笔记.md' }],
  ["what's in notes.txt", 'file_read', { path: 'notes.txt' }],
  ['notes 目录里有什么', 'file_list', { path: 'notes' }],
  ['list files in notes', 'file_list', { path: 'notes' }],
  ['工作区里有哪些文件', 'file_list', {}],
  ['深圳市明天的天气', 'weather', { city: '深圳' }],
  ['我想知道成都最近天气', 'weather', { city: '成都' }],
  ['明天北京会下雨吗', 'weather', { city: '北京' }],
  ['杭州的气温', 'weather', { city: '杭州' }],
  ['查天气 北京', 'weather', { city: '北京' }],
  ['帮我查下 Paris 的天气', 'weather', { city: 'Paris' }],
  ["what's the weather like in New York today?", 'weather', { city: 'New York' }],
  ['will it rain in Tokyo tomorrow', 'weather', { city: 'Tokyo' }],
  ['今天是几月几号', 'current_time', {}],
  ['请问现在几点了？', 'current_time', {}],
  ['东京现在几点', 'current_time', { timezone: '东京' }],
  ['现在北京时间几点', 'current_time', { timezone: 'Asia/Shanghai' }],
  ["what's the time in London?", 'current_time', { timezone: 'London' }],
  ["what's the date today", 'current_time', {}],
];

describe('generalising beyond the acceptance list', () => {
  it.each(MORE_CALLS)('%s → %s', async (text, name, args) => {
    expect((await first(text)).parsed).toEqual([{ name, args }]);
  });

  it('splits two requests joined by 然后 / then, but not inside file content', async () => {
    expect((await first('北京天气怎么样？然后提醒我带伞')).parsed).toEqual([
      { name: 'weather', args: { city: '北京' } },
      { name: 'todo_add', args: { content: '带伞' } },
    ]);
    expect((await first('add a todo: buy milk, then show my todos')).parsed.map((c) => c.name)).toEqual([
      'todo_add',
      'todo_list',
    ]);
  });
});

describe('negative cases', () => {
  it.each([
    ['删除文件 a.txt', /做不到/],
    ['我完成了 3 个报告', /做不到/],
    ['计算 __import__("os").system("dir")', /不会执行/],
    ['eval("1+1")', /won't run/],
    ['算一下', /算的式子/],
    ['记一下', /要记什么/],
    ['删除待办', /第几条/],
    ['外面冷不冷', /哪个城市/],
  ])('%s', async (text, expected) => {
    const r = await first(text);
    expect(r.calls).toEqual([]);
    expect(r.text).toMatch(expected);
  });

  it('is honest in English too, and offers the nearest thing it can do', async () => {
    const r = await first('book me a flight to Berlin');
    expect(r.calls).toEqual([]);
    expect(r.text).toMatch(/^Sorry, I can't do that in offline mode/);
    expect(r.text).toContain('todo');
  });
});

describe('follow-ups', () => {
  it('keeps the city for 那明天呢 and switches it for what about …', async () => {
    const llm = planner();
    const a = await turn(llm, [], 'weather in Paris', () => 'Paris: sunny');
    const b = await turn(llm, a.messages, 'what about London?', () => 'London: rain');
    expect(b.calls).toEqual([{ name: 'weather', args: { city: 'London' } }]);
    const c = await turn(llm, b.messages, '那明天呢', () => '…');
    expect(c.calls).toEqual([{ name: 'weather', args: { city: 'London' } }]);
  });

  it('follows a todo action with another number, and a time with another city', async () => {
    const llm = planner();
    const a = await turn(llm, [], '完成第 1 条');
    expect((await turn(llm, a.messages, '那第二条呢')).calls).toEqual([{ name: 'todo_done', args: { id: 2 } }]);
    const t = await turn(llm, [], '现在几点');
    expect((await turn(llm, t.messages, '那东京呢')).calls).toEqual([
      { name: 'current_time', args: { timezone: '东京' } },
    ]);
  });

  it('does not treat an unrelated message as a follow-up', async () => {
    const llm = planner();
    const a = await turn(llm, [], '北京天气怎么样', () => '晴');
    expect((await turn(llm, a.messages, '你好')).calls).toEqual([]);
    expect((await turn(llm, a.messages, '帮我写一首诗')).reply).toContain('做不到');
  });
});

describe('the Llm contract', () => {
  it('identifies itself as the offline rules model', () => {
    const llm = planner();
    expect([llm.mode, llm.provider, llm.model]).toEqual(['offline', 'offline', 'rules']);
  });

  it('yields text in pieces, then usage, then finish', async () => {
    const r = await first('你好');
    const types = r.events.map((e) => e.type);
    expect(types.filter((t) => t === 'text').length).toBeGreaterThan(1);
    expect(types.slice(-2)).toEqual(['usage', 'finish']);
    const usage = r.events.find((e) => e.type === 'usage');
    expect(usage?.type === 'usage' && usage.usage.totalTokens).toBeGreaterThan(0);
  });

  it('numbers call ids on from the calls already in the conversation', async () => {
    const llm = planner();
    const a = await turn(llm, [], '算一下 1+1，然后看看待办', () => 'ok');
    const b = await step(llm, [...a.messages, { role: 'user', content: '现在几点' }]);
    expect(b.calls.map((c) => c.id)).toEqual(['call_off_3']);
  });

  it('only calls tools it was given, and says plainly what is missing', async () => {
    const llm = planner();
    const none = await step(llm, [{ role: 'user', content: '北京天气怎么样' }], specsFor(['calculator']));
    expect(none.calls).toEqual([]);
    expect(none.text).toContain('没有启用天气查询');
    const some = await turn(llm, [], '算一下 1+1，然后看看待办', () => '2', specsFor(['calculator']));
    expect(some.calls).toEqual([{ name: 'calculator', args: { expression: '1+1' } }]);
    expect(some.reply).toBe('1+1 = 2\n抱歉，这里没有启用待办功能，所以这件事我做不到。');
    const greeting = await step(llm, [{ role: 'user', content: 'hi' }], specsFor(['weather']));
    expect(greeting.text).toContain('weather');
    expect(greeting.text).not.toContain('todos');
  });

  it('answers in the forced language', async () => {
    const llm = createOfflinePlanner({ prefs: memoryPrefs(), lang: 'en' });
    expect((await step(llm, [{ role: 'user', content: '今天天气怎么样' }])).text).toMatch(/^Which city/);
    const zh = createOfflinePlanner({ prefs: memoryPrefs(), lang: 'zh' });
    expect((await step(zh, [{ role: 'user', content: "how's the weather" }])).text).toMatch(/哪个城市/);
  });

  it('keeps no conversation state: interleaved sessions do not mix', async () => {
    const llm = planner();
    const s1 = await turn(llm, [], '北京天气怎么样', () => '晴');
    const s2 = await turn(llm, [], '现在几点', () => '12:00');
    expect((await turn(llm, s2.messages, '那东京呢')).calls[0].name).toBe('current_time');
    expect((await turn(llm, s1.messages, '那东京呢')).calls[0].name).toBe('weather');
  });

  it('stops when the request is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const run = async () => {
      for await (const _ of planner().stream({
        messages: [{ role: 'user', content: 'hi' }],
        tools: [],
        signal: controller.signal,
      }))
        void _;
    };
    await expect(run()).rejects.toThrow();
  });

  it('leaves titles to the sessions service, which uses the first words', async () => {
    expect(planner().title).toBeUndefined();
    const { titleFromText } = await import('../../sessions/title.js');
    expect(titleFromText('帮我算一下 (3+5)*2')).toBe('帮我算一下 (3+5)*2');
  });
});
