import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import type { Node } from 'web-tree-sitter';
import type { TargetPart } from '../contract/permission.js';
import { catastropheOf, cdTarget, redirectCatastrophe, type CatastropheOptions } from './catastrophe.js';
import {
  arithmeticReason,
  hiddenCodeReason,
  settleGitParts,
  settleSettingsReaders,
  unreadOf,
  writesFiles,
  type GitPending,
} from './closed-world.js';
import { backquoted, LINE_BOUND, parseAsBash, readsPastLineEnd } from './bash-reading.js';
import { isInside, landsAlike } from './folders.js';
import { bashParser, type BashParser } from './parser.js';
import { CHANGES_SETTINGS, isBuiltin, programLocator, RUNS_SOMETHING, type ProgramLocation } from './programs.js';
import { nodeStateWrite } from './shell-state.js';
import { readWord, type Word } from './words.js';
import { mayRunOthers, unwrap } from './wrappers.js';

/** Command lines inside command lines (`bash -c` in `eval` in `sh -c` …) read before giving up. */
const MAX_DEPTH = 8;
/** Wrappers around one command (`sudo env nice timeout 5 …`) read before giving up: far past real use. */
const MAX_WRAPS = 32;
/** Parts one line may have before it is too much to show anyone: far past any real command. */
const MAX_PARTS = 500;
/** Longer command lines are not read: nobody approves 100 KB of shell. */
const MAX_COMMAND_CHARS = 100_000;
/** Here-document end words read alike by bash and the grammar: plain, wholly quoted, or one leading backslash. */
const PLAIN_DELIMITER = /^(?:\\?[A-Za-z0-9_.,:@%+=-]+|'[A-Za-z0-9_.,:@%+= -]*'|"[A-Za-z0-9_.,:@%+= -]*")$/;
/** Folders a line's `cd`s may leave it in, past which where it runs counts as not known. */
const MAX_CWDS = 16;
/** How much of an unreadable spot a reason quotes. */
const SHOWN_CHARS = 40;
/** Redirection operators that write to their destination. */
const WRITES = new Set(['>', '>>', '&>', '&>>', '>|', '<>', '>&']);
/** Bash's reserved words the grammar reads as a command's name: bash runs them itself. */
const KEYWORDS = new Set(['time', 'coproc']);
/** Programs that run the applet their link is named after (setarch's links name an architecture: linux64 → setarch). */
const MULTI_CALL = new Set(['busybox', 'toybox', 'setarch']);

/** A command line read before it runs: every part it would run, or why it could not be read. */
export type CommandAnalysis =
  | {
      ok: true;
      parts: TargetPart[];
      /** Set when the line would do something refused in every mode (`rm -rf /`, `mkfs`, …), saying what. */
      catastrophe?: string;
    }
  | { ok: false; reason: string };

export interface AnalyzeOptions {
  /** The folder the command runs in: relative program paths are resolved from it. */
  cwd: string;
  /** PATH as the command will see it: bare program names are looked up in it for their real path. */
  path: string;
  /** Files and folders no command may write to (the agent's own config and database). */
  protectedPaths?: string[];
  /** Folders inside a protected path that commands may write (the workspace). */
  writable?: string[];
  /**
   * Folders whose scripts are known code (the skills that come with Zhixing): `node <folder>/x.mjs`
   * there is read as that script's own run, not as code that cannot be read.
   */
  knownScripts?: string[];
  /** HOME as the command will see it: where git finds its "global" settings. */
  home?: string;
  /** XDG_CONFIG_HOME as the command will see it, when set. */
  xdgConfigHome?: string;
}

