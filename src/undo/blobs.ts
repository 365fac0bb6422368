import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, isAbsolute, join } from 'node:path';

const PRIVATE_FOLDER_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;
const HASH = /^[0-9a-f]{64}$/;
/** What `write` names its temp files; nothing else in the folder is taken for a leftover of its own. */
const TEMP_NAME = /^\.tmp-[0-9a-f]{12}$/;

/** File contents by their sha256, under the snapshots folder: one copy however many snapshots hold it. */
export interface BlobFiles {
  /** Writes the bytes unless a blob with this hash is already there. Atomic: a crash leaves no half blob under its name. */
  write(hash: string, data: Buffer): void;
  read(hash: string): Buffer;
  remove(hash: string): void;
  /** Blob files older than `olderThanMs` (by mtime), with leftovers of interrupted writes. */
  files(olderThanMs: number): string[];
}

export function createBlobFiles(dir: string): BlobFiles {
  // Two hex digits of fan-out keep each folder small enough to list.
  const pathOf = (hash: string) => {
    if (!HASH.test(hash)) throw new Error(`not a blob hash: ${hash}`);
    return join(dir, hash.slice(0, 2), hash.slice(2));
  };
  return {
    write(hash, data) {
      const path = pathOf(hash);
      const folder = join(dir, hash.slice(0, 2));
      mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
      const tmp = join(folder, `.tmp-${randomBytes(6).toString('hex')}`);
      let made = false;
      try {
        writeFileSync(tmp, data, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
        made = true;
        renameSync(tmp, path);
      } catch (err) {
        // Only the temp this call made: a name already taken (EEXIST) is another's file.
        if (made) rmSync(tmp, { force: true });
        throw err;
      }
    },
    read: (hash) => readFileSync(pathOf(hash)),
    remove(hash) {
      try {
        unlinkSync(pathOf(hash));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    },
    files(olderThanMs) {
      const out: string[] = [];
      let folders: string[];
      try {
        folders = readdirSync(dir);
      } catch {
        return out;
      }
      for (const folder of folders) {
        if (!/^[0-9a-f]{2}$/.test(folder)) continue;
        for (const name of readdirSync(join(dir, folder))) {
          const path = join(dir, folder, name);
          try {
            // Only blobs and this module's own temps: anything else that found its way here is not ours.
            const entry = HASH.test(folder + name) ? folder + name : TEMP_NAME.test(name) ? path : undefined;
            if (entry && statSync(path).mtimeMs < olderThanMs) out.push(entry);
          } catch {
            // Removed meanwhile.
          }
        }
      }
      return out;
    },
  };
}

/** Removes what `files` listed: a hash is a blob, a full path a leftover temp; anything else is left alone. */
export function removeBlobFile(blobs: BlobFiles, entry: string): void {
  if (HASH.test(entry)) blobs.remove(entry);
  else if (isAbsolute(entry) && TEMP_NAME.test(basename(entry))) rmSync(entry, { force: true });
}
