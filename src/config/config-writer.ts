import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { processAlive } from '../process-alive.js';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { readSettingsFile } from './settings-file.js';
import { UserError } from '../contract/user-error.js';

/** config.json may hold a key: it is the user's alone, as a new one is made. */
const PRIVATE_FILE_MODE = 0o600;

/** Why config.json could not be updated, in both languages; the file is as it was. */
export class ConfigWriteError extends UserError<'config_not_written'> {
  override name = 'ConfigWriteError';
  constructor(message: string, zh: string) {
    super('config_not_written', message, zh);
  }
}

/** How long a writer waits for another one (another process's `zhixing mcp add`) before giving up. */
const LOCK_WAIT_MS = 10_000;
/** A lock older than this is a crashed writer's: one write takes milliseconds. */
const STALE_LOCK_MS = 30_000;
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs `write` holding `<path>.lock`, made with O_EXCL so two processes never hold it at once. It
 * holds the holder's pid: a lock whose process is gone, or that is older than any write takes, is
 * taken over. Synchronous like the write it guards (a few ms), so callers stay synchronous.
 */
function withLock<T>(path: string, write: () => T, lockWaitMs = LOCK_WAIT_MS): T {
  const lock = `${path}.lock`;
  const deadline = Date.now() + lockWaitMs;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  for (;;) {
    try {
      const fd = openSync(lock, 'wx', PRIVATE_FILE_MODE);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (staleLock(lock)) {
        try {
          unlinkSync(lock);
        } catch {
          // Another writer took it over first: try again.
        }
        continue;
      }
      if (Date.now() > deadline) {
        throw new ConfigWriteError(
          `${path} is being changed by another process (${lock} exists). Try again; if no zhixing is running, delete ${lock}.`,
          `另一个进程正在修改 ${path}（${lock} 存在）。请再试一次；如果没有 zhixing 在运行，请删除 ${lock}。`,
        );
      }
      Atomics.wait(pause, 0, 0, 5 + Math.floor(Math.random() * 10));
    }
  }
  try {
    return write();
  } finally {
    try {
      unlinkSync(lock);
    } catch {
      // Taken over as stale meanwhile: the write itself was whole all the same (one rename).
    }
  }
}

function staleLock(lock: string): boolean {
  let pid: number;
  let age: number;
  try {
    pid = Number(readSettingsFile(lock));
    age = Date.now() - statSync(lock).mtimeMs;
  } catch {
    return false;
  }
  // A lock just made may not hold its pid yet.
  if (!Number.isInteger(pid) || pid <= 0) return age > 1_000;
  return age > STALE_LOCK_MS || !processAlive(pid);
}

/**
 * Sets one top-level key of config.json, keeping every other key as it is. The new text goes to a
 * temporary file beside it, reaches the disk, and then replaces the old one in one rename: a crash
 * leaves either the old file or the new one, never half of one. A file that is not valid JSON is
 * left alone (the user's hand edit must not be thrown away).
 */
export function setConfigKey(path: string, key: string, value: unknown): void {
  updateConfigKey(path, key, () => value);
}

export interface ConfigWriteOptions {
  /** How long to wait for another writer's lock before giving up; LOCK_WAIT_MS unless a test says otherwise. */
  lockWaitMs?: number;
}

/**
 * Sets one top-level key of config.json to what `update` makes of its value now, read while holding
 * the file's lock: two processes changing the same key (two `zhixing mcp add` at once) both land.
 */
export function updateConfigKey(
  path: string,
  key: string,
  update: (current: unknown) => unknown,
  options: ConfigWriteOptions = {},
): void {
  withLock(path, () => writeKey(path, key, update), options.lockWaitMs);
}

function writeKey(path: string, key: string, update: (current: unknown) => unknown): void {
  let current: Record<string, unknown> = {};
  let mode = PRIVATE_FILE_MODE;
  const text = readSettingsFile(path);
  if (text !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new ConfigWriteError(
        `${path} is not a JSON object, so it was not changed. Fix it by hand, then try again.`,
        `${path} 不是 JSON 对象，所以没有改动它。请先手动修正，再试一次。`,
      );
    }
    current = parsed as Record<string, unknown>;
    mode = statSync(path).mode & 0o777;
  }
  current[key] = update(current[key]);
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx', mode);
  try {
    writeSync(fd, `${JSON.stringify(current, null, 2)}\n`);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    unlinkSync(temp);
    throw err;
  }
  closeSync(fd);
  try {
    renameSync(temp, path);
  } catch (err) {
    unlinkSync(temp);
    throw err;
  }
}
