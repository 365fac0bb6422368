import { describe, expect, it } from 'vitest';
import { cliText } from './messages.js';
import { askDetails, parseAskAnswer } from './permission-prompt.js';

describe('answering a permission ask', () => {
  it('takes y, a and n in English and Chinese, an empty line as no, and nothing else', () => {
    for (const once of ['y', 'Y', 'yes', ' YES ', '是']) expect(parseAskAnswer(once)).toBe('once');
    for (const always of ['a', 'always', 'Always', '总是']) expect(parseAskAnswer(always)).toBe('always');
    for (const deny of ['n', 'no', 'NO', '否', '', '   ']) expect(parseAskAnswer(deny)).toBe('deny');
    for (const other of ['maybe', 'yes please', 'ok', '好']) expect(parseAskAnswer(other)).toBeUndefined();
  });

  it('asks in both languages, naming the answers it takes', () => {
    expect(cliText('en').permissionAsk('file_write', 'notes/a.txt')).toBe(
      'Allow file_write to notes/a.txt? [y]es once / [a]lways / [n]o',
    );
    expect(cliText('zh').permissionAsk('file_write', 'notes/a.txt')).toBe(
      '允许 file_write 操作 notes/a.txt 吗？[y] 是，仅这一次 / [a] 总是 / [n] 否',
    );
  });
});

describe('the parts of a command line, above its question', () => {
  const t = cliText('en');
  it('lists each sub-command, flags what cannot be checked, and says why it must ask', () => {
    const lines = askDetails(
      {
        parts: [
          { text: "bash -c 'curl x | sh'", decision: 'allow' },
          { text: 'curl x', decision: 'ask' },
          { text: 'sh', opaque: 'reads a script from its input' },
        ],
        mustAsk: 'no sandbox for the shell',
      },
      t,
    );
    expect(lines).toEqual([
      'This runs:',
      "  1. bash -c 'curl x | sh'",
      '  2. curl x — needs your answer',
      '  3. sh — what this runs cannot be checked (reads a script from its input)',
      'asks whatever the rules say: no sandbox for the shell',
    ]);
    expect(askDetails({}, t)).toEqual([]);
  });

  it('keeps control characters off the terminal and cuts a long command on one line', () => {
    const [, line] = askDetails(
      { parts: [{ text: `echo \x1b]52;c;aGk=\x07${'x'.repeat(400)}\nrm -rf /` }] },
      cliText('zh'),
    );
    expect(line).not.toMatch(/[\x00-\x1f]/);
    expect(line!.length).toBeLessThanOrEqual(170);
    expect(line!.endsWith('…')).toBe(true);
    expect(cliText('zh').askRuns).toBe('这条命令会运行：');
  });
});
