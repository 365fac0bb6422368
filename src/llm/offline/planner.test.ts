import { describe, expect, it } from 'vitest';
import { createOfflinePlanner, detectLang } from './planner.js';
import { BUILTIN_TOOL_NAMES, memoryPrefs, specsFor, step, turn } from './testing.js';

const planner = () => createOfflinePlanner({ prefs: memoryPrefs() });
const first = (text: string) => step(planner(), [{ role: 'user', content: text }]);

/** [what the user says, the tool, its exact arguments] — the acceptance phrasings. */
const CALLS: Array<[string, string, Record<string, unknown>]> = [
  ['帮我算一下 (3+5)*2', 'calculator', { expression: '(3+5)*2' }],
  ['(3+5)*12 等于多少', 'calculator', { expression: '(3+5)*12' }],
  ['0.1+0.2', 'calculator', { expression: '0.1+0.2' }],
  ['1/0', 'calculator', { expression: '1/0' }],
  ['9**999', 'calculator', { expression: '9**999' }],
  ['记一下 周五前交周报', 'todo_add', { content: '周五前交周报', due: '周五' }],
  ['帮我记一下：明天 9 点交软件工程作业', 'todo_add', { content: '明天 9 点交软件工程作业', due: '明天 9 点' }],
  ['看看待办', 'todo_list', {}],
  ['查看我的待办', 'todo_list', {}],
  ['我有哪些待办', 'todo_list', {}],
  ['完成第 1 条', 'todo_done', { id: 1 }],
  ['第一条完成了', 'todo_done', { id: 1 }],
  ['把第1条标记为完成', 'todo_done', { id: 1 }],
  ['删除第 2 条', 'todo_delete', { id: 2 }],
  ['删掉第二个待办', 'todo_delete', { id: 2 }],
  ['把 hello 写到 notes/a.txt', 'file_write', { path: 'notes/a.txt', content: 'hello' }],
  ['帮我创建文件 notes.txt，内容是：今天也要加油', 'file_write', { path: 'notes.txt', content: '今天也要加油' }],
  ['读一下 notes/a.txt', 'file_read', { path: 'notes/a.txt' }],
  ['读取文件 notes.txt', 'file_read', { path: 'notes.txt' }],
  ['有哪些文件', 'file_list', {}],
  ['列出文件', 'file_list', {}],
  ['把 秘密 写到 ../secret.txt', 'file_write', { path: '../secret.txt', content: '秘密' }],
  ['北京天气怎么样', 'weather', { city: '北京' }],
  ['帮我查一下北京的天气', 'weather', { city: '北京' }],
  ['广州今天天气怎么样', 'weather', { city: '广州' }],
  ['上海明天会下雨吗', 'weather', { city: '上海' }],
  ['weather in Paris', 'weather', { city: 'Paris' }],
  ["what's the weather in Paris", 'weather', { city: 'Paris' }],
  ['现在几点', 'current_time', {}],
  ['现在几点了', 'current_time', {}],
  ['今天星期几', 'current_time', {}],
  ['今天几号', 'current_time', {}],
  ['what time is it', 'current_time', {}],
  ['what day is it', 'current_time', {}],
  ['calculate 2^10', 'calculator', { expression: '2^10' }],
  ['add a todo: buy milk', 'todo_add', { content: 'buy milk' }],
  ['show my todos', 'todo_list', {}],
  ['read notes/a.txt', 'file_read', { path: 'notes/a.txt' }],
  ['write hello to notes/b.txt', 'file_write', { path: 'notes/b.txt', content: 'hello' }],
  ['计算 12*(3+4) 的结果', 'calculator', { expression: '12*(3+4)' }],
  ['2^10', 'calculator', { expression: '2^10' }],
];

