import type { Word } from './words.js';

// How GNU programs read their options, so a check for a dangerous option reads them the same way:
// getopt_long takes any unambiguous prefix of a long option (`--compress-prog` is --compress-program),
// and getopt reads a group of short letters until one that takes a value (`-nf s.sed` is -n -f s.sed).

/**
 * True when `word` is the long option `name` as getopt_long would read it: `--X` or `--X=…` where X is
 * a prefix of `name`. A prefix shared with another option is ambiguous and the program refuses it, so
 * counting it is only careful; `exact` lists the program's other options that are themselves prefixes
 * of `name` (`--strip` of `--strip-program`), which getopt_long takes as themselves.
 */
export function isLongOption(word: string, name: string, exact: readonly string[] = []): boolean {
  if (!word.startsWith('--')) return false;
  const given = word.slice(2).split('=')[0]!;
  return given.length > 0 && name.startsWith(given) && !exact.includes(given);
}

/** True when `word` is any of `names` as getopt_long would read it (see isLongOption). */
export const isAnyLongOption = (word: string, names: readonly string[], exact: readonly string[] = []): boolean =>
  names.some((n) => isLongOption(word, n, exact));

/** The value of a long option given as `--X=value`, or undefined when it is given as the next word. */
export const attachedValue = (word: Word): Word | undefined => {
  const at = word.value.indexOf('=');
  return at < 0 ? undefined : { ...word, value: word.value.slice(at + 1) };
};

/** Short options read as getopt reads them: each letter with the value it took, and what was not an option. */
export interface ShortOptions {
  letters: { letter: string; value?: Word }[];
  /** Long options (`--x`, `--x=v`), with the next word when it is their value, for the caller to read. */
  long: { word: Word; value?: Word }[];
  operands: Word[];
  /** A word that may be an option was made at run time: it may be any option. */
  dynamic: boolean;
}

/**
 * Reads short options as getopt does: `-abc` is three letters, a letter in `withValue` takes the rest of
 * its word or the next word (`-fs.sed`, `-nf s.sed`), one in `optionalValue` takes only the rest of its
 * word (sed's `-i.bak`); `--` ends the options. `permute`: options may follow operands (GNU getopt);
 * otherwise the first operand ends them (bash's builtins). A long option in `longWithValue` (or a
 * prefix of one) takes the next word unless its value is attached.
 */
export function shortOptions(
  args: Word[],
  withValue: string,
  options: { optionalValue?: string; permute?: boolean; plus?: boolean; longWithValue?: readonly string[] } = {},
): ShortOptions {
  const out: ShortOptions = { letters: [], long: [], operands: [], dynamic: false };
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const a = w.value;
    const optionLike = (a.startsWith('-') || (options.plus === true && a.startsWith('+'))) && a.length > 1;
    // Scanned words are all where an option may stand: one made at run time may be any option.
    if (w.dynamic) out.dynamic = true;
    if (a === '--') {
      out.operands.push(...args.slice(i + 1));
      break;
    }
    if (!optionLike) {
      out.operands.push(w);
      if (!options.permute) {
        out.operands.push(...args.slice(i + 1));
        break;
      }
      continue;
    }
    if (a.startsWith('--')) {
      const value = a.includes('=')
        ? attachedValue(w)
        : isAnyLongOption(a, options.longWithValue ?? [])
          ? args[++i]
          : undefined;
      out.long.push({ word: w, ...(value ? { value } : {}) });
      continue;
    }
    for (let k = 1; k < a.length; k++) {
      const letter = a[k]!;
      if (withValue.includes(letter)) {
        const value = k + 1 < a.length ? { ...w, value: a.slice(k + 1) } : args[++i];
        out.letters.push({ letter, ...(value ? { value } : {}) });
        break;
      }
      if (options.optionalValue?.includes(letter) && k + 1 < a.length) {
        out.letters.push({ letter, value: { ...w, value: a.slice(k + 1) } });
        break;
      }
      out.letters.push({ letter });
    }
  }
  return out;
}
