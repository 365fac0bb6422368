import { CHANGES_SETTINGS, interpreterReason, RUNS_SOMETHING, SHELLS } from './programs.js';
import { attachedValue, isAnyLongOption, isLongOption } from './options.js';
import { awk, git, projectScripts, sed } from './runs-by-option.js';
import { shell, shScript } from './shells.js';
import { stateWrites } from './shell-state.js';
import type { Unwrapped } from './unwrapped.js';
import type { Word } from './words.js';

/** Options of a wrapper: which short letters and long names take a value. */
interface OptionSpec {
  short?: string;
  long?: string[];
  /** Also skip leading `NAME=value` words (env, sudo). */
  assignments?: boolean;
  /** Treat `-N` (a number) as an option (nice -10). */
  numeric?: boolean;
  /** Read every option not listed as taking the next word: the other way an unknown option may go. */
  greedy?: boolean;
  /** Short letters and long names known to take no value, so never read as taking one. */
  flags?: { short?: string; long?: string[] };
}

/**
 * Index of the first word after a wrapper's options (and assignments), or -1 when a word the
 * options depend on is made at run time. Short options may be grouped (`-iu NAME`) or take their value
 * attached (`-uNAME`); `--` ends them.
 */
function afterOptions(args: Word[], spec: OptionSpec, start = 0): number {
  let i = start;
  while (i < args.length) {
    const w = args[i]!;
    if (w.dynamic) return -1;
    const a = w.value;
    if (a === '--') return i + 1;
    if (spec.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(a)) {
      i++;
      continue;
    }
    if (a.startsWith('--') && a.length > 2) {
      const name = a.slice(2).split('=')[0]!;
      // getopt_long takes any prefix of a long option; a name that is itself a flag is that flag.
      const flag = spec.flags?.long?.includes(name) === true;
      i += !a.includes('=') && !flag && (isAnyLongOption(a, spec.long ?? []) || spec.greedy) ? 2 : 1;
      continue;
    }
    if (spec.numeric && /^-\d+$/.test(a)) {
      i++;
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      let takesNext = spec.greedy === true && !spec.flags?.short?.includes(a.at(-1)!);
      for (let k = 1; k < a.length; k++) {
        if (spec.short?.includes(a[k]!)) {
          takesNext = k === a.length - 1;
          break;
        }
      }
      i += takesNext ? 2 : 1;
      continue;
    }
    return i;
  }
  return i;
}

/** Whether env's own options (getopt `+a:iC:Su:v0`) hold -a, in a group or abbreviated as --a…. */
function envArgv0(args: Word[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.dynamic) return true;
    const v = a.value;
    if (v === '--' || !v.startsWith('-') || v === '-') return false;
    if (v.startsWith('--')) {
      if (isLongOption(v, 'argv0')) return true;
      // --unset NAME, --chdir DIR, --split-string S: the next word is the value.
      if (!v.includes('=') && isAnyLongOption(v, ['unset', 'chdir', 'split-string'])) i++;
      continue;
    }
    // Flags go on to the next letter; a letter taking a value takes the rest of the word, or the next one.
    for (let j = 1; j < v.length; j++) {
      const letter = v[j]!;
      if (letter === 'a') return true;
      if ('iv0'.includes(letter)) continue;
      if (j === v.length - 1) i++;
      break;
    }
  }
  return false;
}

/** exec's own option words, before the program it runs: a word made at run time may be one of them. */
function execOptions(args: Word[]): Word[] {
  const end = args.findIndex((a) => !a.dynamic && (!a.value.startsWith('-') || a.value === '--'));
  return end < 0 ? args : args.slice(0, end);
}

/** A wrapper's own words, before the operand `afterOptions` found (all of them when it could not tell). */
const ownOptions = (args: Word[], i: number): Word[] => (i < 0 ? args : args.slice(0, i));

/**
 * Words of a command another runs with a piece replaced first (find's `{}` anywhere in a word, xargs's
 * -I string): such a word is made at run time, and `rm -{}` may be `rm -rf`.
 */
function replacedIn(argv: Word[], piece: string): Word[] {
  return argv.map((w, n) =>
    n > 0 && piece && w.value.includes(piece) ? { ...w, dynamic: true, value: w.value.split(piece).join('{}') } : w,
  );
}

