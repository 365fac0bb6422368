import { describe, expect, it } from 'vitest';
import { createOfflinePlanner } from './planner.js';
import { memoryPrefs, step, turn } from './testing.js';

const planner = () => createOfflinePlanner({ prefs: memoryPrefs() });
const names = async (text: string) =>
  (await step(planner(), [{ role: 'user', content: text }])).parsed.map((c) => c.name);

/** [message, the tools called, in order] */
const CASES: Array<[string, string[]]> = [
  ['先算一下 12*3 再看看待办', ['calculator', 'todo_list']],
  ['先帮我记一下买菜，再告诉我现在几点', ['todo_add', 'current_time']],
  ['北京天气怎么样，顺便算一下 3+4', ['weather', 'calculator']],
  ['看看待办，然后算一下 2^8，最后告诉我今天星期几', ['todo_list', 'calculator', 'current_time']],
  ['算一下 5*6 再看看有哪些文件', ['calculator', 'file_list']],
  ['what time is it and then show my todos', ['current_time', 'todo_list']],
  ["calculate 2^8, also what's the weather in Paris", ['calculator', 'weather']],
  ["add a todo: buy milk. Also, what's 15% of 80?", ['todo_add', 'calculator']],
  ['1. 算一下 2+2 2. 看看待办 3. 现在几点', ['calculator', 'todo_list', 'current_time']],
  ['帮我做三件事：\n1. 记一下 交电费\n2. 算一下 100/4\n3. 看看待办', ['todo_add', 'calculator', 'todo_list']],
  ['- weather in Tokyo\n- time in London', ['weather', 'current_time']],
  ['你好，帮我算一下 3*3', ['calculator']],
  ['add buy bread to my todos and show my list', ['todo_add', 'todo_list']],
  ['check the weather in London and tell me the time', ['weather', 'current_time']],
  ['first calculate 5*5, then add a todo: call Bob', ['calculator', 'todo_add']],
  ['1) weather in Paris 2) calculate 9*9', ['weather', 'calculator']],
  ['①看看待办 ②现在几点', ['todo_list', 'current_time']],
  ['what is 2+2? also what day is it today', ['calculator', 'current_time']],
  ['现在几点？另外算一下 7*8', ['current_time', 'calculator']],
  ['帮我把 hi 写到 a.txt，然后读一下 a.txt', ['file_write', 'file_read']],
  ['算一下 1+1\n记一下 买菜\n第三行', ['calculator', 'todo_add']],
  ['记一下：买牛奶、交房租、取快递', ['todo_add', 'todo_add', 'todo_add']],
  ['add "water plants" and "pay rent" to my todos', ['todo_add', 'todo_add']],
  ['记一下：开会讨论A、B两个方案', ['todo_add']],
  ['记一下 周五前交周报，内容包括销量、利润、成本', ['todo_add']],
  ['现在几点？我在纽约', ['current_time']],
];

describe('a list of todos, and lines that are no request', () => {
  it('keeps each listed or quoted item as its own todo, in the words typed', async () => {
    const r = await step(planner(), [
      { role: 'user', content: 'add \u201cwater plants\u201d, "pay rent" & "call mum" to my list' },
    ]);
    expect(r.parsed.map((c) => c.args.content)).toEqual(['water plants', 'pay rent', 'call mum']);
  });

  it('does the requests of a pasted message and says what it could not do, never folding them into a todo', async () => {
    const r = await step(planner(), [{ role: 'user', content: '算一下 1+1\n记一下 买菜\n第三行' }]);
    expect(r.parsed).toEqual([
      { name: 'calculator', args: { expression: '1+1' } },
      { name: 'todo_add', args: { content: '买菜' } },
    ]);
  });
});

describe('several requests in one message', () => {
  it.each(CASES)('%s', async (text, tools) => {
    expect(await names(text)).toEqual(tools);
  });

  it('reads a part that only names a new subject as the same request again', async () => {
    const r = await step(planner(), [{ role: 'user', content: '查一下上海天气，还有杭州的' }]);
    expect(r.parsed).toEqual([
      { name: 'weather', args: { city: '上海' } },
      { name: 'weather', args: { city: '杭州' } },
    ]);
  });

  it('keeps file content whole when it says 然后 itself', async () => {
    const r = await step(planner(), [{ role: 'user', content: '帮我创建文件 a.txt，内容是：先吃饭，然后睡觉' }]);
    expect(r.parsed).toEqual([{ name: 'file_write', args: { path: 'a.txt', content: '先吃饭，然后睡觉' } }]);
  });

  it('keeps a todo whole when its words say 然后', async () => {
    const r = await step(planner(), [{ role: 'user', content: '记一下 先买菜然后做饭' }]);
    expect(r.parsed).toEqual([{ name: 'todo_add', args: { content: '先买菜然后做饭' } }]);
  });

  it('reports every result in order', async () => {
    const outputs: Record<string, string> = {
      calculator: '36',
      todo_list: '待办清单是空的。',
      current_time: '现在是 9:30。',
    };
    const r = await turn(planner(), [], '先算一下 12*3 再看看待办，然后告诉我现在几点', (c) => outputs[c.name]);
    expect(r.reply).toBe('12*3 = 36\n待办清单是空的。\n现在是 9:30。');
  });

  it('does the parts it can and says which part it cannot, where it came', async () => {
    const r = await turn(planner(), [], '先算一下 1+1，再给我写首诗，然后看看待办', (c) =>
      c.name === 'calculator' ? '2' : '待办清单是空的。',
    );
    expect(r.calls.map((c) => c.name)).toEqual(['calculator', 'todo_list']);
    const lines = r.reply.split('\n');
    expect(lines[0]).toBe('1+1 = 2');
    expect(lines[1]).toMatch(/^抱歉，这个我在离线模式下做不到/);
    expect(lines[2]).toBe('待办清单是空的。');
  });

  it('keeps the decimals asked for in each calculation', async () => {
    const r = await turn(planner(), [], '算一下 10/3 和 then calculate 2/3, keep two decimals', (c) =>
      JSON.parse(c.arguments).expression.startsWith('10') ? '3.33333333333333' : '0.666666666666667',
    );
    expect(r.reply).toBe('10/3 ≈ 3.33\n2/3 ≈ 0.67');
  });
});
