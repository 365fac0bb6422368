import { lstat } from 'node:fs/promises';
import { say, type Lang } from '../i18n.js';
import { displayPath, formatBytes, resolveInSandbox } from './sandbox.js';
import { ToolAttachment, ToolOutput, type ToolContext } from './tool.js';
import { ToolError } from '../contract/tool-error.js';
import { ToolData } from '../contract/tool-data.js';

/** Past this a title is no longer one short line. */
const MAX_TITLE_CHARS = 200;
/** A card's details as JSON; more is a tool dumping data where a summary belongs. */
export const MAX_METADATA_BYTES = 10_000;
/** The attachment bytes one call may store, in total; attachments past it are dropped. */
export const MAX_ATTACHMENT_BYTES = 5_000_000;
/** How much of a dropped attachment's name a note shows. */
const NOTE_NAME_CHARS = 60;

/** An attachment as it is kept: checked, with its size in bytes; a path is relative to the workspace. */
export type BoundAttachment =
  | { name: string; mimeType: string; size: number; data: string }
  | { name: string; mimeType: string; size: number; path: string };

/** What a tool returned, checked and bounded. */
export interface BoundResult {
  output: string;
  /** Sentences for the model about what was dropped, to follow the output. */
  notes: string[];
  title?: string;
  metadata?: Record<string, unknown>;
  attachments?: BoundAttachment[];
  data?: ToolData;
}

/**
 * Checks and bounds what a tool returned, so no tool can flood the store or the UI: the title becomes
 * one short line; metadata over 10 KB of JSON, and attachments once a call's pass 5 MB, are dropped
 * with a note for the model, as are malformed ones. A plain string (or any non-object) is the output.
 * Returns undefined when an object comes back without output text: a tool's bug.
 */
export async function boundResult(
  raw: unknown,
  ctx: Pick<ToolContext, 'workspace' | 'lang'>,
): Promise<BoundResult | undefined> {
  if (typeof raw !== 'object' || raw === null) return { output: String(raw), notes: [] };
  const r = raw as Record<string, unknown>;
  if (typeof r.output !== 'string') return undefined;
  const result: BoundResult = { output: r.output, notes: [] };
  const title = boundTitle(r.title);
  if (title) result.title = title;
  const metadata = boundMetadata(r.metadata, ctx.lang, result.notes);
  if (metadata) result.metadata = metadata;
  const attachments = await boundAttachments(r.attachments, ctx, result.notes);
  if (attachments.length) result.attachments = attachments;
  // Data that does not fit its schema is a tool's bug: readers fall back to the text.
  const data = r.data === undefined ? undefined : ToolData.safeParse(r.data);
  if (data?.success) result.data = data.data;
  return result;
}

function boundTitle(title: unknown): string | undefined {
  if (typeof title !== 'string') return undefined;
  const line = title.replace(/\s+/g, ' ').trim();
  if (line.length <= MAX_TITLE_CHARS) return line || undefined;
  return `${[...line].slice(0, MAX_TITLE_CHARS - 1).join('')}…`;
}

function boundMetadata(metadata: unknown, lang: Lang, notes: string[]): Record<string, unknown> | undefined {
  if (metadata === undefined) return undefined;
  let json: string | undefined;
  try {
    if (ToolOutput.shape.metadata.safeParse(metadata).success) json = JSON.stringify(metadata);
  } catch {
    // A cycle or a BigInt: not JSON, said below.
  }
  if (json === undefined) {
    notes.push(
      say(lang, '（元数据不是 JSON 对象，已丢弃。）', '(The metadata was not a JSON object and was dropped.)'),
    );
    return undefined;
  }
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes > MAX_METADATA_BYTES) {
    notes.push(
      say(
        lang,
        `（元数据有 ${formatBytes(bytes)} 字节，超过了 ${formatBytes(MAX_METADATA_BYTES)} 字节的上限，已丢弃。）`,
        `(The metadata was dropped: ${formatBytes(bytes)} bytes of JSON, over the ${formatBytes(MAX_METADATA_BYTES)}-byte limit.)`,
      ),
    );
    return undefined;
  }
  // What is kept is what JSON can say (no undefined, dates as text), so the event and the store agree.
  return JSON.parse(json) as Record<string, unknown>;
}