const rest = (args: Word[], i: number): Unwrapped =>
  i < 0 ? { opaque: 'its options are made at run time' } : i >= args.length ? {} : { runs: [{ argv: args.slice(i) }] };
const valueOf = (w: Word | undefined) => w?.value;

/**
 * Wrappers read for what they run, so a deny over it holds, but never counted as understood: their own
 * options run commands or set the environment (`strace -E`, `-o '|cmd'`, `perf stat --pre=`); they
 * follow settings a command can write (valgrind's ./.valgrindrc and --db-command, parallel's
 * ~/.parallel/config and --ssh, firejail's profiles) or reach beyond the sandbox (systemd-run, pkexec);
 * or their parsers have turns a table cannot follow (the last `script -c` wins; `flock --wait`,
 * `nsenter -r`, `watch -d` take values only when attached). Under a deny, a person decides them.
 */
const READ_NOT_SURELY = new Set([
  'strace',
  'ltrace',
  'valgrind',
  'perf',
  'script',
  'su',
  'runuser',
  'flock',
  'faketime',
  'proxychains',
  'proxychains4',
  'torsocks',
  'firejail',
  'pkexec',
  'xvfb-run',
  'systemd-run',
  'hyperfine',
  'nsenter',
  'watch',
  'entr',
  'parallel',
  // Their reading of a program after options has turns of its own (an optional architecture, `-p` pids).
  'setarch',
  'linux32',
  'linux64',
  'i386',
  'x86_64',
  'chrt',
  'taskset',
]);

/** Options, then a command with its arguments: most wrappers. */
const SIMPLE: Record<string, OptionSpec> = {
  nohup: {},
  builtin: {},
  exec: { short: 'a' },
  nice: { short: 'n', long: ['adjustment'], numeric: true },
  time: {
    short: 'fo',
    long: ['format', 'output'],
    flags: { short: 'pvaq', long: ['portability', 'verbose', 'append', 'quiet'] },
  },
  stdbuf: { short: 'ioe', long: ['input', 'output', 'error'] },
  setsid: { flags: { short: 'cfw', long: ['ctty', 'fork', 'wait'] } },
  ionice: { short: 'cnp', long: ['class', 'classdata', 'pid'] },
  doas: { short: 'uC' },
  sudo: {
    short: 'ugpCDrtUTh',
    long: ['user', 'group', 'prompt', 'close-from', 'chdir', 'role', 'type', 'other-user', 'command-timeout', 'host'],
    assignments: true,
    flags: {
      short: 'AbEeHiKklnPSsVv',
      long: [
        'askpass',
        'background',
        'preserve-env',
        'set-home',
        'login',
        'remove-timestamp',
        'reset-timestamp',
        'non-interactive',
        'shell',
        'stdin',
        'validate',
      ],
    },
  },
  env: {
    short: 'uCS',
    long: ['unset', 'chdir', 'split-string'],
    assignments: true,
    // The signal options take a value only when attached (`--block-signal=INT`): alone they take none.
    flags: {
      short: 'i0v',
      long: ['ignore-environment', 'null', 'debug', 'block-signal', 'default-signal', 'ignore-signal'],
    },
  },
  unbuffer: {},
  caffeinate: {},
  catchsegv: {},
  chronic: {},
  entr: {},
  strace: { short: 'oepsuEIaSbPX', flags: { short: 'fFqrtTvVyxwkcCdDhiz' } },
  ltrace: { short: 'oepsuaEnlAL' },
  valgrind: {},
  proxychains: { short: 'f' },
  proxychains4: { short: 'f' },
  torsocks: { short: 'uapP' },
  firejail: {},
  pkexec: { long: ['user'] },
  unshare: {
    short: 'SGR',
    long: ['setuid', 'setgid', 'root', 'wd'],
    flags: {
      short: 'mUipnuCTfrc',
      long: [
        'fork',
        'pid',
        'mount',
        'user',
        'map-root-user',
        'map-current-user',
        'net',
        'uts',
        'ipc',
        'cgroup',
        'time',
        'mount-proc',
        'kill-child',
      ],
    },
  },
  nsenter: { short: 'tSGrw', long: ['target', 'setuid', 'setgid', 'root', 'wd'] },
  'xvfb-run': { short: 'nsfep', long: ['server-num', 'server-args', 'auth-file', 'error-file'] },
  'systemd-run': {
    short: 'pEMHu',
    long: ['unit', 'property', 'setenv', 'machine', 'host', 'uid', 'gid', 'working-directory', 'description'],
  },
  // setarch under its per-architecture names: flags only, then the command.
  linux32: {},
  linux64: {},
  i386: {},
  x86_64: {},
  prlimit: { short: 'p', long: ['pid'] },
};

