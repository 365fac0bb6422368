/**
 * The options of the programs whose denies hold against every spelling of their options
 * (see option-denies.ts). A program is listed only with ALL its options, and with every option that
 * takes a value: a letter read as a flag when it really takes a value (`-n 5`) would turn the value
 * into options, and a long name left out would make a prefix look unique that the program finds
 * ambiguous, or the other way round. Programs that are not listed keep the literal match only.
 */

/** How a long option takes a value: never, always (`--opt V` or `--opt=V`), or only after `=`. */
export type LongArg = 'none' | 'required' | 'optional';

export interface LongOption {
  /** What it is the same as: its short letter, or `--name` for an option that has none. */
  key: string;
  arg: LongArg;
}

export interface ProgramOptions {
  /** Short letters to what they are the same as (`R` → `r` for rm). A letter missing here is kept as itself. */
  short: Record<string, string>;
  /** Short letters that take a value: the rest of their word, else the next word. */
  shortWithValue: string;
  /** Every long option, by its full name. */
  long: Record<string, LongOption>;
  /**
   * Short letters that start an operand instead (chmod's `-w` is a mode): the rest of the word,
   * from the letter on, is that operand.
   */
  operandLetters?: string;
  /** Operands that act as an option: git push's `+main` forces that ref as `--force` does, `:main` deletes it as `--delete` does. */
  refOptions?: Array<{ prefix: string; key: string }>;
}

const flag = (key: string): LongOption => ({ key, arg: 'none' });
const value = (key: string): LongOption => ({ key, arg: 'required' });
const maybe = (key: string): LongOption => ({ key, arg: 'optional' });
/** Long options with no short letter, each its own key. */
const longOnly = (arg: LongArg, ...names: string[]): Record<string, LongOption> =>
  Object.fromEntries(names.map((n) => [n, { key: `--${n}`, arg }]));
const same = (letters: string): Record<string, string> => Object.fromEntries(Array.from(letters, (c) => [c, c]));

/** GNU coreutils' shared `--help` and `--version`. */
const GNU = longOnly('none', 'help', 'version');

/** GNU rm 9.x. */
const RM: ProgramOptions = {
  short: { ...same('fiIrdv'), R: 'r' },
  shortWithValue: '',
  long: {
    ...GNU,
    ...longOnly('none', 'one-file-system', 'no-preserve-root'),
    ...longOnly('optional', 'preserve-root'),
    force: flag('f'),
    interactive: maybe('i'),
    recursive: flag('r'),
    dir: flag('d'),
    verbose: flag('v'),
  },
};

/** GNU cp 9.x: `-r` and `-R` are one option. */
const CP: ProgramOptions = {
  short: { ...same('abdfiHlLnPpsTuvxZr'), R: 'r' },
  shortWithValue: 'St',
  long: {
    ...GNU,
    ...longOnly(
      'none',
      'attributes-only',
      'copy-contents',
      'debug',
      'parents',
      'remove-destination',
      'strip-trailing-slashes',
      'one-file-system',
    ),
    ...longOnly('optional', 'preserve', 'reflink'),
    ...longOnly('required', 'no-preserve', 'sparse'),
    archive: flag('a'),
    backup: maybe('b'),
    force: flag('f'),
    interactive: flag('i'),
    link: flag('l'),
    dereference: flag('L'),
    'no-clobber': flag('n'),
    'no-dereference': flag('P'),
    recursive: flag('r'),
    'symbolic-link': flag('s'),
    suffix: value('S'),
    'target-directory': value('t'),
    'no-target-directory': flag('T'),
    update: maybe('u'),
    verbose: flag('v'),
    context: maybe('Z'),
  },
};

/** GNU mv 9.x. */
const MV: ProgramOptions = {
  short: same('bfinTuvZ'),
  shortWithValue: 'St',
  long: {
    ...GNU,
    ...longOnly('none', 'debug', 'no-copy', 'strip-trailing-slashes'),
    backup: maybe('b'),
    force: flag('f'),
    interactive: flag('i'),
    'no-clobber': flag('n'),
    suffix: value('S'),
    'target-directory': value('t'),
    'no-target-directory': flag('T'),
    update: maybe('u'),
    verbose: flag('v'),
    context: flag('Z'),
  },
};

/** GNU chmod 9.x: `-R` is recursive; `-r`, `-w`, `-x`… are modes, as in `chmod -w file`. */
const CHMOD: ProgramOptions = {
  short: same('cfvR'),
  shortWithValue: '',
  operandLetters: 'rwxXstugoa0123456789,+=-',
  long: {
    ...GNU,
    ...longOnly('none', 'no-preserve-root', 'preserve-root'),
    ...longOnly('required', 'reference'),
    changes: flag('c'),
    silent: flag('f'),
    quiet: flag('f'),
    verbose: flag('v'),
    recursive: flag('R'),
  },
};

/** GNU chown 9.x (chgrp reads the same way). */
const CHOWN: ProgramOptions = {
  short: same('cfhvRHLP'),
  shortWithValue: '',
  long: {
    ...GNU,
    ...longOnly('none', 'dereference', 'no-preserve-root', 'preserve-root'),
    ...longOnly('required', 'from', 'reference'),
    changes: flag('c'),
    silent: flag('f'),
    quiet: flag('f'),
    'no-dereference': flag('h'),
    verbose: flag('v'),
    recursive: flag('R'),
  },
};

/** git push (2.39–2.4x). Its `--no-…` forms are kept as written: none of them forces anything. */
const GIT_PUSH: ProgramOptions = {
  short: same('vqnfud46'),
  shortWithValue: 'o',
  refOptions: [
    { prefix: '+', key: 'f' },
    { prefix: ':', key: 'd' },
  ],
  long: {
    ...longOnly(
      'none',
      'all',
      'branches',
      'mirror',
      'tags',
      'porcelain',
      'force-if-includes',
      'thin',
      'follow-tags',
      'atomic',
      'progress',
      'prune',
      'no-verify',
      'verify',
    ),
    ...longOnly('optional', 'signed'),
    ...longOnly('required', 'repo', 'receive-pack', 'exec', 'recurse-submodules'),
    // A force with a lease still overwrites the remote's history: a deny of -f holds against it.
    'force-with-lease': maybe('f'),
    delete: flag('d'),
    'dry-run': flag('n'),
    force: flag('f'),
    'set-upstream': flag('u'),
    'push-option': value('o'),
    quiet: flag('q'),
    verbose: flag('v'),
    ipv4: flag('4'),
    ipv6: flag('6'),
  },
};

/** git clean (2.39–2.4x). */
const GIT_CLEAN: ProgramOptions = {
  short: same('dfinqxX'),
  shortWithValue: 'e',
  long: { 'dry-run': flag('n'), force: flag('f'), interactive: flag('i'), quiet: flag('q'), exclude: value('e') },
};

/** Programs by their name, and git's subcommands as `git <subcommand>`. */
export const PROGRAM_OPTIONS: Readonly<Record<string, ProgramOptions>> = Object.freeze({
  rm: RM,
  cp: CP,
  mv: MV,
  chmod: CHMOD,
  chown: CHOWN,
  chgrp: CHOWN,
  'git push': GIT_PUSH,
  'git clean': GIT_CLEAN,
});
