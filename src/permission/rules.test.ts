import { describe, expect, it } from 'vitest';
import { compileGlob, matchGlob } from './glob.js';
import { checkRules } from './rules-check.js';
import { DEFAULT_PERMISSIONS, evaluate, patternsToRemember, withDefaults } from './rules.js';
import type { PermissionRules } from '../contract/permission.js';

const target = (t: string, more: object = {}) => ({ target: t, ...more });
const decide = (rules: PermissionRules, tool: string, t: string) => evaluate(withDefaults(rules), tool, target(t));

describe('globs', () => {
  it('* crosses spaces and /, ? is one character, the rest is literal, and \\ escapes', () => {
    expect(matchGlob('git *', 'git log --oneline a/b')).toBe(true);
    expect(matchGlob('notes/*', 'notes/a/b.txt')).toBe(true);
    expect(matchGlob('a?c', 'abc')).toBe(true);
    expect(matchGlob('a?c', 'ac')).toBe(false);
    expect(matchGlob('[ab].txt', '[ab].txt')).toBe(true);
    expect(matchGlob('[ab].txt', 'a.txt')).toBe(false);
    expect(matchGlob('x.txt', 'xatxt')).toBe(false);
    expect(matchGlob('\\*', '*')).toBe(true);
    expect(matchGlob('\\*', 'a')).toBe(false);
    expect(matchGlob('what\\?', 'what?')).toBe(true);
    expect(matchGlob('a\\\\b', 'a\\b')).toBe(true);
    expect(matchGlob('*', 'line one\nline two')).toBe(true);
  });

  it('a trailing " *" makes the arguments optional, but never joins words', () => {
    expect(matchGlob('curl *', 'curl')).toBe(true);
    expect(matchGlob('curl *', 'curl -s x')).toBe(true);
    expect(matchGlob('curl *', 'curly')).toBe(false);
    expect(matchGlob('rm *', 'rmdir x')).toBe(false);
    expect(matchGlob('curl\\ *', 'curl')).toBe(true);
  });

  it('knows its literal start and whether it names anything', () => {
    expect(compileGlob('git status*')).toMatchObject({ prefix: 'git status', broad: false });
    expect(compileGlob('*curl*')).toMatchObject({ prefix: '', broad: true });
  });
});

describe('evaluate: precedence', () => {
  it('deny wins over any allow, however specific', () => {
    const rules = { shell: { 'git push --force*': 'allow', 'git *': 'deny' } } as const;
    expect(decide(rules, 'shell', 'git push --force origin')).toMatchObject({
      decision: 'deny',
      rule: 'shell › git *',
    });
  });

  it('else the longer pattern decides, and its name is in the verdict', () => {
    const rules: PermissionRules = { shell: { 'git status*': 'allow', 'git *': 'ask', '*': 'deny' } };
    // `*` denies everything here, so it wins: deny first.
    expect(decide(rules, 'shell', 'git status')).toMatchObject({ decision: 'deny', rule: 'shell › *' });
    const open: PermissionRules = { shell: { 'git status*': 'allow', 'git *': 'ask', '*': 'allow' } };
    expect(decide(open, 'shell', 'git status -s')).toEqual({ decision: 'allow', rule: 'shell › git status*' });
    expect(decide(open, 'shell', 'git log')).toEqual({ decision: 'ask', rule: 'shell › git *' });
    expect(decide(open, 'shell', 'ls')).toEqual({ decision: 'allow', rule: 'shell › *' });
  });

  it('an exact tool key beats a tool glob, and a plain decision acts as the pattern *', () => {
    const rules: PermissionRules = { 'file_*': 'ask', file_write: 'allow' };
    expect(decide(rules, 'file_write', '/ws/a')).toEqual({ decision: 'allow', rule: 'file_write' });
    expect(decide(rules, 'file_read', '/ws/a')).toEqual({ decision: 'ask', rule: 'file_*' });
    // A longer pattern under the glob still loses to the exact key: the key is compared first.
    expect(decide({ 'file_*': { '/ws/*': 'ask' }, file_write: 'allow' }, 'file_write', '/ws/a')).toEqual({
      decision: 'allow',
      rule: 'file_write',
    });
    // But a deny under a glob is a deny.
    expect(
      decide({ 'file_*': { '/ws/secret*': 'deny' }, file_write: 'allow' }, 'file_write', '/ws/secret.txt'),
    ).toEqual({ decision: 'deny', rule: 'file_* › /ws/secret*' });
  });

  it('among equally specific rules the more careful wins', () => {
    expect(decide({ 'a*': 'allow', '*a': 'ask' }, 'aa', 'x')).toMatchObject({ decision: 'ask' });
  });

  it('matches the target and its aliases: a deny on any name wins', () => {
    const rules = withDefaults({ file_write: { 'secret/*': 'deny', '*': 'allow' } });
    expect(evaluate(rules, 'file_write', target('/ws/secret/k', { aliases: ['secret/k'] }))).toEqual({
      decision: 'deny',
      rule: 'file_write › secret/*',
    });
    expect(evaluate(rules, 'file_write', target('/ws/notes/a', { aliases: ['notes/a'] }))).toEqual({
      decision: 'allow',
      rule: 'file_write › *',
    });
  });
});

