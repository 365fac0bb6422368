import { randomBytes } from 'node:crypto';
import { lstat, readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { processAlive } from '../process-alive.js';

/** Random bytes in a temp name, so concurrent writes of one file never share a temp file. */
const TEMP_RANDOM_BYTES = 6;
/** A temp file this old is a leftover even when its pid is alive: pids are reused, and no write takes an hour. */
const STALE_TEMP_MS = 60 * 60 * 1000;

/**
 * Temp files of an atomic write in progress: `.zhixing-<pid>-<12 hex>.tmp`. Short and fixed-length,
 * never derived from the target's name, so any name the file system takes can be written; the pid
 * tells whether the writer is still alive. Listings and suggestions hide them.
 */
const TEMP_FILE_PATTERN = /^\.zhixing-(\d+)-[0-9a-f]{12}\.tmp$/;
/** The earlier form, `.<name>.<random hex>.tmp`, which writes from before the pid was named may have left behind. */
const LEGACY_TEMP_FILE_PATTERN = /^\..+\.[0-9a-f]{8,}\.tmp$/;

export const isTempName = (name: string): boolean => TEMP_FILE_PATTERN.test(name) || LEGACY_TEMP_FILE_PATTERN.test(name);

/** A fresh temp name for a write by this process. */
export const tempFileName = (): string => `.zhixing-${process.pid}-${randomBytes(TEMP_RANDOM_BYTES).toString('hex')}.tmp`;

/**
 * Removes the temp files that killed writes left in `dir` (`names`: its entries, when already read).
 * Nothing else ever would, and listings hide them, so they would pile up unseen. A temp goes when its
 * writer's process is gone or when it is over an hour old (the pid may belong to another process by now;
 * the earlier names carry no pid at all); a live writer's temp is a write in flight and stays.
 * Best effort: a leftover costs only space, never a failed call.
 */
export async function removeStaleTemps(dir: string, names?: string[]): Promise<void> {
  const entries = names ?? (await readdir(dir).catch(() => [] as string[]));
  const now = Date.now();
  await Promise.all(entries.filter(isTempName).map(async (name) => {
    const full = path.join(dir, name);
    const info = await lstat(full).catch(() => undefined);
    // A folder or a link that merely looks like a temp name is not ours to remove.
    if (!info?.isFile()) return;
    const pid = Number(TEMP_FILE_PATTERN.exec(name)?.[1]);
    if ((pid > 0 && !processAlive(pid)) || now - info.mtimeMs > STALE_TEMP_MS) await unlink(full).catch(() => {});
  }));
}
