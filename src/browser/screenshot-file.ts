/**
 * Where browser_screenshot keeps its pictures: `screenshots/<time>.png` in the session's workspace,
 * a file the user can open from the terminal, the web app's file browser, or anywhere else; the
 * call's card shows it from there. Written as files are written in the workspace: never through a
 * link (a folder or file planted as a symbolic link would send the bytes out of it), never over a
 * file that is already there.
 */
import { constants } from 'node:fs';
import { lstat, mkdir, open } from 'node:fs/promises';
import path from 'node:path';

export const SCREENSHOT_FOLDER = 'screenshots';
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
/** Two shots in one millisecond get -2, -3…: past this many something else is wrong. */
const MAX_NAME_TRIES = 20;

/** `2026-12-06T03-55-24-123Z`: sorts by time and is a valid name on every file system. */
const stamp = (now: Date) => now.toISOString().replace(/[:.]/g, '-');

/** Saves `png` and returns its path relative to the workspace, with forward slashes. */
export async function saveScreenshot(workspace: string, png: Uint8Array, now = new Date()): Promise<string> {
  const dir = path.join(workspace, SCREENSHOT_FOLDER);
  await mkdir(dir, { mode: 0o700 }).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err;
  });
  const info = await lstat(dir);
  if (!info.isDirectory()) throw new Error(`${SCREENSHOT_FOLDER} in the workspace is not a folder`);
  for (let i = 1; i <= MAX_NAME_TRIES; i++) {
    const name = `${stamp(now)}${i === 1 ? '' : `-${i}`}.png`;
    let handle;
    try {
      handle = await open(path.join(dir, name), CREATE_FLAGS, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw err;
    }
    try {
      await handle.writeFile(png);
    } finally {
      await handle.close();
    }
    return `${SCREENSHOT_FOLDER}/${name}`;
  }
  throw new Error(`too many screenshots named ${stamp(now)}`);
}
