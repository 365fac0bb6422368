import { describe, expect, it } from 'vitest';
import { createOfflinePlanner } from './planner.js';
import { memoryPrefs, step } from './testing.js';
import { fixTypos } from './typos.js';

const first = async (text: string) =>
  (await step(createOfflinePlanner({ prefs: memoryPrefs() }), [{ role: 'user', content: text }])).parsed;

describe('slips in command words', () => {
  it.each([
    ['calcualte 5*5', [{ name: 'calculator', args: { expression: '5*5' } }]],
    ['shwo my todos', [{ name: 'todo_list', args: {} }]],
    ['lsit files', [{ name: 'file_list', args: {} }]],
    ['raed notes.txt', [{ name: 'file_read', args: { path: 'notes.txt' } }]],
    ['remnd me to call mom tmr', [{ name: 'todo_add', args: { content: 'call mom tomorrow', due: 'tomorrow' } }]],
    ['avarage of 3 4 5', [{ name: 'calculator', args: { expression: '(3+4+5)/3' } }]],
    ['算以下 3+5', [{ name: 'calculator', args: { expression: '3+5' } }]],
    ['记以下 买菜', [{ name: 'todo_add', args: { content: '买菜' } }]],
    ['看看代半', [{ name: 'todo_list', args: {} }]],
  ])('%s', async (text, calls) => {
    expect(await first(text)).toEqual(calls);
  });

  it('keeps quoted text and real words as typed', () => {
    expect(fixTypos("write 'calcualte' to a.txt")).toBe("write 'calcualte' to a.txt");
    expect(fixTypos('Calcualte “tmr” now')).toBe('Calculate “tmr” now');
    expect(fixTypos('time flies, whether or not')).toBe('time flies, whether or not');
    expect(fixTypos('没有错字')).toBe('没有错字');
  });
});
