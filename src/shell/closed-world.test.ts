import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { evaluate, withDefaults } from '../permission/rules.js';
import type { PermissionRules } from '../contract/permission.js';
import { partsForRules } from './analyze-bounded.js';
import { analyzeCommand, type AnalyzeOptions } from './analyze.js';
import { testBin } from './test-bin.js';

const t = testBin();
const roots: string[] = [];
afterAll(() => {
  t.cleanup();
  roots.forEach((r) => rmSync(r, { recursive: true, force: true }));
});

/** A folder with a git repository whose .git/config holds `config` (and a hook, when named). */
function repo(config = '', hook?: string): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'zhixing-git-')));
  roots.push(root);
  mkdirSync(join(root, '.git', 'hooks'), { recursive: true });
  writeFileSync(join(root, '.git', 'hooks', 'pre-commit.sample'), '#!/bin/sh\n');
  writeFileSync(
    join(root, '.git', 'config'),
    `[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n[remote "origin"]\n\turl = https://example.com/r.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n${config}`,
  );
  if (hook) writeFileSync(join(root, '.git', 'hooks', hook), '#!/bin/sh\ngit push\n');
  return root;
}

/** Stand-ins for programs whose options run others, beside the shared test PATH: found, so their options are what is read. */
const more = realpathSync(mkdtempSync(join(tmpdir(), 'zhixing-bin-')));
roots.push(more);
for (const name of ['yes', 'split', 'install', 'zip', 'man', 'rsync', 'gawk'])
  writeFileSync(join(more, name), '#!/bin/sh\n', { mode: 0o755 });

const clean = repo();
const options = (cwd = clean, home = cwd): AnalyzeOptions => ({ cwd, path: `${t.bin}:${more}`, home });

async function decide(rules: PermissionRules, command: string, opts = options()) {
  const parts = partsForRules(command, await analyzeCommand(command, opts));
  return evaluate(withDefaults(rules), 'shell', { target: command, parts });
}

const DENIES = { 'git push*': 'deny', 'rm -rf *': 'deny' } as const;
const RULE_SETS: Array<[string, PermissionRules]> = [
  ['the denies alone', { shell: { ...DENIES } }],
  ['the denies and "*": "allow"', { shell: { ...DENIES, '*': 'allow' } }],
];