describe('evaluate: defaults', () => {
  it('shell asks, browser and MCP tools ask, everything else is allowed', () => {
    expect(DEFAULT_PERMISSIONS).toEqual({ shell: 'ask', 'browser_*': 'ask', '*__*': 'ask' });
    expect(decide({}, 'shell', 'ls')).toMatchObject({ decision: 'ask', rule: 'shell' });
    expect(decide({}, 'browser_navigate', 'https://x')).toMatchObject({ decision: 'ask', rule: 'browser_*' });
    expect(decide({}, 'github__create_issue', '')).toMatchObject({ decision: 'ask', rule: '*__*' });
    expect(decide({}, 'file_write', '/ws/a')).toEqual({ decision: 'allow' });
    expect(decide({}, 'calculator', '1+1')).toEqual({ decision: 'allow' });
  });

  it('a user map that matches nothing leaves the call to the default, not to "allow"', () => {
    expect(decide({ shell: { 'git *': 'allow' } }, 'shell', 'curl x')).toEqual({ decision: 'ask', rule: 'shell' });
    expect(decide({ shell: { 'git *': 'allow' } }, 'shell', 'git log')).toEqual({
      decision: 'allow',
      rule: 'shell › git *',
    });
    expect(decide({ file_write: { 'secret/*': 'deny' } }, 'file_write', 'notes/a')).toEqual({ decision: 'allow' });
  });

  it('the user\'s keys override them: a trusted MCP server, a shell map; a broad "*" does not open the shell', () => {
    expect(decide({ 'github__*': 'allow' }, 'github__create_issue', '')).toMatchObject({
      decision: 'allow',
      rule: 'github__*',
    });
    expect(decide({ 'github__*': 'allow' }, 'gitlab__x', '')).toMatchObject({ decision: 'ask' });
    expect(decide({ shell: { 'ls*': 'allow', '*': 'ask' } }, 'shell', 'ls -la')).toMatchObject({ decision: 'allow' });
    expect(decide({ '*': 'allow' }, 'shell', 'ls')).toMatchObject({ decision: 'ask', rule: 'shell' });
    expect(decide({ '*': 'deny' }, 'shell', 'ls')).toMatchObject({ decision: 'deny', rule: '*' });
  });
});

