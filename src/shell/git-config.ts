import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { physicalFolder } from './folders.js';
import { isLongOption } from './options.js';
import type { Word } from './words.js';

// git runs programs its configuration names (aliases, pagers, diff and filter drivers, fsmonitor,
// hooks, ssh commands, remote helpers), and that configuration lives in files a command can write:
// the repository's .git/ and, since a command's HOME is its workspace, the "global" ~/.gitconfig too.
// So a git command line says nothing about what git will run. The rule here, closed-world:
//   a git part is understood only when its subcommand is one of a short list of read-only builtins
//   (READ_ONLY below: no hooks but the index one, no transport, no editor), no option on the line
//   points git at a program, and every config file git would read holds no key that executes and no
//   include, the hooks folder holds no hook, and there are no submodules (each has a config of its own).
// Everything else (commit, push, fetch, clone, checkout, merge, an alias, …) is unread: the rules
// decide it as opaque when they hold a deny, and as today when they do not.

/** Config files longer than this are not read through: a real one is a few KB. */
const MAX_CONFIG_BYTES = 1_000_000;

/**
 * Keys under which git runs a program, or reads more configuration, or reaches a remote through a
 * program: by section (alias, pager, filter, include…) and by how such keys are named (…command,
 * …program, …driver, …helper, …editor, …textconv, …hookspath, …sshcommand, …). Broader than git's own
 * list on purpose: a key that looks like it executes counts as executing.
 */
export const GIT_EXECUTES = new RegExp(
  '^(?:alias|pager|filter|include|includeif|difftool|mergetool|guitool|browser|man|web|sendemail|instaweb|credential|protocol|gpg|tar|submodule|hook|fsmonitor|uploadpack|receive|trace2)\\.' +
    '|^core\\.(?:pager|editor|sshcommand|fsmonitor|hookspath|askpass|gitproxy|alternaterefscommand|worktree)$' +
    '|^remote\\..*\\.(?:uploadpack|receivepack|vcs|proxy)$' +
    '|^(?:diff\\.external|log\\.showsignature|sequence\\.editor|interactive\\.difffilter|ssh\\.variant|format\\.pretty)$' +
    // A named or default format may show signatures (`%G?`), which runs gpg.
    '|^pretty\\.' +
    '|(?:command|cmd|program|driver|helper|editor|textconv|hookspath|sshcommand|askpass|proxy|browser|viewer|path)$',
  'i',
);

/** git's subcommands that only read the repository and run nothing the configuration does not name. */
const READ_ONLY = new Set([
  'status',
  'log',
  'diff',
  'show',
  'rev-parse',
  'ls-files',
  'ls-tree',
  'cat-file',
  'describe',
  'shortlog',
  'blame',
  'annotate',
  'rev-list',
  'show-ref',
  'for-each-ref',
  'merge-base',
  'name-rev',
  'reflog',
  'grep',
  'whatchanged',
  'check-ignore',
  'check-attr',
  'count-objects',
  'diff-files',
  'diff-index',
  'diff-tree',
  'branch',
  'tag',
  'remote',
  'config',
  'var',
  'version',
]);

/** git's options before the subcommand that take a value of their own. */
const GLOBAL_WITH_VALUE = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--config-env',
  '--super-prefix',
  '--list-cmds',
  '--attr-source',
]);
/** git's options before the subcommand that change nothing about what runs. */
const GLOBAL_FLAGS = new Set([
  '--no-pager',
  '-P',
  '--bare',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
  '--no-replace-objects',
  '--no-optional-locks',
  '--no-advice',
  '--no-lazy-fetch',
  '--version',
  '--exec-path',
]);

/** What the command line itself says about a git part, before any file is read. */
export type GitReading =
  { unread: string } | { unread?: undefined; folders: string[]; gitDir?: string; writes: boolean };

const unreadSub = (sub: string) =>
  `git ${sub} may run hooks, aliases or programs named in git's settings, which cannot be read from the command line`;

/**
 * Reads a git part's words (`git` itself left out): unread, or the folders to look for its repository
 * in (`-C` applied) and whether it writes a file (`--output`), for `gitConfigReason` to check.
 */
