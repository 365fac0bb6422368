import { compileGlob, type Glob } from './glob.js';
import { PROGRAM_OPTIONS, type ProgramOptions } from './option-table.js';

/**
 * A deny over a program's options holds against the other spellings of those options. `"rm -rf *":
 * "deny"` is written as one spelling, but rm reads `rm -r -f x`, `rm -fr x`, `rm -Rf x`,
 * `rm --recursive --force x`, `rm --rec --for x`, `rm -rfv x` and `rm x -rf` (GNU moves options
 * before operands) the same way, and a user who wrote that deny meant all of them.
 *
 * For a program listed in option-table.ts, the pattern's literal words (those before its first
 * word with a wildcard) and a command's words are both read as the program does: grouped short
 * letters split, aliases (`-R`) and long names (`--recursive`, or any prefix rm would accept, `--rec`)
 * turned into one key each, values of options that take one set aside, `--` ending the options.
 * The deny covers the command when it is the same program, the command has every option the
 * pattern names (any more is still covered), and the rest of the pattern, as a glob, matches the
 * command's operands in order. A last word like `--force*` or `-rf*` names options too: any long
 * option starting so, or those letters.
 *
 * Only denies are read this way, never an allow or an ask: `"rm -rf *": "allow"` allows what it
 * says and not `rm -r -f -i x`, so no allow gets broader. It covers spellings of one command, not
 * every way to the same effect (`find -delete` deletes too): to forbid an effect, deny the program.
 */
export interface OptionDeny {
  /** Whether a command's spelling is covered; with `argsUnknown`, arguments made at run time follow. */
  covers(text: string, argsUnknown: boolean): boolean;
}

/** A command's words as the program reads them. */
interface Reading {
  /** Option keys: short letters, `--long` for options without one, `key=value` for those taking a value. */
  options: Set<string>;
  operands: string[];
  /** `--` was read: what follows is operands only. */
  ended: boolean;
  /** The last option read still wants its value (from the next word). */
  wantsValue?: string;
}

/**
 * Words made at run time, which a part whose arguments are unknown may hold (`$F`, `` `x` ``, and the
 * `{}` find and xargs put an item in).
 */