interface State {
  parser: BashParser;
  options: AnalyzeOptions;
  danger: CatastropheOptions;
  locate: (name: string, from: string) => ProgramLocation;
  parts: TargetPart[];
  catastrophe?: string;
  failure?: string;
  /** Functions the line defines: calling one runs its body, which is read where it is defined. */
  functions: Set<string>;
  /** Every folder the line may run in (its start, each `cd`): git's settings are checked in all of them. */
  cwds: string[];
  /** A `cd` went where the line cannot say before it runs. */
  cwdUnknown?: boolean;
  /** Something on the line may write a file (a redirection, a program not known to only read). */
  mayWrite?: boolean;
  /** git parts understood so far, waiting for their settings to be checked once the whole line is read. */
  git: GitPending[];
  /** Parts whose program reads a settings file from the home folder (closed-world.ts). */
  settingsReaders: TargetPart[];
  /**
   * What a first reading found about the whole line, for the second: a `cd` in a subshell, a branch
   * or a function defined later may or may not run before a command, and a loop's later commands run
   * before its earlier ones again, so what holds anywhere on the line holds for every part.
   */
  line?: LineFacts;
}

/** What holds anywhere on a line: every folder it may be in, whether it may write files. */
interface LineFacts {
  cwds: string[];
  cwdUnknown: boolean;
  mayWrite: boolean;
}

/**
 * Reads a command line into the parts the permission rules decide on: every simple command anywhere
 * in it (lists, pipelines, substitutions, subshells, bodies of if/for/while/case and functions), and
 * what wrappers (`bash -c`, `env`, `sudo`, `xargs`, `find -exec`, …) would run. Each part is named as
 * bash would run it after quote removal (`c"u"rl` is curl), with its path as written and its real path.
 */
export async function analyzeCommand(command: string, options: AnalyzeOptions): Promise<CommandAnalysis> {
  if (command.length > MAX_COMMAND_CHARS)
    return { ok: false, reason: `the command line is longer than ${MAX_COMMAND_CHARS / 1000} KB` };
  const parser = await bashParser();
  const locate = programLocator(options.cwd, options.path);
  const fresh = (line?: LineFacts): State => ({
    parser,
    options,
    danger: {
      cwd: options.cwd,
      protectedPaths: (options.protectedPaths ?? []).map((p) => path.resolve(options.cwd, p)),
      writable: (options.writable ?? []).map((p) => path.resolve(options.cwd, p)),
      home: homedir(),
    },
    locate,
    parts: [],
    functions: new Set(),
    cwds: [options.cwd],
    git: [],
    settingsReaders: [],
    ...(line ? { line } : {}),
  });
  // Read twice: the first reading gathers what holds anywhere on the line (every folder a `cd` may
  // lead to, whether anything writes), the second reads each part knowing it.
  const first = fresh();
  const failed = readSafely(command, first);
  if (failed) return failed;
  const state = fresh({ cwds: first.cwds, cwdUnknown: first.cwdUnknown === true, mayWrite: first.mayWrite === true });
  const again = readSafely(command, state);
  if (again) return again;
  settleGitParts(state.git, {
    cwds: state.cwds,
    cwdUnknown: state.cwdUnknown,
    mayWrite: state.mayWrite,
    home: options.home,
    xdgConfigHome: options.xdgConfigHome,
  });
  settleSettingsReaders(state.settingsReaders, state.mayWrite);
  const seen = new Set<string>();
  const parts = state.parts.filter((p) => {
    const key = JSON.stringify(p);
    return !seen.has(key) && (seen.add(key), true);
  });
  return { ok: true, parts, ...(state.catastrophe ? { catastrophe: state.catastrophe } : {}) };
}

function readSafely(command: string, state: State): { ok: false; reason: string } | undefined {
  try {
    readLine(command, state, 0);
  } catch (err) {
    // Thousands of nested $( … ) outrun the stack: such a line is not read, and so it asks.
    if (err instanceof RangeError) return { ok: false, reason: 'the command line is nested too deeply to read' };
    throw err;
  }
  return state.failure ? { ok: false, reason: state.failure } : undefined;
}

const quote = (text: string) => JSON.stringify(text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text);