/** tar's options that run a program of the command's choosing (`--checkpoint` alone is not one). */
const TAR_RUNS = [
  'to-command',
  'use-compress-program',
  'checkpoint-action',
  'info-script',
  'new-volume-script',
  'rsh-command',
  'rmt-command',
];

/** The dynamic loader run as a program (`ld.so`, `/lib64/ld-linux-x86-64.so.2`): it runs the program it is given. */
const LOADER = /^ld(?:-linux[\w.-]*|-musl[\w.-]*|64)?\.so(?:\.\d+)*$/;
/** ld.so's options that take a value (`ld.so --help`), and all of its options. */
const LOADER_WITH_VALUE = ['argv0', 'glibc-hwcaps-prepend', 'glibc-hwcaps-mask', 'inhibit-rpath'];
const LOADER_OPTIONS = [
  ...LOADER_WITH_VALUE,
  'list',
  'verify',
  'inhibit-cache',
  'list-tunables',
  'list-diagnostics',
  'help',
  'version',
];

/**
 * Programs `unwrap` reads through completely: what they run comes out as parts (or they are opaque).
 * Others in RUNS_BY_ARGUMENTS (pagers, ssh, make, npm, …) are only half read: they count as unknown.
 */
const READ_THROUGH = new Set([
  'eval',
  'command',
  'xargs',
  'timeout',
  'chrt',
  'taskset',
  'flock',
  'su',
  'runuser',
  'script',
  'watch',
  'parallel',
  'find',
  'busybox',
  'toybox',
  'chroot',
  'source',
  '.',
  'awk',
  'gawk',
  'mawk',
  'nawk',
  'busybox-awk',
  'coproc',
  'faketime',
  'hyperfine',
  'at',
  'batch',
  'crontab',
  'screen',
  'tmux',
  'dtach',
  'byobu',
  'alias',
  'trap',
  'hash',
  'enable',
  'shopt',
  'sed',
  'gsed',
  'tar',
  'gtar',
  'bsdtar',
  'zip',
  'rsync',
  'setarch',
]);

/** An operand naming another machine (`host:path`, `rsync://…`): reached through ssh, whose settings run commands. */
const REMOTE_OPERAND = /^(?:[^/-][^/]*:|rsync:\/\/)/;

/**
 * True when `unwrap` reads everything `name args…` runs: a known wrapper, read through. False for a
 * program that runs others in ways it does not read (its settings, another machine, a project file).
 */
export function knownWrapper(name: string, args: Word[]): boolean {
  if (READ_NOT_SURELY.has(name)) return false;
  if (
    /^(?:rsync|tar|gtar|bsdtar)$/.test(name) &&
    args.some((a) => REMOTE_OPERAND.test(a.value)) &&
    !args.some((a) => a.value === '--force-local')
  )
    return false;
  return name in SIMPLE || READ_THROUGH.has(name) || LOADER.test(name);
}

/** Programs that run others through their arguments (beyond SIMPLE, the shells and the interpreters). */
const RUNS_BY_ARGUMENTS = new Set([
  'eval',
  'command',
  'xargs',
  'timeout',
  'chrt',
  'taskset',
  'flock',
  'su',
  'runuser',
  'script',
  'watch',
  'parallel',
  'find',
  'busybox',
  'toybox',
  'chroot',
  'source',
  '.',
  'awk',
  'gawk',
  'mawk',
  'nawk',
  'git',
  'coproc',
  'faketime',
  'perf',
  'hyperfine',
  'at',
  'batch',
  'crontab',
  'screen',
  'tmux',
  'dtach',
  'byobu',
  'alias',
  'trap',
  'hash',
  'enable',
  'sed',
  'gsed',
  'tar',
  'gtar',
  'bsdtar',
  'rsync',
  'ssh',
  'make',
  'gmake',
  'just',
  'npx',
  'pnpx',
  'bunx',
  'rake',
  'ninja',
  'npm',
  'yarn',
  'pnpm',
  'bun',
  'less',
  'more',
  'man',
  'vipe',
  'zip',
  'unzip',
]);