const MADE_AT_RUN_TIME = /[$`]|\{\}/;
/**
 * A word with a wildcard, led by it or by `-` (`*`, `-?`), which may expand to a file named like
 * options (`-f`, `-rf`). With a `.` or `/` in it outside brackets every name it expands to is a bad
 * option word (`-f.log`), which the program refuses; inside brackets (`-[e-g.]`) the dot is only one
 * of the characters that may stand there, so from the first `[` to the last `]` counts as any text.
 */
const mayBeOptions = (word: string) =>
  bracesMakeOptions(word) || (/^[-*?[]/.test(word) && /[*?[]/.test(word) && !/[./]/.test(word.replace(/\[.*\]/s, '')));
/**
 * A brace expansion that may make an option word: bash makes several words of `{-rf,t1}`, `-{r,f}`
 * or `{,}-rf` (an empty choice leaves what follows), and one led by `-` is an option. Only a word
 * led by a name character (`a{1,2}.log`) makes names alone.
 */
function bracesMakeOptions(word: string): boolean {
  const text = word.replace(/["']/g, '');
  const open = text.indexOf('{');
  if (open < 0 || !/\{[^{}]*(?:,|\.\.)[^{}]*\}/.test(text)) return false;
  const before = text.slice(0, open);
  if (before !== '') return before.startsWith('-');
  // Led by the braces: each choice leads a word, and an empty one leaves what follows the braces to lead.
  const close = text.indexOf('}', open);
  const inner = text.slice(open + 1, close);
  const after = text.slice(close + 1);
  if (close < 0 || inner.includes('{')) return true;
  const choices = inner.includes(',') ? inner.split(',') : inner.split('..');
  const leads = (s: string) => !/^[A-Za-z0-9_./~+=:,@%^]/.test(s);
  return choices.some((c) => (c === '' ? leads(after) : leads(c)));
}

/** A program's options by its key; own entries only, as a word like `constructor` comes from a model. */
const optionsOf = (key: string): ProgramOptions | undefined =>
  Object.hasOwn(PROGRAM_OPTIONS, key) ? PROGRAM_OPTIONS[key] : undefined;

/** The program a command's words name, and how many words it takes: `rm` (1), `git push` (2). */
function programOf(words: string[]): { spec: ProgramOptions; length: number } | undefined {
  const name = words[0]?.split('/').pop() ?? '';
  const spec = name === 'git' ? optionsOf(`git ${words[1] ?? ''}`) : optionsOf(name);
  return spec ? { spec, length: name === 'git' ? 2 : 1 } : undefined;
}

/**
 * The keys a long option names: itself when written in full, else every option it is a prefix of
 * (getopt and git take an unambiguous prefix; an ambiguous one the program refuses, and reading it
 * as all its candidates can only make a deny hold more). A name the program does not know is kept as written.
 */
function longKeys(spec: ProgramOptions, name: string): Array<{ key: string; arg: string }> {
  if (Object.hasOwn(spec.long, name)) return [spec.long[name]!];
  // git reads `--no-x` as the negation of x: no negation forces or recurses, so it stays as written.
  const candidates = name.startsWith('no-')
    ? []
    : Object.entries(spec.long)
        .filter(([full]) => full.startsWith(name))
        .map(([, o]) => o);
  return candidates.length ? candidates : [{ key: `--${name}`, arg: 'none' }];
}

/** Reads one word into `r`, as the program would. */
function readWord(spec: ProgramOptions, word: string, r: Reading): void {
  if (r.wantsValue !== undefined) {
    r.options.add(`${r.wantsValue}=${word}`);
    r.wantsValue = undefined;
  } else if (r.ended || word === '-' || !word.startsWith('-')) {
    // git push's `+ref` and `:ref` are a force and a delete; any operand counts, as with `--repo=X` the refs come first.
    for (const { prefix, key } of spec.refOptions ?? []) if (word.startsWith(prefix)) r.options.add(key);
    r.operands.push(word);
  } else if (word === '--') {
    r.ended = true;
  } else if (word.startsWith('--')) {
    const eq = word.indexOf('=');
    const name = eq >= 0 ? word.slice(2, eq) : word.slice(2);
    for (const { key, arg } of longKeys(spec, name)) {
      // An optional value refines the option (`--backup=numbered` is still -b): both count.
      if (eq >= 0 && arg === 'optional') r.options.add(key).add(`${key}=${word.slice(eq + 1)}`);
      else if (eq >= 0 && arg !== 'none') r.options.add(`${key}=${word.slice(eq + 1)}`);
      else if (arg === 'required') r.wantsValue = key;
      else r.options.add(key);
    }
  } else {
    const letters = Array.from(word.slice(1));
    for (let i = 0; i < letters.length; i++) {
      const c = letters[i]!;
      if (spec.operandLetters?.includes(c)) {
        r.operands.push(`-${letters.slice(i).join('')}`);
        return;
      }
      const key = Object.hasOwn(spec.short, c) ? spec.short[c]! : c;
      if (!spec.shortWithValue.includes(c)) {
        r.options.add(key);
        continue;
      }
      const rest = letters.slice(i + 1).join('');
      if (rest) r.options.add(`${key}=${rest}`);
      else r.wantsValue = key;
      return;
    }
  }
}

function read(spec: ProgramOptions, words: string[]): Reading {
  const r: Reading = { options: new Set(), operands: [], ended: false };
  for (const w of words) readWord(spec, w, r);
  return r;
}

/** A pattern's words: split at spaces, except one a backslash makes literal (`my\ dir`). */
function splitWords(pattern: string): string[] {
  const words = [''];
  const chars = Array.from(pattern);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === ' ') words.push('');
    else words[words.length - 1] += c === '\\' && i + 1 < chars.length ? c + chars[++i]! : c;
  }
  return words;
}

const hasWildcard = (word: string) => /(?<!\\)(?:\\\\)*[*?]/.test(word);
const unescape = (word: string) => word.replace(/\\(.)/gs, '$1');
const escape = (text: string) => text.replace(/[\\*?]/g, '\\$&');

/**
 * The deny `pattern` as options and operands, or undefined when it does not start with a listed
 * program's literal name, or leaves an option's value to a wildcard (`cp -t * x`): it then
 * keeps its literal meaning only.
 */
export function compileOptionDeny(pattern: string): OptionDeny | undefined {
  const words = splitWords(pattern);
  const firstWild = words.findIndex(hasWildcard);
  const literal = (firstWild < 0 ? words : words.slice(0, firstWild)).map(unescape);
  const program = programOf(literal);
  if (!program || literal.length < program.length) return undefined;
  const { spec } = program;
  const reading = read(spec, literal.slice(program.length));
  let rest = firstWild < 0 ? undefined : words.slice(firstWild).join(' ');
  // `--force*` or `-rf*` last: options that start so, and then anything.
  let anyOf: string[] = [];
  const last =
    rest !== undefined && firstWild === words.length - 1 && !reading.ended && reading.wantsValue === undefined
      ? words[firstWild]!
      : '';
  const stem = last.endsWith('*') && !hasWildcard(last.slice(0, -1)) ? unescape(last.slice(0, -1)) : '';
  if (stem.startsWith('--') && stem.length > 2 && !stem.includes('=')) {
    anyOf = Object.entries(spec.long)
      .filter(([full]) => full.startsWith(stem.slice(2)))
      .map(([, o]) => o.key);
    if (anyOf.length) rest = '*';
  } else if (/^-[^-]/.test(stem)) {
    readWord(spec, stem, reading);
    rest = '*';
  }
  if (reading.wantsValue !== undefined) return undefined;
  const operandGlob: Glob = compileGlob(
    [...reading.operands.map(escape), ...(rest !== undefined ? [rest] : [])].join(' '),
  );
  const programWords = literal.slice(0, program.length);
  const hasAll = (options: Set<string>) =>
    [...reading.options].every((o) => options.has(o)) && (!anyOf.length || anyOf.some((o) => options.has(o)));

  return {
    covers(text, argsUnknown) {
      const words = text.split(' ');
      if (programWords.some((w, i) => words[i] !== w)) return false;
      const args = words.slice(program.length);
      // What is known is the words before the first one made at run time, or one a wildcard may
      // expand to options (`touch ./-f; rm -r *` is `rm -r -f …`); the rest could be anything.
      const dashes = args.indexOf('--');
      const cut = args.findIndex(
        (w, i) => (argsUnknown && MADE_AT_RUN_TIME.test(w)) || ((dashes < 0 || i < dashes) && mayBeOptions(w)),
      );
      const known = read(spec, cut >= 0 ? args.slice(0, cut) : args);
      // Unknown words before `--` may hold any option and operand; after it, operands only.
      if (cut >= 0 || argsUnknown) return !known.ended || hasAll(known.options);
      return hasAll(known.options) && operandGlob.test(known.operands.join(' '));
    },
  };
}
