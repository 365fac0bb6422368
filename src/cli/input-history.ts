/**
 * What the user typed at the REPL, kept across runs in `$ZHIXING_HOME/history` (mode 0600).
 *
 * One entry per line, as a JSON string, so an entry of several lines stays whole. Entries are
 * appended with O_APPEND, one write() each: two REPLs at once interleave whole lines, never bytes.
 * A line cut short (a full disk, a kill in the middle of a huge write) fails to parse and is skipped,
 * and the next append starts on a line of its own. When the file holds twice the entries kept, it is
 * rewritten to the newest ones through a temporary file and a rename, so a reader sees the old file
 * or the new one, never half of one; one REPL rewrites at a time (a lock file beside it), and lines
 * another REPL appends to the old file meanwhile are carried over (in that race they may land after
 * a newer entry of their own REPL: kept, slightly out of order).
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  openSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
  fchmodSync,
} from 'node:fs';

export const DEFAULT_MAX_ENTRIES = 1_000;
/** A longer entry (a pasted file) is kept for this run only: recalling it is rare, reading it at every start is not. */
export const MAX_ENTRY_CHARS = 64 * 1024;
/** Only the end of an overgrown file is read. */
const MAX_READ_BYTES = 8 * 1024 * 1024;
const FILE_MODE = 0o600;
/** A rewrite takes milliseconds: a lock older than this was left by a process that died in one. */
const STALE_LOCK_MS = 10_000;

export interface InputHistory {
  /** Oldest first, consecutive duplicates dropped. */
  entries(): readonly string[];
  /** Records an entry (not one equal to the last), in memory and on disk. */
  add(entry: string): void;
}

export interface InputHistoryOptions {
  path: string;
  maxEntries?: number;
  /** Told once when the file cannot be read or written; the history then lives for this run only. */
  onError?: (err: Error) => void;
}

/** Parses the file's text: bad or cut lines skipped, consecutive duplicates dropped. */
export function parseHistory(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof entry === 'string' && entry && entry !== out.at(-1)) out.push(entry);
  }
  return out;
}

const line = (entry: string) => `${JSON.stringify(entry)}\n`;

/** The file's bytes from `from` to `to`, through an open descriptor; of a long file, its end only, from a line start. */
function readRange(fd: number, from: number, to: number): string {
  const start = Math.max(from, to - MAX_READ_BYTES);
  const buf = Buffer.alloc(Math.max(0, to - start));
  let got = 0;
  while (got < buf.length) {
    const n = readSync(fd, buf, got, buf.length - got, start + got);
    if (n === 0) break;
    got += n;
  }
  const bytes = buf.subarray(0, got);
  return (start > from ? bytes.subarray(bytes.indexOf(10) + 1) : bytes).toString('utf8');
}

export function openInputHistory(options: InputHistoryOptions): InputHistory {
  const { path } = options;
  const max = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  let failed = false;
  const fail = (err: unknown) => {
    if (failed) return;
    failed = true;
    options.onError?.(err instanceof Error ? err : new Error(String(err)));
  };

  let entries: string[] = [];
  /** Lines in the file as far as this process knows: others append too, so it is counted again on rewrite. */
  let lines = 0;
  try {
    const fd = openSync(path, 'r');
    try {
      const text = readRange(fd, 0, fstatSync(fd).size);
      lines = text.split('\n').length - 1;
      entries = parseHistory(text).slice(-max);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') fail(err);
  }

  function append(entry: string) {
    const fd = openSync(path, 'a+', FILE_MODE);
    try {
      const st = fstatSync(fd);
      // Created by an older version or by hand with wider rights: what was typed is the user's alone.
      if (st.mode & 0o077) fchmodSync(fd, FILE_MODE);
      let text = line(entry);
      if (st.size > 0) {
        const last = Buffer.alloc(1);
        readSync(fd, last, 0, 1, st.size - 1);
        // The last line was cut short: this entry starts a line of its own.
        if (last[0] !== 10) text = `\n${text}`;
      }
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
    lines += 1;
  }

  /** Runs `fn` holding the rewrite lock; skips it when another REPL holds it (the next entry tries again). */
  function locked(fn: () => void) {
    const lock = `${path}.lock`;
    let fd: number;
    try {
      fd = openSync(lock, 'wx', FILE_MODE);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) unlinkSync(lock);
      return;
    }
    try {
      fn();
    } finally {
      closeSync(fd);
      unlinkSync(lock);
    }
  }

  /** Rewrites the file to its newest `max` entries. */
  function compact() {
    const fd = openSync(path, 'r');
    const temp = `${path}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
    // Made exclusively ('wx': never through a link, never over a file already there), and removed on
    // failure only when made here: a name already taken is someone else's file.
    let made = false;
    try {
      const seen = fstatSync(fd).size;
      const kept = parseHistory(readRange(fd, 0, seen)).slice(-max);
      const out = openSync(temp, 'wx', FILE_MODE);
      made = true;
      try {
        writeSync(out, kept.map(line).join(''));
      } finally {
        closeSync(out);
      }
      renameSync(temp, path);
      made = false;
      lines = kept.length;
      // What another REPL appended to the old file since it was read goes on in the new one.
      const grown = fstatSync(fd).size;
      if (grown > seen) for (const e of parseHistory(readRange(fd, seen, grown))) append(e);
    } catch (err) {
      if (made) {
        try {
          unlinkSync(temp);
        } catch {
          /* already gone */
        }
      }
      throw err;
    } finally {
      closeSync(fd);
    }
  }

  return {
    entries: () => entries,
    add(entry) {
      if (!entry.trim() || entry === entries.at(-1)) return;
      entries = [...entries.slice(entries.length >= max ? 1 : 0), entry];
      if (failed || entry.length > MAX_ENTRY_CHARS) return;
      try {
        append(entry);
        if (lines > 2 * max) locked(compact);
      } catch (err) {
        fail(err);
      }
    },
  };
}
