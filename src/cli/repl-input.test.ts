import { describe, expect, it } from 'vitest';
import { entryMessage, isOpenBlock } from './repl-input.js';

describe('""" blocks', () => {
  it('are open from a line of """ alone until another', () => {
    expect(isOpenBlock('"""')).toBe(true);
    expect(isOpenBlock('  """  \nsome text')).toBe(true);
    expect(isOpenBlock('"""\nsome text\n"""')).toBe(false);
    expect(isOpenBlock('"""\n"""')).toBe(false);
    expect(isOpenBlock('say """ here')).toBe(false);
    expect(isOpenBlock('"""quoted"""')).toBe(false);
  });

  it('send the lines between the fences, anything else as typed', () => {
    expect(entryMessage('"""\n  a\n\nb\n"""')).toBe('  a\n\nb');
    expect(entryMessage('"""\nnever closed')).toBe('never closed');
    expect(entryMessage('a\nb')).toBe('a\nb');
    expect(entryMessage('"""quoted"""')).toBe('"""quoted"""');
  });
});