/**
 * True when `name` may run another program depending on its arguments: given arguments nobody knows
 * yet (`… | xargs env`), what it runs cannot be read.
 */
export function mayRunOthers(name: string): boolean {
  return (
    SHELLS.test(name) || name in SIMPLE || RUNS_BY_ARGUMENTS.has(name) || interpreterReason(name, ['-c']) !== undefined
  );
}

/**
 * What `name args…` would run, when `name` is a program that runs others: shells with `-c`, `eval`,
 * `env`, `sudo`, `xargs`, `find -exec` and the like. Undefined for a program that runs nothing else.
 */
export function unwrap(name: string, args: Word[]): Unwrapped | undefined {
  if (SHELLS.test(name)) return shell(name, args);
  const interpreter = interpreterReason(
    name,
    args.map((a) => a.value),
  );
  if (interpreter) return { opaque: interpreter };
  // `exec -a linux64 setarch …` runs setarch under another name, and a program may act on the name it
  // is given (multi-call binaries, `git-*`, linux64/setarch): what it does is not what the words say.
  if (name === 'exec' && execOptions(args).some((a) => a.dynamic || /^-[a-z]*a/.test(a.value)))
    return { opaque: "exec -a runs the program under a name of the command's choosing" };
  // `exec -l` starts it as a login shell (`-sh`), which first runs ~/.profile and the like.
  if (name === 'exec' && execOptions(args).some((a) => /^-[a-z]*l/.test(a.value)))
    return { opaque: 'exec -l starts the program as a login shell, which runs startup files first' };
  // env -a / --argv0 (coreutils 9.5 on) does the same: git started as `git-push` pushes.
  if (name === 'env' && envArgv0(args))
    return { opaque: "env -a runs the program under a name of the command's choosing" };
  // GNU env reads a lone `-` among its options as -i.
  if (name === 'env') args = loneDash(args);
  if (name in SIMPLE) return simple(name, args);
  const written = stateWrites(name, args);
  if (written) return written;
  if (LOADER.test(name)) {
    // `--preload`, `--audit` and `--library-path` load code of the command's choosing into what it runs.
    if (args.some((a) => isAnyLongOption(a.value, ['preload', 'audit', 'library-path'])))
      return { opaque: `${name} loads libraries of the command's choosing` };
    if (args.some((a) => a.dynamic || isLongOption(a.value, 'argv0')))
      return { opaque: `${name} --argv0 runs the program under a name of the command's choosing` };
    const i = afterOptions(args, { long: LOADER_WITH_VALUE });
    // An option not in ld.so's list may take the next word, which would then not be the program.
    const unknown = ownOptions(args, i).find(
      (a) => a.value.startsWith('-') && a.value !== '--' && !LOADER_OPTIONS.some((o) => isLongOption(a.value, o)),
    );
    if (unknown) return { opaque: `${name} ${unknown.value} is an option this reading does not know` };
    return rest(args, i);
  }
  switch (name) {
    case 'setarch': {
      // `setarch ARCH [flags] CMD`: the architecture, then flags, then what runs (a shell when nothing does).
      // The architecture may be left out (`setarch -R CMD`, util-linux 2.38): then options come first.
      if (!args.length) return {};
      const i = afterOptions(args, {}, args[0]!.value.startsWith('-') ? 0 : 1);
      return i >= args.length ? { opaque: 'setarch starts a shell that reads commands from its input' } : rest(args, i);
    }
    case 'eval':
      return args.length ? { scripts: [joined(args)] } : {};
    case 'command': {
      const i = afterOptions(args, { short: '' });
      // `command -v x` / `-V` only says where x is.
      if (args.slice(0, Math.max(i, 0)).some((a) => /^-[a-zA-Z]*[vV]/.test(a.value))) return {};
      return rest(args, i);
    }
    case 'xargs':
      return xargs(args);
    case 'timeout': {
      const i = afterOptions(args, { short: 'sk', long: ['signal', 'kill-after'] });
      return i < 0 ? rest(args, i) : rest(args, i + 1);
    }
    case 'chrt': {
      const i = afterOptions(args, { short: 'TPD', long: ['sched-runtime', 'sched-period', 'sched-deadline'] });
      // Only chrt's own options, before its first operand: a `-p` after it belongs to the command.
      if (ownOptions(args, i).some((a) => /^-[a-zA-Z]*p/.test(a.value) || a.value === '--pid')) return {};
      return i < 0 ? rest(args, i) : rest(args, i + 1);
    }
    case 'taskset': {
      const i = afterOptions(args, {});
      if (ownOptions(args, i).some((a) => /^-[a-z]*p/.test(a.value) || a.value === '--pid')) return {};
      return i < 0 ? rest(args, i) : rest(args, i + 1);
    }
    case 'flock': {
      // flock reads its options up to the lock file, then runs `-c STRING` with sh, or the words after it:
      // in `flock x python3 -c 1` the -c is python's.
      const i = afterOptions(args, { short: 'Ewc', long: ['conflict-exit-code', 'timeout', 'command'] });
      if (i < 0) return rest(args, i);
      const own = ownOptions(args, i).findIndex(
        (a) => /^-[a-zA-Z]*c/.test(a.value) || isLongOption(a.value, 'command'),
      );
      const after = args[i + 1] && (args[i + 1]!.value === '-c' || args[i + 1]!.value === '--command') ? i + 1 : -1;
      const c = after >= 0 ? after : own;
      if (c < 0) return rest(args, i + 1);
      const script = attachedValue(args[c]!) ?? args[c + 1];
      return script ? shScript(script) : {};
    }
    case 'su':
    case 'runuser':
    case 'script': {
      // su's --session-command runs its command as --command does.
      const long = (w: Word) => isAnyLongOption(w.value, ['command', 'session-command']);
      const c = args.findIndex((a) => /^-[a-zA-Z]*c$/.test(a.value) || (long(a) && !a.value.includes('=')));
      if (c >= 0 && args[c + 1]) return { scripts: [args[c + 1]!] };
      const attached = args.find((a) => long(a) && a.value.includes('='));
      if (attached) return { scripts: [attachedValue(attached)!] };
      return name === 'script' && args.every((a) => a.value.startsWith('-') || a === args.at(-1))
        ? { opaque: 'script starts a shell that reads commands from its input' }
        : { opaque: `${name} starts a shell that reads commands from its input` };
    }
    case 'watch': {
      const i = afterOptions(args, { short: 'nq', long: ['interval', 'equexit', 'differences'] });
      if (i < 0) return rest(args, i);
      if (i >= args.length) return {};
      // Without -x, watch hands its words to `sh -c`.
      return args.some((a) => a.value === '-x' || isLongOption(a.value, 'exec'))
        ? rest(args, i)
        : shScript(joined(args.slice(i)));
    }
    case 'parallel':
      return parallel(args);
    case 'find':
      return find(args);
    case 'busybox':
    case 'toybox':
      return args.length ? { runs: [{ argv: args }] } : {};
    case 'chroot':
      return { opaque: 'chroot runs a program inside another root folder, which cannot be read from here' };
    case 'source':
    case '.':
      return {
        opaque: `${name} runs the commands in ${valueOf(args[0]) ?? 'a file'}, which cannot be read from the command line`,
      };
    case 'awk':
    case 'gawk':
    case 'mawk':
    case 'nawk':
    case 'busybox-awk':
      return awk(args);
    case 'git':
      return git(args);
    case 'zip':
      // `-TT CMD` / `--unzip-command CMD` tests the archive with a command of the caller's choosing.
      return args.some((a) => a.value.startsWith('-TT') || isLongOption(a.value, 'unzip-command'))
        ? { opaque: "zip -TT runs a command of the caller's choosing" }
        : undefined;
    case 'man':
      // The pager and the browser man opens pages with are commands.
      // Short options group (`-aP less`), as argp reads them.
      return args.some((a) => /^-[a-zA-Z]*[PH]/.test(a.value) || isAnyLongOption(a.value, ['pager', 'html']))
        ? { opaque: "man -P/-H runs a pager or browser of the caller's choosing" }
        : undefined;
    case 'coproc': {
      // The grammar reads `coproc NAME { cmd; }` as plain words: drop the braces and try it with and without a NAME.
      const words = args
        .map((w) => ({ ...w, value: w.value.replace(/;$/, '') }))
        .filter((w) => !['{', '}', '(', ')', ''].includes(w.value));
      return { runs: [{ argv: words }, ...(words.length > 1 ? [{ argv: words.slice(1) }] : [])] };
    }
    case 'faketime':
      return rest(args, afterOptions(args, { short: 'mf' }) + 1);
    case 'perf': {
      // `perf stat|record|trace [options] CMD`: the rest after the subcommand's options runs.
      if (!/^(?:stat|record|trace)$/.test(args[0]?.value ?? '')) return undefined;
      return rest(
        args,
        afterOptions(
          args,
          { short: 'eopCGcFjmrt', long: ['event', 'output', 'cpu', 'cgroup', 'pid', 'tid', 'repeat'] },
          1,
        ),
      );
    }
    case 'hyperfine':
      return hyperfine(args);
    case 'at':
    case 'batch':
    case 'crontab':
      return args.some((a) => /^-[lrV]$/.test(a.value))
        ? undefined
        : { opaque: `${name} schedules commands read from a file or its input` };
    case 'screen':
    case 'tmux':
    case 'dtach':
    case 'byobu':
      return { opaque: `${name} runs commands in a session of its own, given as words or typed later` };
    case 'alias': {
      // An alias's value runs wherever its name is used later: read it as a command line now. Where it is
      // used is another matter (posix mode expands aliases with no terminal; `alias ls=eval`): unread.
      const scripts = args
        .filter((a) => a.value.includes('='))
        .map((a) => ({ ...a, value: a.value.slice(a.value.indexOf('=') + 1) }));
      return scripts.length ? { scripts, unread: 'an alias changes what a later name runs' } : {};
    }
    case 'trap': {
      // `-p`/`-l` only print; otherwise the body is the first word after `--`, read wherever it stands.
      // Only words before the first that is not an option are options: `trap -- 'x' -p EXIT` sets EXIT's.
      const end = args.findIndex((a) => a.dynamic || !/^-./.test(a.value) || a.value === '--');
      const options = end < 0 ? args : args.slice(0, end);
      if (options.some((a) => /^-[lpP]+$/.test(a.value))) return undefined;
      const body = args[0]?.value === '--' && !args[0].dynamic ? args[1] : args[0];
      return body && (body.dynamic || body.value !== '-') ? { scripts: [body] } : undefined;
    }
    case 'hash':
      return args.some((a) => /^-[a-zA-Z]*p/.test(a.value))
        ? { opaque: 'hash -p makes a name run another program' }
        : undefined;
    case 'enable':
      return args.some((a) => /^-[a-zA-Z]*f/.test(a.value))
        ? { opaque: 'enable -f loads commands from a library' }
        : undefined;
    case 'shopt':
      return args.some((a) => a.value === 'expand_aliases')
        ? { opaque: 'with expand_aliases, later names may run something else' }
        : undefined;
    case 'sed':
    case 'gsed':
      return sed(args);
    case 'tar':
    case 'gtar':
    case 'bsdtar':
      // Old-style letters without a dash (`tar xIf …`) count as options too; -F is --info-script.
      return args.some(
        (a, i) =>
          isAnyLongOption(a.value, TAR_RUNS, ['checkpoint']) ||
          /^-[a-zA-Z]*[IF]/.test(a.value) ||
          (i === 0 && /^[a-zA-Z]*[IF][a-zA-Z]*$/.test(a.value)),
      )
        ? { opaque: 'tar runs a program given on the command line' }
        : undefined;
    case 'rsync':
      return args.some((a) => /^-[a-zA-Z]*e/.test(a.value) || isAnyLongOption(a.value, ['rsh', 'rsync-path']))
        ? { opaque: 'rsync runs a program given on the command line' }
        : undefined;
    case 'ssh':
      return args.length > 1 ? { opaque: 'ssh runs a command on another machine' } : undefined;
    default:
      return projectScripts(name, args);
  }
}

