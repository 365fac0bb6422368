import { realpathSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';

/**
 * The real path of `path`, following symbolic links, for a path that may not exist yet (a home
 * or workspace made on first run): the nearest existing folder is resolved, the rest appended.
 */
export function realPathOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realPathOf(parent), basename(path));
  }
}

/** Whether `path` is `folder` or lies somewhere under it. Both must be real paths. */
export function isWithin(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

/** The names of the agent's own files in its home, beside the database: read by config, hidden from and protected against commands, written by the rules' editor. */
export const CONFIG_FILE = 'config.json';
export const ENV_FILE = '.env';
