/**
 * The planner acts on what a tool's result says as data, not on how the tool words it: reword the
 * todo list, the forecast or a failure in a test double and the planner still does the same thing.
 */
import { describe, expect, it } from 'vitest';
import type { ToolResultData, WeatherData } from '../../contract/tool-data.js';
import type { ToolCall } from '../types.js';
import { createOfflinePlanner } from './planner.js';
import { agentTurn, memoryPrefs, type ScriptedOutput } from './testing.js';

const TODOS: ToolResultData = {
  ok: true,
  data: {
    kind: 'todo_list',
    status: 'all',
    items: [
      { number: 3, content: '交电费', done: false, due: null },
      { number: 7, content: '买牛奶', done: false, due: '2026-03-07 周六' },
      { number: 9, content: 'call the dentist', done: true, due: null },
    ],
  },
};
/** The same list in words no parser of the old wording would read. */
const REWORDED_TODOS = 'You have three things: ☐ electricity bill (#3) · ☐ milk (#7, Saturday) · ☑ dentist (#9)';

/** A test double for the todo tools: todo_list says the list in new words, beside its data. */
function todoTools(withData: boolean) {
  const done: ToolCall[] = [];
  const run = (c: ToolCall): ScriptedOutput => {
    if (c.name === 'todo_list') return withData ? { content: REWORDED_TODOS, result: TODOS } : REWORDED_TODOS;
    done.push(c);
    return { content: `✔ ${c.name} ${c.arguments}`, result: { ok: true } };
  };
  return { run, done };
}

const planner = () =>
  createOfflinePlanner({
    prefs: memoryPrefs(),
    now: () => new Date('2026-03-06T01:30:00Z'),
    timeZone: 'Asia/Shanghai',
  });

describe('offline planner: tool results read as data', () => {
  it('finishes the todo the words name, by the number in the list data, however the list is worded', async () => {
    const tools = todoTools(true);
    const r = await agentTurn(planner(), [], '买牛奶那条完成了', tools.run);
    expect(r.calls).toEqual([
      { name: 'todo_list', args: { status: 'all' } },
      { name: 'todo_done', args: { id: 7 } },
    ]);
    // Without the data, the reworded text names no item: what the old prose reading depended on.
    const blind = await agentTurn(planner(), [], '买牛奶那条完成了', todoTools(false).run);
    expect(blind.calls.map((c) => c.name)).toEqual(['todo_list']);
  });

  it('deletes every finished todo and only those, from the data', async () => {
    const tools = todoTools(true);
    const r = await agentTurn(planner(), [], '清空已完成的待办', tools.run);
    expect(tools.done.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([['todo_delete', { id: 9 }]]);
    expect(r.calls.at(0)).toEqual({ name: 'todo_list', args: { status: 'all' } });
  });

  it("answers the day asked about from the forecast data, whatever the report's labels say", async () => {
    const report: WeatherData = {
      kind: 'weather',
      place: 'Beijing (China)',
      now: { text: 'sunny, 12°C', line: 'RIGHT NOW → sunny, 12°C', temp: 12, wet: false },
      today: {
        text: 'sunny, 5–14°C',
        line: 'THIS DAY → sunny, 5–14°C',
        date: '2026-03-06',
        min: 5,
        max: 14,
        wet: false,
      },
      advice: 'TIP → wear a coat.',
      days: [
        { date: '2026-03-07', text: 'heavy rain, 3–9°C, 90%', min: 3, max: 9, rainChance: 90, wet: true },
        { date: '2026-03-08', text: 'cloudy, 4–11°C', min: 4, max: 11, wet: false },
      ],
    };
    const content = ['Beijing (China)', 'RIGHT NOW → sunny, 12°C', '7/3 ⇒ heavy rain, 3–9°C, 90%'].join('\n');
    const r = await agentTurn(planner(), [], 'Beijing weather tomorrow, do I need an umbrella?', () => ({
      content,
      result: { ok: true, data: report },
    }));
    expect(r.calls).toEqual([{ name: 'weather', args: { city: 'Beijing' } }]);
    expect(r.reply).toContain('heavy rain, 3–9°C, 90%');
    expect(r.reply).toContain('take an umbrella');
  });

  it('takes a failure from the result, not from an "Error:" at the start of the text', async () => {
    // A file whose text starts with "Error:" was read: a success, said as the file's contents.
    const read = await agentTurn(planner(), [], '读一下 log.txt', () => ({
      content: 'Error: disk full at 03:00',
      result: { ok: true },
    }));
    expect(read.reply).toContain('log.txt 的内容');
    // A failure worded without the prefix is still a failure.
    const refused = await agentTurn(planner(), [], '读一下 secret.txt', () => ({
      content: 'Reading secret.txt was refused.',
      result: { ok: false, error: 'refused' },
    }));
    expect(refused.reply).toMatch(/^抱歉，没能读取：Reading secret\.txt was refused\./);
  });

  it('creates the file an append names when the read says not_found, however that is worded', async () => {
    const writes: ToolCall[] = [];
    const r = await agentTurn(planner(), [], '把“买牛奶”追加到 notes.txt', (c) => {
      if (c.name === 'file_read')
        return { content: 'Error: notes.txt? Never heard of it.', result: { ok: false, error: 'not_found' } };
      writes.push(c);
      return { content: 'wrote notes.txt', result: { ok: true } };
    });
    expect(writes.map((c) => JSON.parse(c.arguments))).toEqual([{ path: 'notes.txt', content: '买牛奶\n' }]);
    expect(r.reply).toContain('notes.txt 原来不存在，已新建');
    // Another failure of the read stops the append: nothing is written.
    const stopped = await agentTurn(planner(), [], '把“买牛奶”追加到 notes.txt', () => ({
      content: 'Error: there is no such file or folder (but the disk failed)',
      result: { ok: false, error: 'failed' },
    }));
    expect(stopped.calls.map((c) => c.name)).toEqual(['file_read']);
  });
});