describe('evaluate: command lines', () => {
  const curlDenied = withDefaults({ shell: { 'curl *': 'deny', '*': 'allow' } });

  it('decides each part by its text and each alternative: deny from any spelling wins', () => {
    const v = evaluate(
      curlDenied,
      'shell',
      target('./c x', { parts: [{ text: 'c x', alternatives: ['./c x', '/usr/bin/curl x', 'curl x'] }] }),
    );
    expect(v).toMatchObject({ decision: 'deny', rule: 'shell › curl *' });
  });

  it('deny if any part is denied, else ask if any asks, else allow', () => {
    const rules = withDefaults({ shell: { 'rm *': 'deny', 'git *': 'ask', '*': 'allow' } });
    const parts = (...texts: string[]) => ({ target: texts.join(' && '), parts: texts.map((text) => ({ text })) });
    expect(evaluate(rules, 'shell', parts('ls', 'git push', 'rm x')).decision).toBe('deny');
    expect(evaluate(rules, 'shell', parts('ls', 'git push')).decision).toBe('ask');
    expect(evaluate(rules, 'shell', parts('ls', 'echo hi'))).toEqual({
      decision: 'allow',
      rule: 'shell › *',
      parts: [
        { text: 'ls', decision: 'allow', rule: 'shell › *' },
        { text: 'echo hi', decision: 'allow', rule: 'shell › *' },
      ],
    });
  });

  it('an opaque part is never allowed by a broad rule; with a deny among the rules only a person may approve it', () => {
    const opaque = { text: 'python3 -c x', opaque: 'inline code' };
    expect(evaluate(curlDenied, 'shell', target('p', { parts: [opaque] }))).toMatchObject({
      decision: 'ask',
      needsPerson: true,
      reason: 'inline code',
    });
    const noDeny = withDefaults({ shell: { '*': 'allow' } });
    const v = evaluate(noDeny, 'shell', target('p', { parts: [opaque] }));
    expect(v).toMatchObject({ decision: 'ask' });
    expect(v.needsPerson).toBeUndefined();
    // A rule that names the program is the user's word on it.
    expect(
      evaluate(
        withDefaults({ shell: { 'python3 -c *': 'allow', 'curl *': 'deny' } }),
        'shell',
        target('p', { parts: [opaque] }),
      ).decision,
    ).toBe('allow');
    // The tool-level decision is broad too.
    expect(evaluate(withDefaults({ shell: 'allow' }), 'shell', target('p', { parts: [opaque] })).decision).toBe('ask');
    // But a deny that matches it is still a deny.
    expect(
      evaluate(withDefaults({ shell: { 'python3 *': 'deny' } }), 'shell', target('p', { parts: [opaque] })).decision,
    ).toBe('deny');
  });

  it('a whole line that could not be read is not allowed by a rule written for one command', () => {
    const line = { text: 'echo hi; rm -rf x )', opaque: 'unreadable', wholeLine: true };
    expect(
      evaluate(withDefaults({ shell: { 'echo *': 'allow' } }), 'shell', target('p', { parts: [line] })).decision,
    ).toBe('ask');
    // A deny over it still refuses it.
    expect(
      evaluate(withDefaults({ shell: { 'echo *': 'deny' } }), 'shell', target('p', { parts: [line] })).decision,
    ).toBe('deny');
  });

  it('a part whose arguments are unknown: a deny that could match them denies, an allow only when it allows any', () => {
    const rules = withDefaults({
      shell: { 'rm -rf *': 'deny', 'git status*': 'allow', 'grep *': 'allow', '*': 'ask' },
    });
    const part = (text: string) => target(text, { parts: [{ text, argsUnknown: true }] });
    expect(evaluate(rules, 'shell', part('rm')).decision).toBe('deny');
    expect(evaluate(rules, 'shell', part('grep')).decision).toBe('allow');
    expect(evaluate(rules, 'shell', part('git')).decision).toBe('ask');
    expect(evaluate(rules, 'shell', part('git status')).decision).toBe('allow');
    expect(evaluate(curlDenied, 'shell', part('curl {}')).decision).toBe('deny');
  });

  it('mustAsk lifts an allow to an ask, never a deny', () => {
    expect(
      evaluate(curlDenied, 'shell', target('ls', { parts: [{ text: 'ls' }], mustAsk: 'no sandbox' })),
    ).toMatchObject({ decision: 'ask', reason: 'no sandbox' });
    expect(
      evaluate(curlDenied, 'shell', target('curl', { parts: [{ text: 'curl' }], mustAsk: 'no sandbox' })).decision,
    ).toBe('deny');
    expect(evaluate(withDefaults({}), 'calculator', target('1', { mustAsk: 'why' })).decision).toBe('ask');
  });
});