/** Words joined with spaces into one command line, as `eval` and `watch` do. */
function joined(words: Word[]): Word {
  return {
    value: words.map((w) => w.value).join(' '),
    dynamic: words.some((w) => w.dynamic),
    glob: false,
    raw: words.map((w) => w.raw).join(' '),
  };
}

function simple(name: string, args: Word[]): Unwrapped {
  const read = simpleOnce(name, args, SIMPLE[name]!);
  if ((name === 'nsenter' || name === 'unshare') && args.some((a) => /^-[a-zA-Z]*[wR]|^--(?:wd|root)/.test(a.value)))
    read.unread = `${name} runs the command in another folder or root, whose programs and settings are not the ones checked`;
  // An option nobody listed may take the next word as its value (`sudo --x ls rm …` runs rm): both readings are parts.
  const other = simpleOnce(name, args, { ...SIMPLE[name]!, greedy: true });
  const more = (other.runs ?? []).filter((r) => !read.runs?.some((k) => k.argv.length === r.argv.length));
  return more.length && !read.opaque ? { ...read, runs: [...(read.runs ?? []), ...more] } : read;
}

function simpleOnce(name: string, args: Word[], spec: OptionSpec): Unwrapped {
  const i = afterOptions(args, spec);
  if (name === 'env' || name === 'sudo') {
    const assigned = args.slice(0, Math.max(i, 0)).find((a) => RUNS_SOMETHING.test(a.value.split('=')[0]!));
    // `-S STRING`, `-SSTRING`, `--split-string=STRING`: the string is split into a command and run.
    const split = args.findIndex((a) => /^-[a-zA-Z]*S/.test(a.value) || isLongOption(a.value, 'split-string'));
    const splitText = (w: Word): Word | undefined => {
      if (w.value.startsWith('--')) return attachedValue(w) ?? args[split + 1];
      const m = /^-[a-zA-Z]*S(.*)$/s.exec(w.value);
      return m?.[1] ? { ...w, value: m[1] } : args[split + 1];
    };
    const splitWord = name === 'env' && split >= 0 ? splitText(args[split]!) : undefined;
    // env splits the string its own way (escapes, `#` comments, assignments, the words after it appended):
    // read as a command line it is close, not exact, so the part is unread as well.
    const base: Unwrapped = splitWord
      ? {
          scripts: [splitWord],
          unread: 'env -S splits its string into a command its own way, which is not read exactly',
        }
      : rest(args, i);
    if (assigned) return { ...base, opaque: `it sets ${assigned.value.split('=')[0]}, which changes what runs` };
    const settings = args.slice(0, Math.max(i, 0)).find((a) => CHANGES_SETTINGS.test(a.value.split('=')[0]!));
    if (settings)
      return {
        ...base,
        unread: `it sets ${settings.value.split('=')[0]}, which changes the settings what it runs reads`,
      };
    if (args.slice(0, Math.max(i, 0)).some((a) => /^-[a-zA-Z]*[CD]/.test(a.value) || isLongOption(a.value, 'chdir')))
      return { ...base, unread: `${name} runs the command in another folder, whose settings are not the ones checked` };
    // `sudo -s` / `-i` with nothing after them start a shell.
    if (name === 'sudo' && i >= args.length && args.some((a) => /^-[a-zA-Z]*[si]/.test(a.value)))
      return { opaque: 'sudo starts a shell that reads commands from its input' };
    return base;
  }
  return rest(args, i);
}

