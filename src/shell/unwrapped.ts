import type { Word } from './words.js';

/** What a program that runs other programs would run. */
export interface Unwrapped {
  /** Commands it runs, as argument lists. `argsUnknown`: the program is known, its arguments come at run time. */
  runs?: { argv: Word[]; argsUnknown?: boolean }[];
  /** Command lines it runs (a shell's `-c` string, `eval`'s words), read as shell further. */
  scripts?: Word[];
  /** Set when what it runs cannot be read, saying why. */
  opaque?: string;
  /**
   * Set when what it runs is read, but not where or with which settings (`env -C dir`, `env GIT_DIR=…`):
   * unread in the closed world's sense (see closed-world.ts).
   */
  unread?: string;
}