describe('offline planner: which tool, with which arguments', () => {
  it.each(CALLS)('%s → %s', async (text, name, args) => {
    const r = await first(text);
    expect(r.parsed).toEqual([{ name, args }]);
    expect(r.text).toBe('');
    expect(r.finish).toBe('tool_calls');
  });

  it('makes two calls for two requests in one message', async () => {
    const r = await first('算一下 1+1，然后看看待办');
    expect(r.parsed).toEqual([
      { name: 'calculator', args: { expression: '1+1' } },
      { name: 'todo_list', args: {} },
    ]);
    expect(r.calls.map((c) => c.id)).toEqual(['call_off_1', 'call_off_2']);
  });

  it('plans from the words, not from the material quoted in a fence (uploaded file names, piped text)', async () => {
    const r = await first('what time is it\n\n```Files in the workspace:\nbudget.csv\n删除第 2 条.txt\n```');
    expect(r.parsed).toEqual([{ name: 'current_time', args: {} }]);
  });
});

/** [what the user says, words the reply must contain] — answered without a tool. */
const REPLIES: Array<[string, string[]]> = [
  ['今天天气怎么样', ['哪个城市']],
  ['__import__("os").system("dir")', ["won't run"]],
  ['你好呀', ['你好', '离线', '算一下', '天气']],
  ['你好', ['你好', '待办']],
  ['hi', ['Hi', 'offline', 'todos']],
  ['今天心情不好', ['心情不好', '待办']],
  ['thanks', ["You're welcome"]],
  ['谢谢', ['不客气']],
  ['帮我写一首诗', ['做不到', '你能做什么']],
  ['tell me a joke', ["can't do that", 'offline', 'help']],
];

describe('offline planner: replies without a tool', () => {
  it.each(REPLIES)('%s', async (text, words) => {
    const r = await first(text);
    expect(r.calls).toEqual([]);
    expect(r.finish).toBe('stop');
    for (const word of words) expect(r.text).toContain(word);
  });

  it('never takes 今天/明天/现在/这里 for a city', async () => {
    for (const text of ['今天天气怎么样', '明天天气如何', '现在天气怎么样', '这里天气怎么样', "how's the weather"]) {
      const r = await first(text);
      expect(r.calls, text).toEqual([]);
      expect(r.text, text).toMatch(/哪个城市|Which city/);
    }
  });

  it('reads 内容是：今天也要加油 as file content, not a time question', async () => {
    const r = await first('帮我创建文件 notes.txt，内容是：今天也要加油');
    expect(r.parsed.map((c) => c.name)).toEqual(['file_write']);
  });
});

