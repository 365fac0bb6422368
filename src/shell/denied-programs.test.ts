import { describe, expect, it } from 'vitest';
import { programsDeniedOutright } from './denied-programs.js';

describe('the programs a rule map denies outright', () => {
  it('are the names denied with any arguments, by name or path', () => {
    expect(programsDeniedOutright({
      'curl *': 'deny', wget: 'deny', '/usr/bin/nc *': 'deny', 'git push *': 'deny', 'py*': 'deny', '*': 'allow', 'ls *': 'allow', 'ssh *': 'ask',
    })).toEqual(['curl', 'wget', '/usr/bin/nc']);
  });
});