/** Launchers, configuration that runs programs, and build tools: each a way past an argument-level deny. */
const LEAKS = [
  // Launchers the analyser did not know.
  'linux64 rm -rf important',
  'linux32 rm -rf important',
  'setarch x86_64 rm -rf important',
  'setarch x86_64 -R rm -rf important',
  'prlimit --nofile=100 rm -rf important',
  'prlimit rm -rf important',
  'ld.so /usr/bin/rm -rf important',
  '/lib64/ld-linux-x86-64.so.2 /usr/bin/rm -rf important',
  'linux64 git push',
  'timeout 5 linux64 rm -rf important',
  'nice linux64 git push',
  'some-new-launcher rm -rf important',
  'i386 git push origin main',
  // Known wrappers, read through.
  'chrt -f 1 rm -rf important',
  'taskset -c 0 rm -rf important',
  'unshare -r rm -rf important',
  'unshare --propagation slave rm -rf important',
  'nsenter -t 1 -m rm -rf important',
  'flock /tmp/l rm -rf important',
  'watch rm -rf important',
  "script -qc 'rm -rf important' /dev/null",
  'busybox rm -rf important',
  'hyperfine --prepare "rm -rf important" ls',
  'hyperfine --cleanup="git push" ls',
  // git's configuration and transports.
  'git p',
  'git pu origin',
  "git -c alias.x='!git push' x",
  "git -c alias.x='!rm -rf important' x",
  'git -c core.sshCommand="rm -rf important" fetch',
  'git ls-remote --upload-pack="rm -rf important" origin',
  'git fetch --upload-pack="rm -rf important" origin',
  'git send-pack origin main',
  "git clone 'ext::sh -c rm% -rf% important' x",
  'git fetch origin',
  'git pull',
  'git remote update',
  'git submodule update --init',
  'git commit -m x',
  'git merge x',
  'git checkout x',
  'git rebase main',
  'git am p.patch',
  'git --exec-path=. status',
  'git --config-env=core.pager=P log',
  'GIT_SSH_COMMAND="rm -rf important" git fetch',
  'GIT_CONFIG_GLOBAL=x git status',
  'HOME=/tmp/h git status',
  'git $SUB',
  'git archive --remote=origin HEAD',
  'git help push',
  'git status --help',
  'git grep -O x',
  'git log --show-signature',
  // Programs that run their project's files or their settings.
  'npm run clean',
  'npm test',
  'npm install',
  'npm view x',
  'npx x',
  'yarn',
  'pnpm install',
  'make clean',
  'make',
  'pip install .',
  'python3 -m pip install .',
  'cargo build',
  'less README',
  'man ls',
  'ssh host',
  'scp a host:b',
  'vim x',
  'wget x',
  'rsync -a host:x .',
  'awk -f prog.awk',
  "awk -l ext 'BEGIN{}'",
  "tar -xf a.tar -F 'rm -rf important'",
  "tar xIf 'rm -rf important' a.tar",
  'perf script',
  'sort --compress-program=./x a',
  "split --filter='rm -rf important' a",
  'mapfile -C "rm -rf important" -c 1 a < f',
  // bash evaluating a variable's text, where a subscript runs its command.
  'x="a[\\$(rm -rf important)]"; echo $((x))',
  'x="a[\\$(rm -rf important)]"; (( x ))',
  'x="a[\\$(rm -rf important)]"; [[ $x -eq 1 ]]',
  "x='$(rm -rf important)'; echo ${x@P}",
  'x="a[\\$(rm -rf important)]"; echo ${!x}',
  'echo ${a[x]}',
  'let y=x',
  'declare -i y=x',
  "printf -v 'a[$(rm -rf important)]' x",
  "read 'a[$(rm -rf important)]' < f",
  "test -v 'a[$(rm -rf important)]'",
  'echo ${s:i}',
  'a=([x]=1)',
  '[[ -v a[x] ]]',
  'declare -n r=x; r=1',
  // A function passed in the environment replaces a program in the shell it starts.
  "env 'BASH_FUNC_ls%%=() { rm -rf important; }' bash -c ls",
  // A wrapper's option nobody listed may take the next word, so the program after it is the one that runs.
  'sudo --login-class ls rm -rf important',
  'nice --unknown ls git push',
  // CDPATH sends cd somewhere the line does not say: git's settings there are not the ones checked.
  'CDPATH=/tmp/elsewhere; cd sub && git status',
  // Options made at run time may be the ones that run a program.
  'E=-exec; find . $E rm -rf important \\;',
  'T=--to-command=./x; tar -xf a.tar $T',
  'O=--compress-program=./x; sort $O a',
  'O=--output=.git/config; git log $O; git status',
  'cd ~/elsewhere && git status',
  'git -C ~/elsewhere status',
  // A name installed nowhere may be put in place by the line itself.
  'not-installed-yet rm -rf important',
  // git run elsewhere, or told to read other settings, by a wrapper.
  'env GIT_DIR=/tmp/elsewhere/.git git status',
  'env -C /tmp/elsewhere git status',
  'sudo -D /tmp/elsewhere git status',
  'find . -name x -execdir git status \\;',
  'unshare --wd=/tmp/elsewhere git status',
  // Wrappers that follow settings files a command can write, or pipe into a command.
  'valgrind ls',
  'parallel ls ::: a',
  "strace -o '|rm -rf important' ls",
  'systemd-run ls',
  // Bash's own commands that run what they are given.
  'jobs -x rm -rf important',
  'jobs -lx git push',
  // Values bash evaluates as arithmetic, where `a[$(…)]` runs: RANDOM, SRANDOM, OPTIND, HISTCMD by any route,
  // slices of the positional parameters, integer declarations however quoted, elements named in quotes.
  "x='a[$(rm -rf t2)]'; RANDOM=$x",
  'OPTIND=$x',
  'OPTIND=$x true',
  'HISTCMD=$x',
  'read OPTIND < p.txt',
  'export SRANDOM=$(cat p.txt)',
  'for SRANDOM in "$x"; do :; done',
  'printf -v OPTIND %s "$x"',
  'declare OPTIND=$x',
  ': ${OPTIND:=$x}',
  'mapfile RANDOM < p.txt',
  'set -- a b c; echo "${@:x}"',
  'echo "${*:x}"',
  'echo "${@:1:x}"',
  'declare "-i" n; n=$x',
  "declare '-i' n; n=$x",
  'declare -"i" n; n=$x',
  'declare $o n; n=$x',
  "declare 'c[$(rm -rf t1)]=1'",
  "f(){ local 'c[$(rm -rf t1)]=1'; }; f",
  "export 'c[$(rm -rf t1)]=1'",
  "readonly 'c[$(rm -rf t1)]=1'",
  "sleep 0.1 & wait -n -p 'a[$(rm -rf t1)]'",
  "getopts a 'q[$(rm -rf t1)]'",
  "read 'q[$(rm -rf t1)]' < p.txt",
  // An OpenSSL engine is code curl loads; its options may come from a file, or from a settings file the line writes.
  'curl -s --engine "$PWD/e.so" file:///etc/hostname',
  'curl --eng /w/e.so x',
  'curl -K cfg https://x',
  'curl -sK cfg https://x',
  'curl --config cfg https://x',
  "echo 'engine = /w/e.so' > ~/.curlrc; curl https://x",
  'for i in 1 2; do curl -so ~/.curlrc https://x; done',
  // Programs that write a file (git's settings) on a line where git then reads them.
  'xxd -r -p h.txt .git/config; git status --short',
  'tree -o .git/config; git status',
  'file -C -m .git/x; git status',
  'curl -sT rc file:///root/.curlrc; curl -s file:///etc/hostname',
  "curl -s -w '%output{~/.curlrc}engine = /w/e.so' file:///etc/hostname; curl -s file:///etc/hostname",
  'curl -T cfg file:///w/.git/config; git status --short',
  'curl --upload-file cfg file:///w/.git/config; git status',
  // A declaration's value that reads `(…)` is parsed again as an array's elements; indirect expansion in any
  // form; `{a[x]}>` on any command; a `$"…"` string, whose translation is expanded again.
  "declare -a y='($(rm -rf t1))'",
  "y=(); declare y='($(rm -rf important))'",
  "declare -a 'y=($(rm -rf t1))'",
  "declare -A y='([k]=$(rm -rf t1))'",
  "typeset -a y='(`rm -rf t1`)'",
  "readonly -a y='($(rm -rf t1))'",
  "f(){ local -a y='($(rm -rf t1))'; }; f",
  "declare -a y='([$x]=1)'",
  'declare -a y+="($v)"',
  'echo "${!x#z}"',
  'echo "${!x:-d}"',
  'echo "${!x/a/b}"',
  'echo "${!x@Q}"',
  'echo "${!x:0:1}"',
  'echo "${!x-}"',
  'echo "${!x^^}"',
  'echo "${!x[0]}"',
  "x='a[$(rm -rf t2)]'; : {a[x]}>/dev/null",
  'cat {a[x]}<notes.txt',
  'echo $"hello"',
  'echo x$"a b"y',
  // The same through `builtin` or `command`; a value made at run time where the name is an array; `[ -v ]`;
  // bash told to rewrite later lines (history, posix aliases); an element behind braces in `{…}>`.
  "builtin declare -a y='($(rm -rf t1))'",
  "x='a[$(rm -rf t3)]'; command declare -i n; n=$x",
  "builtin typeset -a y='(x)'",
  'builtin declare -n r; r=$x; r=1',
  'builtin local -a y=$e',
  'e=\'($(rm -rf important))\'; declare -a y="$e"',
  'declare -a y=$e',
  'y=(); declare y=$e',
  'declare -a y=$(cat f)',
  'mapfile y < f; declare y=$e',
  "[ -v 'a[$(rm -rf t1)]' ]",
  '[ -v "$x" ]',
  'set -H -o history\n: "x; rm -rf important"\neval ls !:1',
  'set -o histexpand',
  'shopt -so posix',
  'set -o posix\nalias ls=eval\nls "rm -rf t3"',
  'POSIXLY_CORRECT=1\nalias ls=rm\nls -rf important t1',
  'export POSIXLY_CORRECT=1',
  "bash --posix -c 'alias ls=rm; ls -rf x'",
  "bash -H -c 'eval !!'",
  "x='a[$(rm -rf t2)]'; : {a[${x}]}>/dev/null",
  // A pattern the grammar keeps as one text, with a substitution in it; slices of $$, $-, $?; more ways a
  // name becomes an array; bash told to take assignments from later words; a second -v in [ ].
  'x=a; echo ${x#$(rm -rf important t1)}',
  'echo ${HOME^^`rm -rf t2`}',
  'x=a; echo ${x%$(git push -q origin HEAD:refs/heads/p)}',
  'echo ${x#${y:x}}',
  'echo ${x#$((x))}',
  'echo ${$:x}',
  'echo ${-:x}',
  'echo "${?:x}"',
  'e=\'($(rm -rf important t1))\'; y[0]=1; declare y="$e"',
  'declare PIPESTATUS="$e"',
  'mapfile -d \'\' y < notes.txt; declare y="$e"',
  'y[0]=1; typeset y=$e',
  "bash -k -c 'bash -c : BASH_ENV=./e.sh'",
  'bash -ek -c true',
  'bash -o keyword -c true',
  'sh -k -c true',
  'bash --debugger -c true',
  'bash -O extdebug -c true',
  "[ -v HOME -o -v 'a[$(rm -rf important t1)]' ]",
  // Text the grammar keeps plain though bash expands it: backquotes in `${y:-…}` and replacements, here-document
  // bodies it does not read, single quotes inside a double-quoted `${…}`; env -S's own splitting.
  'echo ${y:-`rm -rf important t1`}',
  'x=a; echo "${x:+`rm -rf t2`}"',
  'echo ${z=`git push -q origin HEAD:refs/heads/p`}',
  'x=a; echo ${x/a/`rm -rf t3`}',
  'echo ${x/#/`rm -rf t3`}',
  'echo ${y:-${z:-`rm -rf x`}}',
  'cat <<E\n`rm -rf important t1`\nE',
  'cat <<-E\n\t$(rm -rf t2)\n\tE',
  'cat <<E\n${y:-`git push -q origin HEAD:refs/heads/p`}\nE',
  'cat <<E\n $(rm -rf important t1)\nE',
  'echo "${y:-\'`rm -rf important t1`\'}"',
  'x=a; echo "${x:+\'$(git push -q origin HEAD:refs/heads/p)\'}"',
  "env -S'rm' -rf important",
  "env -S'#x' rm -rf t1",
  'bash -Oextdebug -c true',
  'shopt -s extdebug',
  // Marks the count missed: `<(…)` in a `${…}` word, `$'…'` in a quoted `${…}` (escapes spell any mark), an
  // escaped backslash before a mark, a backslash-newline inside one, a parsed expansion covering a hidden one.
  'echo ${y:-<(rm -rf important t1)}; sleep 1',
  'cat < ${y:-<(rm -rf t2; echo hi)}',
  'case ${y:-<(git push -q origin HEAD:refs/heads/p)} in *) sleep 1;; esac',
  'echo "${y:-$\'$(rm -rf t2)\'}"',
  'cat <<< "${y:-$\'\\x60git push -q origin HEAD:refs/heads/p\\x60\'}"',
  'echo "${y:-\'\\\\$(rm -rf important t1)\'}"',
  'echo ${y:-\\\\`rm -rf t2 #\\\\`}',
  'x=a; echo "${x#\\\\$(git push -q origin HEAD:refs/heads/p)}"',
  'echo "$\\\n(rm -rf t3)"',
  "cat <<E\n$(cat <(true)) ${y:-$'`rm -rf t3`'}\nE",
  "cat <<E\n$(cat <(true)) ${y:-$'$(rm -rf t3)'}\nE",
  'echo ${y:-$\\\n(touch PWN)}',
];

