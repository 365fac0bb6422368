/**
 * Storage failures in words a user can act on. SQLite and the file system say "SQLITE_FULL" or
 * "EROFS"; the user needs "the disk is full" and what to do about it. Hosts switch on `code`.
 */
import { statfsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UserError } from '../contract/user-error.js';

export type StoreErrorCode = 'disk_full' | 'read_only' | 'busy' | 'damaged' | 'io';

export class StoreError extends UserError<StoreErrorCode> {
  override name = 'StoreError';
}

const sqliteCode = (err: unknown): string => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
};

/** True for errors that come from the database or the disk under it (not programmer errors). */
export function isStorageFailure(err: unknown): boolean {
  if (err instanceof StoreError) return true;
  const code = sqliteCode(err);
  return /^SQLITE_/.test(code) || ['ENOSPC', 'EROFS', 'EACCES', 'EPERM', 'EIO', 'EDQUOT'].includes(code);
}

/** Maps a storage failure to a StoreError that says what happened to `where` and what to do. */
export function toStoreError(
  err: unknown,
  where: string,
  options: { damagedCopy?: (path: string) => string | undefined } = {},
): StoreError {
  if (err instanceof StoreError) return err;
  const code = sqliteCode(err);
  if (
    code === 'SQLITE_FULL' ||
    code === 'ENOSPC' ||
    code === 'EDQUOT' ||
    (code.startsWith('SQLITE_IOERR') && diskIsFull(where))
  ) {
    return new StoreError(
      'disk_full',
      `Could not save to ${where}: the disk is full. Free some space and try again.`,
      `无法保存到 ${where}：磁盘满了。请腾出一些空间再试。`,
    );
  }
  if (code.startsWith('SQLITE_READONLY') || code === 'EROFS' || code === 'EACCES' || code === 'EPERM') {
    return new StoreError(
      'read_only',
      `Could not save to ${where}: it is read-only. Make it writable, or set ZHIXING_HOME to a folder Zhixing can write.`,
      `无法保存到 ${where}：它是只读的。请让它可写，或把 ZHIXING_HOME 设为知行能写入的文件夹。`,
    );
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new StoreError(
      'busy',
      `Could not save to ${where}: another program kept the database locked too long. Try again.`,
      `无法保存到 ${where}：另一个程序锁住数据库太久了。请再试一次。`,
    );
  }
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') {
    const copy = options.damagedCopy?.(where);
    return damagedError(where, err instanceof Error ? err.message : code, {
      untouched: false,
      ...(copy ? { copy } : {}),
    });
  }
  const detail = err instanceof Error ? err.message : String(err);
  return new StoreError(
    'io',
    `Could not save to ${where} (${code || detail}). Check the disk and try again.`,
    `无法保存到 ${where}（${code || detail}）。请检查磁盘后再试。`,
  );
}

/**
 * The database at `path` is damaged (`detail`: SQLite's words): what is wrong, and how to get back what
 * can be read. `untouched`: found before anything was written, so nothing was; otherwise it was found
 * while running and what was being saved was not. `copy`: a copy of the file as it was found.
 */
export function damagedError(path: string, detail: string, options: { untouched: boolean; copy?: string }): StoreError {
  const { untouched, copy } = options;
  const source = copy ?? path;
  const dump = join(dirname(path), 'zhixing-recovered.sql');
  const en = [
    `The database at ${path} is damaged (${detail}).`,
    untouched ? 'Nothing was written to it.' : 'What was being saved was not saved.',
    copy ? `A copy of it as it was is at ${copy}.` : `Stop Zhixing and keep a copy first: cp ${path} ${path}.bak`,
    `To export what can still be read: sqlite3 ${source} .recover > ${dump}`,
    `To start afresh, move ${basename(path)} and its -wal and -shm files out of ${dirname(path)}.`,
  ];
  const zh = [
    `${path} 处的数据库已损坏（${detail}）。`,
    untouched ? '没有向它写入任何内容。' : '正在保存的内容没有保存下来。',
    copy ? `它原样的副本在 ${copy}。` : `请先停止知行并备份一份：cp ${path} ${path}.bak`,
    `导出仍能读取的内容：sqlite3 ${source} .recover > ${dump}`,
    `要重新开始，请把 ${basename(path)} 以及它的 -wal、-shm 文件移出 ${dirname(path)}。`,
  ];
  // Spaces in the Chinese too: a command must not run into the sentence after it.
  return new StoreError('damaged', en.join(' '), zh.join(' '));
}

/**
 * SQLite reports some writes on a full disk as plain I/O errors (growing the -shm file gives
 * SQLITE_IOERR_SHMSIZE): the file system itself says whether space ran out.
 */
function diskIsFull(where: string): boolean {
  for (const p of [where, dirname(where)]) {
    try {
      return statfsSync(p).bavail === 0;
    } catch {
      // `where` may be a file not yet made; its folder answers.
    }
  }
  return false;
}