function readLine(source: string, state: State, depth: number): void {
  if (state.failure) return;
  if (depth > MAX_DEPTH) {
    state.failure = `commands are nested more than ${MAX_DEPTH} levels deep`;
    return;
  }
  const tree = parseAsBash(state.parser, source);
  if (!tree) {
    state.failure = 'a # in it is read as a comment by the command-line reader but not by bash';
    return;
  }
  try {
    const root = tree.rootNode;
    if (root.hasError) {
      const bad = firstError(root);
      state.failure = bad
        ? `it does not parse as shell near ${quote(bad.text || source.slice(bad.startIndex, bad.startIndex + SHOWN_CHARS))}`
        : 'it does not parse as shell';
      return;
    }
    visit(root, state, depth);
  } finally {
    tree.delete();
  }
}

function firstError(node: Node): Node | undefined {
  if (node.isError || node.isMissing) return node;
  for (const child of node.children) {
    if (child?.hasError || child?.isMissing) return firstError(child) ?? child;
  }
  return undefined;
}

const named = (node: Node) => node.namedChildren.filter((c): c is Node => c !== null);

function visit(node: Node, state: State, depth: number): void {
  if (state.failure) return;
  switch (node.type) {
    case 'command':
      command(node, state, depth);
      break;
    case 'file_redirect':
      redirect(node, state);
      break;
    case 'function_definition':
      forkBomb(node, state);
      break;
    case 'command_substitution': {
      // In backquotes bash removes the backslash before $, ` and \ and reads the text again: `` `echo \`rm x\`` ``
      // runs rm. The grammar reads the text as written, so the text bash reads is read too.
      const again = backquoted(node);
      if (again !== undefined) readLine(again, state, depth + 1);
      break;
    }
    case 'heredoc_redirect': {
      if (!node.children.some((c) => c?.type === 'heredoc_end')) state.failure = 'a here-document has no end';
      // bash ends the document at its word after quote removal (`E''` ends at `E`); the grammar may look for
      // the word as written, and read the lines between as the document's instead of as commands.
      const start = named(node).find((c) => c.type === 'heredoc_start')?.text ?? '';
      if (!PLAIN_DELIMITER.test(start))
        state.failure = `a here-document's end word (${quote(start)}) is quoted in a way bash may read differently`;
      break;
    }
  }
  if (LINE_BOUND.has(node.type) && readsPastLineEnd(node)) {
    state.failure = `a new line inside ${quote(node.text)} ends a command for bash, where the reader read on`;
    return;
  }
  // Shell state that changes what later commands run, by whatever route it is written (shell-state.ts).
  const write = nodeStateWrite(node);
  if (write) state.parts.push({ text: node.text, ...write });
  const hidden = hiddenCodeReason(node);
  if (hidden) state.parts.push({ text: node.text, opaque: hidden });
  // Arithmetic over a variable evaluates the variable's text, and `a[$(…)]` in it runs: unread.
  const arithmetic = arithmeticReason(node);
  if (arithmetic) state.parts.push({ text: node.text, unread: arithmetic });
  for (const child of named(node)) visit(child, state, depth);
}

function redirect(node: Node, state: State): void {
  const op = node.children.find((c) => c && !c.isNamed)?.text ?? '';
  const destination = node.childForFieldName('destination');
  if (!destination || !WRITES.has(op)) return;
  const word = readWord(destination);
  if (!/^(?:\d+|-|\/dev\/(?:null|stdout|stderr|fd\/\d+))$/.test(word.value)) state.mayWrite = true;
  state.catastrophe ??= redirectCatastrophe(word, state.danger);
}

function forkBomb(node: Node, state: State): void {
  const name = node.childForFieldName('name')?.text;
  const body = node.childForFieldName('body');
  if (!name || !body) return;
  state.functions.add(name);
  const calls: string[] = [];
  const collect = (n: Node) => {
    if (n.type === 'command') calls.push(n.childForFieldName('name')?.text ?? '');
    named(n).forEach(collect);
  };
  collect(body);
  if (calls.includes(name) && /[|&]/.test(body.text))
    state.catastrophe ??= `${name}() calls itself in a pipe or in the background: a fork bomb`;
}

