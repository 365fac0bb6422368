import { describe, expect, it } from 'vitest';
import { INTENTS } from './intents.js';
import { PRIORITY } from './intent.js';

describe('rule priorities', () => {
  it('tries rules by their declared priority, not by where they are listed', () => {
    const priorities = INTENTS.map((i) => i.priority);
    expect(priorities).toEqual([...priorities].sort((a, b) => b - a));
    expect(INTENTS.slice(0, 4).map((i) => i.id)).toEqual(['shell', 'file_copy', 'file_append', 'file_write']);
    expect(INTENTS.at(-1)?.id).toBe('follow_up');
    const at = (id: string) => INTENTS.findIndex((i) => i.id === id);
    expect(at('todo_delete')).toBeLessThan(at('todo_done'));
    expect(at('weather')).toBeLessThan(at('current_time'));
    expect(at('code_refusal')).toBeLessThan(at('calculator'));
  });

  it('gives every rule a known priority and a unique id', () => {
    const known = new Set<number>(Object.values(PRIORITY));
    for (const i of INTENTS) expect(known.has(i.priority), i.id).toBe(true);
    expect(new Set(INTENTS.map((i) => i.id)).size).toBe(INTENTS.length);
  });
});
