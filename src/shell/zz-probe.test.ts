import { readFileSync } from 'node:fs';
import { it } from 'vitest';
import { evaluate, withDefaults } from '../permission/rules.js';
import { analyzeCommand, partsForRules } from './analyze.js';

it('probe', async () => {
  const lines = readFileSync('/tmp/probe/cases.txt', 'utf8').split('\n').filter(Boolean);
  const out: string[] = [];
  for (const command of lines) {
    const a = await analyzeCommand(command, { cwd: '/tmp/probe', path: process.env.PATH!, home: '/tmp/probe' });
    const parts = partsForRules(command, a);
    const v = evaluate(withDefaults({ shell: { 'git push*': 'deny', 'rm -rf *': 'deny', '*': 'allow' } }), 'shell', { target: command, parts });
    out.push(`${v.decision}${(v as { personOnly?: boolean }).personOnly ? '/person' : ''}\t${command}`);
  }
  console.log(out.join('\n'));
});