function command(node: Node, state: State, depth: number): void {
  const nameNode = node.childForFieldName('name');
  if (!nameNode) return;
  const argv = joinContinued([nameNode, ...node.childrenForFieldName('argument').filter((c): c is Node => c !== null)]);
  // `PATH[0]=…` sets PATH as well.
  const names = named(node)
    .filter((c) => c.type === 'variable_assignment')
    .map((c) => (c.childForFieldName('name')?.text ?? '').replace(/\[.*$/s, ''));
  const risky = names.find((n) => RUNS_SOMETHING.test(n));
  const settings = names.find((n) => CHANGES_SETTINGS.test(n));
  run(argv, state, depth, {
    opaque: risky ? `it sets ${risky}, which changes what runs` : undefined,
    unread: settings ? `it sets ${settings}, which changes the settings it reads` : undefined,
  });
}

/**
 * The words of a command. A backslash-newline inside a word (`c\⏎url`) joins its halves, as bash's
 * reader does, but the grammar ends the word there: two words with nothing between them are one.
 */
function joinContinued(nodes: Node[]): Word[] {
  const words: Word[] = [];
  let prev: Node | undefined;
  for (const node of nodes) {
    const word = readWord(node);
    const last = words.at(-1);
    // Exactly a backslash and a newline between them: the next word starts the next line's first column.
    const continued =
      prev &&
      node.startIndex - prev.endIndex === 2 &&
      node.startPosition.row === prev.endPosition.row + 1 &&
      node.startPosition.column === 0;
    if (last && continued) {
      words[words.length - 1] = {
        value: last.value + word.value,
        dynamic: last.dynamic || word.dynamic,
        glob: last.glob || word.glob,
        raw: `${last.raw}\\\n${word.raw}`,
      };
    } else words.push(word);
    prev = node;
  }
  return words;
}

/** True for `node <file>` (no options) where the file's real path lies in a folder of known scripts. */
function knownScript(name: string, args: Word[], state: State): boolean {
  const folders = state.options.knownScripts ?? [];
  const script = args[0];
  if (
    !folders.length ||
    !/^(?:node|nodejs)$/.test(name) ||
    !script ||
    script.dynamic ||
    script.glob ||
    script.value.startsWith('-')
  )
    return false;
  // node resolves its script by text from the real folder it runs in, then follows links: from every
  // folder the line may be in, both the path and where it leads lie in a known folder (read-only in the
  // sandbox), so no link on the way can be pointed elsewhere by the line first.
  const relative = !path.isAbsolute(script.value);
  if (relative && (state.cwdUnknown || state.line?.cwdUnknown)) return false;
  const roots = folders.flatMap((f) => {
    try {
      return [realpathSync(f)];
    } catch {
      return [];
    }
  });
  const known = (p: string) => roots.some((root) => p.startsWith(`${root}${path.sep}`));
  return (relative ? candidateCwds(state) : [state.danger.cwd]).every((from) => {
    try {
      const written = path.resolve(realpathSync.native(from), script.value);
      return known(written) && known(realpathSync(written));
    } catch {
      return false;
    }
  });
}

/** Every folder the line may be in: those the first reading found, or as it reads now. */
const candidateCwds = (state: State): string[] => [...new Set(state.line?.cwds ?? [state.danger.cwd])];

/**
 * True when `written` (a program or script by its path) lies where the line can write: a relative path,
 * or one in the workspace, the sandbox's own /tmp or the home. A link there can be pointed elsewhere,
 * or a folder put in its place, by the same line before it runs.
 */
function mayChange(written: string, state: State): boolean {
  if (!path.isAbsolute(written)) return true;
  const inside = (root: string | undefined) => root !== undefined && isInside(root, path.resolve(written));
  return inside(state.options.cwd) || inside('/tmp') || inside(state.options.home) || inside(homedir());
}

/** git's global options (before the subcommand) taking a value of their own. */
const GIT_GLOBAL_WITH_VALUE = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--exec-path',
  '--config-env',
  '--super-prefix',
  '--list-cmds',
  '--attr-source',
]);

