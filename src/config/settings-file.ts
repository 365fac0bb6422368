import { UserError } from '../contract/user-error.js';
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';

/** The most a settings file may hold: far more than any needs, and a bound on what a planted one costs. */
export const MAX_SETTINGS_BYTES = 64 * 1024;
// A FIFO opened for reading waits for a writer; without blocking the open returns at once. Windows has no such flag.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * A settings file that is there but is not one to read: a FIFO, a device, a folder (or a link to
 * one), or a file past MAX_SETTINGS_BYTES. A cloned project can carry any of these as its .env.
 */
export class SettingsFileError extends UserError<'settings_file'> {
  override name = 'SettingsFileError';
  /** What is wrong, as "is …" / "是…", for a message that names the file its own way. */
  readonly problem: { en: string; zh: string };
  constructor(path: string, problem: { en: string; zh: string }, fix: { en: string; zh: string }) {
    super('settings_file', `${path} ${problem.en}. ${fix.en}`, `${path} ${problem.zh}。${fix.zh}`);
    this.problem = problem;
  }
}

const notRegular = (path: string) =>
  new SettingsFileError(
    path,
    { en: 'is not a regular file', zh: '不是普通文件' },
    { en: 'Make it a plain text file, or remove it.', zh: '请把它改成纯文本文件，或删除它。' },
  );

/**
 * The text of a settings file (links followed), or `undefined` when there is none. Only a regular
 * file is read, and only up to MAX_SETTINGS_BYTES: a link to /dev/zero must not fill the memory, nor
 * a FIFO hang the start. Throws SettingsFileError for such a file, and the system's error otherwise.
 */
export function readSettingsFile(path: string): string | undefined {
  let fd: number;
  try {
    // Checked before opening, so no device is ever opened; and again on what was opened, in case the name changed hands.
    if (!statSync(path).isFile()) throw notRegular(path);
    fd = openSync(path, OPEN_FLAGS);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    if (!fstatSync(fd).isFile()) throw notRegular(path);
    // One byte past the limit tells a file that is too large, however its size was reported.
    const buffer = Buffer.alloc(MAX_SETTINGS_BYTES + 1);
    let length = 0;
    while (length < buffer.length) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (length > MAX_SETTINGS_BYTES) {
      throw new SettingsFileError(
        path,
        { en: `is larger than ${MAX_SETTINGS_BYTES / 1024} KB`, zh: `超过了 ${MAX_SETTINGS_BYTES / 1024} KB` },
        {
          en: 'A settings file needs far less: keep only settings in it.',
          zh: '设置文件用不了这么大：里面只保留设置。',
        },
      );
    }
    return buffer.toString('utf8', 0, length);
  } finally {
    closeSync(fd);
  }
}
