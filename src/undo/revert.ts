import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmdirSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { dirname, join, sep } from 'node:path';
import type { Change } from './diff.js';
import { entryOf, hashFile, type Entry } from './manifest.js';

/** What undoing a turn did, path by path (relative to the workspace). */
export interface RevertOutcome {
  /** Files the turn changed, back as they were. */
  restored: string[];
  /** Files the turn deleted, put back. */
  putBack: string[];
  /** Files and folders the turn created, removed. */
  removed: string[];
  /** Changed since the turn (by another turn, another session, the user): kept as they are. */
  conflicts: string[];
  /** Not in the snapshot (too large, special files), so not restored. */
  notCovered: string[];
  /** Tried and failed, with the reason; nothing else of them was touched. */
  failed: Array<{ path: string; error: string }>;
}

const depth = (path: string) => path.split('/').length;

function look(abs: string): Stats | undefined {
  try {
    return lstatSync(abs);
  } catch {
    return undefined;
  }
}

/** Whether the path holds what `want` describes (absent when `want` is). Files are read only when their stat differs. */
function holds(abs: string, s: Stats | undefined, want: Entry | undefined): boolean {
  if (!want) return !s;
  if (!s) return false;
  const e = entryOf(s);
  if (e.type !== want.type || e.mode !== want.mode) return false;
  if (e.type === 'dir') return true;
  if (e.type === 'symlink') return readlinkSync(abs) === want.target;
  if (e.type !== 'file') return false;
  if (e.size === want.size && e.mtimeMs === want.mtimeMs && e.ino === want.ino && e.ctimeMs === want.ctimeMs)
    return true;
  return want.hash !== undefined && e.size === want.size && hashFile(abs) === want.hash;
}

/**
 * Whether the folder that holds `abs` is really inside the workspace: a folder swapped for a link
 * since the turn must not lead a restore (or a removal) outside it.
 */
function parentInside(root: string, abs: string): boolean {
  try {
    const parent = realpathSync(dirname(abs));
    return parent === root || parent.startsWith(root + sep);
  } catch {
    return true; // Not there (yet): it is made below, inside.
  }
}

/** Replaces `abs` in one rename, so a crash leaves the old file or the new one, never half of either. */
function replaceAtomically(abs: string, make: (tmp: string) => void): void {
  const tmp = join(dirname(abs), `.zhixing-undo-${randomBytes(6).toString('hex')}`);
  let made = false;
  try {
    make(tmp);
    made = true;
    renameSync(tmp, abs);
  } catch (err) {
    // `make` creates exclusively: when it failed, a file by that name (if any) is not ours to remove.
    if (made) rmSync(tmp, { force: true });
    throw err;
  }
}

/**
 * Puts back what the turn changed, where the workspace still holds what the turn left: created
 * paths removed (deepest first), changed and deleted ones restored from the blobs (shallowest
 * first, so folders exist before their files). A path changed since is kept and reported.
 */
export function revertChanges(workspace: string, changes: Change[], readBlob: (hash: string) => Buffer): RevertOutcome {
  const root = realpathSync(workspace);
  const out: RevertOutcome = { restored: [], putBack: [], removed: [], conflicts: [], notCovered: [], failed: [] };
  const todo: Change[] = [];
  // Folders the turn replaced with a link it left there: what was below them is gone as far as the
  // turn is concerned, however the link's far side looks; they are put back once the link is removed.
  const links = changes
    .filter((c) => c.after?.type === 'symlink' && holds(join(root, c.path), look(join(root, c.path)), c.after))
    .map((c) => `${c.path}/`);
  for (const c of changes) {
    const abs = join(root, c.path);
    if (!c.after && links.some((l) => c.path.startsWith(l))) {
      if (c.before?.skipped) out.notCovered.push(c.path);
      else todo.push(c);
      continue;
    }
    // Checked before anything is read or written through it.
    if (!parentInside(root, abs)) {
      out.conflicts.push(c.path);
      continue;
    }
    const s = look(abs);
    if (holds(abs, s, c.before)) continue; // Already as it was (undone by hand, or an earlier try).
    if (!holds(abs, s, c.after)) out.conflicts.push(c.path);
    else if (c.before?.skipped) out.notCovered.push(c.path);
    else todo.push(c);
  }
  const failedParents = new Set<string>();
  const fail = (path: string, err: unknown) => {
    failedParents.add(path);
    out.failed.push({ path, error: (err as NodeJS.ErrnoException).code ?? (err as Error).message });
  };

  // What the turn made (or made of another kind) goes first, children before their folders.
  const removals = todo
    .filter((c) => c.after && (!c.before || c.before.type !== c.after.type))
    .sort((a, b) => depth(b.path) - depth(a.path));
  for (const c of removals) {
    const abs = join(root, c.path);
    try {
      if (c.after!.type === 'dir') rmdirSync(abs);
      else unlinkSync(abs);
      if (!c.before) out.removed.push(c.path);
    } catch (err) {
      // A folder the turn made that now holds something else: that is the user's, keep it.
      if ((err as NodeJS.ErrnoException).code === 'ENOTEMPTY' || (err as NodeJS.ErrnoException).code === 'EEXIST')
        out.conflicts.push(c.path);
      else fail(c.path, err);
    }
  }
  const removedOrKept = new Set([...out.conflicts, ...out.failed.map((f) => f.path)]);
  const restores = todo
    .filter((c) => c.before && !removedOrKept.has(c.path))
    .sort((a, b) => depth(a.path) - depth(b.path));
  for (const c of restores) {
    const abs = join(root, c.path);
    const before = c.before!;
    if ([...failedParents].some((p) => c.path.startsWith(`${p}/`))) {
      out.failed.push({ path: c.path, error: 'its folder could not be restored' });
      continue;
    }
    // Again now that removals ran: a parent restored above is a real folder, never a link.
    if (!parentInside(root, abs)) {
      out.conflicts.push(c.path);
      continue;
    }
    try {
      const sameKind = c.after?.type === before.type;
      if (before.type === 'dir') {
        if (!sameKind) mkdirSync(abs);
        chmodSync(abs, before.mode);
      } else if (before.type === 'symlink') {
        replaceAtomically(abs, (tmp) => symlinkSync(before.target!, tmp));
      } else if (sameKind && c.after!.hash === before.hash) {
        chmodSync(abs, before.mode); // Only its permissions changed.
      } else {
        const data = readBlob(before.hash!);
        replaceAtomically(abs, (tmp) => {
          writeFileSync(tmp, data, { flag: 'wx', mode: before.mode });
          chmodSync(tmp, before.mode); // The umask may have taken bits off.
          utimesSync(tmp, new Date(), new Date(before.mtimeMs));
        });
      }
      (c.kind === 'deleted' ? out.putBack : out.restored).push(c.path);
    } catch (err) {
      fail(c.path, err);
    }
  }
  return out;
}
