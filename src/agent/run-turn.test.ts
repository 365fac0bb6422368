import { describe, expect, it } from 'vitest';
import { batchCalls } from './run-turn.js';

const calls = (names: string[]) => names.map((name, i) => ({ id: `c${i}`, name, arguments: '{}' }));
const readOnly = (c: { name: string }) => c.name.startsWith('read');

describe('batchCalls', () => {
  it('groups consecutive read-only calls and keeps every other call alone, in order', () => {
    expect(
      batchCalls(calls(['read1', 'read2', 'write', 'read3', 'write', 'write', 'read4', 'read5']), readOnly),
    ).toEqual([[0, 1], [2], [3], [4], [5], [6, 7]]);
    expect(batchCalls([], readOnly)).toEqual([]);
  });
});
