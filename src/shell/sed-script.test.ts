import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sedScriptRuns } from './sed-script.js';

const gnuSed = (() => {
  try {
    return execFileSync('sed', ['--version'], { encoding: 'utf8' }).includes('GNU');
  } catch {
    return false;
  }
})();

/** Address forms GNU sed takes before a command. */
const ADDRESSES = ['', '1', '$', '/a/', '/a/I', '\\,a,', '1~1', '0,/a/', '1,+1', '1,~2', '/a/,/b/', '$!', '1 !'];
/** Commands before the one that matters, each ended as sed ends it. */
const BEFORE = ['', 'p;', 'a x\n', 'i\\\nx\n', ':l;', 's/a/b/w /dev/null\n', 'y/a/b/;', '{p};', 's,a\\,b,c,g;'];
/** Ways to run a command (touch M). */
const FORMS = (address: string) => [
  `${address}e touch M`,
  `${address}{e touch M\n}`,
  `${address}s/.*/touch M/e`,
  `${address}s|a|x|pe`,
];

describe.skipIf(!gnuSed)('sed scripts, read as GNU sed runs them', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zhixing-sed-'));
  writeFileSync(join(dir, 'in'), 'a\nb\n');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('every script that makes sed run a command is read as running one', () => {
    const missed: string[] = [];
    let ran = 0;
    for (const before of BEFORE) {
      for (const address of ADDRESSES) {
        for (const script of FORMS(address).map((f) => before + f)) {
          rmSync(join(dir, 'M'), { force: true });
          try {
            execFileSync('sed', ['-n', script, 'in'], { cwd: dir, stdio: 'ignore' });
          } catch {
            // A script sed refuses runs nothing.
          }
          if (!existsSync(join(dir, 'M'))) continue;
          ran++;
          if (!sedScriptRuns(script)) missed.push(script);
        }
      }
    }
    expect(missed).toEqual([]);
    // Most forms did run a command (a few addresses match no line): the check above compared something.
    expect(ran).toBeGreaterThan(BEFORE.length * ADDRESSES.length * 2);
  });
});

describe('sed scripts that run nothing', () => {
  it.each([
    's/hello/world/p',
    ':a;N;$!ba;s/\\n/ /g',
    '1~2d;$!N;/x/I,+2p;y/abc/xyz/',
    '/start/,/end/{s/a/b/;p}',
    's/a/b/w out.txt',
    '1a\\\nappended e text',
    '$q',
  ])('%s', (script) => {
    expect(sedScriptRuns(script)).toBe(false);
  });
});
