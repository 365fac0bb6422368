import { constants, type Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { z } from 'zod';
import { checkPath, formatBytes, notFoundMessage } from './sandbox.js';
import { say, type Lang } from '../i18n.js';
import { defineTool } from './tool.js';
import { ToolError } from '../contract/tool-error.js';

/** Larger files would flood the model's context; 1 MB is already far more than it can use. */
const MAX_READ_BYTES = 1_000_000;
/** A NUL byte this early means binary, the same heuristic git and grep use. */
const BINARY_SNIFF_BYTES = 8_192;

// O_NOFOLLOW: the target was realpath'd, so a link appearing there now is a swap under our feet.
// O_NONBLOCK: never hang on a FIFO that slipped past the regular-file check.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

const utf8 = new TextDecoder('utf-8', { fatal: true });

export const FileReadParams = z.object({
  path: z.string().describe('Path of the text file to read, relative to the workspace, e.g. "notes/todo.md".'),
});
export type FileReadParams = z.infer<typeof FileReadParams>;

export const fileReadTool = defineTool({
  name: 'file_read',
  annotations: { readOnly: true },
  description:
    'Read a UTF-8 text file from the workspace (the only folder the assistant may touch) and return its full content. ' +
    `Up to ${formatBytes(MAX_READ_BYTES)} bytes. Use file_list to see which files exist.`,
  parameters: FileReadParams,
  async execute(args, ctx) {
    const located = await checkPath(ctx, 'file.read', args.path);
    const { lang } = ctx;
    const shown = located.display;

    let info: Stats;
    try {
      info = await stat(located.target);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP')
        throw new ToolError(await notFoundMessage(lang, located), {
          outside: true,
          kind: located.finalLink ? 'failed' : 'not_found',
        });
      throw new ToolError(say(lang, `无法读取 ${shown}（${code}）。`, `Cannot read ${shown} (${code}).`));
    }
    if (info.isDirectory()) {
      throw new ToolError(
        say(
          lang,
          `${shown} 是一个文件夹，不是文件。要查看其中的内容，请用 file_list。`,
          `${shown} is a folder, not a file. Use file_list to see what is in it.`,
        ),
      );
    }
    if (!info.isFile()) {
      throw new ToolError(
        say(lang, `${shown} 不是普通文件，无法读取。`, `${shown} is not a regular file and cannot be read.`),
      );
    }
    if (info.size > MAX_READ_BYTES) throw new ToolError(tooBig(lang, shown, info.size));

    let bytes: Buffer;
    try {
      const handle = await open(located.target, OPEN_FLAGS);
      try {
        // Checked again on the open handle: the file may have grown since the stat above.
        const size = (await handle.stat()).size;
        if (size > MAX_READ_BYTES) throw new ToolError(tooBig(lang, shown, size));
        bytes = await handle.readFile();
      } finally {
        await handle.close();
      }
    } catch (err) {
      if (err instanceof ToolError) throw err;
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ELOOP')
        throw new ToolError(await notFoundMessage(lang, located), {
          outside: true,
          kind: located.finalLink ? 'failed' : 'not_found',
        });
      throw new ToolError(say(lang, `无法读取 ${shown}（${code}）。`, `Cannot read ${shown} (${code}).`));
    }

    const card = { title: shown, metadata: { path: shown, bytes: bytes.length } };
    if (bytes.length === 0) return { output: say(lang, `${shown} 是空文件。`, `${shown} is empty.`), ...card };
    // PDFs need not contain an early NUL, so their magic number is checked too.
    const pdf = bytes.subarray(0, 5).toString('latin1') === '%PDF-';
    if (pdf || bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
      throw new ToolError(
        say(
          lang,
          `${shown} 是二进制文件，不是文本，无法作为文本读取。${pdf ? '这是 PDF，请用 pdf_read。' : ''}`,
          `${shown} is a binary file, not text, so it cannot be read as text.${pdf ? ' It is a PDF: use pdf_read.' : ''}`,
        ),
      );
    }
    try {
      return { output: utf8.decode(bytes), ...card };
    } catch {
      throw new ToolError(
        say(
          lang,
          `${shown} 不是有效的 UTF-8 文本（可能是 GBK 等其他编码，或是二进制文件），无法读取。`,
          `${shown} is not valid UTF-8 text (perhaps another encoding such as GBK, or a binary file), so it cannot be read.`,
        ),
      );
    }
  },
});

function tooBig(lang: Lang, shown: string, size: number): string {
  return say(
    lang,
    `${shown} 有 ${formatBytes(size)} 字节，超过了 ${formatBytes(MAX_READ_BYTES)} 字节的读取上限，未读取。`,
    `${shown} is ${formatBytes(size)} bytes, over the ${formatBytes(MAX_READ_BYTES)}-byte read limit; it was not read.`,
  );
}
