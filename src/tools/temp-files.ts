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
 *
 * This exact form is the only one ever treated as ours. Earlier versions named temps
 * `.<name>.<hex>.tmp`, but that form is also what a user's own `.report.20250101.tmp` looks like:
 * such files are listed like any other and never removed, and a leftover of the old form costs
 * only its space.
 */
const TEMP_FILE_PATTERN = /^\.zhixing-(\d{1,10})-[0-9a-f]{12}\.tmp$/;

export const isTempName = (name: string): boolean => TEMP_FILE_PATTERN.test(name);

/** A fresh temp name for a write by this process. */
export const tempFileName = (): string =>
  `.zhixing-${process.pid}-${randomBytes(TEMP_RANDOM_BYTES).toString('hex')}.tmp`;

/**
 * Removes the temp files that killed writes left in `dir`, the folder about to be written to.
 * Nothing else ever would, and listings hide them, so they would pile up unseen. A temp goes when its
 * writer's process is gone or when it is over an hour old (the pid may belong to another process by now);
 * a live writer's temp is a write in flight and stays. Only writes call this: a read never deletes.
 * Best effort: a leftover costs only space, never a failed call.
 */
export async function removeStaleTemps(dir: string): Promise<void> {
  const entries = await readdir(dir).catch(() => [] as string[]);
  const now = Date.now();
  const uid = process.getuid?.();
  await Promise.all(
    entries.filter(isTempName).map(async (name) => {
      const full = path.join(dir, name);
      const info = await lstat(full).catch(() => undefined);
      // A folder or a link that merely looks like a temp name is not ours to remove, nor is a file
      // another user owns: this process's user made every temp it would clean.
      if (!info?.isFile()) return;
      if (uid !== undefined && info.uid !== uid) return;
      const pid = Number(TEMP_FILE_PATTERN.exec(name)?.[1]);
      if ((pid > 0 && !processAlive(pid)) || now - info.mtimeMs > STALE_TEMP_MS) await unlink(full).catch(() => {});
    }),
  );
}
