import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real small file system (tmpfs) for disk-full and read-only tests. Mounting needs root, which
 * the CI machines have; elsewhere `canMount` is false and those tests are skipped.
 */
export interface SmallDisk {
  path: string;
  /** Fills the disk to the last byte. */
  fill(): void;
  /** Frees what `fill` took. */
  free(): void;
  /** Makes the whole file system read-only (a read-only mount stops root too, unlike chmod). */
  readOnly(): void;
  unmount(): void;
}

export function mountSmallDisk(sizeKb: number): SmallDisk {
  const path = mkdtempSync(join(tmpdir(), 'zhixing-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k,mode=700`, 'tmpfs', path]);
  const filler = join(path, 'filler');
  return {
    path,
    fill() {
      try {
        writeFileSync(filler, Buffer.alloc(sizeKb * 1024 * 2));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      }
    },
    free: () => rmSync(filler, { force: true }),
    readOnly: () => void execFileSync('mount', ['-o', 'remount,ro', path]),
    unmount() {
      execFileSync('umount', ['-l', path]);
      rmSync(path, { recursive: true, force: true });
    },
  };
}

function probe(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  try {
    mountSmallDisk(64).unmount();
    return true;
  } catch {
    return false;
  }
}

export const canMount = probe();
