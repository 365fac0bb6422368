import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolAttachment, ToolOutput } from '../../tools/tool.js';
import { ToolError } from '../../contract/tool-error.js';
import { cleanText } from './names.js';

/** Structured content told to the model beside text, at most this long (JSON). */
const MAX_STRUCTURED_CHARS = 20_000;
/** A resource link's name and URI, each at most this long. */
const MAX_LINK_CHARS = 500;

type Content = CallToolResult['content'][number];

const kb = (base64: string) => {
  const bytes = Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);
  return bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
};

const extension = (mimeType: string) => {
  const sub =
    mimeType
      .split('/')[1]
      ?.split(/[;+]/)[0]
      ?.replace(/[^a-z0-9]/gi, '') ?? '';
  return sub ? `.${sub.slice(0, 10)}` : '';
};

/**
 * A tool call's result as Zhixing's tools return it. Only text reaches the model: images, audio and
 * binary resources become attachments, shown to the user, and the model reads one line saying what
 * was shown. Structured content is told as JSON when no text came with it.
 */
export function toToolOutput(tool: string, result: CallToolResult): ToolOutput {
  const lines: string[] = [];
  const attachments: ToolAttachment[] = [];
  const attach = (kind: string, mimeType: string, data: string, name?: string) => {
    const mime = cleanText(mimeType || 'application/octet-stream', 100);
    const n = attachments.length + 1;
    attachments.push({ name: cleanText(name ?? `${tool}-${kind}-${n}${extension(mime)}`, 200), mimeType: mime, data });
    lines.push(`[${kind}: ${mime}, ${kb(data)}, shown to the user]`);
  };
  for (const item of (result.content ?? []) as Content[]) {
    switch (item.type) {
      case 'text':
        lines.push(item.text);
        break;
      case 'image':
        attach('image', item.mimeType, item.data);
        break;
      case 'audio':
        attach('audio', item.mimeType, item.data);
        break;
      case 'resource_link':
        lines.push(
          `[resource: ${cleanText(item.name || item.title || '', MAX_LINK_CHARS)} ${cleanText(item.uri, MAX_LINK_CHARS)}${item.mimeType ? ` (${cleanText(item.mimeType, 100)})` : ''}]`,
        );
        break;
      case 'resource': {
        const r = item.resource;
        if ('text' in r && typeof r.text === 'string')
          lines.push(`[resource ${cleanText(r.uri, MAX_LINK_CHARS)}]\n${r.text}`);
        else if ('blob' in r && typeof r.blob === 'string') {
          const name = r.uri.split(/[/?#]/).filter(Boolean).pop();
          attach('resource', r.mimeType ?? 'application/octet-stream', r.blob, name);
        }
        break;
      }
      default:
        lines.push(`[content of type ${cleanText(String((item as { type?: unknown }).type), 40)} left out]`);
    }
  }
  const hasText = lines.length > 0 && (result.content ?? []).some((c) => (c as Content).type === 'text');
  if (result.structuredContent !== undefined && !hasText) {
    const json = JSON.stringify(result.structuredContent);
    lines.push(
      json.length > MAX_STRUCTURED_CHARS ? `${json.slice(0, MAX_STRUCTURED_CHARS)}… [structured content cut]` : json,
    );
  }
  const output = lines.join('\n');
  if (result.isError) throw new ToolError(output || `${tool} reported an error without saying what it was.`);
  return { output: output || '(no content)', ...(attachments.length ? { attachments } : {}) };
}
