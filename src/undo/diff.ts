import type { Entry, Manifest } from './manifest.js';

/** One path a turn changed: what it was before the turn (absent: the turn made it) and what the turn left (absent: the turn deleted it). */
export interface Change {
  path: string;
  kind: 'created' | 'deleted' | 'modified';
  before?: Entry;
  after?: Entry;
}

/** Two entries hold the same thing: same kind, permission bits, and content (hash) or link target. */
export function sameContent(a: Entry, b: Entry): boolean {
  if (a.type !== b.type || a.mode !== b.mode) return false;
  if (a.type === 'symlink') return a.target === b.target;
  if (a.type === 'dir') return true;
  if (a.type === 'file') {
    // Neither was read (too large): only the stat can tell.
    if (a.hash === undefined || b.hash === undefined)
      return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino && a.hash === b.hash;
    return a.hash === b.hash;
  }
  return a.ino === b.ino && a.mtimeMs === b.mtimeMs;
}

/** What the turn changed: every path created, deleted, or changed in content, kind or mode. */
export function diffManifests(before: Manifest, after: Manifest): Change[] {
  const changes: Change[] = [];
  for (const [path, b] of Object.entries(before)) {
    const a = after[path];
    if (!a) changes.push({ path, kind: 'deleted', before: b });
    else if (!sameContent(b, a)) changes.push({ path, kind: 'modified', before: b, after: a });
  }
  for (const [path, a] of Object.entries(after)) {
    if (!before[path]) changes.push({ path, kind: 'created', after: a });
  }
  return changes;
}