const noteName = (item: unknown, i: number): string => {
  const name = (item as { name?: unknown } | null)?.name;
  if (typeof name !== 'string' || name.trim() === '') return `#${i + 1}`;
  return name.length > NOTE_NAME_CHARS ? `${name.slice(0, NOTE_NAME_CHARS)}…` : name;
};

/**
 * Inline data counts against the call's 5 MB; attachments are kept in order until the next would pass
 * it, and that one and the data after it are dropped. A path must name a file inside the workspace.
 */
async function boundAttachments(
  list: unknown,
  ctx: Pick<ToolContext, 'workspace' | 'lang'>,
  notes: string[],
): Promise<BoundAttachment[]> {
  const { lang } = ctx;
  if (list === undefined) return [];
  if (!Array.isArray(list)) {
    notes.push(say(lang, '（附件不是列表，已丢弃。）', '(The attachments were not a list and were dropped.)'));
    return [];
  }
  const kept: BoundAttachment[] = [];
  const malformed: string[] = [];
  const overLimit: string[] = [];
  let used = 0;
  for (const [i, item] of list.entries()) {
    const data = (item as { data?: unknown } | null)?.data;
    // Sized before it is checked: an oversized one is dropped without reading it through.
    const size = typeof data === 'string' ? Buffer.byteLength(data, 'base64') : 0;
    if (typeof data === 'string' && (overLimit.length > 0 || used + size > MAX_ATTACHMENT_BYTES)) {
      overLimit.push(noteName(item, i));
      continue;
    }
    const parsed = ToolAttachment.safeParse(item);
    if (!parsed.success) {
      malformed.push(noteName(item, i));
      continue;
    }
    const a = parsed.data;
    if ('data' in a) {
      used += size;
      kept.push({ name: a.name, mimeType: a.mimeType, size, data: a.data });
      continue;
    }
    const file = await workspaceFile(a.path, ctx);
    if (typeof file === 'string') {
      notes.push(say(lang, `（未附上 ${noteName(a, i)}：${file}）`, `(Not attached: ${noteName(a, i)}: ${file})`));
      continue;
    }
    kept.push({ name: a.name, mimeType: a.mimeType, size: file.size, path: file.path });
  }
  const sep = say(lang, '、', ', ');
  if (malformed.length) {
    notes.push(
      say(
        lang,
        `（未附上 ${malformed.join(sep)}：附件需要名称、MIME 类型，以及 base64 数据或工作区里的路径。）`,
        `(Not attached: ${malformed.join(sep)}: an attachment needs a name, a MIME type, and base64 data or a workspace path.)`,
      ),
    );
  }
  if (overLimit.length) {
    notes.push(
      say(
        lang,
        `（未附上 ${overLimit.join(sep)}：一次调用的附件合计最多 ${formatBytes(MAX_ATTACHMENT_BYTES)} 字节。）`,
        `(Not attached: ${overLimit.join(sep)}: one call's attachments may hold at most ${formatBytes(MAX_ATTACHMENT_BYTES)} bytes in total.)`,
      ),
    );
  }
  return kept;
}

/** The file a path attachment names, as a workspace-relative path and its size, or why it cannot be attached. */
async function workspaceFile(
  userPath: string,
  ctx: Pick<ToolContext, 'workspace' | 'lang'>,
): Promise<{ path: string; size: number } | string> {
  const notAFile = say(ctx.lang, '它不是工作区里的文件。', 'it is not a file in the workspace.');
  try {
    const target = await resolveInSandbox(ctx.workspace, userPath, ctx.lang);
    const info = await lstat(target);
    return info.isFile() ? { path: displayPath(ctx.workspace, target), size: info.size } : notAFile;
  } catch (err) {
    return err instanceof ToolError ? err.message : notAFile;
  }
}
