import { describe, expect, it } from 'vitest';
import { joinCommandLine, parsePairs, splitCommandLine } from './command-line.js';

describe("the add form's command line", () => {
  it('splits as a shell would, without expanding anything', () => {
    expect(splitCommandLine('npx -y @modelcontextprotocol/server-everything')).toEqual([
      'npx',
      '-y',
      '@modelcontextprotocol/server-everything',
    ]);
    expect(splitCommandLine(`  node  'my server.js' "a \\"b\\"" c\\ d '' $HOME  `)).toEqual([
      'node',
      'my server.js',
      'a "b"',
      'c d',
      '',
      '$HOME',
    ]);
    expect(splitCommandLine('python -c "import os; print(1)"')).toEqual(['python', '-c', 'import os; print(1)']);
    expect(splitCommandLine('')).toEqual([]);
    expect(splitCommandLine('echo "open')).toBeUndefined();
    expect(splitCommandLine("echo 'open")).toBeUndefined();
  });

  it('joins back into a line that splits into the same words', () => {
    for (const words of [
      ['npx', '-y', 'pkg@1.2'],
      ['node', 'my server.js', "it's", '', '$(rm -rf ~)', 'a;b', 'x\ny'],
    ]) {
      const line = joinCommandLine(words);
      expect(splitCommandLine(line)).toEqual(words);
    }
    expect(joinCommandLine(['sh', '-c', 'rm -rf ~'])).toBe("sh -c 'rm -rf ~'");
  });

  it('reads KEY=VALUE and header lines, naming the first bad one', () => {
    expect(parsePairs('A=1\n\nB = x=y\n', '=')).toEqual({ pairs: { A: '1', B: ' x=y' } });
    expect(parsePairs('Authorization: Bearer t\nX-A:b', ':')).toEqual({
      pairs: { Authorization: 'Bearer t', 'X-A': 'b' },
    });
    expect(parsePairs('A=1\n=2', '=')).toEqual({ badLine: 2, line: '=2' });
    expect(parsePairs('novalue', ':')).toEqual({ badLine: 1, line: 'novalue' });
  });
});
