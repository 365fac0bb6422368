import type { Node } from 'web-tree-sitter';
import type { TargetPart } from '../contract/permission.js';
import { gitConfigReason, readGitWords, type GitPlaces } from './git-config.js';
import { isAnyLongOption, isLongOption } from './options.js';
import { ARITHMETIC_VARIABLES, interpreterReason, SHELLS } from './programs.js';
import { knownWrapper, mayRunOthers } from './wrappers.js';
import { mayExpandToOption, readWord, type Word } from './words.js';

// Closed world: a part is understood only when its program is known NOT to run its arguments, its
// input or its configuration as code. Anything else (a program nobody listed, `linux64`, `prlimit`,
// `ld.so`, a pager, a build tool) may be a launcher, and what it launches cannot be read: the part is
// "unread". Under rules with a deny an unread part is decided like an opaque one, by a person (never by
// --yes, never by a broad allow); under rules without a deny it is decided as any part (so everyday use
// does not ask more than it did). Known wrappers are not here: they are read through (wrappers.ts).

/**
 * Programs that run nothing but themselves, whatever their arguments and settings, or with the
 * options that would run something checked in LEAF_CHECKS. Chosen one by one: a program gets on this
 * list by being read, not by looking harmless.
 */
const LEAVES = new Set([
  // Reading and writing files and folders.
  'ls',
  'dir',
  'vdir',
  'tree',
  'cat',
  'tac',
  'head',
  'tail',
  'wc',
  'cut',
  'tr',
  'uniq',
  'paste',
  'join',
  'comm',
  'nl',
  'fold',
  'fmt',
  'expand',
  'unexpand',
  'rev',
  'column',
  'tee',
  'mkdir',
  'rmdir',
  'cp',
  'mv',
  'rm',
  'ln',
  'touch',
  'chmod',
  'chown',
  'chgrp',
  'truncate',
  'mktemp',
  'dd',
  'shred',
  'stat',
  'file',
  'du',
  'df',
  'basename',
  'dirname',
  'realpath',
  'readlink',
  'pwd',
  'sync',
  'sort',
  'split',
  'csplit',
  'shuf',
  'install',
  // Text, numbers and time.
  'echo',
  'printf',
  'true',
  'false',
  'test',
  '[',
  'yes',
  'seq',
  'sleep',
  'expr',
  'factor',
  'numfmt',
  'tsort',
  'date',
  'cal',
  'grep',
  'egrep',
  'fgrep',
  'diff',
  'cmp',
  'jq',
  'od',
  'xxd',
  'hexdump',
  'base64',
  'base32',
  'basenc',
  'md5sum',
  'sha1sum',
  'sha224sum',
  'sha256sum',
  'sha384sum',
  'sha512sum',
  'b2sum',
  'cksum',
  'sum',
  // Archives: tar and zip are read for the options that run a program (wrappers.ts).
  'gzip',
  'gunzip',
  'zcat',
  'bzip2',
  'bunzip2',
  'bzcat',
  'xz',
  'unxz',
  'xzcat',
  'lzma',
  'unlzma',
  'zstd',
  'unzstd',
  'zstdcat',
  'unzip',
  // About the machine and its processes.
  'whoami',
  'id',
  'groups',
  'uname',
  'hostname',
  'nproc',
  'uptime',
  'printenv',
  'tty',
  'locale',
  'arch',
  'free',
  'ps',
  'pgrep',
  'kill',
  'which',
  'which.debianutils',
  'whereis',
  // Fetches a URL: runs nothing it is given (a deny on it is matched as for any program), but an
  // engine it loads is code, and its settings file may name one (LEAF_CHECKS, settleSettingsReaders).
  'curl',
  // Bash's own commands that run nothing (eval, source, trap, … are read as wrappers).
  ':',
  'bg',
  'break',
  'caller',
  'cd',
  'continue',
  'dirs',
  'disown',
  'exit',
  'fg',
  'getopts',
  'help',
  'history',
  'jobs',
  'logout',
  'popd',
  'pushd',
  'read',
  'return',
  'set',
  'shift',
  'suspend',
  'times',
  'type',
  'ulimit',
  'umask',
  'unalias',
  'unset',
  'wait',
  'mapfile',
  'readarray',
  'local',
  'declare',
  'typeset',
  'export',
  'readonly',
]);

