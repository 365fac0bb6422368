import type { Unwrapped } from './unwrapped.js';
import type { Word } from './words.js';

// What a shell runs when it is given a command line (`bash -c`, `sh -c`, flock's and watch's lines),
// and which shells' lines can be read with bash's grammar.

export function shell(name: string, args: Word[]): Unwrapped {
  // An interactive or login shell first runs its startup files (~/.bashrc, ~/.profile, --rcfile's),
  // which an earlier command may have written: what it runs cannot be read, though its -c line still is.
  const startupFlag = args.find(
    (a) => /^--(?:login|rcfile|init-file|rcf|ini|log)/.test(a.value) || /^-[a-zA-Z]*[il]/.test(a.value),
  );
  const startup = startupFlag
    ? {
        opaque: `${name} ${startupFlag.value} runs its startup files, whose commands cannot be read from the command line`,
      }
    : {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.dynamic) return { opaque: `${name}'s arguments are made at run time` };
    if (a.value === '--' || (!a.value.startsWith('-') && !a.value.startsWith('+'))) {
      const script = a.value === '--' ? args[i + 1] : a;
      return script
        ? { opaque: `${name} runs the script ${script.value}, whose commands cannot be read from the command line` }
        : stdin(name);
    }
    // -c anywhere in a group of short options (`-lc`, `-ec`): the next word is the command line.
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(a.value)) {
      const script = args[i + 1];
      if (!script) return startup;
      // Read as bash even then, for the denies and refusals bash's reading finds; but not understood.
      const other = otherGrammar(name, script.value);
      return { scripts: [script], ...startup, ...(other ? { opaque: other } : {}) };
    }
    if (
      a.value === '-o' ||
      a.value === '+o' ||
      a.value === '-O' ||
      a.value === '+O' ||
      a.value === '--rcfile' ||
      a.value === '--init-file'
    )
      i++;
    if (/^-[a-zA-Z]*s/.test(a.value)) return stdin(name);
  }
  return stdin(name);
}

/** Shells whose grammar is bash's: their command lines are read as bash reads them. */
const BASH = new Set(['bash', 'rbash']);
/** Shells that read the POSIX grammar, which bash's extends. */
const POSIX_SHELLS = new Set(['sh', 'dash', 'ash', 'busybox-sh', 'posh']);
/**
 * Where bash's grammar reads a line otherwise than a POSIX shell: quotes (`$'…'`, `$"…"`), operators
 * (`&>`, `|&`, `<<<`, `;&`), `[[ ]]` and `(( ))` (where `<`, `&&` and `(` are not redirections, lists
 * and subshells), process substitution, extended globs, reserved words a POSIX shell runs as commands,
 * and aliases, which a POSIX shell expands in a `-c` line and bash does not. Quoted text counts too:
 * it only makes a person look.
 */
const POSIX_DIFFERS = /\$['"]|&>|\|&|<<<|;;?&|\[\[|\(\(|[<>@!+*?]\(|\b(?:function|select|coproc|alias)\b/;

/**
 * Why a shell's command line cannot be read as bash's: a shell of another grammar (zsh, fish, ksh), or
 * a POSIX shell (dash as `sh`) given text the two grammars read apart — `sh -c "echo $'a\\' ; rm -rf x;
 * echo ' '"` runs rm in dash, where bash reads one quoted word.
 */
function otherGrammar(name: string, script: string): string | undefined {
  if (BASH.has(name)) return undefined;
  if (!POSIX_SHELLS.has(name))
    return `${name} reads its command line with a grammar of its own, which cannot be read as bash's`;
  return POSIX_DIFFERS.test(script)
    ? `${name} reads its command line as a POSIX shell, which reads this one otherwise than bash`
    : undefined;
}

/** A command line a program hands to `sh -c`: read as bash, and not understood where sh reads it otherwise. */
export function shScript(script: Word): Unwrapped {
  const other = otherGrammar('sh', script.value);
  return { scripts: [script], ...(other ? { opaque: other } : {}) };
}

const stdin = (name: string): Unwrapped => ({
  opaque: `${name} runs commands from its input, which cannot be read from the command line`,
});
