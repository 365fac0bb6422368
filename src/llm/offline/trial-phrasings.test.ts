/**
 * Phrasings from a user trial that used to fall through to "can't do that offline", with variants
 * of each, and the neighbours they must not steal.
 */
import { describe, expect, it } from 'vitest';
import { createOfflinePlanner } from './planner.js';
import { memoryPrefs, step } from './testing.js';

const first = (text: string) => step(createOfflinePlanner({ prefs: memoryPrefs() }), [{ role: 'user', content: text }]);

const TRIAL: Array<[string, string, Record<string, unknown>]> = [
  // Percentages become arithmetic the calculator reads; its own % stays modulo.
  ['帮忙算下 15% 的 200 是多少', 'calculator', { expression: '15/100*200' }],
  ['百分之二十的 50', 'calculator', { expression: '20/100*50' }],
  ['200 的 15%', 'calculator', { expression: '200*15/100' }],
  ['200的百分之十五是多少', 'calculator', { expression: '200*15/100' }],
  ['算一下百分之二十的五十', 'calculator', { expression: '20/100*50' }],
  ['三分之一的 90 是多少', 'calculator', { expression: '1/3*90' }],
  ['what is 20 percent of 150', 'calculator', { expression: '20/100*150' }],
  ['calculate 15% of 80', 'calculator', { expression: '15/100*80' }],
  ['200 乘以 15% 等于多少', 'calculator', { expression: '200 乘以 (15/100)' }],
  ['7%3', 'calculator', { expression: '7%3' }],
  ['10 % 4 等于几', 'calculator', { expression: '10 % 4' }],
  // Chinese numerals inside arithmetic.
  ['一百加二十', 'calculator', { expression: '100+20' }],
  // A due day said before the marker is kept as the due date.
  ['明天提醒我交作业', 'todo_add', { content: '交作业', due: '明天' }],
  ['周五记一下 交周报', 'todo_add', { content: '交周报', due: '周五' }],
  ['三点五乘以二', 'calculator', { expression: '3.5*2' }],
  ['一千零五减五', 'calculator', { expression: '1005-5' }],
  ['一加一等于几', 'calculator', { expression: '1+1' }],
  ['帮我算算两百五乘以四', 'calculator', { expression: '250*4' }],
  ['一万二除以三是多少', 'calculator', { expression: '12000/3' }],
  ['二的十次方等于多少', 'calculator', { expression: '2的10次方' }],
  ['三乘以四加五', 'calculator', { expression: '3*4+5' }],
  ['三分之一加一', 'calculator', { expression: '(1/3)+1' }],
  ['帮我看看 1+1 等于几', 'calculator', { expression: '1+1' }],
  ['算算 3 加 5', 'calculator', { expression: '3 加 5' }],
  // A verb of looking and something that looks like a file.
  ['看下 todo.md', 'file_read', { path: 'todo.md' }],
  ['看看 notes/a.txt', 'file_read', { path: 'notes/a.txt' }],
  ['打开 report.txt', 'file_read', { path: 'report.txt' }],
  ['查看 a.md 的内容', 'file_read', { path: 'a.md' }],
  ['show me notes.txt', 'file_read', { path: 'notes.txt' }],
  ['open notes/a.txt', 'file_read', { path: 'notes/a.txt' }],
  ['cat a.txt', 'file_read', { path: 'a.txt' }],
  ['帮我看一看 plan.md', 'file_read', { path: 'plan.md' }],
  ['瞧瞧 notes/b.txt', 'file_read', { path: 'notes/b.txt' }],
  ['打开一下 README.md', 'file_read', { path: 'README.md' }],
  ['look at notes/c.txt', 'file_read', { path: 'notes/c.txt' }],
  ['列出 notes 目录', 'file_list', { path: 'notes' }],
  ['打开 docs 目录', 'file_list', { path: 'docs' }],
  ['看看 notes/', 'file_list', { path: 'notes/' }],
  // Weather: a city beside hot, cold, rain or temperature; never a day as the city.
  ['明天北京会冷吗', 'weather', { city: '北京' }],
  ['上海热不热', 'weather', { city: '上海' }],
  ['杭州今天温度多少', 'weather', { city: '杭州' }],
  ['北京气温', 'weather', { city: '北京' }],
  ['成都要带伞吗', 'weather', { city: '成都' }],
  ['广州会下雨吗', 'weather', { city: '广州' }],
  ['will it rain in London', 'weather', { city: 'London' }],
  ['is it cold in Berlin', 'weather', { city: 'Berlin' }],
  ['深圳今天热吗', 'weather', { city: '深圳' }],
  ['北京明天会很冷吗', 'weather', { city: '北京' }],
  ['上海会不会热', 'weather', { city: '上海' }],
  ['南京明天需要带伞吗', 'weather', { city: '南京' }],
  ['北京有雨吗', 'weather', { city: '北京' }],
  ['will it be cold in Oslo tomorrow', 'weather', { city: 'Oslo' }],
  ['do I need an umbrella in Paris', 'weather', { city: 'Paris' }],
  // Time and todos the trial also tried.
  ['今天是几月几号', 'current_time', {}],
  ['现在纽约几点', 'current_time', { timezone: '纽约' }],
  ['看下现在几点', 'current_time', {}],
  ['把 "明天开会" 加到待办', 'todo_add', { content: '明天开会', due: '明天' }],
  ['把“买菜”加入待办', 'todo_add', { content: '买菜' }],
  ['把待办第三条删掉', 'todo_delete', { id: 3 }],
  ['第二个待办做完了', 'todo_done', { id: 2 }],
  ['第一条完成了', 'todo_done', { id: 1 }],
  ['看看待办', 'todo_list', {}],
  ['查看我的待办', 'todo_list', {}],
];

describe('phrasings from the user trial, and variants', () => {
  it.each(TRIAL)('%s → %s', async (text, name, args) => {
    expect((await first(text)).parsed).toEqual([{ name, args }]);
  });
});

describe('what the new rules must not take', () => {
  it.each([
    ['看看天气', /哪个城市/],
    ['现在几度', /哪个城市/],
    ['温度', /哪个城市/],
    ['明天会冷吗', /哪个城市/],
    ['明天需要带伞吗', /哪个城市/],
    ['你冷吗', /做不到/],
    ['北京多热闹啊', /做不到/],
    ['星期一加班', /做不到/],
    ['一百平方米多少钱', /做不到/],
    ['看看 README', /做不到/],
  ])('%s', async (text, expected) => {
    const r = await first(text);
    expect(r.calls).toEqual([]);
    expect(r.text).toMatch(expected);
  });

  it('keeps numerals outside arithmetic as they were', async () => {
    expect((await first('星期一提醒我交报告')).parsed).toEqual([
      { name: 'todo_add', args: { content: '交报告', due: '星期一' } },
    ]);
    expect((await first('删除第十一条待办')).parsed).toEqual([{ name: 'todo_delete', args: { id: 11 } }]);
    expect((await first('一个苹果加两个梨')).calls).toEqual([]);
  });
});
