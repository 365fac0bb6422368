import { describe, expect, it } from 'vitest';
import { cliText } from './messages.js';
import { parseAskAnswer } from './permission-prompt.js';

describe('answering a permission ask', () => {
  it('takes y, a and n in English and Chinese, an empty line as no, and nothing else', () => {
    for (const once of ['y', 'Y', 'yes', ' YES ', '是']) expect(parseAskAnswer(once)).toBe('once');
    for (const always of ['a', 'always', 'Always', '总是']) expect(parseAskAnswer(always)).toBe('always');
    for (const deny of ['n', 'no', 'NO', '否', '', '   ']) expect(parseAskAnswer(deny)).toBe('deny');
    for (const other of ['maybe', 'yes please', 'ok', '好']) expect(parseAskAnswer(other)).toBeUndefined();
  });

  it('asks in both languages, naming the answers it takes', () => {
    expect(cliText('en').permissionAsk('file_write', 'notes/a.txt')).toBe('Allow file_write to notes/a.txt? [y]es once / [a]lways / [n]o');
    expect(cliText('zh').permissionAsk('file_write', 'notes/a.txt')).toBe('允许 file_write 操作 notes/a.txt 吗？[y] 是，仅这一次 / [a] 总是 / [n] 否');
  });
});
