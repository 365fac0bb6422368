import { constants, type Stats } from 'node:fs';
import { copyFile, link, open, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Lang } from '../i18n.js';
import { toStoreError } from '../store/store-error.js';
import { makeFolders, syncDir, type Guard } from '../tools/file-write.js';
import { assertStillInside, displayPath, resolveInSandbox } from '../tools/sandbox.js';
import { isTempName, removeStaleTemps, tempFileName } from '../tools/temp-files.js';
import { ToolError } from '../contract/tool-error.js';
import { ApiError } from './errors.js';
import { tooLarge } from './guards.js';
import { mimeTypeOf } from './file-types.js';

/** The most one upload may hold: a phone photo or a long PDF, not a disk image. */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
/** NAME_MAX and PATH_MAX of Linux file systems, in bytes (the sandbox holds the same limits). */
const MAX_NAME_BYTES = 255;
const MAX_PATH_BYTES = 4_096;
/** `name (2).ext` … past this many copies of one name, the user has a different problem. */
const MAX_COPIES = 1_000;
/** Errors for which hard links are not available on a file system (FAT, some network mounts). */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV', 'EMLINK']);

export interface Uploaded {
  /** Relative to the workspace, `/`-separated: what the file tools take. */
  path: string;
  size: number;
  mimeType: string;
}

const badPath = (message: string) => new ApiError(400, 'bad_path', message);
const errCode = (err: unknown) => (err as NodeJS.ErrnoException | undefined)?.code;
// C0, DEL and C1: never part of a name a person typed, and some of them rewrite a terminal showing it.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Refuses a path no file could sensibly have, before the sandbox or the disk sees it. */
/** Bidirectional controls make a name read as another ("‮gnp.exe" shows as "exe.png"). */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

function checkPathText(userPath: string): void {
  if (CONTROL.test(userPath)) throw badPath('The path contains control characters; give a plain file name.');
  if (BIDI.test(userPath))
    throw badPath('The path contains text-direction controls, which can disguise a name; give a plain file name.');
  if (userPath.includes('\\')) throw badPath('The path contains a backslash; separate folders with "/".');
  if (Buffer.byteLength(userPath) > MAX_PATH_BYTES) throw badPath(`The path is longer than ${MAX_PATH_BYTES} bytes.`);
  const long = userPath.split('/').find((n) => Buffer.byteLength(n) > MAX_NAME_BYTES);
  if (long !== undefined)
    throw badPath(`The name "${[...long].slice(0, 20).join('')}…" is longer than ${MAX_NAME_BYTES} bytes.`);
}

/** A sandbox refusal (outside the workspace, through a link, a loop) is the client's path, but not a malformed one. */
async function inSandbox<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ToolError) throw new ApiError(403, 'forbidden', err.message);
    throw err;
  }
}

/** `photo.png` → `photo (2).png`; the stem is shortened when the number would push the name past NAME_MAX. */
function numbered(name: string, n: number): string {
  const ext = path.extname(name);
  let stem = [...name.slice(0, name.length - ext.length)];
  const suffix = ` (${n})${ext}`;
  while (stem.length > 0 && Buffer.byteLength(stem.join('') + suffix) > MAX_NAME_BYTES) stem = stem.slice(0, -1);
  return stem.join('') + suffix;
}

/**
 * Gives the finished temp file its name without ever replacing a file: a hard link fails when the
 * name is taken (even by a link, which it never follows), so two uploads of one name at the same
 * moment get two names. On a file system without hard links an exclusive copy does the same.
 */
async function claimName(temp: string, dir: string, name: string): Promise<string> {
  for (let n = 1; n <= MAX_COPIES; n++) {
    const candidate = path.join(dir, n === 1 ? name : numbered(name, n));
    try {
      await link(temp, candidate);
      return candidate;
    } catch (err) {
      if (errCode(err) === 'EEXIST') continue;
      if (!NO_LINKS.has(errCode(err) ?? '')) throw err;
    }
    try {
      await copyFile(temp, candidate, constants.COPYFILE_EXCL);
      return candidate;
    } catch (err) {
      if (errCode(err) !== 'EEXIST') throw err;
    }
  }
  throw new ApiError(
    409,
    'name_taken',
    `"${name}" and ${MAX_COPIES - 1} numbered copies of it already exist there. Pick another name.`,
  );
}