/** env's words with each lone `-` before the command (after `--` too) read as the `-i` it means. */
function loneDash(args: Word[]): Word[] {
  const end = args.findIndex(
    (a) => a.dynamic || (a.value !== '-' && !a.value.startsWith('-') && !a.value.includes('=')),
  );
  const before = args.slice(0, end < 0 ? args.length : end);
  const after = end < 0 ? [] : args.slice(end);
  const dashes = before.filter((a) => a.value === '-').map((a) => ({ ...a, value: '-i' }));
  return [...dashes, ...before.filter((a) => a.value !== '-'), ...after];
}

function xargs(args: Word[]): Unwrapped {
  // -i, -l and -e take their value attached or not at all (as do --replace, --max-lines and --eof
  // without `=`): the word after them is the command.
  const i = afterOptions(args, {
    short: 'ILnPsdEa',
    long: ['max-args', 'max-procs', 'max-chars', 'delimiter', 'arg-file', 'process-slot-var'],
  });
  if (i < 0) return rest(args, i);
  const own = ownOptions(args, i);
  // --process-slot-var=PATH sets a variable in what xargs runs: PATH, or settings programs read.
  const slot = own.find((a) => isLongOption(a.value, 'process-slot-var'));
  if (slot) {
    const name = attachedValue(slot)?.value ?? own[own.indexOf(slot) + 1]?.value ?? '';
    if (slot.dynamic || RUNS_SOMETHING.test(name) || CHANGES_SETTINGS.test(name) || !/^\w+$/.test(name))
      return { opaque: `xargs sets ${name || 'a variable'} in the program it runs, which changes what runs` };
  }
  // -I STR, -iSTR, --replace[=STR] (`{}` by default) put each input item inside the command's words.
  let piece = '';
  for (const [n, a] of own.entries()) {
    if (a.value === '-I') piece = own[n + 1]?.value ?? '';
    else if (a.value.startsWith('-I')) piece = a.value.slice(2);
    else if (/^-i/.test(a.value)) piece = a.value.slice(2) || '{}';
    else if (isLongOption(a.value, 'replace')) piece = attachedValue(a)?.value ?? '{}';
  }
  // With no command xargs runs echo.
  const argv = i < args.length ? replacedIn(args.slice(i), piece) : [];
  return argv.length ? { runs: [{ argv, argsUnknown: true }] } : {};
}