describe('evaluate: remembered "always" answers', () => {
  const remembered = (...texts: string[]) => ({ remembered: (t: string) => texts.includes(t) });

  it('allow exactly what was remembered, and a configured deny still beats them', () => {
    const rules = withDefaults({ shell: { 'curl *': 'deny', '*': 'ask' } });
    const line = { target: 'git push && npm test', parts: [{ text: 'git push' }, { text: 'npm test' }] };
    expect(evaluate(rules, 'shell', line, remembered('git push')).decision).toBe('ask');
    expect(evaluate(rules, 'shell', line, remembered('git push', 'npm test'))).toMatchObject({
      decision: 'allow',
      remembered: true,
    });
    expect(
      evaluate(rules, 'shell', { target: 'curl x', parts: [{ text: 'curl x' }] }, remembered('curl x')).decision,
    ).toBe('deny');
    expect(
      evaluate(withDefaults({ file_write: 'ask' }), 'file_write', target('/ws/a'), remembered('/ws/a')),
    ).toMatchObject({ decision: 'allow', remembered: true });
  });

  it('an "always" never speaks for a part whose effect cannot be read, nor is kept for one', () => {
    const ask = withDefaults({ shell: { '*': 'ask' } });
    // A workspace file named like a program: the text is that of the program the person approved.
    const workspaceLs = { target: './bin/ls -la', parts: [{ text: 'ls -la', opaque: 'a file in the workspace' }] };
    expect(evaluate(ask, 'shell', workspaceLs, remembered('ls -la'))).toMatchObject({ decision: 'ask' });
    // git approved for good while understood, then its settings changed to run a program.
    const denies = withDefaults({ shell: { 'git push*': 'deny', 'rm -rf *': 'deny' } });
    const changedGit = {
      target: 'git status',
      parts: [{ text: 'git status', unread: 'core.fsmonitor runs a program' }],
    };
    expect(evaluate(denies, 'shell', changedGit, remembered('git status'))).toMatchObject({
      decision: 'ask',
      needsPerson: true,
    });
    // Understood, the same text is still covered.
    const plain = { target: 'git status', parts: [{ text: 'git status' }] };
    expect(evaluate(denies, 'shell', plain, remembered('git status'))).toMatchObject({ decision: 'allow' });
    // Without a deny too: git whose settings changed since the "always" is asked again.
    const settled = { target: 'git status', parts: [{ text: 'git status', unread: 'core.fsmonitor', settings: true }] };
    expect(evaluate(ask, 'shell', settled, remembered('git status'))).toMatchObject({ decision: 'ask' });
    expect(patternsToRemember(settled, evaluate(ask, 'shell', settled))).toEqual([]);
    const line = {
      target: 'ls && python3 -c x',
      parts: [{ text: 'ls' }, { text: 'python3 -c x', opaque: 'inline code' }],
    };
    expect(patternsToRemember(line, evaluate(ask, 'shell', line))).toEqual(['ls']);
  });

  it('"always" keeps the text of each part that asked, or the target', () => {
    const rules = withDefaults({ shell: { 'ls*': 'allow', '*': 'ask' } });
    const line = { target: 'ls && git push && make', parts: [{ text: 'ls' }, { text: 'git push' }, { text: 'make' }] };
    expect(patternsToRemember(line, evaluate(rules, 'shell', line))).toEqual(['git push', 'make']);
    expect(
      patternsToRemember(target('/ws/a'), evaluate(withDefaults({ file_write: 'ask' }), 'file_write', target('/ws/a'))),
    ).toEqual(['/ws/a']);
  });
});

describe('checkRules', () => {
  it('keeps usable entries and names each bad one, dropping a map with a bad pattern whole', () => {
    const { rules, problems } = checkRules({ shell: { 'curl *': 'nope', '*': 'allow' }, web_fetch: 'ask', x: 3 });
    expect(rules).toEqual({ web_fetch: 'ask' });
    expect(problems.map((p) => p.key)).toEqual(['shell', 'x']);
    expect(problems[0]!.zh).toContain('模式 "curl *"');
    expect(checkRules(null).problems).toHaveLength(1);
  });
});

describe('a glob that would make a regular expression backtrack for ever', () => {
  it('is matched at once, whatever it holds', async () => {
    const { matchGlob } = await import('./glob.js');
    const pattern = `${'*?'.repeat(40)}x`;
    const text = 'a'.repeat(5_000);
    expect(matchGlob(pattern, text)).toBe(false);
    expect(matchGlob(pattern, `${text}x`)).toBe(true);
    expect(matchGlob('*a*a*a*a*a*a*a*a*b', 'a'.repeat(2_000))).toBe(false);
    // (The regular expression these globs once compiled to takes years on them: the test's timeout would end it.)
    expect(matchGlob('curl *', 'curl')).toBe(true);
    expect(matchGlob('curl *', 'curly')).toBe(false);
    expect(matchGlob('汉?', '汉😀')).toBe(true);
  });
});

