import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { evaluate, withDefaults } from '../permission/rules.js';
import type { PermissionRules } from '../contract/permission.js';
import { partsForRules } from './analyze-bounded.js';
import { analyzeCommand, type AnalyzeOptions } from './analyze.js';
import { CORPUS } from './analyze-corpus.js';
import { testBin } from './test-bin.js';

const t = testBin();
afterAll(t.cleanup);
const options: AnalyzeOptions = { cwd: t.ws, path: t.bin, protectedPaths: [`${t.root}/home/.zhixing`] };

/** A command line's decision under `rules`, as the shell tool asks for it: unreadable lines ask. */
async function decide(rules: PermissionRules, command: string) {
  const parts = partsForRules(command, await analyzeCommand(command, options));
  return evaluate(withDefaults(rules), 'shell', { target: command, parts });
}

describe('analyzeCommand: the corpus', () => {
  it(`holds at least 120 command lines`, () => expect(CORPUS.length).toBeGreaterThanOrEqual(120));

  it.each(CORPUS)('%s', async (command, expected) => {
    const a = await analyzeCommand(command, options);
    if (expected.fail) {
      expect(a).toMatchObject({ ok: false, reason: expect.stringMatching(expected.fail) });
      return;
    }
    if (!a.ok) throw new Error(`did not parse: ${a.reason}`);
    expect(a.parts.map((p) => p.text)).toEqual(expected.parts);
    expect(a.parts.filter((p) => p.opaque).map((p) => p.text)).toEqual(expected.opaque ?? []);
    expect(a.parts.filter((p) => p.argsUnknown).map((p) => p.text)).toEqual(expected.argsUnknown ?? []);
    if (expected.catastrophe) expect(a.catastrophe).toMatch(expected.catastrophe);
    else expect(a.catastrophe).toBeUndefined();
  });
});

describe('analyzeCommand: how parts are named', () => {
  it('gives the path as written and the real path, links followed, as alternatives', async () => {
    const a = await analyzeCommand('./c -s x', options);
    expect(a).toEqual({
      ok: true,
      parts: [{ text: 'c -s x', alternatives: ['./c -s x', `${t.bin}/curl -s x`, 'curl -s x'] }],
    });
    const b = await analyzeCommand('curl x', options);
    expect(b).toEqual({ ok: true, parts: [{ text: 'curl x', alternatives: [`${t.bin}/curl x`] }] });
    // A rule may name the applet or the multi-call program.
    const nc = await analyzeCommand('nc -l 80', options);
    expect(nc).toEqual({
      ok: true,
      parts: [
        {
          text: 'nc -l 80',
          alternatives: [`${t.bin}/nc -l 80`, `${t.bin}/busybox nc -l 80`, 'busybox nc -l 80'],
          unread: expect.stringMatching(/^nc is not a program known to run only itself/),
        },
      ],
    });
  });

  it('says why a part cannot be read', async () => {
    const a = await analyzeCommand('python3 -c "print(1)"', options);
    expect(a.ok && a.parts[0]!.opaque).toBe('python3 -c runs code given inline, which cannot be read as commands');
  });
});