/**
 * Shell state a harmless-looking command sets, by any route, that makes later commands run something
 * else: a trap's body, PS4 under `set -x`, BASH_ENV for a later bash, PATH for a later name.
 */
const STATE_WRITES = [
  "trap -- 'git push -q origin main' EXIT",
  "trap -- -- 'rm -rf important' EXIT",
  'trap -- "$C" EXIT',
  "read PS4 <<< '$(rm -rf t3)'; set -x; true",
  "read -r x PS4 <<< 'a $(rm -rf t3)'; set -x; true",
  "read -a PS4 <<< '$(rm -rf t3)'; set -x; :",
  "read -ra PS4 <<< '$(rm -rf t3)'; set -x; :",
  "read $N <<< '$(rm -rf t3)'; set -x; :",
  "printf -v PS4 '%s' '$(rm -rf t4)'; set -x; :",
  "printf -vPS4 '%s' '$(rm -rf t4)'; set -x; :",
  'printf -v "$N" \'%s\' x',
  "for PS4 in '$(rm -rf t5)'; do set -x; :; done",
  "select PS4 in '$(rm -rf t5)'; do set -x; :; done",
  'export "PS4=\\$(rm -rf t6)"; set -x; :',
  'declare "PATH=./b:/usr/bin:/bin"; ls -rf t; cat notes.txt',
  'readonly "BASH_ENV=./e.sh"',
  'export $X=./e.sh; bash -c true',
  'declare "$N"=x',
  'local PATH',
  "typeset 'IFS=/'",
  'PATH[0]=./b; ls',
  'declare PATH[0]=./b; ls',
  'command export "PATH=./b"; ls',
  'builtin declare "PATH=./b"; ls',
  'eval \'export "PATH=./b"\'; ls',
  'read BASH_ENV <<< ./e.sh; export BASH_ENV; bash -c true',
  ': ${BASH_ENV:=./e.sh}; export BASH_ENV; bash -c true',
  ': ${PATH=./b}; ls',
  'echo "${PS4:=x}"',
  ': ${!N:=x}',
  'mapfile PATH < f; ls',
  'readarray -t PS4 < f; set -x; :',
  'mapfile -t $N < f',
  'getopts a: PATH; ls',
  'wait -p PATH; ls',
  'unset PATH; ls',
  'unset -v PATH; ls',
  'unset $N; ls',
  'set -k; bash -c true BASH_ENV=./e.sh',
  'set -o keyword; bash -c true BASH_ENV=./e.sh',
  'set -$F; bash -c true BASH_ENV=./e.sh',
  'set -o "$O"; bash -c true BASH_ENV=./e.sh',
  'shopt -s $O',
  'read GIT_DIR < f; git status',
  "trap -- 'git push' -p EXIT",
  'export {PS4,X}=x; set -x; :',
  'read {PA,}TH < f; ls',
  'BASH_CMDS[ls]=./b/ls; ls',
  'exec {PATH}>/dev/null; ls -rf t',
  ': {PATH}>/dev/null; ls -rf t',
  'cat {PATH}<notes.txt; ls',
  "PS0='$(rm -rf x)'",
  'export -n x "PATH=./b"; ls',
  'declare -n r=PATH; r=./b; ls',
  'wait "$p" PATH; ls',
];

/** Options that run a program, reached through an abbreviated long option or a group of short ones. */
const OPTION_FORMS = [
  "yes 'rm -rf t8' | head -n 3000 | sort -S 1K --compress-prog=sh",
  'sort --compress sh a',
  'split --filt=sh c.txt',
  'split --fi sh c.txt',
  'install -s --strip-prog=./strip.sh notes.txt n2',
  'tar -cf x.tar --use-compress-prog=\'sh -c "rm -rf t9"\' notes.txt',
  "tar -cf y.tar --checkpoint=1 --checkpoint-act=exec='rm -rf t10' notes.txt",
  'tar --to-comm=sh -xf a.tar',
  'tar -xf a.tar --info=./x',
  "sed --expr='1e rm -rf t11' notes.txt",
  "sed --e '1e rm -rf t11' notes.txt",
  'sed -nf s.sed notes.txt',
  'sed -fs.sed notes.txt',
  'sed --fi=s.sed notes.txt',
  "sed '1~1e rm -rf t13' notes.txt",
  "sed '1,+2e rm -rf x' notes.txt",
  "sed '0,/a/e rm -rf x' notes.txt",
  "sed '\\,a,e rm -rf x' notes.txt",
  "sed '/a/I e rm -rf x' notes.txt",
  "sed 's/a/b/;e rm -rf x' notes.txt",
  "sed -n 's/a/rm -rf x/ep' notes.txt",
  "sed 's|a|b|ge' notes.txt",
  "sed -ne '1e rm -rf x' notes.txt",
  "sed -n -e p -e '$e rm -rf x' notes.txt",
  "sed 'y/a/b/;1e rm -rf x' notes.txt",
  "sed '1{e rm -rf x\n}' notes.txt",
  'sed -s -n --posix 1e\\ rm notes.txt',
  "sed $'1e rm -rf x' notes.txt",
  "sed 'a\\\ntext\n1e x' notes.txt",
  "awk -e 'BEGIN{}' -e 'BEGIN{system(\"rm -rf x\")}'",
  'awk --sou=\'BEGIN{system("rm -rf x")}\'',
  'awk --fi prog.awk',
  "awk --lo ext 'BEGIN{}'",
  'awk \'@include "x.awk"\'',
  'awk \'BEGIN{f="sys" "tem"; @f("rm -rf x")}\'',
  'git log --show-sig',
  'git grep --open-f x',
  'git config --ed',
  'git branch --edit-d',
  'git log --out=.git/config; git status',
  'git grep -iO"rm -rf t1" hello',
  'git grep -nO x',
  'echo t2 | xargs -l rm -rf',
  'echo t2 | xargs -e rm -rf',
  'echo t2 | xargs --eof rm -rf',
  'echo t2 | xargs --max-lines rm -rf',
  'echo t2 | xargs -rl rm -rf',
  "echo 'rm -rf t2' > ~/.bashrc; bash -i -c true",
  'sh -l -c true',
  'bash --login -c true',
  'bash --rcfile rc -i -c true',
  'bash --init-file rc -c true',
  'bash -ic true',
  'zip -T --unzip-c=./x a.zip b',
  "zip -T -TT='rm -rf x' a.zip b",
  "man -aP 'rm -rf x' ls",
  "man --pa='rm -rf x' ls",
  'rsync --rsh=./x a b',
  "rsync --rs='rm -rf x' a b",
];

