import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_PATH } from './env.js';
import { within } from './hidden.js';

/**
 * The PATH a command gets, and the one the command-line reader looks names up in: the same value, so
 * what the reader decides on is what bash runs. A PATH folder the command could write or create would
 * let the line put a program of its own under a name the reader takes for an installed one
 * (`mkdir -p ~/.local/bin && … > ~/.local/bin/ls && ls`), so none is kept.
 */
export interface CommandPathOptions {
  /** The PATH the command would otherwise inherit. */
  searchPath: string;
  /** Folders the command may write, where no PATH folder may lie, as written or as it really is: the workspace, its temporary folders. */
  writable: string[];
  /**
   * Under bubblewrap, the user's home: a fresh writable folder where only folders shown read-only exist.
   * A PATH folder in it is kept only when it is shown at the path PATH names (no link on the way) and
   * holds none of `hidden`, which are never shown (Zhixing's home, the folder it was started in).
   */
  emptyHome?: { path: string; hidden: string[] };
}

/**
 * `searchPath` without relative, missing, repeated or writable folders. Never empty: to bash an empty
 * PATH is the current folder, so with nothing left the usual program folders stand in, and failing
 * those a file, in which nothing is found.
 */
export function commandPath(o: CommandPathOptions): string {
  const kept = keptFolders(o.searchPath, o);
  if (kept.length > 0) return kept.join(path.delimiter);
  return keptFolders(DEFAULT_PATH, o).join(path.delimiter) || '/dev/null';
}

function keptFolders(searchPath: string, o: CommandPathOptions): string[] {
  const writable = o.writable.flatMap(asWrittenAndReal);
  const kept: string[] = [];
  for (const dir of searchPath.split(path.delimiter)) {
    // `.`, an empty entry and `bin` are read from wherever the command stands: the workspace, say.
    if (!path.isAbsolute(dir) || kept.some((k) => path.resolve(k) === path.resolve(dir))) continue;
    const real = realDir(dir);
    // A folder missing here may be made by the command (in its home, its /tmp) before it is looked in.
    if (!real) continue;
    if (writable.some((w) => within(dir, w) || within(real, w))) continue;
    if (o.emptyHome && !shownInEmptyHome(dir, real, o.emptyHome)) continue;
    kept.push(dir);
  }
  return kept;
}

/** False for a folder in the empty home that the sandbox does not show read-only at that very path. */
function shownInEmptyHome(dir: string, real: string, home: { path: string; hidden: string[] }): boolean {
  const userHome = path.resolve(home.path);
  if (!within(dir, userHome) && !within(real, userHome)) return true;
  // The home itself is the writable folder; a folder reached by a link is shown at its real path only.
  if (dir === userHome || path.resolve(dir) !== real) return false;
  return !home.hidden.some((h) => asWrittenAndReal(h).some((p) => within(p, dir)));
}

function realDir(dir: string): string | undefined {
  try {
    const real = realpathSync(dir);
    return statSync(real).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}

function asWrittenAndReal(p: string): string[] {
  const written = path.resolve(p);
  const real = realDir(written);
  return real && real !== written ? [written, real] : [written];
}
