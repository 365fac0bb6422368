import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { readSettingsFile } from './settings-file.js';

/** config.json may hold a key: it is the user's alone, as a new one is made. */
const PRIVATE_FILE_MODE = 0o600;

/** Why config.json could not be updated, in both languages; the file is as it was. */
export class ConfigWriteError extends Error {
  override name = 'ConfigWriteError';
  readonly code = 'config_not_written';
  constructor(message: string, readonly zh: string) {
    super(message);
  }
}

/**
 * Sets one top-level key of config.json, keeping every other key as it is. The new text goes to a
 * temporary file beside it, reaches the disk, and then replaces the old one in one rename: a crash
 * leaves either the old file or the new one, never half of one. A file that is not valid JSON is
 * left alone (the user's hand edit must not be thrown away).
 */
export function setConfigKey(path: string, key: string, value: unknown): void {
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
  current[key] = value;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
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
