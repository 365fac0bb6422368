import type { Node } from 'web-tree-sitter';
import { shortOptions } from './options.js';
import { ARITHMETIC_VARIABLES, CHANGES_SETTINGS, RUNS_SOMETHING } from './programs.js';
import { literalWord, readWord, type Word } from './words.js';

// Shell state that makes later commands run something else: PATH for a later name, PS4 under `set -x`,
// BASH_ENV for a later bash, `set -k` for assignments written as arguments. Whatever route writes it
// (a plain assignment, `read`, `printf -v`, `declare "X=…"`, `${X:=…}`, a loop variable, `unset`),
// the write is what is checked, so no route is left to go round the check.

/** What a write to shell state does to the commands after it, when it is not harmless. */
export type StateEffect = { opaque: string } | { unread: string } | undefined;

const MADE_AT_RUN_TIME: StateEffect = {
  opaque: "a variable's name is made at run time: it may be one that changes what later commands run",
};

/**
 * The effect of writing the variable `name` (`a[1]` writes a): opaque for one that changes what runs
 * (RUNS_SOMETHING), unread for one that changes the settings programs read, undefined otherwise.
 */
export function variableEffect(name: string | Word | undefined): StateEffect {
  if (name === undefined) return undefined;
  if (typeof name !== 'string') {
    // `{PA,}TH` is brace-expanded into names, and `$N` is any name.
    if (name.dynamic || name.glob) return MADE_AT_RUN_TIME;
    name = name.value;
  }
  const base = name.replace(/\[.*$/s, '');
  if (RUNS_SOMETHING.test(base)) return { opaque: `it sets ${base}, which changes what later commands run` };
  if (CHANGES_SETTINGS.test(base)) return { unread: `it sets ${base}, which changes the settings later commands read` };
  // What is written there is evaluated as arithmetic, and `a[$(…)]` in it runs (a plain assignment of
  // a number is let through by arithmeticReason, which sees the value).
  if (ARITHMETIC_VARIABLES.has(base))
    return { unread: `it sets ${base}, whose value bash evaluates as arithmetic, which can run commands` };
  // An element's subscript is evaluated as arithmetic too, unless it is a number.
  if (base !== name && !/^\[\d+\]$/.test(name.slice(base.length)))
    return { unread: `it writes ${name}, an array element whose subscript bash evaluates, which can run commands` };
  return undefined;
}

/** The first effect that matters: opaque before unread. */
export function worstEffect(effects: StateEffect[]): StateEffect {
  return effects.find((e) => e && 'opaque' in e) ?? effects.find((e) => e !== undefined);
}

/** Bash's builtins that declare variables: `NAME=value` words, or bare names. */
const DECLARES = new Set(['declare', 'typeset', 'local', 'export', 'readonly']);

/**
 * What a bash builtin that writes variables or options would change for later commands: `read NAME…`,
 * `read -a NAME`, `mapfile NAME`, `printf -v NAME`, `getopts … NAME`, `wait -p NAME`, `declare`/
 * `export`/`local`/… words, `unset NAME`, `set -k`, `shopt` with options made at run time.
 */
export function stateWrites(name: string, args: Word[]): StateEffect {
  switch (name) {
    case 'read': {
      const read = shortOptions(args, 'adinNptu');
      return read.dynamic
        ? MADE_AT_RUN_TIME
        : worstEffect([
            ...read.letters.filter((l) => l.letter === 'a').map((l) => variableEffect(l.value)),
            ...read.operands.map(variableEffect),
          ]);
    }
    case 'mapfile':
    case 'readarray': {
      const read = shortOptions(args, 'dnOsuCc');
      return read.dynamic ? MADE_AT_RUN_TIME : variableEffect(read.operands[0]);
    }
    case 'printf':
    case 'wait': {
      const read = shortOptions(args, name === 'printf' ? 'v' : 'p');
      return read.dynamic ? afterMadeAtRunTime(args) : worstEffect(read.letters.map((l) => variableEffect(l.value)));
    }
    case 'getopts': {
      const read = shortOptions(args, '');
      return read.operands[0]?.dynamic ? afterMadeAtRunTime(args) : variableEffect(read.operands[1]);
    }
    case 'unset': {
      const read = shortOptions(args, '');
      // `unset -f` names functions; an unset PATH makes bash run a bare name from the current folder.
      if (read.dynamic) return MADE_AT_RUN_TIME;
      return read.letters.some((l) => l.letter === 'f') ? undefined : worstEffect(read.operands.map(variableEffect));
    }
    case 'set': {
      const read = shortOptions(args, 'o', { plus: true });
      if (read.dynamic || read.letters.some((l) => l.value?.dynamic))
        return { opaque: 'set is given options made at run time, and some of them change what later commands run' };
      // -k: every NAME=value argument of a later command goes into its environment (BASH_ENV=… for a bash).
      const keyword = read.letters.some((l) => l.letter === 'k' || (l.letter === 'o' && l.value?.value === 'keyword'));
      if (keyword)
        return {
          opaque: 'set -k puts assignments written as arguments into the environment of the commands they follow',
        };
      // -H: `!…` in later lines is replaced by earlier text; posix mode expands aliases without a terminal.
      const rewrites = read.letters.some(
        (l) => l.letter === 'H' || (l.letter === 'o' && /^(?:histexpand|history|posix)$/.test(l.value?.value ?? '')),
      );
      return rewrites
        ? {
            opaque:
              'set -H or -o posix makes bash rewrite later lines (history expansion, aliases) after they were read',
          }
        : undefined;
    }
    case 'shopt':
      if (args.some((a) => a.dynamic))
        return { opaque: 'shopt is given options made at run time, and some of them change what later commands run' };
      if (args.some((a) => a.value === 'keyword'))
        return {
          opaque:
            'shopt -o keyword puts assignments written as arguments into the environment of the commands they follow',
        };
      return args.some((a) => /^(?:histexpand|history|posix|extdebug)$/.test(a.value))
        ? {
            opaque:
              'shopt -o histexpand, posix or extdebug makes bash rewrite or re-run later lines after they were read',
          }
        : undefined;
    default:
      return DECLARES.has(name) ? declared(name, args) : undefined;
  }
}

/**
 * A word made at run time (`printf "$fmt" …`, `wait $pid …`) may be an option that makes a later word
 * the variable written: the later words count as names. With none after it, it writes nothing.
 */
function afterMadeAtRunTime(args: Word[]): StateEffect {
  const first = args.findIndex((a) => a.dynamic);
  return worstEffect(args.slice(first + 1).map(variableEffect));
}

/** `declare "PATH=…"`, `export $X=…`, `local PATH` (an unset PATH, inside the function): each word is a write. */
function declared(name: string, args: Word[]): StateEffect {
  const letters: string[] = [];
  const words: Word[] = [];
  for (const w of args) {
    // `X="$v"` names X whatever its value; `$N=…`, `"$a"` or `{A,B}=…` may name any variable (or be any option).
    const named = /^([A-Za-z_]\w*)\+?=/.exec(w.raw);
    if ((w.dynamic || w.glob) && !named) return MADE_AT_RUN_TIME;
    if (w.dynamic || w.glob) words.push({ ...w, value: `${named![1]}=`, dynamic: false, glob: false });
    else if (/^[-+]./.test(w.value)) letters.push(...w.value.slice(1));
    else words.push(w);
  }
  // -f/-F name functions and -p only prints, unless a word assigns after all.
  if (letters.some((l) => 'fFp'.includes(l)) && !words.some((w) => w.value.includes('='))) return undefined;
  const effects = words.map((w): StateEffect => {
    const eq = w.value.indexOf('=');
    const variable = (eq < 0 ? w.value : w.value.slice(0, eq)).replace(/\+$/, '');
    // export and readonly of a bare name change no value; declare and local of one make it empty in a function.
    if (eq < 0 && (name === 'export' || name === 'readonly')) return undefined;
    // -n makes the name a reference to the variable its value names: writing through it writes that one.
    const target = letters.includes('n') && eq >= 0 ? variableEffect(w.value.slice(eq + 1)) : undefined;
    return worstEffect([variableEffect(variable), target]);
  });
  return worstEffect(effects);
}

/**
 * The write a node of the syntax tree makes outside any command's own arguments: `X=…` on its own,
 * `declare`/`export`/`local` words, a `for`/`select` loop variable, `${X:=…}` / `${X=…}`, `{X}>file`.
 */
export function nodeStateWrite(node: Node): StateEffect {
  const parent = node.parent?.type;
  switch (node.type) {
    case 'variable_assignment': {
      // Assignments before a command's name are that command's; a declaration's words are read with it.
      if (parent === 'command' || parent === 'declaration_command') return undefined;
      // `a[i]=…` and `OPTIND=…` are read by arithmeticReason, which sees the subscript node and the value.
      const base = node.childForFieldName('name')?.text.replace(/\[.*$/s, '');
      return base === undefined || ARITHMETIC_VARIABLES.has(base) ? undefined : variableEffect(base);
    }
    case 'declaration_command':
    case 'unset_command': {
      const keyword = node.child(0)?.text ?? '';
      const words = node.namedChildren
        .filter((c): c is Node => c !== null)
        .map((c) =>
          c.type === 'variable_assignment'
            ? literalWord(`${c.childForFieldName('name')?.text ?? ''}=`)
            : c.type === 'variable_name'
              ? literalWord(c.text)
              : readWord(c),
        );
      return stateWrites(keyword, words);
    }
    case 'for_statement':
      return variableEffect(
        node.childForFieldName('variable')?.text ?? node.namedChildren.find((c) => c?.type === 'variable_name')?.text,
      );
    case 'expansion': {
      if (!node.children.some((c) => c !== null && !c.isNamed && (c.text === ':=' || c.text === '='))) return undefined;
      if (node.children.some((c) => c?.text === '!')) return MADE_AT_RUN_TIME;
      return variableEffect(
        node.namedChildren.find((c) => c?.type === 'variable_name' || c?.type === 'subscript')?.text,
      );
    }
    case 'redirected_statement':
      // `{a[$x]}>`, `{a[${x}]}>`: an element, whose subscript is evaluated, whatever braces it holds.
      if (/\{[A-Za-z_]\w*\[[\s\S]*?\]\}[<>]/.test(node.text))
        return {
          unread: "a redirection writes its descriptor's number to an array element, whose subscript bash evaluates",
        };
      // `{NAME}>file` opens a descriptor and writes its number to NAME (`exec {PATH}>/dev/null` makes PATH 11),
      // on any command; `{a[x]}>` writes an element, whose subscript is evaluated. The grammar reads `{NAME}`
      // as the command's last word, so the text is searched (quoted text too: careful).
      return worstEffect([...node.text.matchAll(/\{([A-Za-z_][^{}\s]*)\}(?=[<>])/g)].map((m) => variableEffect(m[1])));
    default:
      return undefined;
  }
}