export function readGitWords(args: Word[]): GitReading {
  const folders: string[] = [];
  let gitDir: string | undefined;
  let i = 0;
  for (; i < args.length; i++) {
    const w = args[i]!;
    if (w.dynamic) return { unread: 'git is given options made at run time' };
    const a = w.value;
    if (!a.startsWith('-')) break;
    const [name, attached] =
      a.startsWith('--') && a.includes('=')
        ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]
        : [a, undefined];
    if (name === '--exec-path' && attached !== undefined)
      return { unread: "git --exec-path= runs its subcommands from a folder of the command's choosing" };
    if (GLOBAL_FLAGS.has(a)) continue;
    if (!GLOBAL_WITH_VALUE.has(name)) return { unread: `git ${a} is not an option known to run nothing else` };
    const value = attached ?? args[++i]?.value;
    if (attached === undefined && args[i]?.dynamic) return { unread: 'git is given options made at run time' };
    // `-C su*` is whichever folder bash's glob finds when the line runs, not the text's.
    if ((name === '-C' || name === '--git-dir') && (w.glob || (attached === undefined && args[i]?.glob)))
      return { unread: 'git is pointed at a folder named by a pattern, which bash expands only when the line runs' };
    if (value === undefined) break;
    // `~` is the HOME the command sees, which is not this process's: where it leads is not known here.
    if ((name === '-C' || name === '--git-dir') && value.startsWith('~'))
      return { unread: 'git is pointed at a folder under ~' };
    if (name === '--work-tree')
      return { unread: 'git --work-tree points git at a work tree whose nested repositories are not checked' };
    if (name === '-C') folders.push(value);
    if (name === '--git-dir') gitDir = value;
  }
  const sub = args[i]?.value;
  if (sub === undefined) return { folders, ...(gitDir ? { gitDir } : {}), writes: false };
  if (!READ_ONLY.has(sub)) return { unread: unreadSub(sub) };
  const rest = args.slice(i + 1).map((w) => w.value);
  const has = (re: RegExp) => rest.some((a) => re.test(a));
  // The read-only ones with a way to start a program or an editor of their own.
  // git's subcommands take any unambiguous prefix of a long option (`--show-sig`), as getopt_long does.
  const long = (name: string) => rest.some((a) => isLongOption(a, name));
  if (sub === 'grep' && (has(/^-[a-zA-Z0-9]*O/) || long('open-files-in-pager')))
    return { unread: "git grep -O opens files with a program of the command's choosing" };
  if (long('show-signature'))
    return { unread: 'git --show-signature runs the signature program git is configured with' };
  // A format showing signatures (`%G?`, `%GK`…) has git check them with gpg, which runs what its settings name.
  if (has(/%G|%\(signature/))
    return { unread: 'a format with %G checks signatures with gpg, which runs what its settings name' };
  if (has(/^--help$/)) return { unread: "git --help opens the manual with a viewer git's settings may name" };
  if (sub === 'config' && (has(/^-e$/) || long('edit'))) return { unread: 'git config --edit runs an editor' };
  if (sub === 'branch' && long('edit-description')) return { unread: 'git branch --edit-description runs an editor' };
  if (
    sub === 'tag' &&
    rest.some(
      (a) =>
        !/^(?:-l|--list|-n\d*|--sort=.*|--format=.*|--contains|--merged|--no-merged|--points-at|--column|--no-column)$/.test(
          a,
        ),
    )
  ) {
    return { unread: 'git tag may make a tag, which runs an editor, a signing program or hooks' };
  }
  if (
    sub === 'remote' &&
    rest.some((a) => !/^(?:-v|--verbose|get-url|--push|--all)$/.test(a)) &&
    rest[0] !== 'get-url'
  ) {
    return { unread: 'git remote may reach the remote through a program git is configured with' };
  }
  // git config writes settings (`--rename-section foo core` can make a harmless key an executing one).
  return { folders, ...(gitDir ? { gitDir } : {}), writes: sub === 'config' || long('output') };
}