/** Why a declaration's words (`-i`, `-n`, `a[…]=`, `y=(…)` however quoted) make bash evaluate text. */
function declarationCheck(args: string[]): string | undefined {
  return args.some((w) => /^[-+][a-zA-Z]*[inaA]/.test(w) || /^[^=]*\[/.test(w) || /^[^=]*\+?=\(/.test(w))
    ? "a declaration that evaluates its values or parses them again as an array's elements, which can run commands"
    : undefined;
}

/** An array element's name (`a[$(…)]`) is evaluated as arithmetic, which runs the substitutions in it. */
const SUBSCRIPT = /\[/;
const after = (args: string[], option: RegExp) =>
  args.some((a, i) => i > 0 && option.test(args[i - 1]!) && SUBSCRIPT.test(a));

/** Listed programs' ways of running something after all: with one of them, the part is unread. */
const LEAF_CHECKS: Record<string, (args: string[]) => string | undefined> = {
  sort: (a) =>
    a.some((x) => isLongOption(x, 'compress-program'))
      ? "sort --compress-program runs a program of the command's choosing"
      : undefined,
  split: (a) =>
    a.some((x) => isLongOption(x, 'filter')) ? "split --filter runs a command of the command's choosing" : undefined,
  install: (a) =>
    a.some((x) => isLongOption(x, 'strip-program', ['strip']))
      ? "install --strip-program runs a program of the command's choosing"
      : undefined,
  mapfile: (a) => (a.some((x) => /^-[a-zA-Z]*C/.test(x)) ? 'mapfile -C runs a command for each line' : undefined),
  readarray: (a) => (a.some((x) => /^-[a-zA-Z]*C/.test(x)) ? 'readarray -C runs a command for each line' : undefined),
  read: (a) =>
    a.some((x, i) => !x.startsWith('-') && !/^-[adinNptu]$/.test(a[i - 1] ?? '') && SUBSCRIPT.test(x))
      ? 'read into an array element evaluates its subscript, which can run commands'
      : undefined,
  printf: (a) =>
    after(a, /^-v$/) ? 'printf -v into an array element evaluates its subscript, which can run commands' : undefined,
  test: (a) =>
    after(a, /^-v$/) ? 'test -v on an array element evaluates its subscript, which can run commands' : undefined,
  '[': (a) =>
    after(a, /^-v$/) ? '[ -v on an array element evaluates its subscript, which can run commands' : undefined,
  unset: (a) =>
    a.some((x) => SUBSCRIPT.test(x))
      ? 'unset of an array element evaluates its subscript, which can run commands'
      : undefined,
  // Declarations reached through `builtin` or `command`, read as the grammar's declarations are (arithmeticReason).
  declare: declarationCheck,
  typeset: declarationCheck,
  local: declarationCheck,
  export: declarationCheck,
  readonly: declarationCheck,
  // `jobs -x CMD ARGS` runs CMD, its job specs replaced by process groups.
  jobs: (a) => (a.some((x) => /^-[a-zA-Z]*x/.test(x)) ? 'jobs -x runs the command it is given' : undefined),
  // An OpenSSL engine is a library curl loads, so code; -K/--config reads options (an engine among them) from a file.
  curl: (a) =>
    a.some((x) => isAnyLongOption(x, ['engine', 'config']) || /^-[a-zA-Z0-9#:]*K/.test(x))
      ? 'curl loads an engine (code) or reads its options from a file'
      : undefined,
};

/**
 * Options with which curl writes a file (its settings file among them, for a later curl on the line).
 * Short ones may be grouped (`-sSo`); long ones may be abbreviated.
 */
const CURL_WRITES_SHORT = /^-[a-zA-Z0-9#:]*[oODcJT]/;
/** `-T`/`--upload-file` to a file:// URL writes that file. */
const CURL_WRITES_LONG = [
  'output',
  'remote-name',
  'remote-name-all',
  'dump-header',
  'cookie-jar',
  'trace',
  'trace-ascii',
  'stderr',
  'libcurl',
  'etag-save',
  'hsts',
  'alt-svc',
  'output-dir',
  'create-dirs',
  'remote-header-name',
  'upload-file',
];
const curlWrites = (args: string[]) =>
  // curl 8.3 on writes to files named in `-w '%output{FILE}'`.
  args.some((x) => CURL_WRITES_SHORT.test(x) || isAnyLongOption(x, CURL_WRITES_LONG) || x.includes('%output{'));

/**
 * Why `name args…` is not known to run only itself, or undefined when it is: a listed leaf, a known
 * wrapper (read through elsewhere), a shell or an interpreter (whose code is opaque elsewhere).
 * `name` is the program's real name (links followed), or the applet's for a multi-call binary.
 */
export function unreadReason(name: string, args: Word[]): string | undefined {
  // `find . $E …`, `tar -xf a $T`, `sort $O`: an option made at run time may be the one that runs a
  // program; so may one bash makes by expanding a word (`{,}--filter=…`, `-exe[c]`).
  if (args.some((a) => a.dynamic || mayExpandToOption(a)) && (name in LEAF_CHECKS || mayRunOthers(name)))
    return `${name} is given options made at run time, and some of its options run programs`;
  if (LEAVES.has(name)) return LEAF_CHECKS[name]?.(args.map((a) => a.value));
  // A shell that expands history (`-H`) or aliases (`--posix`) rewrites its script after it was read.
  // With -k, `NAME=value` words after a command's name go into its environment (BASH_ENV=… for a bash).
  if (
    SHELLS.test(name) &&
    args.some(
      (a) =>
        /^-[a-zA-Z]*[Hk]/.test(a.value) ||
        a.value === '--posix' ||
        a.value === '--debugger' ||
        /^(?:histexpand|history|posix|keyword)$/.test(a.value) ||
        a.value.includes('extdebug'),
    )
  ) {
    return `${name} is told to expand history or aliases, or to take assignments from later words, which changes its script after it was read`;
  }
  if (knownWrapper(name, args) || SHELLS.test(name) || interpreterReason(name, ['-c']) !== undefined) return undefined;
  return `${name} is not a program known to run only itself: it may run other programs, from its arguments or its settings`;
}

/**
 * Programs that may run on a line without writing any file: with only these (and no redirection to a
 * file), git's settings cannot change between being checked and git reading them.
 */
const READS_ONLY = new Set([
  // Not here, for the file each may write: tree -o, xxd's second operand, file -C, GNU time -o.
  'ls',
  'cat',
  'tac',
  'head',
  'tail',
  'wc',
  'cut',
  'tr',
  'nl',
  'fold',
  'rev',
  'column',
  'echo',
  'printf',
  'true',
  'false',
  'test',
  '[',
  'seq',
  'sleep',
  'expr',
  'date',
  'grep',
  'egrep',
  'fgrep',
  'diff',
  'cmp',
  'jq',
  'od',
  'base64',
  'stat',
  'du',
  'df',
  'basename',
  'dirname',
  'realpath',
  'readlink',
  'pwd',
  'whoami',
  'id',
  'uname',
  'which',
  'type',
  'cd',
  ':',
  'wait',
  'command',
  'builtin',
  'nice',
  'timeout',
  'nohup',
  'stdbuf',
  'env',
  'xargs',
]);

/** A git part whose words are understood: its settings are checked once the whole line is read. */
export interface GitPending {
  part: TargetPart;
  reading: { folders: string[]; gitDir?: string; writes: boolean };
}

/** How a part's program reads under the closed world: why it is unread, or the git reading to settle later. */
export interface PartReading {
  unread?: string;
  git?: GitPending['reading'];
  /** It reads a settings file from the home folder (curl's .curlrc): settled once the line is read. */
  readsSettings?: { writes: boolean };
}

/** Reads one part's program: `extraUnread` is a reason the command's own assignments give. */
export function unreadOf(name: string, args: Word[], extraUnread?: string): PartReading {
  if (extraUnread) return { unread: extraUnread };
  if (name === 'git' && args.some((a) => a.dynamic || mayExpandToOption(a)))
    return { unread: 'git is given arguments made at run time' };
  if (name === 'git') {
    const git = readGitWords(args);
    return git.unread !== undefined
      ? { unread: git.unread }
      : { git: { folders: git.folders, ...(git.gitDir ? { gitDir: git.gitDir } : {}), writes: git.writes } };
  }
  if (name === 'let' && args.some((a) => /[A-Za-z_$`]/.test(a.value)))
    return { unread: 'let evaluates variables as arithmetic, which can run commands' };
  const unread = unreadReason(name, args);
  if (unread) return { unread };
  // `-q` first: no settings file is read at all.
  if (name === 'curl' && !/^(?:-q|--disable)$/.test(args[0]?.value ?? ''))
    return { readsSettings: { writes: curlWrites(args.map((a) => a.value)) } };
  return {};
}

/** Whether a part may write a file (git's settings among them). */
export function writesFiles(name: string, reading: PartReading | undefined): boolean {
  if (reading?.git) return reading.git.writes;
  if (reading?.readsSettings) return reading.readsSettings.writes;
  return name !== 'git' && !READS_ONLY.has(name);
}

/**
 * Marks each part that reads a settings file from the home folder unread when the line may write
 * files: the sandbox's home starts empty for every command, so only the line itself could put one
 * there (`echo 'engine = …' > ~/.curlrc; curl …`).
 */
export function settleSettingsReaders(parts: TargetPart[], mayWrite: boolean | undefined): void {
  if (!mayWrite) return;
  for (const part of parts) {
    part.unread ??= 'the same command line may write the settings file it reads, and a setting there can load code';
    part.settings = true;
  }
}

/** Marks each understood git part unread when its settings could run a program, or could change before git reads them. */
export function settleGitParts(
  pending: GitPending[],
  line: Omit<GitPlaces, 'cwd'> & { cwds: string[]; cwdUnknown?: boolean; mayWrite?: boolean },
): void {
  for (const { part, reading } of pending) {
    const reason = line.cwdUnknown
      ? 'the folder git runs in is not known before the line runs, so neither are the settings it reads'
      : line.mayWrite
        ? "the same command line may change git's settings before git reads them"
        : line.cwds
            .map((cwd) => gitConfigReason(reading, { cwd, home: line.home, xdgConfigHome: line.xdgConfigHome }))
            .find((r) => r !== undefined);
    if (reason) Object.assign(part, { unread: reason, settings: true });
  }
}

const ARITHMETIC_TESTS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);
/** Nothing in it is evaluated but numbers and operators. */
const literalArithmetic = (node: Node): boolean =>
  node.namedChildren.every(
    (c) =>
      !c || c.type === 'number' || (/^(?:binary|unary|parenthesized)_expression$/.test(c.type) && literalArithmetic(c)),
  );

/**
 * Why bash would evaluate text from a variable or a substitution as arithmetic here (`$((x))`,
 * `(( n = $(…) ))`, `for ((…))`, `[[ $a -eq 1 ]]`, `${a[i]}`, `${!name}`, `${x@P}`), where a value like
 * `a[$(rm -rf ~)]` runs its substitution. Undefined when the node is no such place.
 */
export function arithmeticReason(node: Node): string | undefined {
  const why = "bash evaluates a variable's or a substitution's text here, and a subscript in it can run commands";
  if (translatedString(node)) return TRANSLATED;
  switch (node.type) {
    case 'arithmetic_expansion':
      return literalArithmetic(node) ? undefined : why;
    case 'compound_statement':
      return node.text.startsWith('((') && !literalArithmetic(node) ? why : undefined;
    case 'c_style_for_statement':
      return why;
    case 'test_command':
      // `[ -v 'a[$(…)]' ]`: the single-bracket test evaluates an element's subscript too.
      if (/^\[\s/.test(node.text)) {
        for (const m of node.text.matchAll(/(?:^|\s)-v\s+(\S+)/g)) if (!/^[A-Za-z_]\w*$/.test(m[1]!)) return why;
      }
      // `-v a[x]` evaluates the subscript as well.
      if (node.text.startsWith('[[') && /\s-v\s/.test(node.text)) return why;
      return node.text.startsWith('[[') && /\s-(?:eq|ne|lt|le|gt|ge)\s/.test(node.text) && hasArithmeticTest(node)
        ? why
        : undefined;
    case 'array':
      // `a=([x]=1)`: an index that is not a number is evaluated.
      return node.namedChildren.some((c) => c && /^\[(?!\d+\])/.test(c.text)) ? why : undefined;
    case 'subscript': {
      const index = node.childForFieldName('index');
      return index && !/^(?:\d+|@|\*)$/.test(index.text) ? why : undefined;
    }
    case 'expansion': {
      // `${!x}` in any form (`${!x:-d}`, `${!x#z}`, `${!x[0]}`) reads the variable x names, subscript and all;
      // only the lists of names (`${!pre*}`, `${!pre@}`) and of an array's keys (`${!a[@]}`) evaluate nothing.
      const indirect = node.text.startsWith('${!') && !/^\$\{!\w+(?:[*@]|\[[@*]\])\}$/.test(node.text);
      if (indirect || /@P\}$/.test(node.text))
        return "bash expands a variable's text again here, which can run commands in it";
      // `${x:off:len}`, `${@:off}`, `${*:off}`: offset and length are arithmetic (`:-`, `:=`, `:?`, `:+` are not).
      const slice = /^\$\{(?:\w+|[@*#?$!-])(?:\[[^\]]*\])?:(?![-=?+])(.*)\}$/s.exec(node.text);
      return slice && !/^\s*-?\d+\s*(?::\s*-?\d+\s*)?$/.test(slice[1]!) ? why : undefined;
    }
    case 'declaration_command':
      // -i evaluates what is assigned; -n makes a name a reference, and assigning through `a[…]` evaluates
      // it; a quoted `'a[$(…)]=1'` is an element whose subscript is evaluated. Quoted or made at run time
      // (`"-i"`, `-"i"`, `$o`), a word may be any of them. A value that reads `(…)` however it was quoted
      // (`y='($(…))'`, `'y=(…)'`) is parsed again as an array's elements when the name is an array, which
      // runs every substitution in it.
      return node.namedChildren.some((c) => {
        if (!c || c.type === 'variable_name') return false;
        if (c.type === 'variable_assignment') {
          const value = c.childForFieldName('value');
          if (value === null || value.type === 'array') return false;
          const word = readWord(value);
          // Made at run time, a quoted value may still open with the parenthesis: `y+="($v)"`.
          if (/^\(/.test(word.value) || /^\$?["']\(/.test(value.text)) return true;
          // A value made at run time (`y="$e"`, `y=$(…)`) may read `(…)` too: it is parsed again when the name is an array.
          return word.dynamic && (arrayOption(node) || madeArray(node, c.childForFieldName('name')?.text ?? ''));
        }
        const w = readWord(c);
        return (
          w.dynamic || /^[-+][a-zA-Z]*[in]/.test(w.value) || /^[^=]*\[/.test(w.value) || /^[^=]*\+?=\(/.test(w.value)
        );
      })
        ? why
        : undefined;
    case 'translated_string':
      return TRANSLATED;
    case 'variable_assignment': {
      // Bash evaluates what is written to RANDOM, SRANDOM, OPTIND or HISTCMD as arithmetic.
      const name = node.childForFieldName('name')?.text.replace(/\[.*$/s, '') ?? '';
      const value = node.childForFieldName('value')?.text ?? '';
      return ARITHMETIC_VARIABLES.has(name) && !/^\d*$/.test(value) ? why : undefined;
    }
    default:
      return undefined;
  }
}

/** A declaration with `-a`/`-A` (`declare -a y=…`). */
const arrayOption = (node: Node): boolean =>
  node.namedChildren.some((c) => c?.type === 'word' && /^-[a-zA-Z]*[aA]/.test(readWord(c).value));

/** Bash's own arrays. */
const BASH_ARRAYS =
  /^(?:PIPESTATUS|DIRSTACK|BASH_REMATCH|BASH_ARGV|BASH_ARGC|BASH_LINENO|BASH_SOURCE|BASH_VERSINFO|BASH_ALIASES|BASH_CMDS|FUNCNAME|GROUPS|COMP_WORDS|COMPREPLY|COPROC|READLINE_\w*)$/;

/**
 * Whether the line may make `name` an array: bash's own, `name=(…)`, `name[i]=…`, `declare -a name`,
 * or a command that fills arrays (`read`, `mapfile`, `readarray`, `coproc`) anywhere with the name after it.
 */
function madeArray(node: Node, name: string): boolean {
  if (!/^[A-Za-z_]\w*$/.test(name) || BASH_ARRAYS.test(name)) return true;
  const line = node.tree.rootNode.text;
  return new RegExp(
    `(?:^|[^\\w])${name}(?:\\+?=\\(|\\[)|-[a-zA-Z]*[aA]\\s+(?:-\\S+\\s+)*${name}\\b|\\b(?:read|mapfile|readarray|coproc)\\b[^;&|\\n]*\\b${name}\\b`,
  ).test(line);
}

/** Nodes the grammar reads the expansions of. */
const PARSED_CODE = new Set([
  'command_substitution',
  'expansion',
  'arithmetic_expansion',
  'process_substitution',
  'translated_string',
]);

/** What a scan of `[[ … ]]` leaves out: what the grammar read, and quoted text, which is scanned as a node of its own. */
const QUOTED = new Set([...PARSED_CODE, 'string', 'raw_string', 'ansi_c_string']);

/**
 * Why a node holds code the grammar did not read. It sometimes keeps text bash expands as plain text: a
 * pattern (`${x#…}`) as one `regex`, a backquote or `<(…)` in `${y:-…}` as a `word`, a here-document body
 * whose lines start with a blank, `'…'` or `$'…'` inside a double-quoted `${…}` (there bash expands what
 * the quotes hold). A `$(…)`, backquote, `${…}` or `$[…]` there runs unseen, and no deny could match it:
 * where such a mark stands outside every expansion the grammar read, the part is opaque.
 */
export function hiddenCodeReason(node: Node): string | undefined {
  const why = 'text here holds an expansion that the command-line reader did not read, and it may run commands';
  switch (node.type) {
    case 'regex':
    case 'word':
      // Unquoted, `<(…)` and `>(…)` run too.
      return unreadMark(node, true) ? why : undefined;
    case 'string':
    case 'heredoc_content':
      // A double-quoted string whole (its contents are scanned with it): `"$\⏎(…)"` comes as a `$` token and a content that starts with `(`.
      return unreadMark(node, false) ? why : undefined;
    case 'heredoc_body': {
      // A quoted delimiter (`<<'E'`, `<<"E"`, `<<\E`) keeps the body as it is.
      const start = node.parent?.namedChildren.find((c) => c?.type === 'heredoc_start')?.text ?? '';
      return !/['"\\]/.test(start) && unreadMark(node, false) ? why : undefined;
    }
    case 'raw_string':
      // Single quotes are quoting, except inside a double-quoted `${…}`, where bash expands what they hold.
      return inQuotedExpansion(node) && unreadMark(node, false) ? why : undefined;
    case 'ansi_c_string':
      // Inside a double-quoted `${…}` bash decodes `$'…'` and expands the result: escapes can spell any mark.
      return inQuotedExpansion(node) ? why : undefined;
    case 'test_command':
      // In `[[ … ]]` the grammar reads `*<(…)` as a word, a comparison and a group; bash reads one word
      // holding a process substitution, and runs it. Quoted text is scanned on its own (above).
      return node.text.startsWith('[[') && unreadMark(node, true, QUOTED) ? why : undefined;
    default:
      return undefined;
  }
}

/** Inside a `${…}` that stands in double quotes or in a here-document's body (where quotes are plain characters). */
function inQuotedExpansion(node: Node): boolean {
  for (let p = node.parent, inExpansion = false; p; p = p.parent) {
    if (p.type === 'expansion') inExpansion = true;
    else if (p.type === 'string' || p.type === 'heredoc_body') return inExpansion;
  }
  return false;
}

/**
 * Whether the node's text holds a code mark outside the expansions the grammar read in it: the text of
 * each is blanked out first, then the rest is scanned as bash reads it — a backslash escapes the next
 * character (so `\\$(` is a live mark), a backslash-newline is removed (`$\⏎(` is `$(`).
 */
function unreadMark(node: Node, processSubstitution: boolean, skipped: ReadonlySet<string> = PARSED_CODE): boolean {
  let text = node.text;
  if (!/[$`<>]/.test(text)) return false;
  // Blank out what was read, outermost first, in order.
  let cursor = 0;
  const blank = (n: Node) => {
    for (const c of n.namedChildren) {
      if (!c) continue;
      if (!skipped.has(c.type)) {
        blank(c);
        continue;
      }
      const at = text.indexOf(c.text, cursor);
      if (at < 0) continue;
      text = text.slice(0, at) + ' '.repeat(c.text.length) + text.slice(at + c.text.length);
      cursor = at + c.text.length;
    }
  };
  blank(node);
  const plain = text.replace(/\\\n/g, (m, offset: number) => (precededByOddBackslashes(text, offset) ? m : ''));
  for (let i = 0; i < plain.length; i++) {
    const c = plain[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '`') return true;
    if (c === '$' && /[({["]/.test(plain[i + 1] ?? '')) return true;
    if (processSubstitution && (c === '<' || c === '>') && plain[i + 1] === '(') return true;
  }
  return false;
}

/** Whether the backslash at `offset` is itself escaped (an odd number of backslashes before it). */
function precededByOddBackslashes(text: string, offset: number): boolean {
  let n = 0;
  for (let i = offset - 1; i >= 0 && text[i] === '\\'; i--) n++;
  return n % 2 === 1;
}

/** `$"…"`: bash looks the text up in a message catalogue the line may have written, and expands the translation again. */
const TRANSLATED =
  'bash replaces a $"…" string with its translation from a message catalogue and expands that again, which can run commands';

/** The grammar reads `$"…"` as a `$` token right before a string. */
function translatedString(node: Node): boolean {
  return node.children.some((c, i) => {
    const next = node.children[i + 1];
    return c !== null && !c.isNamed && c.type === '$' && next?.type === 'string' && next.startIndex === c.endIndex;
  });
}

function hasArithmeticTest(node: Node): boolean {
  if (node.type === 'binary_expression') {
    const op = node.childForFieldName('operator')?.text ?? '';
    if (ARITHMETIC_TESTS.has(op))
      return [node.childForFieldName('left'), node.childForFieldName('right')].some((c) => c && c.type !== 'number');
  }
  return node.namedChildren.some((c) => c !== null && hasArithmeticTest(c));
}