describe.each(RULE_SETS)('closed world, with %s', (_name, rules) => {
  it.each(LEAKS)('is denied or asked of a person, never allowed or left to --yes: %s', async (command) => {
    const v = await decide(rules, command);
    if (v.decision !== 'deny') expect(v).toMatchObject({ decision: 'ask', needsPerson: true });
  });

  it.each(STATE_WRITES)('shell state that makes later commands run something asks a person: %s', async (command) => {
    const v = await decide(rules, command);
    if (v.decision !== 'deny') expect(v).toMatchObject({ decision: 'ask', needsPerson: true });
  });

  it.each(OPTION_FORMS)('an option that runs a program, however it is spelled, asks a person: %s', async (command) => {
    const v = await decide(rules, command);
    if (v.decision !== 'deny') expect(v).toMatchObject({ decision: 'ask', needsPerson: true });
  });

  it.each([
    'ls -la',
    'cat notes.txt',
    'echo hi > a.txt',
    'grep -rn todo .',
    'git status',
    'git log --oneline -5',
    'git diff HEAD~1',
    'git -C . status',
    'git branch --list',
    'node --version',
    'wc -l a | sort -n | head',
    'mkdir -p out && cp a out/',
    'tar -czf out.tgz src',
    'jq .name package.json',
    'find . -name "*.ts"',
    'git status && git log -1',
    'env -i ls',
    'sudo -E ls',
    'time -p ls',
    'setsid -w ls',
    "sed -n 's/hello/world/p' a",
    "sed -i.bak -e 's/x/y/g' -e '/^$/d' a",
    "sed -E 's/(a|e)+/x/w out.txt' a",
    "sed '1~2d;$!N;/x/I,+2p;y/abc/xyz/' a",
    "sed -e '/start/,/end/{s/a/b/;p}' -e '3q' a",
    'sort -k2 -n --check a',
    'install --strip -m 644 a b',
    'tar --checkpoint=10 -cf a.tar b',
    'read -r line < a',
    'export FOO=1 BAR',
    'export PATH',
    'set -euo pipefail',
    'set -- a b',
    'for f in *.ts; do echo "$f"; done',
    ': ${FOO:=1}',
    "printf -v x '%s' y",
    "trap 'echo bye' EXIT",
    'trap - EXIT',
    'f() { local x=1; echo $x; }; f',
    'unset FOO',
    "awk -F: '{print $1}' a",
    'trap -p',
    'trap -p EXIT',
    'wait $!',
    'git log --oneline --stat',
    'OPTIND=1',
    'arr[0]=1',
    'echo "${@:2}"',
    'echo "${x:0:3}"',
    'declare -r X=1',
    'local -a a=(1 2)',
    'curl -s https://example.com | jq .',
    'curl -q -o page.html https://example.com',
    'jobs -l',
    'echo "${!a[@]}"',
    'echo "${!BASH*}"',
    'declare -a arr=(1 2)',
    'local y="$z"',
    'echo "hello $USER"',
    'export PATH_X="$HOME/bin"',
    'declare x="$y"',
    '[ -v HOME ]',
    '[ -f x ]',
    "bash -c 'echo hi'",
    'echo ${x#abc}',
    'echo ${x%.txt}',
    '[[ $x =~ ^a$ ]]',
    'echo ${HOME^^}',
    "cat <<'E'\n$(rm -rf x) `y`\nE",
    'cat <<E > notes.txt\nHello ${USER}, today is $(date)\nE',
    'echo "${HOME}/bin and $(date)"',
    'echo ${y:-default}',
    'echo "it\'s \\$(not code)"',
    "echo '$(not code)'",
    'echo "${y:-\'quoted\'}"',
    "git log --format='%H `x`'",
    'echo `date`',
    'echo "a <(b)"',
    "echo $'hello\\n'",
    'echo "${y:-default}"',
    "grep -E 'a|b' x",
  ])('understood, as before: %s', async (command) => {
    const v = await decide(rules, command);
    expect(v.needsPerson).toBeUndefined();
    expect(v.decision).toBe('*' in (rules.shell as object) ? 'allow' : 'ask');
  });
});

describe.skipIf(!existsSync('/usr/bin/setarch'))(
  "the machine's own launchers, found in PATH as they are installed",
  () => {
    const rules: PermissionRules = { shell: { ...DENIES, '*': 'allow' } };
    const real: AnalyzeOptions = { cwd: clean, path: '/usr/bin:/bin' };
    // linux64 is a link to setarch, which takes the architecture from the name it was run by.
    it.each([
      'linux64 rm -rf important',
      'linux32 git push',
      'setarch x86_64 rm -rf important',
      'prlimit rm -rf important',
      'setpriv rm -rf important',
      'chrt -o 0 rm -rf important',
      'taskset 1 git push',
      'ld.so /usr/bin/rm -rf important',
    ])('%s', async (command) => {
      const v = await decide(rules, command, real);
      if (v.decision !== 'deny') expect(v).toMatchObject({ decision: 'ask', needsPerson: true });
    });
    it('linux64 is read through to the rm it runs', async () => {
      expect(await decide(rules, 'linux64 rm -rf important', real)).toMatchObject({
        decision: 'deny',
        rule: 'shell › rm -rf *',
      });
    });
  },
);

describe('programs that write a file, found as they are installed', () => {
  const rules: PermissionRules = { shell: { ...DENIES, '*': 'allow' } };
  const real: AnalyzeOptions = { cwd: clean, path: '/usr/bin:/bin', home: clean };
  it.skipIf(!existsSync('/usr/bin/xxd'))(
    'xxd writes its second operand: git on the same line may read what it wrote',
    async () => {
      expect(await decide(rules, 'xxd -r -p h.txt .git/config; git status --short', real)).toMatchObject({
        decision: 'ask',
        needsPerson: true,
      });
      // Alone it reads, and is understood.
      expect(await decide(rules, 'xxd notes.txt | head', real)).toMatchObject({ decision: 'allow' });
    },
  );
});