/** The key names one config file sets (`section.sub.key`, lower-cased but for the subsection), or undefined when it cannot be read. */
export function configKeys(text: string): string[] {
  // A backslash at a line's end continues a value but not a comment, and quotes and CRs change where a
  // value ends: rather than mirror git's reader, a file with any such line is one git may read otherwise.
  if (/\\\r?\n|\\$|\r(?!\n)/.test(text)) return ['unreadable.line'];
  const keys: string[] = [];
  let section = '';
  const lines = text.split(/\r?\n/);
  for (const raw of lines) {
    let line = raw.trim();
    const header = /^\[\s*([^\]\s"]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
    if (header) {
      const name = header[1]!.toLowerCase();
      section = header[2] !== undefined ? `${name}.${header[2]}` : name;
      line = line.slice(header[0].length).trim();
      if (!line) continue;
    }
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const key = /^([A-Za-z][A-Za-z0-9-]*)/.exec(line)?.[1];
    // A line that is neither a header nor a key is something git may read differently: it counts as executing.
    keys.push(key ? `${section}.${key.toLowerCase()}` : `unreadable.line`);
  }
  return keys;
}

/**
 * Every git folder git might use from `start` up: each `.git` (a folder, or a file naming one), and
 * each folder that has a HEAD (a bare repository, or one whose commondir names the rest), nearest first.
 */
function gitDirCandidates(start: string): string[] {
  const found: string[] = [];
  for (let dir = start; ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, '.git');
    for (const entry of [dotGit, path.join(dir, 'HEAD'), path.join(dir, 'config')]) linkedAway(entry);
    const stat = statSync(dotGit, { throwIfNoEntry: false });
    if (stat?.isDirectory()) found.push(dotGit);
    else if (stat?.isFile()) {
      // A `.git` file sends git to a folder named in it, which git finds from inside the sandbox, links
      // and /proc/self/cwd followed: this process cannot read the same path, so the settings are unread.
      throw new Error(`${dotGit} is a file that points git to a folder of its settings elsewhere`);
    }
    // A bare repository needs HEAD, objects and refs, here or where a commondir names: no config is needed.
    if (existsSync(path.join(dir, 'HEAD'))) found.push(dir);
    if (path.dirname(dir) === dir) return found;
  }
}

/**
 * Throws for a link where git looks for a repository or its settings: git follows it from inside the
 * sandbox, where `/proc/self/cwd`, `/tmp` and the home are not what this process sees, so what it
 * finds there cannot be read from here.
 */
function linkedAway(entry: string): void {
  if (lstatSync(entry, { throwIfNoEntry: false })?.isSymbolicLink())
    throw new Error(`${entry} is a link, which git follows to a place this reading may not see as git does`);
}

/** Entries of a work tree looked at for nested repositories before giving up and counting it as unread. */
const MAX_TREE_ENTRIES = 20_000;

/** Why a repository nested somewhere in the work tree at `root` could run a program, or undefined when none is. */
function nestedRepoReason(root: string, own: string): string | undefined {
  const pending = [root];
  let seen = 0;
  while (pending.length) {
    const dir = pending.pop()!;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (++seen > MAX_TREE_ENTRIES)
        return `the work tree has more than ${MAX_TREE_ENTRIES} entries to look through for repositories nested in it`;
      const full = path.join(dir, e.name);
      if (e.name === '.git') {
        if (full !== own) return `a repository is nested in the work tree (${full}), and git may run with its settings`;
        continue;
      }
      if (e.isDirectory()) pending.push(full);
    }
  }
  return undefined;
}

