import { GIT_EXECUTES } from './git-config.js';
import { isAnyLongOption, isLongOption, shortOptions } from './options.js';
import { sedScriptRuns } from './sed-script.js';
import type { Word } from './words.js';
import type { Unwrapped } from './unwrapped.js';

// Programs that are not wrappers but run commands through an option or their program text:
// awk's system(), git's settings, sed's `e`, and the project files make and npm follow.

/** What gawk reads program text from (`-e`/`--source` text; the others name files or libraries). */
const AWK_FILES = ['file', 'exec', 'include', 'load'];

export function awk(args: Word[]): Unwrapped | undefined {
  const read = shortOptions(args, 'FfvWeEil', {
    optionalValue: 'dDLop',
    longWithValue: ['field-separator', 'assign', 'source', ...AWK_FILES],
  });
  if (read.dynamic) return { opaque: "awk's options or program are made at run time" };
  // -f/-E/-i take the program from files; -l loads a shared library; -W names any long option.
  if (
    read.letters.some((l) => 'fEilW'.includes(l.letter)) ||
    read.long.some((l) => isAnyLongOption(l.word.value, AWK_FILES))
  ) {
    return { opaque: 'awk runs a program from a file, which cannot be read from the command line' };
  }
  const sources = [
    ...read.letters.filter((l) => l.letter === 'e').map((l) => l.value),
    ...read.long.filter((l) => isLongOption(l.word.value, 'source')).map((l) => l.value),
  ];
  const programs = sources.length ? sources : [read.operands[0]];
  if (programs.some((p) => !p || p.dynamic)) return { opaque: "awk's program is made at run time" };
  // Any `@` (gawk's @include and @load, and its indirect calls `@f(…)`, which may name system) counts too.
  if (programs.some((p) => /system|\||getline|@|extension/.test(p!.value)))
    return { opaque: 'the awk program runs commands (system, a pipe, getline or an @ directive)' };
  return undefined;
}

/** Settings under which git runs a program of the user's choosing (see git-config.ts). */
const GIT_RUNS = GIT_EXECUTES;

export function git(args: Word[]): Unwrapped | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    // `-c KEY=VALUE`, `--config-env=KEY=ENVVAR`, `--config-env KEY=ENVVAR`: the key is what runs or not.
    const setting =
      a.value === '-c' || a.value === '--config-env'
        ? args[i + 1]
        : a.value.startsWith('--config-env=')
          ? { ...a, value: a.value.slice('--config-env='.length) }
          : undefined;
    if (!setting) continue;
    if (setting.dynamic) return { opaque: 'a git setting is made at run time' };
    const [key = '', ...value] = setting.value.split('=');
    // A value from the environment (--config-env) cannot be read here at all.
    if (value.join('=').includes('!') || GIT_RUNS.test(key))
      return { opaque: `git -c ${key} runs a program of the command's choosing` };
  }
  // `git config alias.x '!…'` (or a pager, an editor…) sets up a program for a later git to run.
  const config = args.findIndex((a) => a.value === 'config');
  if (
    config >= 0 &&
    args.slice(config + 1).some((a) => a.dynamic || a.value.startsWith('!') || GIT_RUNS.test(a.value))
  ) {
    return { opaque: 'git config sets a program for git to run later' };
  }
  return undefined;
}

/** Build tools and test runners: whatever they are asked, they run code the project's files hold. */
const PROJECT_RUNNERS =
  /^(?:make|gmake|just|npx|pnpx|bunx|rake|ninja|pytest|py\.test|tox|nox|mvn|mvnw|gradle|gradlew|sbt|bazel|bazelisk|meson|scons|ant|cmake|ctest|phpunit|rspec)$/;
/**
 * Package managers and language tools whose subcommands build, install or run the project (`pip install .`
 * runs setup.py, `cargo build` a build.rs, `go generate` what comments say), except the ones that report.
 */
const PACKAGE_MANAGERS =
  /^(?:npm|yarn|pnpm|bun|pip|pip3|pipx|uv|poetry|pdm|hatch|pipenv|cargo|go|dotnet|deno|composer|bundle|bundler|mix|cabal|stack|swift|conda|mamba)$/;

/** Package managers' subcommands that only report: everything else may run the project's scripts or install hooks. */
const REPORTS_ONLY = new Set([
  'info',
  'view',
  'why',
  'list',
  'ls',
  'outdated',
  'config',
  'help',
  'version',
  'search',
  'audit',
  'whoami',
  'root',
  'prefix',
  'bin',
  'show',
  'freeze',
]);

/**
 * Build tools and package managers run what the project's files say (a Makefile's recipes, package.json's
 * scripts, install hooks), and those files are the workspace's: what they run cannot be read here.
 * (`yarn build` runs the script named build, so any subcommand that is not a report counts.)
 */
export function projectScripts(name: string, args: Word[]): Unwrapped | undefined {
  if (PROJECT_RUNNERS.test(name)) return { opaque: `${name} runs what the project's files say` };
  if (!PACKAGE_MANAGERS.test(name)) return undefined;
  const sub = args.find((a) => !a.value.startsWith('-'));
  if (sub && REPORTS_ONLY.has(sub.value)) return undefined;
  if (!sub && args.some((a) => /^(?:-v|--version|-h|--help)$/.test(a.value))) return undefined;
  return { opaque: `${name}${sub ? ` ${sub.value}` : ''} runs scripts from the project's package files` };
}

/** GNU sed runs commands with `e` and the `e` flag of `s` (sed-script.ts); options are read as getopt_long reads them. */
export function sed(args: Word[]): Unwrapped | undefined {
  const read = shortOptions(args, 'efl', {
    optionalValue: 'i',
    permute: true,
    longWithValue: ['expression', 'file', 'line-length'],
  });
  if (read.letters.some((l) => l.letter === 'f') || read.long.some((l) => isLongOption(l.word.value, 'file')))
    return { opaque: 'sed runs a script from a file' };
  const scripts = [
    ...read.letters.filter((l) => l.letter === 'e').map((l) => l.value),
    ...read.long.filter((l) => isLongOption(l.word.value, 'expression')).map((l) => l.value),
  ];
  if (!scripts.length) scripts.push(read.operands[0]);
  if (scripts.some((w) => w?.dynamic || (w && sedScriptRuns(w.value))))
    return { opaque: 'the sed script runs commands (e)' };
  // Other words made at run time may be options (`-e …`, `-f …`): closed-world.ts counts them unread.
  return undefined;
}