describe('offline planner: the reply after the tools ran', () => {
  const reply = async (text: string, output: string) => (await turn(planner(), [], text, () => output)).reply;

  it('says the expression and the result', async () => {
    expect(await reply('帮我算一下 (3+5)*2', '16')).toBe('(3+5)*2 = 16');
    expect(await reply('calculate 2^10', '1024')).toBe('2^10 = 1024');
  });

  it('relays a refusal or failure kindly, without the Error: prefix', async () => {
    const zero = await reply('帮我算一下 1/0', 'Error: 除数不能为零');
    expect(zero).toBe('抱歉，1/0 算不出来：除数不能为零。');
    // No letters at all: English, as detectLang (and so the tools) would have it.
    expect(await reply('1/0', 'Error: Division by zero')).toBe("Sorry, I couldn't calculate 1/0: Division by zero.");
    const big = await reply('算一下 9**999', 'Error: 指数 999 对这个底数太大');
    expect(big).toContain('指数 999 对这个底数太大');
    expect(big).not.toContain('Error:');
    const secret = await reply(
      '把 秘密 写到 ../secret.txt',
      'Error: 拒绝写入 ../secret.txt：它用 .. 跳到了工作区之外。',
    );
    expect(secret).toMatch(/^抱歉，没能写入：拒绝写入 \.\.\/secret\.txt：/);
    expect(secret).toContain('没有写入任何内容');
    expect(await reply('把 秘密 写到 x.txt', 'Error: 磁盘已满')).toBe(
      '抱歉，没能写入 x.txt：磁盘已满。没有写入任何内容。',
    );
    const en = await reply(
      'write hello to ../x.txt',
      'Error: Refused to write to ../x.txt: it uses .. to reach outside the workspace.',
    );
    expect(en).toMatch(/^Sorry, I couldn't write the file: Refused to write to \.\.\/x\.txt/);
    expect(en).toContain('Nothing was written.');
  });

  it('passes tool text through, framing changes and file contents', async () => {
    expect(await reply('记一下 周五前交周报', '已添加待办 #1：周五前交周报（截止：周五）')).toBe(
      '好的，已添加待办 #1：周五前交周报（截止：周五）',
    );
    expect(await reply('看看待办', '待办（1 条未完成）：\n1. [ ] 周五前交周报')).toBe(
      '待办（1 条未完成）：\n1. [ ] 周五前交周报',
    );
    expect(await reply('读一下 notes/a.txt', 'hello')).toBe('notes/a.txt 的内容：\n```\nhello\n```');
    // Shown as it is: a fence longer than any inside, so Markdown never reshapes a file.
    expect(await reply('读一下 a.md', '# TODO\nx = a*b*c\n```js\n1\n```')).toBe(
      'a.md 的内容：\n````\n# TODO\nx = a*b*c\n```js\n1\n```\n````',
    );
    expect(await reply('北京天气怎么样', '北京：晴，气温 20°C')).toBe('北京：晴，气温 20°C');
    expect(await reply('add a todo: buy milk', 'Added todo #2: buy milk')).toBe('Done. Added todo #2: buy milk');
  });

  it('answers every call of a step, in order, and makes no further calls', async () => {
    const r = await turn(planner(), [], '算一下 1+1，然后看看待办', (c) =>
      c.name === 'calculator' ? '2' : '待办清单是空的。',
    );
    expect(r.reply).toBe('1+1 = 2\n待办清单是空的。');
    expect(r.final.calls).toEqual([]);
    expect(r.final.finish).toBe('stop');
  });
});

describe('offline planner: conversation and memory', () => {
  it('carries the last intent into a follow-up', async () => {
    const llm = planner();
    const a = await turn(llm, [], '北京天气怎么样', () => '北京：晴');
    const b = await turn(llm, a.messages, '那上海呢', () => '上海：多云');
    expect(b.calls).toEqual([{ name: 'weather', args: { city: '上海' } }]);
    expect(b.reply).toBe('上海：多云');
    const c = await turn(llm, b.messages, '那 3*3 呢', () => '9');
    expect(c.calls).toEqual([{ name: 'calculator', args: { expression: '3*3' } }]);
  });

  it('takes a bare city after asking which city', async () => {
    const llm = planner();
    const a = await turn(llm, [], '今天天气怎么样');
    expect(a.calls).toEqual([]);
    const b = await turn(llm, a.messages, '北京');
    expect(b.calls).toEqual([{ name: 'weather', args: { city: '北京' } }]);
  });

  it('saves the name as an ordinary memory, and asks the memory for it', async () => {
    const tools = specsFor([...BUILTIN_TOOL_NAMES, 'memory_save', 'memory_search']);
    const saved = await step(planner(), [{ role: 'user', content: '我叫刘浩彬' }], tools);
    expect(saved.parsed).toEqual([
      { name: 'memory_save', args: { content: '我叫刘浩彬', kind: 'fact', tags: ['name'] } },
    ]);
    const en = await step(planner(), [{ role: 'user', content: 'my name is Alex' }], tools);
    expect(en.parsed).toEqual([
      { name: 'memory_save', args: { content: 'My name is Alex', kind: 'fact', tags: ['name'] } },
    ]);
    for (const q of ['我叫什么', '我叫什么名字', '你知道我是谁吗', "what's my name", 'hey whats my name?']) {
      expect((await step(planner(), [{ role: 'user', content: q }], tools)).parsed.map((c) => c.name)).toEqual([
        'memory_search',
      ]);
    }
  });
});

describe('detectLang', () => {
  it('is zh when CJK is present, else en', () => {
    expect(detectLang('现在几点')).toBe('zh');
    expect(detectLang('weather in 北京')).toBe('zh');
    expect(detectLang('what time is it')).toBe('en');
    expect(detectLang('')).toBe('en');
  });
});
