import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { isInside } from './folders.js';

/** Where a program name leads before it runs. */
export interface ProgramLocation {
  /** The real path (links followed), when the program was found. */
  real?: string;
  /** Where PATH lookup found it, before links are followed. */
  found?: string;
  /** Named by a path (`./x`, `/usr/bin/curl`), not looked up in PATH. */
  byPath: boolean;
  /** The file exists. */
  exists: boolean;
  /** Its real path lies inside the folder the command runs in (the workspace): a file the assistant can write. */
  insideCwd: boolean;
  /** Its real path lies in one of PATH's folders: an installed program. */
  inPathDir: boolean;
}

const realNative = (p: string): string | undefined => {
  try {
    return realpathSync.native(p);
  } catch {
    return undefined;
  }
};

const realOrNull = (p: string): string | undefined => {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
};

// Missing files are the common case in a PATH search: asked without throwing, which costs far less.
const isExecutableFile = (p: string): boolean => {
  if (!statSync(p, { throwIfNoEntry: false })?.isFile()) return false;
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** Bash's own commands: bash runs them without looking in PATH, so they have no path to name. */
const BUILTINS = new Set([
  ':',
  '.',
  '[',
  'alias',
  'bg',
  'bind',
  'break',
  'builtin',
  'caller',
  'cd',
  'command',
  'compgen',
  'complete',
  'continue',
  'declare',
  'dirs',
  'disown',
  'echo',
  'enable',
  'eval',
  'exec',
  'exit',
  'export',
  'false',
  'fc',
  'fg',
  'getopts',
  'hash',
  'help',
  'history',
  'jobs',
  'kill',
  'let',
  'local',
  'logout',
  'mapfile',
  'readarray',
  'popd',
  'printf',
  'pushd',
  'pwd',
  'read',
  'readonly',
  'return',
  'set',
  'shift',
  'shopt',
  'source',
  'suspend',
  'test',
  'times',
  'trap',
  'true',
  'type',
  'typeset',
  'ulimit',
  'umask',
  'unalias',
  'unset',
  'wait',
]);

/** True for a command bash runs itself, without looking in PATH. */
export const isBuiltin = (name: string): boolean => BUILTINS.has(name);

/**
 * Finds programs as the shell would: a name with `/` as a path from the folder the line is in by then
 * (`from`, `cwd` at first), a builtin as itself, any other in PATH's folders. One locator serves one
 * command line: PATH's folders are resolved once and each name looked up once.
 */
export function programLocator(cwd: string, pathVar: string): (name: string, from?: string) => ProgramLocation {
  const dirs = pathVar.split(':').map((d) => path.resolve(cwd, d || '.'));
  let realDirs: Set<string> | undefined;
  const realCwd = realOrNull(cwd) ?? cwd;
  const seen = new Map<string, ProgramLocation>();
  const where = (real: string | undefined, byPath: boolean, exists: boolean): ProgramLocation => {
    realDirs ??= new Set(dirs.map((d) => realOrNull(d) ?? d));
    return {
      ...(real ? { real } : {}),
      byPath,
      exists,
      insideCwd: real !== undefined && isInside(realCwd, real),
      inPathDir: real !== undefined && realDirs.has(path.dirname(real)),
    };
  };
  const locate = (name: string, from: string): ProgramLocation => {
    if (name.includes('/')) {
      // execve(2) follows each link before a `..` (`lnk/../x` is beside the link's target): not path.resolve.
      const full = path.isAbsolute(name) ? name : `${realOrNull(from) ?? from}/${name}`;
      const real = realNative(full);
      return where(real ?? path.resolve(full), true, real !== undefined);
    }
    if (BUILTINS.has(name)) return { byPath: false, exists: false, insideCwd: false, inPathDir: false };
    for (const dir of dirs) {
      const candidate = path.join(dir, name);
      if (isExecutableFile(candidate))
        return { ...where(realOrNull(candidate) ?? candidate, false, true), found: candidate };
    }
    return where(undefined, false, false);
  };
  return (name, from = cwd) => {
    const key = name.includes('/') && !path.isAbsolute(name) ? `${from}\0${name}` : name;
    let found = seen.get(key);
    if (!found) seen.set(key, (found = locate(name, from)));
    return found;
  };
}

/** Interpreters: given code inline, a script, or their input, what they run cannot be read from the command line. */
const INTERPRETER =
  /^(?:python[0-9.]*|pypy[0-9.]*|node|nodejs|deno|bun|perl[0-9.]*|ruby[0-9.]*|irb|php[0-9.]*|lua[0-9.]*|luajit|tclsh[0-9.]*|wish|expect|Rscript|R|julia|osascript|jshell|groovy|scala|kotlin|pwsh|powershell|guile|racket|sbcl|ocaml|swift|elixir|erl|escript|gdb|vim|nvim|vi|emacs)$/;
/** Arguments that only ask an interpreter about itself. */
const HARMLESS_ALONE = new Set(['--version', '-V', '-v', '--help', '-h', 'version']);

/** Why running this interpreter with these arguments cannot be read, or undefined when it only reports its version. */
export function interpreterReason(name: string, args: string[]): string | undefined {
  if (!INTERPRETER.test(name)) return undefined;
  if (args.length > 0 && args.every((a) => HARMLESS_ALONE.has(a))) return undefined;
  const inline = args.find((a) => /^(?:-c|-e|-E|-p|-r|--eval|--print|-x|-i)$/.test(a) || /^-[A-Za-z]*[ce]$/.test(a));
  if (inline) return `${name} ${inline} runs code given inline, which cannot be read as commands`;
  const script = args.find((a) => !a.startsWith('-'));
  if (script) return `${name} runs ${script}, whose code cannot be read from the command line`;
  return `${name} runs code from its input, which cannot be read from the command line`;
}

/** Shells: `-c STRING` is read as a further command line; a script or their input is not. */
export const SHELLS = /^(?:sh|bash|dash|zsh|ksh|mksh|ash|yash|fish|rbash|busybox-sh)$/;

/**
 * Variables that make a program run something else, or find other programs: set on a command, what
 * runs cannot be read. (SSH_CLIENT, SSH2_CLIENT and a low SHLVL make Debian's `bash -c` run ~/.bashrc.)
 */
export const RUNS_SOMETHING =
  /^(?:PATH|LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|BASH_ENV|ENV|PAGER|GIT_PAGER|MANPAGER|SYSTEMD_PAGER|EDITOR|VISUAL|GIT_EDITOR|GIT_SEQUENCE_EDITOR|GIT_SSH|GIT_SSH_COMMAND|GIT_EXTERNAL_DIFF|GIT_ASKPASS|SSH_ASKPASS|SUDO_ASKPASS|GIT_EXEC_PATH|GIT_CONFIG_\w*|GIT_PROXY_COMMAND|PROMPT_COMMAND|PYTHONSTARTUP|PYTHONPATH|PYTHONHOME|NODE_OPTIONS|NODE_PATH|PERL5OPT|PERL5LIB|RUBYOPT|RUBYLIB|BROWSER|SHELL|IFS|SHELLOPTS|BASHOPTS|PS[0-4]|EXECIGNORE|BASH_LOADABLES_PATH|BASH_CMDS|BASH_ALIASES|LESSOPEN|LESSCLOSE|LD_\w+|GCONV_PATH|TAR_OPTIONS|ZIPOPT|ZIP|UNZIP|UNZIPOPT|RSYNC_RSH|RSYNC_CONNECT_PROG|OPENSSL_CONF|OPENSSL_ENGINES|OPENSSL_MODULES|PARALLEL_SHELL|PARALLEL|BASH_FUNC_.*|POSIXLY_CORRECT|TEXTDOMAIN|TEXTDOMAINDIR|SSH_CLIENT|SSH2_CLIENT|SHLVL)$/;

/** Bash's variables whose every assigned value is evaluated as arithmetic, so `a[$(…)]` in it runs. */
export const ARITHMETIC_VARIABLES = new Set(['RANDOM', 'SRANDOM', 'OPTIND', 'HISTCMD']);

/**
 * Variables that say where programs find their settings (git's config, HOME's dotfiles): set on a
 * command, the settings it reads are not the ones checked, so what it runs is not known (see closed-world.ts).
 */
export const CHANGES_SETTINGS =
  /^(?:GIT_\w+|HOME|XDG_CONFIG_HOME|XDG_CONFIG_DIRS|CURL_HOME|MANOPT|MANPATH|LESS\w*|WGETRC|SSH_\w+|CDPATH|GNUPGHOME)$/;