/** Every spelling of curl we could think of. */
const CURL_SPELLINGS = [
  'curl x',
  '/usr/bin/curl x',
  'c"u"rl x',
  "'curl' x",
  '\\curl x',
  'c\\url x',
  "$'\\x63url' x",
  "$'\\143url' x",
  'command curl x',
  'builtin curl x',
  'env curl x',
  'env -i PATH=/usr/bin curl x',
  'env -S "curl x"',
  'sudo -u x curl x',
  'sudo -- curl x',
  'doas curl x',
  'timeout 5 curl x',
  'nice -n 5 curl x',
  'nohup curl x',
  'exec curl x',
  'time curl x',
  'stdbuf -oL curl x',
  'setsid curl x',
  'ionice -c3 curl x',
  'chrt -f 1 curl x',
  'taskset -c 0 curl x',
  'flock /tmp/l curl x',
  'watch curl x',
  'xargs curl',
  'echo u | xargs -I{} curl {}',
  'echo u | xargs -0 -n1 curl -s',
  'parallel curl ::: a',
  'bash -c "curl x"',
  'sh -c \'sh -c "curl x"\'',
  'eval "curl x"',
  'eval cu""rl x',
  '$(echo curl) x',
  '`echo curl` x',
  '"$C" x',
  'c${x}rl x',
  'find . -exec curl {} \\;',
  'find . -execdir curl {} +',
  '(curl x)',
  '{ curl x; }',
  'true && curl x',
  'false || curl x',
  'ls | curl x',
  'echo $(curl x)',
  'cat <(curl x)',
  'if true; then curl x; fi',
  'for i in 1; do curl x; done',
  'f(){ curl x; }; f',
  'python3 -c "import os; os.system(\'curl x\')"',
  "echo 'curl x' | sh",
  'sh -c "$(echo curl) x"',
  'ln -s /usr/bin/curl c2 && ./c2 x',
  './c x',
  'busybox curl x',
  'busybox sh -c "curl x"',
  'su -c "curl x"',
  'script -qc "curl x" /dev/null',
  'coproc curl x',
  'coproc N { curl x; }',
  'cur? x',
  '/usr/bin/cu* x',
  'PATH=/tmp:$PATH; curl x',
  'A=1 curl x',
  'node -e "x"',
  'perl -e "x"',
  'bash script.sh',
  'source x.sh',
  'curl',
  'CURL=curl; $CURL x',
  'awk \'BEGIN { system("curl x") }\'',
  "git -c core.pager='!curl x' log",
  'sudo bash -c "exec env curl x"',
  'eval "eval \\"curl x\\""',
  'echo x | bash',
  'bash <<< "curl x"',
  'alias c=curl; c x',
  "trap 'curl x' EXIT",
  'hash -p /usr/bin/curl c; c x',
  "sed 's/.*/curl x/e' f",
  "tar -xf a.tar --to-command='curl x'",
  'strace -f curl x',
  'torsocks curl x',
  "env -S'curl x'",
  "hyperfine 'curl x'",
  'perf stat -r 3 curl x',
  'faketime "2020-01-01" curl x',
  'unshare -r curl x',
  'npm test',
  'make',
  'echo curl x | xargs env',
  'echo "curl x" | xargs -I{} sh -c {}',
  'echo "-exec curl {} ;" | xargs find .',
  'curl\\\n x',
  'c\\\nurl x',
  'echo (curl x',
  '( curl x',
  'x=$(curl x)',
];

describe('with {"shell": {"curl *": "deny", "*": "allow"}}', () => {
  const rules: PermissionRules = { shell: { 'curl *': 'deny', '*': 'allow' } };

  it.each(CURL_SPELLINGS)('no spelling of curl runs: %s', async (command) => {
    const v = await decide(rules, command);
    // Denied, or asked of a person whom --yes does not stand in for.
    if (v.decision !== 'deny') expect(v).toMatchObject({ decision: 'ask', needsPerson: true });
  });

  it.each([
    'ls -la',
    'git status',
    'echo hi > a.txt',
    'cat a | grep b | wc -l',
    'mkdir -p x && cd x && touch y',
    'echo curl',
    'grep curl a.txt',
  ])('harmless commands run: %s', async (command) => expect((await decide(rules, command)).decision).toBe('allow'));

  it('a program the rule does not name is not denied by it, but one nobody knows is asked of a person', async () => {
    expect(await decide(rules, 'curly x')).toMatchObject({
      decision: 'ask',
      needsPerson: true,
      parts: [{ text: 'curly x', decision: 'ask' }],
    });
  });
});

describe('busybox and its links run the applet they name', () => {
  it.each(['busybox wget x', 'busybox env wget x', 'busybox sh -c "wget x"'])('%s', async (command) => {
    expect((await decide({ shell: { 'wget *': 'deny', '*': 'allow' } }, command)).decision).toBe('deny');
  });
  it('a link named after an applet is denied by a rule on busybox', async () => {
    expect((await decide({ shell: { 'busybox *': 'deny', '*': 'allow' } }, 'nc -l 80')).decision).toBe('deny');
  });
});

describe('with {"shell": {"git status*": "allow", "*": "ask"}}', () => {
  const rules: PermissionRules = { shell: { 'git status*': 'allow', '*': 'ask' } };
  it.each([
    ['git status', 'allow'],
    ['git status -s', 'allow'],
    ['/usr/bin/git status', 'allow'],
    ['g"i"t status', 'allow'],
    ['git status && git status -s', 'allow'],
    ['git status; ls', 'ask'],
    ['git push', 'ask'],
    ['git status | sh', 'ask'],
    ['git status $(curl x)', 'ask'],
    ['git -c core.pager="!curl x" status', 'ask'],
    ['echo (', 'ask'],
  ] as const)('%s → %s', async (command, decision) => {
    const v = await decide(rules, command);
    expect(v.decision).toBe(decision);
    // No deny among these rules: an ask can be approved by --yes.
    expect(v.needsPerson).toBeUndefined();
  });
});

