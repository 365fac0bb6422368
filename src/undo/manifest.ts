import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync, type Stats } from 'node:fs';
import { join } from 'node:path';

/** What one path of the workspace was when the manifest was taken. Symbolic links are recorded, never followed. */
export interface Entry {
  type: 'file' | 'symlink' | 'dir' | 'other';
  /** Permission bits (`mode & 0o7777`). */
  mode: number;
  size: number;
  mtimeMs: number;
  /** With size and mtime, what says a file is unchanged without reading it again. */
  ino: number;
  ctimeMs: number;
  /** sha256 of a file's bytes; absent when it was not read (too large, unreadable, special). */
  hash?: string;
  /** Where a symbolic link points, as written. */
  target?: string;
  /** Why the snapshot holds no copy of it. */
  skipped?: NotCoveredReason;
}

export type NotCoveredReason = 'too_large' | 'special' | 'unreadable' | 'too_many_files' | 'over_budget';

/** Paths relative to the workspace, with `/` between parts. */
export type Manifest = Record<string, Entry>;

export interface NotCovered {
  path: string;
  reason: NotCoveredReason;
}

export interface ScanOptions {
  /** The most recent manifest of this workspace: its hashes are reused for files whose stat says they did not change. */
  previous?: Manifest;
  /** Keep a copy of every file's bytes (the "before" snapshot); the "after" one only needs hashes. */
  keep?: {
    /** Blobs already stored: a reused hash counts only if its blob is there. */
    has(hash: string): boolean;
    put(hash: string, data: Buffer): void;
  };
  maxFileBytes: number;
  maxEntries: number;
  /** The most bytes one scan reads: a huge workspace (a home folder) must not stall a turn for minutes. */
  maxReadBytes?: number;
  /**
   * True for a name that must never be stored (it holds the API key a model rebuilt into a file name):
   * such a path, and what is below it, stays out of the manifest, so undo leaves it as it is.
   */
  unstorable?: (path: string) => boolean;
}

export interface Scan {
  manifest: Manifest;
  notCovered: NotCovered[];
  /** Hashes and sizes of the files the manifest holds, once each. */
  blobs: Map<string, number>;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

const same = (s: Stats, e: Entry | undefined): e is Entry =>
  e !== undefined &&
  e.type === 'file' &&
  e.hash !== undefined &&
  e.size === s.size &&
  e.mtimeMs === s.mtimeMs &&
  e.ino === s.ino &&
  e.ctimeMs === s.ctimeMs;

/** The entry for what `s` describes, without reading the file (hash and target are filled in by the caller). */
export function entryOf(s: Stats): Entry {
  const type = s.isFile() ? 'file' : s.isSymbolicLink() ? 'symlink' : s.isDirectory() ? 'dir' : 'other';
  return { type, mode: s.mode & 0o7777, size: s.size, mtimeMs: s.mtimeMs, ino: s.ino, ctimeMs: s.ctimeMs };
}

export const hashFile = (path: string): string => sha256(readFileSync(path));

/** Paths, and bytes read, between two breaks a scan takes so other work (another session's stream) goes on. */
const PATHS_PER_BREAK = 500;
const BYTES_PER_BREAK = 4 * 1024 * 1024;

/**
 * Walks the workspace and records every path under it. A file whose size, mtime, inode and ctime
 * match the previous manifest keeps its hash without being read: a second snapshot of a big,
 * mostly unchanged tree costs one lstat per path.
 */
export function scanWorkspace(root: string, options: ScanOptions): Scan {
  const scan: Scan = { manifest: {}, notCovered: [], blobs: new Map() };
  for (const _ of scanSteps(root, options, scan));
  return scan;
}

/** The same, pausing for the event loop now and then: a first snapshot of a big tree must not freeze the server. */
export async function scanWorkspaceAsync(root: string, options: ScanOptions): Promise<Scan> {
  const scan: Scan = { manifest: {}, notCovered: [], blobs: new Map() };
  for (const _ of scanSteps(root, options, scan)) await new Promise((resolve) => setImmediate(resolve));
  return scan;
}

/** The walk, yielding where a break may be taken. */
function* scanSteps(root: string, options: ScanOptions, out: Scan): Generator<void> {
  const { manifest, notCovered, blobs } = out;
  const { previous, keep } = options;
  let count = 0;
  let read = 0;
  let sinceBreak = { paths: 0, bytes: 0 };
  const stack: string[] = [''];
  while (stack.length) {
    const rel = stack.pop()!;
    let names: string[];
    try {
      names = readdirSync(rel ? join(root, rel) : root);
    } catch {
      if (rel) notCovered.push({ path: rel, reason: 'unreadable' });
      continue;
    }
    for (const name of names) {
      if (++sinceBreak.paths > PATHS_PER_BREAK || sinceBreak.bytes > BYTES_PER_BREAK) {
        sinceBreak = { paths: 0, bytes: 0 };
        yield;
      }
      const path = rel ? `${rel}/${name}` : name;
      if (options.unstorable?.(path)) continue;
      if (++count > options.maxEntries) {
        // Past the bound the rest of this folder is listed as one item, not walked.
        notCovered.push({ path: rel || '.', reason: 'too_many_files' });
        break;
      }
      const abs = join(root, path);
      let s: Stats;
      try {
        s = lstatSync(abs);
      } catch {
        continue; // Gone between the listing and the look: it is not there.
      }
      const entry = entryOf(s);
      if (entry.type === 'dir') stack.push(path);
      else if (entry.type === 'symlink') {
        entry.target = readlinkSync(abs);
        if (options.unstorable?.(entry.target)) continue;
      } else if (entry.type === 'other') entry.skipped = 'special';
      else fileEntry(abs, path, s, entry);
      if (entry.skipped) notCovered.push({ path, reason: entry.skipped });
      manifest[path] = entry;
    }
  }

  function fileEntry(abs: string, path: string, s: Stats, entry: Entry): void {
    const prev = previous?.[path];
    if (same(s, prev) && (!keep || keep.has(prev.hash!))) {
      entry.hash = prev.hash;
    } else if (s.size > options.maxFileBytes) {
      entry.skipped = 'too_large';
      return;
    } else if (options.maxReadBytes !== undefined && read + s.size > options.maxReadBytes) {
      entry.skipped = 'over_budget';
      return;
    } else {
      read += s.size;
      sinceBreak.bytes += s.size;
      let data: Buffer;
      try {
        data = readFileSync(abs);
      } catch {
        entry.skipped = 'unreadable';
        return;
      }
      entry.hash = sha256(data);
      // What was read, not what lstat said a moment before: the blob's real size.
      entry.size = data.length;
      if (keep && !keep.has(entry.hash)) keep.put(entry.hash, data);
    }
    blobs.set(entry.hash!, entry.size);
  }
}
