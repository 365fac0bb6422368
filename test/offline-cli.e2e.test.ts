import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { tempHome } from './support/temp-home.js';
import { startWeatherServer } from './support/weather-server.js';

/**
 * The offline planner end to end, as a user meets it: `./bin/zhixing --json "<phrase>"` with no key
 * and no network, through the real tools, SQLite and workspace. Rows run in order in one home,
 * so follow-ups and numbering carry over just as they would for a person typing them.
 */
interface Row {
  say: string;
  /** The tool calls made, by name and (part of) their input; [] means no tool. */
  calls: Array<[string, Record<string, unknown>?]>;
  /** Words the reply must contain. */
  reply?: Array<string | RegExp>;
  ok?: boolean;
  noReply?: string[];
}

const ROWS: Row[] = [
  { say: '帮我算一下 (3+5)*2', calls: [['calculator', { expression: '(3+5)*2' }]], reply: ['16'] },
  { say: '(3+5)*12 等于多少', calls: [['calculator']], reply: ['96'] },
  { say: '0.1+0.2', calls: [['calculator']], reply: ['0.3'], noReply: ['0.30000000000000004'] },
  { say: '1/0', calls: [['calculator']], reply: [/division by zero|除数不能为零/i], ok: false },
  { say: '9**999', calls: [['calculator']], reply: [/exponent|指数/i], ok: false },
  { say: '__import__("os").system("dir")', calls: [], reply: [/won't run|不会运行|不会执行/] },
  { say: '记一下 周五前交周报', calls: [['todo_add', { content: '周五前交周报' }]], reply: ['周五前交周报'] },
  { say: '帮我记一下：明天 9 点交软件工程作业', calls: [['todo_add', { content: '明天 9 点交软件工程作业' }]] },
  { say: '看看待办', calls: [['todo_list']], reply: ['1. [ ] 周五前交周报', '2. [ ] 明天 9 点交软件工程作业'] },
  { say: '查看我的待办', calls: [['todo_list']] },
  { say: '完成第 1 条', calls: [['todo_done', { id: 1 }]], reply: ['周五前交周报'] },
  { say: '删除第 2 条', calls: [['todo_delete', { id: 2 }]], reply: ['软件工程作业'] },
  { say: '删除第 9 条', calls: [['todo_delete', { id: 9 }]], reply: ['没有第 9 条'], ok: false },
  { say: '把 hello 写到 notes/a.txt', calls: [['file_write', { path: 'notes/a.txt', content: 'hello' }]] },
  {
    say: '帮我创建文件 notes.txt，内容是：今天也要加油',
    calls: [['file_write', { path: 'notes.txt', content: '今天也要加油' }]],
  },
  { say: '读一下 notes/a.txt', calls: [['file_read', { path: 'notes/a.txt' }]], reply: ['hello'] },
  { say: '读取文件 notes.txt', calls: [['file_read', { path: 'notes.txt' }]], reply: ['今天也要加油'] },
  { say: '有哪些文件', calls: [['file_list']], reply: ['notes/', 'notes.txt'] },
  {
    say: '把 秘密 写到 ../secret.txt',
    calls: [['file_write', { path: '../secret.txt' }]],
    reply: [/拒绝|refused/i],
    ok: false,
  },
  { say: '北京天气怎么样', calls: [['weather', { city: '北京' }]], reply: ['北京'] },
  { say: '那上海呢', calls: [['weather', { city: '上海' }]], reply: ['上海'] },
  { say: '帮我查一下北京的天气', calls: [['weather', { city: '北京' }]] },
  { say: '广州今天天气怎么样', calls: [['weather', { city: '广州' }]] },
  { say: '今天天气怎么样', calls: [], reply: ['哪个城市'] },
  { say: '现在几点', calls: [['current_time']], reply: ['星期'] },
  { say: '现在几点了', calls: [['current_time']] },
  { say: '今天星期几', calls: [['current_time']] },
  {
    say: '我叫刘浩彬',
    calls: [['memory_save', { content: '我叫刘浩彬', kind: 'fact', tags: ['name'] }]],
    reply: ['刘浩彬'],
  },
  { say: '我叫什么', calls: [['memory_search']], reply: ['你叫刘浩彬'] },
  { say: '你好呀', calls: [], reply: [/你好/, '待办'] },
  { say: '今天心情不好', calls: [], reply: ['心情'] },
  { say: 'what time is it', calls: [['current_time']], reply: ['Time zone'] },
  { say: 'calculate 2^10', calls: [['calculator', { expression: '2^10' }]], reply: ['1024'] },
  { say: 'add a todo: buy milk', calls: [['todo_add', { content: 'buy milk' }]], reply: ['buy milk'] },
  { say: "what's the weather in Paris", calls: [['weather', { city: 'Paris' }]], reply: ['Paris'] },
  { say: 'read notes/a.txt', calls: [['file_read', { path: 'notes/a.txt' }]], reply: ['hello'] },
  // Beyond the list: other ways people say the same things.
  { say: '请帮我计算 12*(3+4) 的结果', calls: [['calculator', { expression: '12*(3+4)' }]], reply: ['84'] },
  { say: '3的平方加4的平方是多少', calls: [['calculator']], reply: ['25'] },
  { say: '提醒我下周一给妈妈打电话', calls: [['todo_add']] },
  { say: '我有哪些待办', calls: [['todo_list']], reply: ['给妈妈打电话'] },
  { say: '深圳明天会下雨吗', calls: [['weather', { city: '深圳' }]] },
  { say: 'how is the weather in Tokyo', calls: [['weather', { city: 'Tokyo' }]] },
  { say: 'list my files', calls: [['file_list']] },
  { say: '帮我订一张机票', calls: [], reply: [/做不到|can't/] },
  // Words for arithmetic, todos by their words, several requests at once.
  { say: '300 打七折是多少', calls: [['calculator']], reply: ['210'] },
  { say: '10 除以 3，保留两位小数', calls: [['calculator']], reply: ['3.33'], noReply: ['3.333'] },
  { say: '记一下 交电费', calls: [['todo_add', { content: '交电费' }]] },
  {
    say: '把交电费那条删掉',
    calls: [['todo_list', { status: 'all' }], ['todo_delete']],
    reply: ['已删除', '交电费'],
    noReply: ['[ ]'],
  },
  { say: '先算一下 12*3 再看看待办', calls: [['calculator'], ['todo_list']], reply: ['36', '给妈妈打电话'] },
  { say: 'remind me to water the plants tomorrow', calls: [['todo_add']], reply: [/no reminders yet/] },
];

let weather: Awaited<ReturnType<typeof startWeatherServer>>;
let home: ReturnType<typeof tempHome>;
beforeAll(async () => {
  weather = await startWeatherServer();
  home = tempHome();
});
afterAll(async () => {
  await weather.close();
  home.cleanup();
});

describe('offline phrasings through ./bin/zhixing', () => {
  for (const row of ROWS) {
    it(row.say, async () => {
      const r = await runCli(['--json', row.say], { ZHIXING_HOME: home.home, ...weather.env });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const out = JSON.parse(r.stdout) as {
        mode: string;
        reply: string;
        actions: Array<{ tool: string; input: Record<string, unknown>; ok: boolean }>;
      };
      expect(out.mode).toBe('offline');
      expect(out.actions.map((a) => a.tool)).toEqual(row.calls.map(([tool]) => tool));
      row.calls.forEach(([, input], i) => input && expect(out.actions[i]!.input).toMatchObject(input));
      if (row.calls.length) expect(out.actions.every((a) => a.ok)).toBe(row.ok ?? true);
      for (const w of row.reply ?? []) expect(out.reply).toMatch(w);
      for (const w of row.noReply ?? []) expect(out.reply).not.toContain(w);
    });
  }

  it('wrote only inside the workspace', () => {
    expect(readFileSync(join(home.home, 'workspace', 'notes', 'a.txt'), 'utf8')).toBe('hello');
    expect(existsSync(join(home.home, 'secret.txt'))).toBe(false);
  });

  it('remembers the name after a restart in its session, and a new session does not know it', async () => {
    const r = await runCli(['--json', '我叫什么'], { ZHIXING_HOME: home.home });
    expect(JSON.parse(r.stdout).reply).toContain('刘浩彬');
    const other = await runCli(['--json', '--new', '我叫什么'], { ZHIXING_HOME: home.home });
    expect(JSON.parse(other.stdout).reply).not.toContain('刘浩彬');
  });
});