/** git's arguments from its subcommand on: `-C . -c a=b --no-pager push x` → `push x`. */
function gitSubcommand(args: Word[]): Word[] {
  let i = 0;
  while (i < args.length && args[i]!.value.startsWith('-')) {
    const a = args[i]!.value;
    i += GIT_GLOBAL_WITH_VALUE.has(a) ? 2 : 1;
  }
  return args.slice(i);
}

/** One command as an argument list: its part, what would refuse it outright, and what it runs in turn. */
function run(
  argv: Word[],
  state: State,
  depth: number,
  extra: { opaque?: string; unread?: string; argsUnknown?: boolean; wraps?: number } = {},
): void {
  if (state.failure || argv.length === 0) return;
  if ((extra.wraps ?? 0) > MAX_WRAPS) {
    state.failure = `commands are wrapped in more than ${MAX_WRAPS} others`;
    return;
  }
  if (state.parts.length >= MAX_PARTS) {
    state.failure = `the command line has more than ${MAX_PARTS} commands`;
    return;
  }
  const [program, ...args] = argv as [Word, ...Word[]];
  // An argument made at run time (`git $P`) could be anything a rule over arguments names.
  const unknown = extra.argsUnknown || args.some((a) => a.dynamic) ? { argsUnknown: true } : {};
  // `{}` is what find -exec and xargs -I put a file name or an input line in: the program is chosen at run time.
  if (program.dynamic || program.glob || program.value.includes('{}')) {
    state.parts.push({
      text: argv.map((w) => w.raw).join(' '),
      opaque: `the program's name (${program.raw}) is made at run time`,
      ...unknown,
    });
    return;
  }
  // `./x` and `../bin/x` are found from the folder the line is in when it runs: any its `cd`s may lead to.
  const relative = program.value.includes('/') && !path.isAbsolute(program.value);
  if (relative && (state.cwdUnknown || state.line?.cwdUnknown)) {
    state.parts.push({
      text: argv.map((w) => w.raw).join(' '),
      opaque: `${program.value} is run by its path from a folder that is not known before the line runs`,
      ...unknown,
    });
    return;
  }
  const places = (relative ? candidateCwds(state) : [state.danger.cwd]).map((from) =>
    state.locate(program.value, from),
  );
  // The one that could not be read, if any: what runs must be known from every folder.
  const where = places.find((w) => !w.exists || w.insideCwd || !w.inPathDir) ?? places[0]!;
  const placeReason =
    new Set(places.map((w) => w.real)).size > 1
      ? `${program.value} is a different program depending on which of the line's cd commands ran`
      : where.byPath && state.line?.mayWrite && mayChange(program.value, state)
        ? `the same line may change what ${program.value} leads to before it runs`
        : undefined;
  const written = path.basename(program.value) || program.value;
  const realName = where.exists && where.real ? path.basename(where.real) : written;
  const argText = args.map((a) => a.value);
  const line = (name: string) => [name, ...argText].join(' ');
  const text = line(written);
  // A multi-call binary (busybox) reached through a link runs the program the link is named after.
  const multiCall = MULTI_CALL.has(realName) && written !== realName;
  // git's own options before its subcommand (`git -C . push`) are no part of what a deny names.
  const gitPlain =
    realName === 'git' || written === 'git' ? ['git', ...gitSubcommand(args).map((a) => a.value)].join(' ') : undefined;
  const denyOnly = gitPlain !== undefined && gitPlain !== text ? { denyOnly: [gitPlain] } : {};
  const alternatives = [
    ...new Set([
      ...(where.byPath ? [line(program.value)] : []),
      ...(where.found ? [line(where.found)] : []),
      ...(where.exists && where.real
        ? multiCall
          ? [`${where.real} ${text}`, `${realName} ${text}`]
          : [line(where.real), line(realName)]
        : []),
    ]),
  ].filter((a) => a !== text);
  const unwrapped = multiCall
    ? unwrap(written, args)
    : (unwrap(realName, args) ?? (realName !== written ? unwrap(written, args) : undefined));
  const dynamicScript = unwrapped?.scripts?.find((s) => s.dynamic);
  const opaque =
    extra.opaque ??
    placeReason ??
    (where.byPath && !where.exists
      ? `${program.value} does not exist yet: an earlier command may make it, and what it runs cannot be read`
      : undefined) ??
    (where.exists && where.insideCwd
      ? `${program.value} is a file in the workspace: what it runs cannot be read`
      : undefined) ??
    (where.byPath && !where.inPathDir
      ? `${program.value} is run by its path from outside the PATH folders`
      : undefined) ??
    (extra.argsUnknown && (mayRunOthers(realName) || mayRunOthers(written))
      ? `${written} is given arguments at run time, and with them it may run any program`
      : undefined) ??
    (knownScript(realName, args, state) ? undefined : unwrapped?.opaque) ??
    (dynamicScript ? `the command line it runs (${dynamicScript.raw}) is made at run time` : undefined);
  // Closed world: the name the program really has (links followed; the applet's for busybox) must be known to run only itself.
  const knownName = multiCall ? written : where.exists && where.real ? realName : written;
  // A function the line defines is read where it is defined, but only a name no program or builtin has
  // is surely it: one defined in a subshell, or removed with `unset -f`, leaves the program of that name.
  const ownFunction =
    !where.byPath && state.functions.has(written) && !where.exists && !isBuiltin(written) && !KEYWORDS.has(written);
  // A bare name found nowhere runs nothing today, but an earlier command on the line may put a program there.
  const missing =
    !where.exists && !where.byPath && !ownFunction && !isBuiltin(written) && !KEYWORDS.has(written)
      ? `${written} is not installed here, so what runs under that name is not known`
      : undefined;
  const reading =
    opaque || ownFunction ? undefined : unreadOf(knownName, args, extra.unread ?? missing ?? unwrapped?.unread);
  const part: TargetPart = {
    text,
    ...(alternatives.length ? { alternatives } : {}),
    ...denyOnly,
    ...(opaque ? { opaque } : {}),
    ...(reading?.unread ? { unread: reading.unread } : {}),
    ...unknown,
  };
  state.parts.push(part);
  if (reading?.git) state.git.push({ part, reading: reading.git });
  if (reading?.readsSettings) state.settingsReaders.push(part);
  if (!ownFunction && writesFiles(knownName, reading)) state.mayWrite = true;

  state.catastrophe ??=
    catastropheOf(realName, args, state.danger) ??
    (realName !== written ? catastropheOf(written, args, state.danger) : undefined);
  // Relative paths after a `cd` are checked from where it goes (subshells aside: checking more is safe).
  if (written === 'cd') {
    // `cd ~…` and `cd -` go where this process cannot tell (the command's HOME is not ours; OLDPWD), and
    // so do `cd su*` (bash picks the folder) and `cd lnk/..` (`set -P` would follow the link first).
    const target = (from: string) =>
      args.some((a) => a.dynamic || a.glob || /^[~-]/.test(a.value) || !landsAlike(from, a.value))
        ? undefined
        : cdTarget(args, { ...state.danger, cwd: from });
    const to = target(state.danger.cwd);
    if (to) state.danger = { ...state.danger, cwd: to };
    // A cd may not run (a subshell's, a branch's, a function's never called): the line may be in any
    // folder it was in before, or in any it leads to from one of them.
    const targets = [...new Set(state.cwds)].map(target);
    if (targets.some((t) => t === undefined)) state.cwdUnknown = true;
    else state.cwds.push(...(targets as string[]));
    if (new Set(state.cwds).size > MAX_CWDS) state.cwdUnknown = true;
  }
  if (written === 'pushd' || written === 'popd') state.cwdUnknown = true;
  for (const inner of unwrapped?.runs ?? [])
    run(inner.argv, state, depth, {
      argsUnknown: inner.argsUnknown || extra.argsUnknown,
      wraps: (extra.wraps ?? 0) + 1,
    });
  for (const script of unwrapped?.scripts ?? []) if (!script.dynamic) readLine(script.value, state, depth + 1);
}
