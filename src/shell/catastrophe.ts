import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import type { Word } from './words.js';
import { isInside } from './folders.js';

/** System top-level folders: removing one, or all of it, breaks the machine. */
const TOP_LEVEL = new Set([
  '/',
  '/bin',
  '/boot',
  '/dev',
  '/etc',
  '/home',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/media',
  '/mnt',
  '/opt',
  '/proc',
  '/root',
  '/run',
  '/sbin',
  '/srv',
  '/sys',
  '/tmp',
  '/usr',
  '/var',
  '/Users',
  '/System',
  '/Library',
  '/Applications',
]);
/** Whole disks and partitions. */
const DISK = /^\/dev\/(?:sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|mapper\/|dm-\d|md\d|loop\d|sr\d)/;
const POWER = /^(?:shutdown|reboot|halt|poweroff)$/;

/** The folder a path names, as written: `~` and `$HOME` are the user's home, trailing slashes and `/*` dropped. */
function named(word: Word, cwd: string, home: string): { path: string; all: boolean } | undefined {
  let raw = word.dynamic ? word.raw.replace(/^["']|["']$/g, '') : word.value;
  raw = raw.replace(/^(?:\$HOME|\$\{HOME\})(?=\/|$)/, home).replace(/^~(?=\/|$)/, home);
  if (word.dynamic && raw.includes('$')) return undefined;
  const all = /(?:^|\/)\*$/.test(raw);
  const p = path.resolve(cwd, all ? raw.slice(0, -1) || '.' : raw);
  return { path: p, all };
}

/** True when removing `p` recursively takes a system folder or the home with it. */
function isVital(p: string, home: string): boolean {
  return TOP_LEVEL.has(p) || p === home;
}

const operands = (args: Word[]): Word[] => {
  const out: Word[] = [];
  let ended = false;
  for (const a of args) {
    if (!ended && a.value === '--') ended = true;
    else if (ended || !a.value.startsWith('-') || a.value === '-') out.push(a);
  }
  return out;
};

const hasFlag = (args: Word[], short: RegExp, long: string[]) =>
  args.some((a) => (a.value.startsWith('--') ? long.includes(a.value.slice(2)) : short.test(a.value)));

export interface CatastropheOptions {
  cwd: string;
  protectedPaths: string[];
  /** Folders inside a protected one that commands may write (the workspace, which lies in the home by default). */
  writable?: string[];
  home?: string;
}

/**
 * What would be refused in every mode about one command, or undefined. `name` is the program's name
 * (links followed), `args` its arguments as the shell passes them.
 */
export function catastropheOf(name: string, args: Word[], options: CatastropheOptions): string | undefined {
  const home = options.home ?? homedir();
  const files = operands(args);
  const where = (w: Word) => named(w, options.cwd, home);
  const recursive = hasFlag(args, /^-[a-zA-Z]*[rR]/, ['recursive']);

  if (name === 'rm') {
    if (args.some((a) => a.value === '--no-preserve-root'))
      return 'rm --no-preserve-root would delete the whole system';
    if (recursive) {
      for (const f of files) {
        const t = where(f);
        if (t && (isVital(t.path, home) || (t.all && (TOP_LEVEL.has(t.path) || t.path === home))))
          return `rm -r on ${f.raw} would delete ${t.path === home ? 'your home folder' : 'a system folder'}`;
      }
    }
  }
  if (name === 'find' && args.some((a) => a.value === '-delete')) {
    // The starting points come before the first expression.
    for (const f of args.slice(
      0,
      Math.max(
        0,
        args.findIndex((a) => /^[-(!]/.test(a.value)),
      ) || args.length,
    )) {
      const t = where(f);
      if (t && isVital(t.path, home))
        return `find ${f.raw} -delete would delete ${t.path === home ? 'your home folder' : 'a system folder'}`;
    }
  }
  if (/^mkfs(?:\..*)?$|^mke2fs$|^mkswap$|^wipefs$/.test(name)) return `${name} would format a disk`;
  if (name === 'dd') {
    const of = args.find((a) => a.value.startsWith('of='));
    if (of && DISK.test(of.value.slice(3))) return `dd would overwrite the disk ${of.value.slice(3)}`;
  }
  if ((name === 'chmod' || name === 'chown' || name === 'chgrp') && recursive) {
    for (const f of files.slice(name === 'chmod' || name === 'chown' || name === 'chgrp' ? 1 : 0)) {
      const t = where(f);
      if (t && (TOP_LEVEL.has(t.path) || t.path === home))
        return `${name} -R on ${f.raw} would change ${t.path === home ? 'your whole home folder' : 'a whole system folder'}`;
    }
  }
  if (POWER.test(name)) return `${name} would turn the machine off or restart it`;
  if ((name === 'init' || name === 'telinit') && /^[06]$/.test(files[0]?.value ?? ''))
    return `${name} ${files[0]!.value} would turn the machine off or restart it`;
  if (name === 'systemctl' && files.some((f) => /^(?:poweroff|reboot|halt|kexec|emergency|rescue)$/.test(f.value)))
    return 'systemctl would turn the machine off or restart it';
  const written = writtenFiles(name, args, files);
  for (const w of written) {
    if (DISK.test(w.value)) return `${name} would overwrite the disk ${w.value}`;
    const hit = protectedHit(w, options, home, name === 'rm' && recursive);
    if (hit) return hit;
  }
  return undefined;
}

/** The files a command writes, replaces or removes, among the common ones. */
function writtenFiles(name: string, args: Word[], files: Word[]): Word[] {
  switch (name) {
    case 'rm':
    case 'rmdir':
    case 'unlink':
    case 'shred':
    case 'truncate':
    case 'tee':
    case 'touch':
      return files;
    case 'mv':
      return files;
    case 'cp':
    case 'ln':
    case 'install':
    case 'rsync': {
      const target = args.findIndex((a) => a.value === '-t' || a.value === '--target-directory');
      if (target >= 0 && args[target + 1]) return [args[target + 1]!];
      return files.slice(-1);
    }
    case 'chmod':
    case 'chown':
    case 'chgrp':
      return files.slice(1);
    case 'sed':
    case 'perl':
      return args.some((a) => /^-[a-zA-Z]*i/.test(a.value) || a.value.startsWith('--in-place')) ? files.slice(1) : [];
    case 'dd': {
      const of = args.find((a) => a.value.startsWith('of='));
      return of ? [{ ...of, value: of.value.slice(3), raw: of.raw.slice(3) }] : [];
    }
    default:
      return [];
  }
}

/** Why writing `word` touches a protected path, or undefined. A recursive removal of a folder holding one does too. */
export function protectedHit(
  word: Word,
  options: CatastropheOptions,
  home = options.home ?? homedir(),
  holds = false,
): string | undefined {
  const t = named(word, options.cwd, home);
  if (!t) return undefined;
  // As written and where it leads: a link in the workspace to a protected file is that file.
  for (const target of new Set([t.path, realOfExisting(t.path)])) {
    for (const p of options.protectedPaths) {
      // Writing inside a writable folder below `p` is not writing `p`; removing that folder's parent still is.
      const open = (options.writable ?? []).some((w) => isInside(p, w) && w !== p && isInside(w, target));
      if ((isInside(p, target) && !open) || ((holds || t.all) && isInside(target, p)))
        return `it would change ${p}, which no command may write to`;
    }
  }
  return undefined;
}

/** The real path of `p`'s deepest existing part, with the rest kept as written. */
function realOfExisting(p: string): string {
  const rest: string[] = [];
  let at = p;
  for (;;) {
    try {
      return path.join(realpathSync(at), ...rest.reverse());
    } catch {
      const parent = path.dirname(at);
      if (parent === at) return p;
      rest.push(path.basename(at));
      at = parent;
    }
  }
}

/** Where `cd` takes the commands after it, for the checks above; undefined when it cannot be known. */
export function cdTarget(args: Word[], options: CatastropheOptions): string | undefined {
  const home = options.home ?? homedir();
  const operand = operands(args)[0];
  if (!operand) return home;
  return named(operand, options.cwd, home)?.path;
}

/** Why a redirection's destination is refused: a disk device, or a protected path. */
export function redirectCatastrophe(word: Word, options: CatastropheOptions): string | undefined {
  if (DISK.test(word.value)) return `writing to ${word.value} would overwrite a disk`;
  return protectedHit(word, options);
}