function parallel(args: Word[]): Unwrapped {
  const end = args.findIndex((a) => a.value === ':::' || a.value === '::::' || a.value === ':::+');
  const before = end < 0 ? args : args.slice(0, end);
  const i = afterOptions(before, {
    short: 'jSPnNaIdEL',
    long: [
      'jobs',
      'sshlogin',
      'max-procs',
      'max-args',
      'arg-file',
      'delimiter',
      'joblog',
      'results',
      'tmpdir',
      'workdir',
    ],
  });
  if (i < 0 || i >= before.length) return { opaque: 'parallel reads the commands it runs from its input' };
  // parallel hands the command to a shell, with the arguments filled in at run time.
  return { scripts: [joined(before.slice(i))], runs: [{ argv: before.slice(i), argsUnknown: true }] };
}

/** Each command hyperfine times, prepares, sets up or cleans up with is a shell string. */
function hyperfine(args: Word[]): Unwrapped {
  if (args.some((a) => /^(?:-S|--shell)/.test(a.value)))
    return { opaque: "hyperfine --shell runs the commands with a program of the command's choosing" };
  const scripts: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const attached = /^--(?:prepare|setup|cleanup|conclude)=(.*)$/s.exec(a.value);
    if (attached) scripts.push({ ...a, value: attached[1]! });
    else if (/^(?:-p|-s|-c|--prepare|--setup|--cleanup|--conclude)$/.test(a.value))
      args[i + 1] && scripts.push(args[++i]!);
    else if (
      /^-[a-zA-Z]$|^--(?:runs|warmup|export-\w+|parameter-\w+|command-name|min-runs|max-runs|style|time-unit|output|input|sort|ignore-failure)$/.test(
        a.value,
      )
    )
      i++;
    else if (!a.value.startsWith('-')) scripts.push(a);
  }
  return { scripts };
}

function find(args: Word[]): Unwrapped {
  const runs: Unwrapped['runs'] = [];
  for (let i = 0; i < args.length; i++) {
    if (!/^-(?:exec|execdir|ok|okdir)$/.test(args[i]!.value)) continue;
    let end = i + 1;
    // find ends -exec at `;`, or at a `+` right after `{}`: any other `+` is an argument (`-exec rm + -rf {} ;`).
    while (
      end < args.length &&
      args[end]!.value !== ';' &&
      !(args[end]!.value === '+' && args[end - 1]?.value === '{}')
    )
      end++;
    const argv = replacedIn(args.slice(i + 1, end), '{}');
    if (end > i + 1) runs.push({ argv, ...(argv.some((w) => w.dynamic) && { argsUnknown: true }) });
    i = end;
  }
  // -execdir runs in each match's folder: git there reads settings that are not the ones checked.
  const elsewhere = args.some((a) => /^-(?:execdir|okdir)$/.test(a.value))
    ? { unread: 'find -execdir runs commands in other folders, whose settings are not the ones checked' }
    : {};
  return runs.length ? { runs, ...elsewhere } : {};
}