/** Disk failures in the store's words (`disk_full` → 507); a file where a folder should be is the client's path. */
function writeFailure(err: unknown, shown: string): unknown {
  if (err instanceof ApiError || err instanceof ToolError) return err;
  const code = errCode(err);
  if (code === 'ENOTDIR' || code === 'EEXIST')
    return badPath(`Cannot save ${shown}: part of the path is a file, not a folder.`);
  if (code === 'ENAMETOOLONG')
    return badPath(`Cannot save ${shown}: a name or the whole path is too long for this file system.`);
  if (code === 'EISDIR') return badPath(`Cannot save ${shown}: it is a folder.`);
  return toStoreError(err, shown);
}

/**
 * Saves an upload into the workspace, through the same sandbox as the file tools: the bytes go to a
 * temp file in the target's folder (checked to still lie inside once created), and only a whole
 * upload gets a name. An existing file is never replaced: the upload becomes `name (2).ext` instead.
 * Anything refused or failed, too large or cut off leaves nothing behind.
 */
export async function saveUpload(options: {
  workspace: string;
  userPath: string;
  body: ReadableStream<Uint8Array> | null;
  lang: Lang;
}): Promise<Uploaded> {
  const { workspace, userPath, lang } = options;
  checkPathText(userPath);
  const name = userPath.split('/').pop()!;
  if (name === '' || name === '.' || name === '..')
    throw badPath(
      `"${userPath}" does not end in a file name; add one, e.g. ${userPath.replace(/\/?$/, '/')}photo.png.`,
    );
  if (isTempName(name))
    throw badPath(`"${name}" is the form of Zhixing's own temp files, which get cleaned away; pick another name.`);
  const target = await inSandbox(() => resolveInSandbox(workspace, userPath, lang, { forWrite: true }));
  const shown = displayPath(workspace, target);
  const guard: Guard = (p) => assertStillInside(workspace, p, lang, 'file.write', shown);
  const dir = path.dirname(target);
  const reader = options.body?.getReader();
  let temp: string | undefined;
  try {
    await inSandbox(() => makeFolders(dir, guard));
    await removeStaleTemps(dir);
    const fresh = path.join(dir, tempFileName());
    const handle = await open(fresh, 'wx');
    // Named as ours to remove only once made: a file already by that name (EEXIST) is not ours.
    temp = fresh;
    let size = 0;
    try {
      await inSandbox(() => guard(temp!));
      // Counted as it arrives: a body sent in chunks has no length to refuse up front.
      for (;;) {
        const next = await reader?.read();
        if (!next || next.done) break;
        size += next.value.byteLength;
        if (size > MAX_UPLOAD_BYTES) throw tooLarge(MAX_UPLOAD_BYTES);
        await handle.write(next.value);
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    const saved = await claimName(temp, dir, path.basename(target));
    await syncDir(dir);
    return { path: displayPath(workspace, saved), size, mimeType: mimeTypeOf(saved) };
  } catch (err) {
    await reader?.cancel().catch(() => {});
    throw writeFailure(err, shown);
  } finally {
    if (temp) await rm(temp, { force: true }).catch(() => {});
  }
}

export interface OpenedFile {
  handle: FileHandle;
  info: Stats;
  /** The file's own name, for the Content-Disposition header. */
  name: string;
}

/**
 * Opens a workspace file for reading through the sandbox: 403 outside it, 404 missing, 400 for a
 * folder or anything else that is not a plain file (a FIFO would hang the response forever).
 */
export async function openWorkspaceFile(workspace: string, userPath: string, lang: Lang): Promise<OpenedFile> {
  checkPathText(userPath);
  const target = await inSandbox(() => resolveInSandbox(workspace, userPath, lang));
  const shown = displayPath(workspace, target);
  let handle: FileHandle;
  try {
    // No following a link swapped in since the sandbox looked; no waiting on a FIFO's writer.
    handle = await open(target, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = errCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR')
      throw new ApiError(404, 'not_found', `There is no file ${shown} in the workspace.`);
    if (code === 'ELOOP')
      throw new ApiError(403, 'forbidden', `${shown} is a symbolic link that changed while it was opened.`);
    throw toStoreError(err, shown);
  }
  try {
    const info = await handle.stat();
    if (info.isDirectory()) throw badPath(`${shown} is a folder, not a file.`);
    if (!info.isFile()) throw badPath(`${shown} is not a plain file.`);
    // The folders on the way may have been swapped for links between the sandbox's look and the open.
    await inSandbox(() => assertStillInside(workspace, target, lang, 'file.read', shown));
    return { handle, info, name: path.basename(target) };
  } catch (err) {
    await handle.close();
    throw err;
  }
}
