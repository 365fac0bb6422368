import { lstat, readdir } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { z } from '@hono/zod-openapi';
import { displayPath, resolveInSandbox } from '../tools/sandbox.js';
import { isTempName } from '../tools/temp-files.js';
import { ToolError } from '../contract/tool-error.js';
import { Uploaded } from '../contract/upload.js';
import type { ServerDeps } from './deps.js';
import { ApiError } from './errors.js';
import { fileHeaders } from './file-types.js';
import { endpoint, newSubApp, type ApiContext } from './openapi.js';
import { MAX_UPLOAD_BYTES, openWorkspaceFile, saveUpload, type OpenedFile } from './workspace-files.js';

/** A listing shows at most this many entries: a folder of 100,000 files is not browsed in a page. */
const MAX_LIST_ENTRIES = 1_000;
/** The API speaks English; the sandbox's refusals come through in the same language. */
const LANG = 'en';
const UPLOAD_PATH = '/api/files';

/** True for the upload route, which the guards let declare a body up to MAX_UPLOAD_BYTES. Exact match: anything else keeps 1 MiB. */
export const isUpload = (req: IncomingMessage): boolean =>
  req.method === 'POST' && (req.url ?? '').split('?')[0] === UPLOAD_PATH;

const FilePath = z.object({
  path: z.string().min(1).max(4_096).describe('Relative to the workspace, `/` between folders, e.g. `photos/cat.png`.'),
});
const FolderPath = z.object({
  path: z
    .string()
    .min(1)
    .max(4_096)
    .optional()
    .describe('A folder relative to the workspace; the workspace itself when left out.'),
});

export const FileEntry = z
  .object({
    name: z.string(),
    path: z.string().describe('Relative to the workspace.'),
    type: z.enum(['file', 'folder', 'link', 'other']),
    size: z.number().int().describe('In bytes; 0 for a folder.'),
    modifiedAt: z.number().int().describe('Milliseconds since the epoch.'),
  })
  .openapi('FileEntry');
export type FileEntry = z.infer<typeof FileEntry>;

export const Folder = z
  .object({
    path: z.string().describe('The folder, relative to the workspace (`.` for the workspace itself).'),
    entries: z.array(FileEntry).describe(`Folders first, then by name; at most ${MAX_LIST_ENTRIES}.`),
    truncated: z.boolean().describe(`True when the folder holds more than ${MAX_LIST_ENTRIES} entries.`),
  })
  .openapi('Folder');
export type Folder = z.infer<typeof Folder>;

const SAFE_HEADERS_TEXT =
  'Images (png, jpg, gif, webp, avif, bmp, ico, svg) and PDFs are served as themselves; text and code (html, js, md, json, …) always as `text/plain; charset=utf-8`; ' +
  'anything else as `application/octet-stream` with `content-disposition: attachment`. Every answer carries `content-security-policy: sandbox; …` and `x-content-type-options: nosniff`, ' +
  'so an uploaded page or script can never run on this origin.';

/** A file's bytes as the response: streamed from the open handle, which closes when the stream ends or the client leaves. */
export function fileResponse(c: ApiContext, file: OpenedFile, headers: Record<string, string>): Response {
  if (c.req.method === 'HEAD' || file.info.size === 0) {
    void file.handle.close();
    return new Response(null, { status: 200, headers });
  }
  // Only the bytes there were when it was opened: Content-Length has been promised.
  const stream = file.handle.createReadStream({ start: 0, end: file.info.size - 1 });
  return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, { status: 200, headers });
}

export function fileRoutes({ app }: ServerDeps) {
  const api = newSubApp();
  const { workspace } = app;

  endpoint(
    api,
    {
      method: 'post',
      path: '/api/files',
      tag: 'files',
      summary: 'Upload a file into the workspace',
      description:
        `The body is the file's bytes, whatever the Content-Type, at most ${MAX_UPLOAD_BYTES} bytes (25 MiB). Missing folders are made. ` +
        'An existing file is never replaced: the upload is saved as `name (2).ext`, `name (3).ext`… instead, and the answer says which. ' +
        'The path goes through the same sandbox as the file tools (no absolute paths, no `..` out, no symbolic links out).',
      query: FilePath,
      rawBody: "The file's bytes.",
      responses: { 201: { description: 'Saved.', schema: Uploaded } },
      errors: [400, 403, 409, 413, 507],
      errorText: { 409: 'The name and 999 numbered copies of it are all taken.' },
    },
    async (c, { query }) =>
      c.json(
        (await saveUpload({ workspace, userPath: query.path, body: c.req.raw.body, lang: LANG })) satisfies Uploaded,
        201,
      ),
  );

  endpoint(
    api,
    {
      method: 'get',
      path: '/api/files/raw',
      tag: 'files',
      summary: "A workspace file's bytes",
      description: `${SAFE_HEADERS_TEXT} HEAD gives the headers alone.`,
      query: FilePath,
      responses: { 200: { description: 'The file.', file: true } },
      errors: [400, 403, 404],
      errorText: { 400: 'The path is malformed, or names a folder.', 404: 'There is no such file.' },
    },
    async (c, { query }) => {
      const file = await openWorkspaceFile(workspace, query.path, LANG);
      return fileResponse(c, file, fileHeaders(file.name, file.info.size));
    },
  );

  endpoint(
    api,
    {
      method: 'get',
      path: '/api/files',
      tag: 'files',
      summary: 'List a workspace folder',
      description: "Without following links: a link is listed as `link`. Zhixing's own temp files are left out.",
      query: FolderPath,
      responses: { 200: { description: 'The folder.', schema: Folder } },
      errors: [400, 403, 404],
      errorText: { 400: 'The path is malformed, or names a file.', 404: 'There is no such folder.' },
    },
    async (c, { query }) => c.json((await listFolder(workspace, query.path ?? '.')) satisfies Folder),
  );
  return api;
}

async function listFolder(workspace: string, userPath: string): Promise<Folder> {
  let target: string;
  try {
    target = await resolveInSandbox(workspace, userPath, LANG);
  } catch (err) {
    throw err instanceof ToolError ? new ApiError(403, 'forbidden', err.message) : err;
  }
  const shown = displayPath(workspace, target);
  const dirents = await readdir(target, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') throw new ApiError(404, 'not_found', `There is no folder ${shown} in the workspace.`);
    if (err.code === 'ENOTDIR') throw new ApiError(400, 'bad_path', `${shown} is a file, not a folder.`);
    throw err;
  });
  const visible = dirents.filter((d) => !isTempName(d.name));
  visible.sort(
    (a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  const kept = visible.slice(0, MAX_LIST_ENTRIES);
  const entries = await Promise.all(
    kept.map(async (d): Promise<FileEntry> => {
      const info = await lstat(path.join(target, d.name)).catch(() => undefined);
      const type = d.isDirectory() ? 'folder' : d.isFile() ? 'file' : d.isSymbolicLink() ? 'link' : 'other';
      return {
        name: d.name,
        path: shown === '.' ? d.name : `${shown}/${d.name}`,
        type,
        size: type === 'folder' ? 0 : (info?.size ?? 0),
        modifiedAt: Math.round(info?.mtimeMs ?? 0),
      };
    }),
  );
  return { path: shown, entries, truncated: visible.length > kept.length };
}
