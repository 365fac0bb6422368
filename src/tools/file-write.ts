import type { Stats } from 'node:fs';
import { chmod, lstat, mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { assertStillInside, checkPath, formatBytes } from './sandbox.js';
import { isTempName, removeStaleTemps, tempFileName } from './temp-files.js';
import { say, type Lang } from '../i18n.js';
import { defineTool } from './tool.js';
import { ToolError } from '../contract/tool-error.js';

/** Past this a "file" is no longer something a conversation should be writing. */
const MAX_WRITE_BYTES = 5_000_000;

export const FileWriteParams = z.object({
  path: z
    .string()
    .describe(
      'Path of the file to write, relative to the workspace, e.g. "notes/todo.md". Missing folders are created.',
    ),
  content: z
    .string()
    .describe('The complete text to store (UTF-8). It replaces the whole file if the file already exists.'),
});
export type FileWriteParams = z.infer<typeof FileWriteParams>;

export const fileWriteTool = defineTool({
  name: 'file_write',
  // Replaces an existing file whole; writing the same content again changes nothing more.
  annotations: { destructive: true, idempotent: true },
  changesWorkspace: true,
  description:
    'Write a UTF-8 text file in the workspace (the only folder the assistant may touch), creating missing folders ' +
    `and replacing the file if it exists (the result says so). Up to ${formatBytes(MAX_WRITE_BYTES)} bytes. Returns the path and size written.`,
  parameters: FileWriteParams,
  // The content may be up to 5 MB; JSON escapes can double it. The byte limit itself is checked below.
  maxInputChars: MAX_WRITE_BYTES * 2 + 10_000,
  async execute(args, ctx) {
    const { lang } = ctx;
    const size = Buffer.byteLength(args.content, 'utf8');
    if (size > MAX_WRITE_BYTES) {
      throw new ToolError(
        say(
          lang,
          `内容有 ${formatBytes(size)} 字节，超过了 ${formatBytes(MAX_WRITE_BYTES)} 字节的写入上限，没有写入任何内容。`,
          `The content is ${formatBytes(size)} bytes, over the ${formatBytes(MAX_WRITE_BYTES)}-byte write limit; nothing was written.`,
        ),
      );
    }

    // A file by the name of Zhixing's own temps would be hidden from listings and later swept away.
    const name = path.basename(args.path);
    if (isTempName(name)) {
      throw new ToolError(
        say(
          lang,
          `“${name}”是知行自己的临时文件的名称形式，这类文件会被隐藏并清理。请换一个名称。没有写入任何内容。`,
          `"${name}" is the form of Zhixing's own temp files, which are hidden and cleaned away. Pick another name. Nothing was written.`,
        ),
      );
    }
    const located = await checkPath(ctx, 'file.write', args.path, { forWrite: true });
    const shown = located.display;
    const existing = await lstat(located.target).catch(() => undefined);
    if (existing?.isDirectory()) {
      throw new ToolError(
        say(
          lang,
          `${shown} 是一个文件夹，不能当作文件写入。请换一个文件名，例如 ${shown === '.' ? '' : `${shown}/`}note.txt。`,
          `${shown} is a folder and cannot be written as a file. Pick a file name, e.g. ${shown === '.' ? '' : `${shown}/`}note.txt.`,
        ),
      );
    }

    // An inside target was checked before any folder was made; each step below re-checks it, because
    // a folder swapped for a link since the check would otherwise lead the write outside.
    // An outside target was allowed as such by the permission layer, so there is nothing to pin.
    const guard: Guard = located.inside
      ? (p) => assertStillInside(ctx.workspace, p, lang, 'file.write', shown)
      : async () => {};
    const dir = path.dirname(located.target);
    // Asking permission may have taken a while; a stop in the meantime must leave the disk as it was.
    if (ctx.signal.aborted) throw new ToolError(cancelled(lang, shown));
    try {
      await makeFolders(dir, guard);
    } catch (err) {
      throw err instanceof ToolError ? err : new ToolError(failure(lang, shown, err));
    }
    // Before writing: the space the leftovers of killed writes hold may be what this write needs.
    // Only inside the workspace, which is ours; elsewhere a name like an old temp's may be another program's.
    if (located.inside) await removeStaleTemps(dir);
    await writeAtomically(dir, located.target, args.content, existing, {
      lang,
      shown,
      guard,
      signal: ctx.signal,
      unstoppable: () => ctx.unstoppable?.(),
    });

    // Said out loud: whoever asked for the write should know what was there is gone.
    const replaced = existing !== undefined;
    return {
      output: say(
        lang,
        `已写入 ${shown}（${formatBytes(size)} 字节）${replaced ? '，覆盖了原有内容' : ''}`,
        `Wrote ${formatBytes(size)} ${size === 1 ? 'byte' : 'bytes'} to ${shown}${replaced ? ', replacing its old content' : ''}`,
      ),
      title: shown,
      metadata: { path: shown, bytes: size, created: existing === undefined },
    };
  },
});

/** Throws a ToolError when an existing path no longer resolves where the write was allowed to go. */
export type Guard = (p: string) => Promise<void>;

/**
 * `mkdir -p`, one level at a time, so a link swapped into the path cannot make a recursive mkdir
 * build folders wherever it points. The deepest existing folder gets the full check once; each folder
 * made below it only an lstat that it is a real folder, not a link. (A full check per level walks the
 * whole path each time, which made deep writes quadratic.) A level above swapped for a link after its
 * own check is still caught by the full check of the temp file before any content goes in.
 */
export async function makeFolders(dir: string, guard: Guard): Promise<void> {
  const missing: string[] = [];
  let existing = dir;
  while (!(await exists(existing)) && path.dirname(existing) !== existing) {
    missing.push(existing);
    existing = path.dirname(existing);
  }
  await guard(existing);
  for (const folder of missing.reverse()) {
    await mkdir(folder).catch((err: unknown) => {
      // Made by a concurrent write of the same folder; the check below still looks at what it is.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    });
    // Not a plain folder (a link swapped in, or a file): only then is the full check worth its cost.
    // A file that passes it fails the next step as "part of the path is a file".
    if (!(await lstat(folder)).isDirectory()) await guard(folder);
  }
}

async function exists(p: string): Promise<boolean> {
  try {
    await lstat(p);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    throw err;
  }
}

interface WriteOptions {
  lang: Lang;
  shown: string;
  guard: Guard;
  /** A stop (Ctrl-C, a timeout) up to the rename cancels the write; after it the file is written. */
  signal: AbortSignal;
  /** Told just before the rename, after which the write cannot be stopped. */
  unstoppable(): void;
}

/**
 * Readers see the old file or the new one, never half of either: the text goes to a temp file
 * in the same folder (same filesystem, so rename is atomic), is flushed to disk, then renamed over.
 * The temp file is created with O_EXCL ('wx'), which never follows a link in its place, and is
 * re-checked before any content goes in; rename replaces rather than follows a link at the target,
 * and fails if the folder was swapped since, as the temp file is not there.
 * The rename is also the one moment the write takes effect, so what the tool reports always matches
 * the disk: stopped before it, the temp file goes and the call says nothing was written; once past
 * it, the call succeeds whatever the signal does next.
 */
async function writeAtomically(
  dir: string,
  target: string,
  content: string,
  existing: Stats | undefined,
  { lang, shown, guard, signal, unstoppable }: WriteOptions,
): Promise<void> {
  const temp = path.join(dir, tempFileName());
  let made = false;
  try {
    const handle = await open(temp, 'wx');
    made = true;
    try {
      // The folder may have been swapped between the check above and this open.
      await guard(temp);
      // The signal stops the write between chunks, so a stop need not wait for megabytes to land.
      await handle.writeFile(content, { encoding: 'utf8', signal });
      await handle.sync();
    } finally {
      await handle.close();
    }
    // An overwrite keeps the file's permissions (an executable script stays executable).
    if (existing?.isFile()) await chmod(temp, existing.mode & 0o7777);
    if (signal.aborted) throw new ToolError(cancelled(lang, shown));
    // From the rename on, the file is written: a stop now waits for it rather than reporting it undone.
    unstoppable();
    await rename(temp, target);
  } catch (err) {
    // Only the temp this call made: a file already by that name (the open's EEXIST) is not ours.
    if (made) await rm(temp, { force: true }).catch(() => {});
    if (err instanceof ToolError) throw err;
    if ((err as Error | undefined)?.name === 'AbortError') throw new ToolError(cancelled(lang, shown));
    throw new ToolError(failure(lang, shown, err));
  }
  await syncDir(dir);
}

/** Makes the rename itself durable; not every platform can open a folder, hence best effort. */
export async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // The data is already written; only crash-durability of the name is at stake.
  }
}

function cancelled(lang: Lang, shown: string): string {
  return say(lang, `写入 ${shown} 已取消，没有写入任何内容。`, `Writing ${shown} was cancelled; nothing was written.`);
}

function failure(lang: Lang, shown: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOTDIR' || code === 'EEXIST') {
    return say(
      lang,
      `无法写入 ${shown}：路径中的某一级是文件而不是文件夹。没有写入任何内容。`,
      `Cannot write ${shown}: part of the path is a file, not a folder. Nothing was written.`,
    );
  }
  if (code === 'ENAMETOOLONG') {
    return say(
      lang,
      `无法写入 ${shown}：名称或路径太长，超出了文件系统的限制。请换一个短一些的名称。没有写入任何内容。`,
      `Cannot write ${shown}: a name or the whole path is too long for this file system. Use a shorter name. Nothing was written.`,
    );
  }
  if (code === 'ENOSPC')
    return say(
      lang,
      `无法写入 ${shown}：磁盘空间不足。没有写入任何内容。`,
      `Cannot write ${shown}: the disk is full. Nothing was written.`,
    );
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return say(
      lang,
      `无法写入 ${shown}：没有写入权限（${code}）。没有写入任何内容。`,
      `Cannot write ${shown}: no permission to write there (${code}). Nothing was written.`,
    );
  }
  return say(
    lang,
    `无法写入 ${shown}（${code ?? String(err)}）。没有写入任何内容。`,
    `Cannot write ${shown} (${code ?? String(err)}). Nothing was written.`,
  );
}