/** Why one config file could make git run a program, or undefined. */
function fileReason(file: string): string | undefined {
  const text = readSmall(file);
  if (text === undefined) return undefined;
  const key = configKeys(text).find((k) => GIT_EXECUTES.test(k) || k === 'unreadable.line');
  if (key) return `git's settings in ${file} set ${key}, which can run a program`;
  if (/=\s*"?!/.test(text)) return `git's settings in ${file} hold a value starting with "!", which runs as a command`;
  return undefined;
}

/** Why one git folder's settings, hooks or submodules could make git run a program, or undefined. */
function repoReason(gitDir: string): string | undefined {
  // `commondir` sends git to another folder for its settings and hooks, found as the `.git` file's is.
  if (existsSync(path.join(gitDir, 'commondir')))
    return `the repository takes its settings from a folder named in ${path.join(gitDir, 'commondir')}`;
  for (const entry of ['config', 'config.worktree', 'hooks', 'commondir']) linkedAway(path.join(gitDir, entry));
  for (const file of ['config', 'config.worktree']) {
    const why = fileReason(path.join(gitDir, file));
    if (why) return why;
  }
  const hooks = path.join(gitDir, 'hooks');
  const hook =
    existsSync(hooks) && statSync(hooks).isDirectory()
      ? readdirSync(hooks).find((f) => !f.endsWith('.sample'))
      : undefined;
  if (hook) return `the repository has a hook (${path.join(hooks, hook)}), which git may run`;
  if (existsSync(path.join(gitDir, 'modules')) || existsSync(path.join(path.dirname(gitDir), '.gitmodules'))) {
    return 'the repository has submodules, whose own settings git may follow';
  }
  return undefined;
}

function readSmall(file: string): string | undefined {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat) return undefined;
  if (!stat.isFile() || stat.size > MAX_CONFIG_BYTES) return '[unreadable]\n?';
  return readFileSync(file, 'utf8');
}

/** A folder git is pointed at that is not there before the line runs: the line itself may make it. */
const missing = (option: string, folder: string): never => {
  throw new Error(`${option} ${folder} is no folder before the line runs`);
};

export interface GitPlaces {
  /** The folder git starts in, before `-C`. */
  cwd: string;
  /** HOME as the command sees it: its ~/.gitconfig is read by git as the global config. */
  home?: string;
  /** XDG_CONFIG_HOME as the command sees it (default ~/.config). */
  xdgConfigHome?: string;
}

/**
 * Why the configuration git would read from here could make it run a program: a key that executes,
 * an include, a hook, a submodule. Undefined when none is there (or no repository is).
 */
export function gitConfigReason(
  reading: { folders: string[]; gitDir?: string },
  places: GitPlaces,
): string | undefined {
  try {
    // git looks upward from the real folder, links followed, as getcwd gives it; each `-C` and
    // `--git-dir` is a chdir(2) from there, `lnk/..` landing beside the link's target, not beside `lnk`.
    const cwd = existsSync(places.cwd) ? realpathSync.native(places.cwd) : places.cwd;
    const start = reading.folders.reduce((dir, f) => physicalFolder(dir, f) ?? missing('-C', f), cwd);
    // git skips a `.git` that is no repository and looks further up, and takes a folder that looks
    // like a bare repository as one: every folder it might settle on is checked, not only the first.
    const gitDirs = reading.gitDir
      ? [physicalFolder(start, reading.gitDir) ?? missing('--git-dir', reading.gitDir)]
      : gitDirCandidates(start);
    const homeFiles: string[] = [];
    if (places.home)
      homeFiles.push(
        path.join(places.home, '.gitconfig'),
        path.join(places.xdgConfigHome ?? path.join(places.home, '.config'), 'git', 'config'),
      );
    for (const file of homeFiles) {
      const why = fileReason(file);
      if (why) return why;
    }
    for (const gitDir of gitDirs) {
      const why = repoReason(gitDir);
      if (why) return why;
    }
    // git status and diff go into a repository nested in the work tree (an index entry for it is
    // enough, no .gitmodules needed), and run with its settings: any nested one counts as unread.
    if (gitDirs.length === 0) return undefined;
    // The work trees: the start folder, and every folder up from it that holds a `.git` entry.
    for (let dir = start; ; dir = path.dirname(dir)) {
      const own = path.join(dir, '.git');
      if (dir === start || existsSync(own)) {
        const why = nestedRepoReason(dir, own);
        if (why) return why;
      }
      if (path.dirname(dir) === dir) break;
    }
    return undefined;
  } catch (err) {
    return `git's settings could not be read (${err instanceof Error ? err.message : String(err)})`;
  }
}
