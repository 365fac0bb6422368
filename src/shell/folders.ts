import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

// bash's `cd` reads `..` in the text (logical: `lnk/..` is where it started), unless `set -P` or
// `cd -P`; git's `-C` and `--git-dir` call chdir(2), which follows `lnk` first and takes its target's
// parent. Where the two differ, the folder a command runs in depends on which one reads the path.

/** True when `p` is `root` itself or lies below it. */
export const isInside = (root: string, p: string): boolean => {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/** Where chdir(2) lands from `from` through `to` (links followed before each `..`), or undefined when it is no folder. */
export function physicalFolder(from: string, to: string): string | undefined {
  // Not path.join: it would take `lnk/..` away as text before the kernel sees it.
  const joined = path.isAbsolute(to) ? to : `${from}/${to}`;
  try {
    const real = realpathSync.native(joined);
    return statSync(real).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}

/** True when reading `to` from `from` by its text and by following its links lands in the same folder. */
export function landsAlike(from: string, to: string): boolean {
  if (!to.split('/').includes('..')) return true;
  const physical = physicalFolder(from, to);
  const logical = path.resolve(from, to);
  return physical !== undefined && existsSync(logical) && realpathSync.native(logical) === physical;
}
