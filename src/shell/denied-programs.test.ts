import { describe, expect, it } from 'vitest';
import { maskedUnder, programsDeniedOutright } from './denied-programs.js';
import { matchGlob } from '../permission/glob.js';

describe('the programs a rule map denies outright', () => {
  it('are the names denied with any arguments, by name or path', () => {
    expect(
      programsDeniedOutright({
        'curl *': 'deny',
        wget: 'deny',
        '/usr/bin/nc *': 'deny',
        'git push *': 'deny',
        'py*': 'deny',
        '*': 'allow',
        'ls *': 'allow',
        'ssh *': 'ask',
      }),
    ).toEqual(['curl', 'wget', '/usr/bin/nc']);
  });
});

describe('the programs masked under a whole rule set', () => {
  it("takes the shell map and the maps of tool globs that cover the shell, not other tools' maps", () => {
    const rules = {
      shell: { 'curl *': 'deny', '*': 'allow' },
      'sh*': { wget: 'deny' },
      file_write: { 'nc *': 'deny' },
      browser_navigate: 'deny',
    } as const;
    expect(maskedUnder(rules, (key) => matchGlob(key, 'shell')).sort()).toEqual(['curl', 'wget']);
  });
});