describe('git understood only while its settings run nothing', () => {
  const rules: PermissionRules = { shell: { ...DENIES, '*': 'allow' } };
  it.each([
    ['an alias', '[alias]\n\tst = !git push\n', /alias\.st/],
    ['fsmonitor', '[core]\n\tfsmonitor = git push\n', /core\.fsmonitor/],
    ['a pager', '[core]\n\tpager = rm -rf important\n', /core\.pager/],
    ['a per-command pager', '[pager]\n\tlog = rm -rf important\n', /pager\.log/],
    ['a diff driver', '[diff "x"]\n\ttextconv = rm -rf important\n', /diff\.x\.textconv/],
    ['an external diff', '[diff]\n\texternal = rm -rf important\n', /diff\.external/],
    ['a filter', '[filter "lfs"]\n\tclean = rm -rf important\n', /filter\.lfs\.clean/],
    ['a hooks folder', '[core]\n\thooksPath = h\n', /core\.hookspath/],
    ['an include', '[include]\n\tpath = ../x\n', /include\.path/],
    ['a hook in the old spelling', '[core "x"]\n\tsshCommand = git push\n', /sshcommand/],
  ])('%s in .git/config makes git status, log and diff ask a person', async (_what, config, key) => {
    const dir = repo(config);
    for (const command of ['git status', 'git log', 'git diff', 'git -C . show']) {
      const v = await decide(rules, command, options(dir));
      expect(v, command).toMatchObject({ decision: 'ask', needsPerson: true, reason: expect.stringMatching(key) });
    }
  });

  it('a hook in .git/hooks (git status may write the index, which runs post-index-change)', async () => {
    const dir = repo('', 'post-index-change');
    expect(await decide(rules, 'git status', options(dir))).toMatchObject({
      decision: 'ask',
      needsPerson: true,
      reason: expect.stringMatching(/hook/),
    });
  });

  it('a .git that is no repository: git looks further up, and so do the checks', async () => {
    const dir = repo('[core]\n\tfsmonitor = rm -rf important\n');
    mkdirSync(join(dir, 'sub', '.git'), { recursive: true });
    expect(await decide(rules, 'git -C sub status', options(dir))).toMatchObject({
      decision: 'ask',
      needsPerson: true,
      reason: expect.stringMatching(/fsmonitor/),
    });
  });

  it('a key hidden behind a comment that ends in a backslash is still seen (git does not continue comments)', async () => {
    for (const config of [
      '[user]\n\t# note \\\n[core]\n\tfsmonitor = ./x.sh\n',
      '[user]\n\tname = a # c \\\n[core]\n\tfsmonitor = ./x.sh\n',
      '[core] ; c \\\n\tfsmonitor = ./x.sh\n',
    ]) {
      const dir = repo(config);
      expect(await decide(rules, 'git status', options(dir)), config).toMatchObject({
        decision: 'ask',
        needsPerson: true,
      });
    }
  });

  it('a file with a continued line is one git may read otherwise: a comment and a continued value together', async () => {
    const dir = repo('[user]\n\t# c \\\n[core]\n\ta = v\\\n[x]\n\tfsmonitor = ./x.sh\n');
    expect(await decide(rules, 'git status', options(dir))).toMatchObject({ decision: 'ask', needsPerson: true });
  });

  it('a .git file that is not a plain "gitdir: <path>" line, a --work-tree, or a renamed git folder with a nested repository', async () => {
    const odd = repo();
    const { renameSync } = await import('node:fs');
    renameSync(join(odd, '.git'), join(odd, ' g'));
    writeFileSync(join(odd, '.git'), 'gitdir:  g\n');
    expect(await decide(rules, 'git status', options(odd))).toMatchObject({ decision: 'ask', needsPerson: true });

    const moved = repo();
    renameSync(join(moved, '.git'), join(moved, 'realgit'));
    writeFileSync(join(moved, '.git'), 'gitdir: realgit\n');
    mkdirSync(join(moved, 't2', '.git'), { recursive: true });
    expect(await decide(rules, 'git status', options(moved))).toMatchObject({ decision: 'ask', needsPerson: true });
    expect(await decide(rules, 'git --git-dir=realgit --work-tree=. status', options(moved))).toMatchObject({
      decision: 'ask',
      needsPerson: true,
    });
  });

  it('a repository nested in the work tree (git status goes into it) counts as unread', async () => {
    const dir = repo();
    mkdirSync(join(dir, 't2', '.git'), { recursive: true });
    expect(await decide(rules, 'git status', options(dir))).toMatchObject({
      decision: 'ask',
      needsPerson: true,
      reason: expect.stringMatching(/nested/),
    });
  });

  it('a folder that looks like a bare repository is checked as one', async () => {
    const dir = repo();
    mkdirSync(join(dir, 'b'));
    writeFileSync(join(dir, 'b', 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(join(dir, 'b', 'config'), '[diff]\n\texternal = rm -rf ../important\n');
    expect(await decide(rules, 'git -C b diff', options(dir))).toMatchObject({
      decision: 'ask',
      needsPerson: true,
      reason: expect.stringMatching(/diff\.external/),
    });
  });

  it('submodules, whose own settings git follows', async () => {
    const dir = repo();
    mkdirSync(join(dir, '.git', 'modules', 'sub'), { recursive: true });
    expect(await decide(rules, 'git status', options(dir))).toMatchObject({ decision: 'ask', needsPerson: true });
  });

  it('the "global" settings in the HOME the command sees (its workspace)', async () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'zhixing-home-')));
    roots.push(home);
    writeFileSync(join(home, '.gitconfig'), '[core]\n\tpager = git push\n');
    expect(await decide(rules, 'git log', options(clean, home))).toMatchObject({
      decision: 'ask',
      needsPerson: true,
      reason: expect.stringMatching(/\.gitconfig/),
    });
    mkdirSync(join(home, '.config', 'git'), { recursive: true });
    rmSync(join(home, '.gitconfig'));
    writeFileSync(join(home, '.config', 'git', 'config'), '[alias]\n\tl = !git push\n');
    expect(await decide(rules, 'git log', options(clean, home))).toMatchObject({ decision: 'ask', needsPerson: true });
  });

  it('a repository reached through a link: git looks upward from the real folder', async () => {
    const dirty = repo('[alias]\n\tl = !git push\n');
    mkdirSync(join(dirty, 'sub'));
    const { symlinkSync } = await import('node:fs');
    const link = join(clean, 'link');
    symlinkSync(join(dirty, 'sub'), link);
    expect(await decide(rules, 'cd link && git status')).toMatchObject({ needsPerson: true });
    expect(await decide(rules, 'git -C link status')).toMatchObject({ needsPerson: true });
  });

  it('a repository found above the folder, through -C, or through a cd on the same line', async () => {
    const dirty = repo('[alias]\n\tl = !git push\n');
    mkdirSync(join(dirty, 'src'));
    expect(await decide(rules, 'git status', options(join(dirty, 'src')))).toMatchObject({ needsPerson: true });
    expect(await decide(rules, `git -C ${dirty} status`)).toMatchObject({ needsPerson: true });
    expect(await decide(rules, `cd ${dirty} && git status`)).toMatchObject({ needsPerson: true });
    // A cd inside a subshell does not move the git after it: every folder the line visits is checked.
    expect(await decide(rules, `(cd ${clean}); git status`, options(dirty))).toMatchObject({ needsPerson: true });
    expect(await decide(rules, 'cd "$D" && git status')).toMatchObject({ needsPerson: true });
  });

  it('a folder bash finds by a pattern, or that a link and `..` lead to, is checked where git really runs', async () => {
    const dir = repo();
    // A copy of a git folder under another name, with a program in its settings.
    mkdirSync(join(dir, 'sub', 'objects', 'pack'), { recursive: true });
    mkdirSync(join(dir, 'sub', 'refs'));
    writeFileSync(join(dir, 'sub', 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(join(dir, 'sub', 'config'), '[diff]\n\texternal = rm -rf ../important\n');
    const { symlinkSync } = await import('node:fs');
    symlinkSync(join(dir, 'sub', 'objects'), join(dir, 'lnk'));
    for (const command of [
      'cd su* && git show --ext-diff HEAD',
      'cd su? && git status',
      'cd [s]ub && git status',
      'git -C su* show --ext-diff HEAD',
      'git --git-dir su* show',
      'git --git-dir=su* show',
      // chdir(2) follows `lnk` before `..`: into sub/, where bash's text says the workspace.
      'git -C lnk/.. show --ext-diff HEAD',
      'git -C lnk -C .. show --ext-diff HEAD',
      'git --git-dir=lnk/.. show',
      'cd lnk/.. && git status',
      'set -P; cd lnk/.. && git status',
      // A folder that is not there yet is whatever the line makes it.
      'git -C later status',
    ])
      expect(await decide(rules, command, options(dir)), command).toMatchObject({ decision: 'ask', needsPerson: true });
    // The plain folder itself is read as before: its settings run a program.
    expect(await decide(rules, 'git -C sub show', options(dir))).toMatchObject({
      needsPerson: true,
      reason: expect.stringMatching(/diff\.external/),
    });
    // Without a link before the `..`, text and chdir(2) agree, and a clean repository stays understood.
    const plain = repo();
    mkdirSync(join(plain, 'docs'));
    for (const command of ['cd docs/.. && git status', 'git -C docs/.. status', 'git -C docs log'])
      expect(await decide(rules, command, options(plain)), command).toMatchObject({ decision: 'allow' });
  });

  it('a program named by a relative path is found from the folder the line has gone to, as bash finds it', async () => {
    // <root>/bin/cat is a program on PATH; <root>/ws/bin/cat is a file the model wrote.
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'zhixing-rel-')));
    roots.push(root);
    for (const dir of ['bin', 'ws/a/b', 'ws/bin', 'skills/x']) mkdirSync(join(root, dir), { recursive: true });
    writeFileSync(join(root, 'bin', 'cat'), '#!/bin/sh\n', { mode: 0o755 });
    writeFileSync(join(root, 'ws', 'bin', 'cat'), '#!/bin/sh\nrm -rf ../important\n', { mode: 0o755 });
    writeFileSync(join(root, 'skills', 'x', 'run.mjs'), '');
    const { symlinkSync } = await import('node:fs');
    symlinkSync(join(root, 'ws', 'a', 'b'), join(root, 'ws', 'lnk'));
    const here = { cwd: join(root, 'ws'), path: join(root, 'bin'), home: join(root, 'ws') };
    // From the workspace `../bin/cat` is the program on PATH, and is understood.
    expect(await decide(rules, '../bin/cat notes', here)).toMatchObject({ decision: 'allow' });
    for (const command of [
      // From a/ it is the workspace's own file.
      'cd a && ../bin/cat notes',
      // From a folder bash alone knows, it could be anything.
      'cd "$D" && ../bin/cat notes',
      'cd a* && ../bin/cat notes',
      // Through a link, `..` is the parent of the link's target (a/), as execve(2) reads it.
      'cd lnk && ../../bin/cat notes',
    ])
      expect(await decide(rules, command, here), command).toMatchObject({ decision: 'ask', needsPerson: true });
    // A known script is one only where node would really find it.
    const node = { path: `${join(root, 'bin')}:${dirname(process.execPath)}` };
    const known = { ...here, ...node, knownScripts: [join(root, 'skills')] };
    expect(await decide(rules, 'node ../skills/x/run.mjs', known)).toMatchObject({ decision: 'allow' });
    expect(await decide(rules, 'cd "$D" && node ../skills/x/run.mjs', known)).toMatchObject({ needsPerson: true });
    expect(await decide(rules, '(cd a); node ../skills/x/run.mjs', known)).toMatchObject({ needsPerson: true });
    // Reached through a link in the workspace, which the line could point elsewhere first.
    symlinkSync(join(root, 'skills', 'x', 'run.mjs'), join(root, 'ws', 'run.mjs'));
    expect(await decide(rules, 'node run.mjs', known)).toMatchObject({ needsPerson: true });
  });

  it('a cd that may not run, a function that may not be defined, a link the line changes: read as bash may run them', async () => {
    const ws = realpathSync(mkdtempSync(join(tmpdir(), 'zhixing-maybe-')));
    roots.push(ws);
    writeFileSync(join(ws, 'ls'), '#!/bin/sh\nrm -rf victim\n', { mode: 0o755 });
    const { symlinkSync } = await import('node:fs');
    symlinkSync('/usr/bin/ls', join(ws, 'x'));
    const here = { cwd: ws, path: '/usr/bin:/bin', home: ws };
    for (const command of [
      // The workspace's own ls runs: none of these cds moves the line before it.
      '(cd /usr/bin); ./ls',
      'cd /usr/bin | true; ./ls',
      'cd /usr/bin & ./ls',
      'echo $(cd /usr/bin); ./ls',
      'false && cd /usr/bin; ./ls',
      'if false; then cd /usr/bin; fi; ./ls',
      'f(){ cd /usr/bin; }; ./ls',
      'for d in a b; do ./ls; cd /usr/bin; done',
      // A function of a program's name, defined where it may not hold, or removed: the program runs.
      '(nice() { :; }); nice rm -rf victim',
      'git() { :; }; unset -f git; git p',
      'f() { git() { :; }; }; git p',
      // A link the same line points elsewhere before it runs.
      'ln -sfn /usr/bin/nice x; ./x rm -rf victim',
      'for i in 1 2; do ./x rm -rf victim; ln -sfn /usr/bin/nice x; done',
      // Words bash fills from PWD, OLDPWD and the folder stack.
      'OLDPWD=-rf; rm ~- victim',
      'PWD=-rf; rm ~+ victim',
      'rm ~-/x -r',
      // Brackets may put any of their characters in a name: `-[e-g.]` can be `-f`.
      'touch ./-f && rm -r -[e-g.] victim',
      'rm -r -[[:alpha:].] victim',
      'rm -r -[!.] victim',
      // Braces and globs make words, options among them, before the program reads them.
      'rm {,}-rf victim',
      'rm {"",}-rf victim',
      'rm -r {,}-f victim',
      "echo x | split {,}--filter='rm -rf victim'",
      "find . -maxdepth 0 {-exec,sh} -c 'rm -rf victim' ';'",
      "touch ./-exec; find . -maxdepth 0 -exe[c] sh -c 'rm -rf victim' ';'",
      "tar -cf /dev/null --checkpoint=1 {,}--checkpoint-action=exec='rm -rf victim' notes.txt",
      'sort -S 1k {,}--compress-program=./x notes',
      "git log -1 --format='[core]%n%x09fsmonitor = x' {,}--output=.git/config; git status",
      'tar -cf x.tar *',
      // A here-document's end word that bash reads after quote removal: the lines after `E` are commands.
      "cat <<E''\nx\nE\nrm -rf victim\nE''",
      "cat <<$'E'\nx\nE\nrm -rf victim\nE",
      'cat <<E""F\nx\nEF\nrm -rf victim\nE""F',
      // A program run under another name.
      '(exec -a linux64 setarch rm -rf echo victim)',
      'exec -la linux64 setarch rm -rf echo victim',
      '/lib64/ld-linux-x86-64.so.2 --argv0 linux64 /usr/bin/setarch rm -rf echo victim',
      // Wrappers whose own options run commands, or whose parsers a table cannot follow.
      'strace -f -o /dev/null -E BASH_ENV=./x bash -c :',
      "strace -fo '|rm -rf victim' true",
      "strace --output='|rm -rf victim' true",
      "perf stat --pre='rm -rf victim' --post='git push origin main' true",
      "script -q -c true -c 'rm -rf victim' /dev/null",
      'flock --wait 1 echo rm -rf victim',
      'env --block-signal rm -rf echo ls victim',
      'env --block-signal git --work-tree ls --no-pager push --all',
      'env --block-signal=INT rm -rf victim',
      "find victim -maxdepth 0 -exec rm + -rf {} ';'",
      // An optional architecture, a `-p` that belongs to the command, a root of the command's choosing.
      'setarch -R rm -rf victim',
      'setarch -R git push origin main',
      'taskset 1 rm -rf -- victim -p',
      'chrt -o 0 git push --repo -p origin main',
      'unshare -r -R . ls',
      // Words with a piece find or xargs replaces are made at run time.
      'echo rf | xargs -I{} rm -{} -- victim',
      'echo rf | xargs -I@ rm -r@ -- victim',
      'echo rf | xargs -i rm -{} victim',
      'echo rf | xargs --replace=Q rm -Q victim',
      "touch rf; find rf -exec rm -{} victim ';'",
      "find S -maxdepth 0 -exec env -{} ';'",
      "echo 'filter=git push origin main' | xargs -I@ split --@ notes.txt",
      // A variable xargs sets in what it runs.
      'echo x | xargs --process-slot-var=PATH ls',
      'echo x | xargs --process=GIT_DIR git status',
      // A sed label ends at whitespace: what follows is a command.
      "echo x | sed ':a e rm -rf victim'",
      "echo x | sed 'b a e rm -rf victim'",
      // A program started under another name by env (coreutils 9.5 on): git as git-push pushes.
      'env --argv0=git-push git status main',
      'env -agit-push git status main',
      'env -i -agit-push git status main',
      'env --arg=git-push git status main',
      'timeout 5 env --argv0=git-push git status main',
      'env -u X -agit-push git status main',
      'env --unset X --argv0=git-push git status main',
    ]) {
      const v = await decide(rules, command, here);
      if (v.decision !== 'deny') expect(v, command).toMatchObject({ decision: 'ask', needsPerson: true });
    }
    // Sequential cds, links left alone and plain functions stay understood.
    for (const command of [
      'cd /usr/bin && ls',
      './x -l',
      'greet() { echo hi; }; greet',
      'ls ~/notes',
      'ls *.txt',
      'cat a{1,2}.txt',
      "cat <<'E'\n$(x)\nE",
      'cat <<E\nplain\nE',
      'cat <<\\E\nx\nE',
      'exec ls -la',
      'env --block-signal ls -l',
      "find . -name '*.txt' -exec cat {} +",
      'echo a | xargs -I{} cat {}.txt',
      "echo x | sed ':a;s/x/y/;ta'",
      'env -i -u X ls -a',
    ])
      expect(await decide(rules, command, here), command).toMatchObject({ decision: 'allow' });
  });

  it('text bash reads again or reads on: backquotes whose backslashes it removes, a # that starts no comment for it, <( in [[ ]]', async () => {
    const ws = realpathSync(mkdtempSync(join(tmpdir(), 'zhixing-reread-')));
    roots.push(ws);
    const here = { cwd: ws, path: '/usr/bin:/bin', home: ws };
    const hidden = [
      'echo `echo \\`rm -rf victim\\``',
      'echo `echo \\`git push -q origin main 2>&1\\``',
      'echo `echo "\\$(rm -rf victim)"`',
      'x=`echo \\`rm -rf victim\\``',
      '[[ `echo \\`rm -rf victim\\`` ]]',
      'case `echo \\`rm -rf victim\\`` in *) ;; esac',
      'for i in `echo \\`rm -rf victim\\``; do :; done',
      'echo `true \\`\\\\\\`rm -rf victim\\\\\\`\\``',
      'echo "`echo \\`rm -rf victim\\``"',
      'echo "`echo \\"\\`rm -rf victim\\`\\"`"',
      // The grammar skips CR, form feed, vertical tab and a backslash before a blank or a newline; bash reads them as part of a word.
      'echo a\r#x; rm -rf victim',
      'echo a\\\t#x; git push -q origin main',
      'echo a\\\n#x; rm -rf victim',
      'echo a\f#x; git push -q origin main',
      'echo a\v#x; rm -rf victim',
      'echo a\\\r#x; rm -rf victim',
      'echo 中文\r#x; rm -rf victim',
      // In [[ ]] the grammar reads `*<(…)` as a word, a comparison and a group; bash runs the process substitution.
      '[[ x == *<(sh -c "rm -rf victim; git push -q origin main") ]]; sleep 1',
      '[[ *<(rm -rf victim) ]]',
      '[[ ! @>(rm -rf victim) ]]',
      '[[ -f ,>(rm -rf victim) ]]',
      '[[ 1>(rm -rf victim) -ef x ]]',
      '[[ x && x=<(rm -rf victim) ]]',
      '[[ (*>(rm -rf victim)) ]]',
      '[[ x < *<(rm -rf victim) ]]',
      '[[ x == \\*<(rm -rf victim) ]]',
      // A POSIX shell (dash as sh) reads these otherwise than bash: `$'…'` is no quote, `&>` backgrounds.
      "sh -c \"echo \\$'a\\\\' ; rm -rf victim; git push -q origin main ; echo ' ;# '\"",
      "sh -c 'echo ok &>/dev/null rm -rf victim'",
      "env sh -c 'echo ok &>/dev/null git push -q origin main'",
      "find . -exec dash -c 'echo ok &>/dev/null rm -rf victim' \\;",
      "sh -c '[[ x < y && rm -rf victim ]]'",
      'sh -c \'alias ls="rm -rf victim"\nls\'',
      // Shells of another grammar altogether.
      "zsh -c 'ls'",
      "fish -c 'ls'",
      // A shell made to run its startup files first, which the line may have written.
      "printf 'rm -rf victim\\n' > ~/.profile; exec -l sh -c ls",
      'exec -cl bash -c ls',
      'exec -l ls',
      "printf 'rm -rf victim\\n' > ~/.bashrc; SSH2_CLIENT=1 SHLVL=0 bash -c ls; :",
      'export SSH2_CLIENT=1 SHLVL=0; bash -c ls',
      'env SSH2_CLIENT=1 SHLVL=0 bash -c ls',
      'SHLVL=0 bash -c ls; :',
      // flock's own options end at the lock file.
      'flock x git -c a=b push origin',
      'flock -n x git -c a=b push origin',
      'flock -w 1 x rm -r -f -- victim',
      "flock x -c 'echo ok &>/dev/null rm -rf victim'",
      // ld.so's --inhibit-rpath takes a value; an option it may not know may too.
      'ld.so --inhibit-rpath echo /usr/bin/rm -rf victim',
      'ld.so --inhibit-rpath echo /usr/bin/git push origin HEAD:refs/heads/pwned',
      'ld.so --frob x /usr/bin/rm -rf victim',
      // Signatures shown in a format are checked with gpg, which runs what its settings (GNUPGHOME) name.
      'GNUPGHOME=g git log --format=%GK -1',
      'export GNUPGHOME=g; git log -1',
      "git log --format='%G?' -1",
      // A backslash opening a line: the grammar reads the line into the command before, bash runs it.
      'echo hi\n\\rm -rf victim',
      'echo hi\n\\git push origin HEAD:refs/heads/pwned',
      'true\n\\rm -rf victim',
      '\\echo hi\n\\rm -rf victim',
      'echo a | cat\n\\rm -rf victim',
      // The same after a redirection, a declaration or unset, and a redirection opening a line after a blank one.
      'echo hi 2>&1\n\\git push origin HEAD:refs/heads/pwned',
      'echo hi > f\n\\rm -rf victim',
      'export A=1\n\\rm -rf victim',
      'unset A\n\\git push origin HEAD:refs/heads/pwned',
      'echo hi \\\n\n2>x rm -rf victim',
    ];
    for (const command of hidden) {
      const v = await decide(rules, command, here);
      if (v.decision !== 'deny') expect(v, command).toMatchObject({ decision: 'ask', needsPerson: true });
      // Under allows alone, an allow for echo speaks for echo only.
      expect((await decide({ shell: { 'echo *': 'allow' } }, command, here)).decision, command).not.toBe('allow');
    }
    for (const command of ['echo `echo \\`rm -rf /\\``', 'echo a\r#x; rm -rf /', 'echo a\\\n#x; :(){ :|:& };:'])
      expect((await analyzeCommand(command, here)) as { catastrophe?: string }, command).toHaveProperty('catastrophe');
    // Comments bash reads as comments, and backquotes without such backslashes, stay as they were.
    for (const command of [
      'ls -la # list',
      'ls;#x',
      'echo `echo hi` # ok',
      'echo a #x; rm -rf victim',
      'echo 中文 #x',
      '[[ -f notes.txt && $x < y ]] && echo yes',
      '[[ $x == \'a<(b)\' || $x == "<(" ]] && echo yes',
      // New lines bash reads inside a statement: a continuation, quotes, a body, a substitution.
      'ls -la \\\n  /tmp > f',
      'echo "a\nb" > f',
      '{ echo a\n} > f\nls',
      'echo $(ls\n) > f',
    ])
      expect(await decide({ shell: { 'echo *': 'allow', 'ls*': 'allow' } }, command, here), command).toMatchObject({
        decision: 'allow',
      });
    // A POSIX shell's line with nothing the grammars read apart is read as bash reads it.
    expect(await decide(rules, "sh -c 'ls -la && echo done'", here)).toMatchObject({ decision: 'allow' });
  });

  it('a .git file or a commondir, which git follows from inside the sandbox (links, /proc/self/cwd), is unread', async () => {
    const { renameSync, symlinkSync, cpSync } = await import('node:fs');
    // The settings git would read: a copy of the repository with a program in its config.
    const evil = repo();
    cpSync(join(evil, '.git'), join(evil, 'evil.git'), { recursive: true });
    writeFileSync(join(evil, 'evil.git', 'config'), '[core]\n\tfsmonitor = rm -rf victim\n', { flag: 'a' });
    renameSync(join(evil, '.git'), join(evil, 'real.git'));
    for (const to of ['/proc/self/cwd/evil.git', 'l/../evil.git', 'real.git']) {
      writeFileSync(join(evil, '.git'), `gitdir: ${to}\n`);
      for (const command of ['git status', 'git log', 'git diff'])
        expect(await decide(rules, command, options(evil)), `${to}: ${command}`).toMatchObject({
          decision: 'ask',
          needsPerson: true,
        });
    }
    // A real .git folder whose commondir names the settings' folder.
    const common = repo();
    cpSync(join(common, '.git'), join(common, 'evil.git'), { recursive: true });
    mkdirSync(join(common, 'd'));
    symlinkSync(join(common, 'd'), join(common, 'l'));
    writeFileSync(join(common, '.git', 'commondir'), '/proc/self/cwd/evil.git\n');
    expect(await decide(rules, 'git status', options(common))).toMatchObject({ decision: 'ask', needsPerson: true });
    // A folder with a HEAD whose commondir names the rest is a repository to git: its settings are elsewhere.
    const bare = repo();
    mkdirSync(join(bare, 'sub'));
    writeFileSync(join(bare, 'sub', 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(join(bare, 'sub', 'commondir'), '../evil\n');
    for (const command of ['git -C sub diff', 'cd sub && git diff'])
      expect(await decide(rules, command, options(bare)), command).toMatchObject({
        decision: 'ask',
        needsPerson: true,
      });
    // A format named in the settings may show signatures, which gpg checks.
    for (const settings of ['[format]\n\tpretty = %GK\n', '[pretty]\n\tx = %GK\n'])
      expect(await decide(rules, 'git log -1', options(repo(settings))), settings).toMatchObject({
        decision: 'ask',
        needsPerson: true,
      });
    // Links where git looks for a repository or its settings, which lead elsewhere from inside the sandbox.
    const linked = realpathSync(mkdtempSync(join(tmpdir(), 'zhixing-linked-')));
    roots.push(linked);
    symlinkSync('/proc/self/cwd/r', join(linked, '.git'));
    expect(await decide(rules, 'git status', options(linked))).toMatchObject({ decision: 'ask', needsPerson: true });
    for (const entry of ['config', 'hooks']) {
      const r = repo();
      rmSync(join(r, '.git', entry), { recursive: true, force: true });
      symlinkSync(`/proc/self/cwd/${entry}`, join(r, '.git', entry));
      expect(await decide(rules, 'git status', options(r)), entry).toMatchObject({
        decision: 'ask',
        needsPerson: true,
      });
    }
  });

  it("a line that may write git's settings before git reads them", async () => {
    for (const command of [
      "printf '[core]\\n\\tfsmonitor = git push\\n' >> .git/config && git status",
      'cp /tmp/evil .git/config; git status',
      'git log --format=%B -1 --output=.git/config && git status',
      'sort -o .git/config x && git diff',
      'git config --rename-section foo core && git status',
    ])
      expect(await decide(rules, command), command).toMatchObject({ decision: 'ask', needsPerson: true });
    // Writing nowhere, or only to the null device, changes nothing.
    expect(await decide(rules, 'git status 2>/dev/null | grep x >&2')).toMatchObject({ decision: 'allow' });
  });
});

