import type { Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { checkPath, formatSize, notFoundMessage } from './sandbox.js';
import { isTempName } from './temp-files.js';
import { say, type Lang } from '../i18n.js';
import { defineTool } from './tool.js';
import { ToolError } from '../contract/tool-error.js';

/** A listing is for a model to read; past this it only crowds the context. */
const MAX_LIST_ENTRIES = 500;

export const FileListParams = z.object({
  path: z
    .string()
    .optional()
    .describe(
      'Folder to list, relative to the workspace, e.g. "notes". Leave it out to list the top of the workspace.',
    ),
});
export type FileListParams = z.infer<typeof FileListParams>;

export const fileListTool = defineTool({
  name: 'file_list',
  annotations: { readOnly: true },
  description:
    'List a folder of the workspace (the only folder the assistant may touch): folders first, marked with a trailing "/", ' +
    `then files with their sizes. Shows at most ${MAX_LIST_ENTRIES} entries.`,
  parameters: FileListParams,
  async execute(args, ctx) {
    const { lang } = ctx;
    // Models often send "" for an optional argument; it means the same as leaving it out.
    const userPath = args.path === undefined || args.path === '' ? '.' : args.path;
    const located = await checkPath(ctx, 'file.list', userPath);
    const shown = located.display;
    const isRoot = located.inside && shown === '.';

    let entries: Dirent[];
    try {
      entries = await readdir(located.target, { withFileTypes: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT')
        throw new ToolError(await notFoundMessage(lang, located), {
          outside: true,
          kind: located.finalLink ? 'failed' : 'not_found',
        });
      if (code === 'ENOTDIR') {
        throw new ToolError(
          say(
            lang,
            `${shown} 是文件，不是文件夹。要查看内容，请用 file_read。`,
            `${shown} is a file, not a folder. Use file_read to see its content.`,
          ),
        );
      }
      throw new ToolError(say(lang, `无法列出 ${shown}（${code}）。`, `Cannot list ${shown} (${code}).`));
    }

    // Only Zhixing's own temps of writes in flight are hidden; a listing reads and never deletes
    // (the next write to this folder clears the leftovers of killed writes).
    const visible = entries
      .filter((e) => !isTempName(e.name))
      .sort(
        (a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
      );
    const title = isRoot ? say(lang, '工作区', 'workspace') : `${shown}/`;
    const metadata = {
      path: shown,
      entries: visible.length,
      folders: visible.filter((e) => e.isDirectory()).length,
      truncated: visible.length > MAX_LIST_ENTRIES,
    };
    if (visible.length === 0) {
      const output = isRoot
        ? say(lang, '工作区是空的。', 'The workspace is empty.')
        : say(lang, `${shown}/ 是空文件夹。`, `${shown}/ is an empty folder.`);
      return { output, title, metadata };
    }

    const lines = await Promise.all(
      visible.slice(0, MAX_LIST_ENTRIES).map((e) => describeEntry(located.target, e, lang)),
    );
    const count = visible.length;
    const header = isRoot
      ? say(
          lang,
          `工作区根目录中有 ${count} 项：`,
          `The workspace root has ${count} ${count === 1 ? 'entry' : 'entries'}:`,
        )
      : say(lang, `${shown}/ 中有 ${count} 项：`, `${shown}/ has ${count} ${count === 1 ? 'entry' : 'entries'}:`);
    const rest = count - MAX_LIST_ENTRIES;
    if (rest > 0) lines.push(say(lang, `… 还有 ${rest} 项未列出`, `… and ${rest} more`));
    return { output: [header, ...lines].join('\n'), title, metadata };
  },
});

async function describeEntry(dir: string, entry: Dirent, lang: Lang): Promise<string> {
  if (entry.isDirectory()) return `${entry.name}/`;
  // A link's target is not shown: it may name a place outside the workspace.
  if (entry.isSymbolicLink()) return say(lang, `${entry.name}（链接）`, `${entry.name} (link)`);
  const full = path.join(dir, entry.name);
  const info = await lstat(full).catch(() => undefined);
  if (!info?.isFile()) return entry.name;
  return say(lang, `${entry.name}（${formatSize(info.size)}）`, `${entry.name} (${formatSize(info.size)})`);
}
