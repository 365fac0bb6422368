import { GIT_EXECUTES } from './git-config.js';
import type { Word } from './words.js';
import type { Unwrapped } from './wrappers.js';

// Programs that are not wrappers but run commands through an option or their program text:
// awk's system(), git's settings, sed's `e`, and the project files make and npm follow.

export function awk(args: Word[]): Unwrapped | undefined {
  // -f/-E/-i take the program from files; gawk's -l loads a shared library.
  if (args.some((a) => /^--(?:file|exec|include|load)/.test(a.value) || /^-[a-zA-Z]*[fEil]$/.test(a.value))) {
    return { opaque: 'awk runs a program from a file, which cannot be read from the command line' };
  }
  const i = firstOperand(args, 'vFW');
  const program = i >= 0 ? args[i] : undefined;
  if (!program || program.dynamic) return { opaque: 'awk\'s program is made at run time' };
  if (/system|\||getline|@load|extension/.test(program.value)) return { opaque: 'the awk program runs commands (system, a pipe or getline)' };
  return undefined;
}


/** Settings under which git runs a program of the user's choosing (see git-config.ts). */
const GIT_RUNS = GIT_EXECUTES;

export function git(args: Word[]): Unwrapped | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    // `-c KEY=VALUE`, `--config-env=KEY=ENVVAR`, `--config-env KEY=ENVVAR`: the key is what runs or not.
    const setting = a.value === '-c' || a.value === '--config-env' ? args[i + 1] : a.value.startsWith('--config-env=') ? { ...a, value: a.value.slice('--config-env='.length) } : undefined;
    if (!setting) continue;
    if (setting.dynamic) return { opaque: 'a git setting is made at run time' };
    const [key = '', ...value] = setting.value.split('=');
    // A value from the environment (--config-env) cannot be read here at all.
    if (value.join('=').includes('!') || GIT_RUNS.test(key)) return { opaque: `git -c ${key} runs a program of the command's choosing` };
  }
  // `git config alias.x '!…'` (or a pager, an editor…) sets up a program for a later git to run.
  const config = args.findIndex((a) => a.value === 'config');
  if (config >= 0 && args.slice(config + 1).some((a) => a.dynamic || a.value.startsWith('!') || GIT_RUNS.test(a.value))) {
    return { opaque: 'git config sets a program for git to run later' };
  }
  return undefined;
}

/** Package managers' subcommands that only report: everything else may run the project's scripts or install hooks. */
const REPORTS_ONLY = new Set(['info', 'view', 'why', 'list', 'ls', 'outdated', 'config', 'help', 'version', 'search', 'audit', 'whoami', 'root', 'prefix', 'bin']);

/**
 * Build tools and package managers run what the project's files say (a Makefile's recipes, package.json's
 * scripts, install hooks), and those files are the workspace's: what they run cannot be read here.
 * (`yarn build` runs the script named build, so any subcommand that is not a report counts.)
 */
export function projectScripts(name: string, args: Word[]): Unwrapped | undefined {
  if (/^(?:make|gmake|just|npx|pnpx|bunx|rake|ninja)$/.test(name)) return { opaque: `${name} runs what the project's files say` };
  if (!/^(?:npm|yarn|pnpm|bun)$/.test(name)) return undefined;
  const sub = args.find((a) => !a.value.startsWith('-'));
  if (sub && REPORTS_ONLY.has(sub.value)) return undefined;
  if (!sub && args.some((a) => /^(?:-v|--version|-h|--help)$/.test(a.value))) return undefined;
  return { opaque: `${name}${sub ? ` ${sub.value}` : ''} runs scripts from the project's package files` };
}

/** GNU sed runs commands with `e` and the `e` flag of `s`: such a script cannot be read as commands. */
export function sed(args: Word[]): Unwrapped | undefined {
  const scripts: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!.value;
    if (a === '-e' || a === '--expression') scripts.push(args[++i] ?? args[i]!);
    else if (a.startsWith('--expression=')) scripts.push({ ...args[i]!, value: a.slice('--expression='.length) });
    else if (a === '-f' || a.startsWith('--file')) return { opaque: 'sed runs a script from a file' };
  }
  if (!scripts.length) {
    const first = args.find((w) => !w.value.startsWith('-'));
    if (first) scripts.push(first);
  }
  const runs = (t: string) => /(?:^|[;\n{}])\s*(?:[0-9$]+(?:,[0-9$]+)?|\/[^/]*\/)?\s*!?\s*e(?:\s|$|;)/.test(t) || /(?:^|[;\n{}\s])s(.).*?\1.*?\1[gpIiMm0-9w]*e/.test(t);
  return scripts.some((w) => w.dynamic || runs(w.value)) ? { opaque: 'the sed script runs commands (e)' } : undefined;
}

/** The first word after awk's options (`-v x=1`, `-F:`), or undefined when an option is made at run time. */
function firstOperand(args: Word[], valueLetters: string): number {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.dynamic) return -1;
    if (a.value === '--') return i + 1;
    if (!a.value.startsWith('-') || a.value === '-') return i;
    if (a.value.length === 2 && valueLetters.includes(a.value[1]!)) i++;
  }
  return args.length;
}