describe("evaluate: a deny over a program's options holds against their other spellings", () => {
  const line = (rules: PermissionRules, ...texts: string[]) =>
    evaluate(withDefaults(rules), 'shell', { target: texts.join(' ; '), parts: texts.map((text) => ({ text })) });
  const rmDenied: PermissionRules = { shell: { 'rm -rf *': 'deny', '*': 'allow' } };

  it('rm -rf * stops split, reordered, aliased, long, abbreviated and permuted spellings of -r -f', () => {
    for (const text of [
      'rm -r -f t1',
      'rm -fr t1',
      'rm -Rf t1',
      'rm --recursive --force t1',
      'rm -rfv t1',
      'rm -v -rf t1',
      'rm t1 -rf',
      'rm --rec --for t1',
      'rm -f --recursive t1',
      'rm -rf -- t1',
      'rm -r t1 -f',
      'rm --force -R',
      'rm -i -rf t1',
    ]) {
      expect(line(rmDenied, text), text).toMatchObject({ decision: 'deny', rule: 'shell › rm -rf *' });
    }
    // By its path too (the analyser spells it both ways).
    expect(
      evaluate(withDefaults(rmDenied), 'shell', {
        target: 'x',
        parts: [{ text: '/usr/bin/rm -r -f t1', alternatives: ['rm -r -f t1'] }],
      }).decision,
    ).toBe('deny');
  });

  it('but not a command without both options, nor one where they are operands after --, nor another program', () => {
    for (const text of [
      'rm -r t1',
      'rm -f t1',
      'rm t1',
      'rm -- -rf',
      'rm -d -f t1',
      'rmdir -rf t1',
      'rmx -rf t1',
      'echo rm -r -f t1',
    ]) {
      expect(line(rmDenied, text), text).toMatchObject({ decision: 'allow' });
    }
  });

  it('the rest of the pattern must match the operands, in order', () => {
    const rules: PermissionRules = {
      shell: { 'rm -rf important': 'deny', 'rm -r /home/*': 'deny', 'cp -t /secret *': 'deny', '*': 'allow' },
    };
    expect(line(rules, 'rm important -r -f').decision).toBe('deny');
    expect(line(rules, 'rm --force --recursive important').decision).toBe('deny');
    expect(line(rules, 'rm -rf notes').decision).toBe('allow');
    expect(line(rules, 'rm -rf important notes').decision).toBe('allow');
    expect(line(rules, 'rm /home/me -Rv').decision).toBe('deny');
    expect(line(rules, 'rm -R /tmp/me').decision).toBe('allow');
    // An option's value is the option's, not an operand: every way of giving it.
    for (const text of [
      'cp --target-directory /secret a',
      'cp --target-dir=/secret a b',
      'cp -t/secret a',
      'cp a -vt /secret',
    ])
      expect(line(rules, text).decision, text).toBe('deny');
    expect(line(rules, 'cp -t /public a').decision).toBe('allow');
    expect(line(rules, 'cp -S /secret a b').decision).toBe('allow');
  });

  it('git push: -f, --force, --for, -fu, a +ref, and a last --force* naming --force-with-lease as well', () => {
    const rules: PermissionRules = {
      shell: { 'git push --force*': 'deny', 'git push -d *': 'deny', 'git clean -fdx*': 'deny', '*': 'allow' },
    };
    for (const text of [
      'git push -f origin main',
      'git push origin main -f',
      'git push --forc origin',
      'git push -fu origin main',
      'git push origin +main',
      'git push --repo=origin +main',
      'git push --force-with-lease origin',
      'git push --force-w=main origin',
      'git push origin :old',
      'git push --del origin old',
      'git clean -x -d -f',
      'git clean -fxd',
      'git clean --force -dx',
    ]) {
      expect(line(rules, text), text).toMatchObject({ decision: 'deny' });
    }
    for (const text of [
      'git push origin main',
      'git push -u origin main',
      'git push --follow-tags origin',
      'git clean -fd',
      'git clean -n -dx',
    ])
      expect(line(rules, text).decision, text).toBe('allow');
    // A force with a lease is a force: a deny of -f holds against it, with or without its value.
    const minusF: PermissionRules = { shell: { 'git push -f *': 'deny', '*': 'allow' } };
    for (const text of [
      'git push --force-with-lease origin',
      'git push --force-with-lease=main origin main',
      'git push --force origin',
    ])
      expect(line(minusF, text).decision, text).toBe('deny');
    // git's own options before the subcommand are read past (the analyser's deny-only spelling).
    const v = evaluate(withDefaults(rules), 'shell', {
      target: 'x',
      parts: [{ text: 'git -C . push -f', denyOnly: ['git push -f'] }],
    });
    expect(v.decision).toBe('deny');
  });

  it("chmod and chown read -R as recursive, and chmod's -w as a mode, not an option", () => {
    const rules: PermissionRules = { shell: { 'chmod -R *': 'deny', 'chown -R *': 'deny', '*': 'allow' } };
    for (const text of [
      'chmod --recursive 777 x',
      'chmod 777 x -vR',
      'chmod --rec u+x x',
      'chmod -Rw x',
      'chown x:y -R d',
      'chown --recursive x d',
    ])
      expect(line(rules, text).decision, text).toBe('deny');
    for (const text of ['chmod -r x', 'chmod -rwx x', 'chmod -v 644 x', 'chown -h x d'])
      expect(line(rules, text).decision, text).toBe('allow');
  });

  it('arguments made at run time may hold the missing options, unless -- came before them', () => {
    const part = (text: string) => ({ target: text, parts: [{ text, argsUnknown: true }] });
    const rules = withDefaults(rmDenied);
    expect(evaluate(rules, 'shell', part('rm -r $F')).decision).toBe('deny');
    expect(evaluate(rules, 'shell', part('rm -i $F')).decision).toBe('deny');
    // xargs appends its input after the words it was given.
    expect(evaluate(rules, 'shell', part('rm -R')).decision).toBe('deny');
    expect(evaluate(rules, 'shell', part('rm -r -f -- $F')).decision).toBe('deny');
    expect(evaluate(rules, 'shell', part('rm -r -- $F')).decision).toBe('allow');
  });

  it('a word led by a wildcard may expand to a file named -f: before -- it may hold the missing options', () => {
    // `rm *` too: a file named -rf makes it rm -rf. `./*` never expands to an option.
    for (const text of ['rm -r *', 'rm -r ? x', 'rm -r [-]f x', 'rm -R * -v', 'rm *', 'rm -r -? x', 'rm --rec* -f x'])
      expect(line(rmDenied, text).decision, text).toBe('deny');
    for (const text of ['rm -r -- *', 'rm -r ./*', 'rm *.log', 'rm -r */x'])
      expect(line(rmDenied, text).decision, text).not.toBe('deny');
  });

  it('a brace expansion may make option words: {-rf,t1} is rm -rf t1', () => {
    for (const text of [
      'rm {-rf,t1}',
      'rm -r {-f,important}',
      'rm -r {-f,-v} t1',
      'rm {-r,-f,t1}',
      'rm -r t1 {--force,x}',
      'rm -r {-f,./x}',
    ])
      expect(line(rmDenied, text).decision, text).toBe('deny');
    for (const text of ['rm -r -- {a,b}', 'rm {a,b}.log']) expect(line(rmDenied, text).decision, text).not.toBe('deny');
  });

  it('allows and asks keep their literal meaning: they never get broader', () => {
    const rules: PermissionRules = {
      shell: { 'rm -rf *': 'allow', 'git push --force*': 'ask', 'cp -t /secret *': 'allow' },
    };
    expect(line(rules, 'rm -rf x')).toMatchObject({ decision: 'allow', rule: 'shell › rm -rf *' });
    // Another spelling of the same options is not what the allow names: the default decides (ask).
    for (const text of [
      'rm -r -f x',
      'rm -fr x',
      'rm --recursive --force x',
      'rm -r -f -i x',
      'rm x -rf',
      'cp --target-directory /secret a',
    ]) {
      expect(line(rules, text), text).toMatchObject({ decision: 'ask', rule: 'shell' });
    }
    expect(line({ shell: { 'git push --force*': 'ask', '*': 'allow' } }, 'git push -f origin')).toMatchObject({
      decision: 'allow',
      rule: 'shell › *',
    });
  });

  it('reads names like constructor or __proto__ as any other name, in a rule or a command', () => {
    const rules: PermissionRules = {
      shell: { 'constructor -x *': 'deny', 'git __proto__ -x': 'deny', 'rm -rf *': 'deny', '*': 'allow' },
    };
    expect(line(rules, 'constructor -x a').decision).toBe('deny');
    expect(line(rules, 'constructor -y a').decision).toBe('allow');
    expect(line(rules, 'rm --constructor --__proto__ -r x').decision).toBe('allow');
    expect(line(rules, 'rm --constructor --__proto__ -r -f x').decision).toBe('deny');
  });

  it('is for command lines only: a path rule is matched as written', () => {
    expect(
      evaluate(withDefaults({ file_write: { 'rm -rf *': 'deny' } }), 'file_write', { target: 'rm -r -f x' }).decision,
    ).toBe('allow');
  });

  it('a program not listed keeps the literal match only: its letters may take values', () => {
    const rules: PermissionRules = { shell: { 'head -n 5 *': 'deny', 'tar -xf *': 'deny', '*': 'allow' } };
    expect(line(rules, 'head -n 5 x').decision).toBe('deny');
    expect(line(rules, 'head -n5 x').decision).toBe('allow');
    expect(line(rules, 'tar -x -f a.tar').decision).toBe('allow');
  });
});