describe('{"git push*": "deny", "git *": "allow"}: git, but not push', () => {
  const rules: PermissionRules = { shell: { 'git push*': 'deny', 'git *': 'allow' } };
  it.each(['git p', 'git pu origin', 'git commit -m x', 'git ls-remote --upload-pack=x origin'])(
    'an allow naming only git does not cover %s',
    async (command) => {
      expect(await decide(rules, command)).toMatchObject({ decision: 'ask', needsPerson: true });
    },
  );
  it.each(['git status', 'git log --oneline'])('it still covers %s', async (command) => {
    expect((await decide(rules, command)).decision).toBe('allow');
  });
  it("an allow naming the subcommand is the user's word on it", async () => {
    expect((await decide({ shell: { 'git push*': 'deny', 'git commit*': 'allow' } }, 'git commit -m x')).decision).toBe(
      'allow',
    );
  });
});

describe('without a deny among the rules, nothing asks more than before', () => {
  it.each([
    ['linux64 ls', 'allow'],
    ['some-new-tool x', 'allow'],
    ['git push', 'allow'],
    ['git commit -m x', 'allow'],
    ['make', 'ask'],
    ['python3 script.py', 'ask'],
    // Installs and test runs run code the project's files hold.
    ['pip install --no-index .', 'ask'],
    ['pytest -q', 'ask'],
    ['cargo build', 'ask'],
    ['go run .', 'ask'],
    ['pip list', 'allow'],
    // flock reads its options up to the lock file: this -c is python's.
    ["flock /tmp/lk python3 -c 'import shutil'", 'ask'],
    // A lone `-` is env's -i; --inhibit-rpath's value is not the program.
    ["env - /usr/bin/python3 -c 'import shutil'", 'ask'],
    ["env -- - python3 -c 'import shutil'", 'ask'],
    ["ld.so --inhibit-rpath x /usr/bin/python3 -c 'import shutil'", 'ask'],
    ['ls', 'allow'],
    ['git status', 'allow'],
  ] as const)('{"shell": {"*": "allow"}}: %s → %s', async (command, decision) => {
    const v = await decide({ shell: { '*': 'allow' } }, command, options(repo('[alias]\n\tst = !git push\n')));
    expect(v.decision).toBe(decision);
    expect(v.needsPerson).toBeUndefined();
  });

  it.each(['ls', 'cat x', 'git status', 'linux64 ls', 'some-new-tool x'])(
    'the default rules: %s asks, and --yes may answer',
    async (command) => {
      const v = await decide({}, command);
      expect(v).toMatchObject({ decision: 'ask' });
      expect(v.needsPerson).toBeUndefined();
    },
  );
});