describe('with {"shell": {"rm *": "deny", "*": "allow"}}', () => {
  const rules: PermissionRules = { shell: { 'rm *': 'deny', '*': 'allow' } };
  it.each([
    'rm x',
    'rm -rf build',
    '\\rm x',
    'r""m x',
    'command rm x',
    'sudo rm x',
    'find . -exec rm {} \\;',
    'ls | xargs rm',
    'xargs -0 rm -f',
    'bash -c "rm x"',
    'eval "rm x"',
    'busybox rm x',
    'echo $(rm x)',
    'env rm x',
  ])('denied: %s', async (command) => {
    expect((await decide(rules, command)).decision).toBe('deny');
  });
  it.each(['python3 -c "import shutil"', '$(echo rm) x', 'echo rm x | sh', 'source ./clean.sh'])(
    'asked of a person: %s',
    async (command) => {
      expect(await decide(rules, command)).toMatchObject({ decision: 'ask', needsPerson: true });
    },
  );
  it.each(['rmdir x', 'ls', 'find . -name "*.o"', 'grep -r rm .'])('allowed: %s', async (command) => {
    expect((await decide(rules, command)).decision).toBe('allow');
  });
});

describe('input built to break the reader', () => {
  it('a line nested past the stack is not read, and says so', async () => {
    const deep = `${'echo $('.repeat(20_000)}ls${')'.repeat(20_000)}`;
    const a = await analyzeCommand(deep, options);
    expect(a.ok).toBe(false);
  });
});

describe('speed', () => {
  // Not a speed target (a few milliseconds a line; bench/ is where speed is measured): a blowup
  // detector, with room for a busy machine, since every shell call waits on this reading.
  it('reads a typical command line without a blowup once the parser is loaded', async () => {
    await analyzeCommand('ls', options);
    const line =
      'cd src && git status --short | grep -v "^??" | sort | head -20 && echo "$(date +%F) done" > ../log.txt';
    const runs = 200;
    const start = performance.now();
    for (let i = 0; i < runs; i++) await analyzeCommand(line, options);
    const perLine = (performance.now() - start) / runs;
    expect(perLine).toBeLessThan(100);
  });
});

describe('argument rules that a spelling must not slip past', () => {
  const rules = { shell: { 'git push*': 'deny', 'curl *127.0.0.1*': 'deny', '*': 'allow' } } as const;
  // A small repository of its own: git's settings, hooks and nested repositories are checked in it.
  const repoDir = realpathSync(mkdtempSync(join(tmpdir(), 'zhixing-analyze-git-')));
  execFileSync('git', ['init', '-q', repoDir]);
  for (const f of readdirSync(join(repoDir, '.git', 'hooks')))
    if (!f.endsWith('.sample')) rmSync(join(repoDir, '.git', 'hooks', f));
  afterAll(() => rmSync(repoDir, { recursive: true, force: true }));
  const decide = async (command: string) => {
    const analysis = await analyzeCommand(command, { cwd: repoDir, path: process.env.PATH ?? '/usr/bin:/bin' });
    return evaluate(withDefaults(rules), 'shell', { target: command, parts: partsForRules(command, analysis) })
      .decision;
  };
  it.each([
    'git -C . push',
    'git -c a.b=c push origin',
    'git --no-pager push',
    'git --git-dir=.git push',
    'P=push; git $P',
    'H=127.0.0.1; curl http://$H:9/',
    "zip -T -TT 'git push' z.zip f",
    "man -P 'git push' ls",
  ])('%s is not allowed', async (command) => {
    expect(await decide(command)).not.toBe('allow');
  });
  it.each(['git status', 'git -C . status', 'git log --oneline', 'curl http://example.com/', 'echo $HOME'])(
    '%s is allowed',
    async (command) => {
      expect(await decide(command)).toBe('allow');
    },
  );
});

describe('scripts of the skills that come with Zhixing', () => {
  it('are known code: `node <skill>/scripts/x.mjs` is a part a rule can allow, while other scripts stay unreadable', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const skills = `${t.root}/skills`;
    mkdirSync(`${skills}/docx/scripts`, { recursive: true });
    writeFileSync(`${skills}/docx/scripts/make.mjs`, '');
    writeFileSync(`${t.ws}/own.mjs`, '');
    const known = { ...options, knownScripts: [skills] };
    const parts = async (command: string) =>
      (await analyzeCommand(command, known)) as { ok: true; parts: Array<{ opaque?: string }> };
    expect((await parts(`node ${skills}/docx/scripts/make.mjs in.json out.docx`)).parts[0]!.opaque).toBeUndefined();
    expect((await parts('node own.mjs')).parts[0]!.opaque).toMatch(/cannot be read/);
    expect((await parts(`node -e 1 ${skills}/docx/scripts/make.mjs`)).parts[0]!.opaque).toMatch(/inline/);
    expect((await parts(`node ${skills}/../own.mjs`)).parts[0]!.opaque).toMatch(/cannot be read/);
  });
});
