import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { BoundAttachment } from '../tools/bound-result.js';
import type { ToolResult } from '../tools/registry.js';
import { CARD_META } from './ask-protocol.js';

/** The `file://` URI an attachment kept in the workspace is offered under, so a client can tell where it lies. */
const workspaceUri = (workspace: string, path: string) => pathToFileURL(join(workspace, path)).href;

/**
 * One attachment as MCP content: images and audio as themselves, other bytes as an embedded resource,
 * and a file in the workspace as a link to it (its bytes stay on disk, as they do for the web app).
 */
function attachmentContent(a: BoundAttachment, workspace: string): CallToolResult['content'][number] {
  if ('path' in a) {
    return {
      type: 'resource_link',
      uri: workspaceUri(workspace, a.path),
      name: a.name,
      mimeType: a.mimeType,
      size: a.size,
    };
  }
  if (a.mimeType.startsWith('image/')) return { type: 'image', data: a.data, mimeType: a.mimeType };
  if (a.mimeType.startsWith('audio/')) return { type: 'audio', data: a.data, mimeType: a.mimeType };
  return {
    type: 'resource',
    resource: { uri: `attachment:///${encodeURIComponent(a.name)}`, mimeType: a.mimeType, blob: a.data },
  };
}

/**
 * A registry result as an MCP tool result: the text the model reads first, then the attachments;
 * a failed call is `isError` with its reason. The card's title and metadata go as structured content,
 * which a client may show and a model need not read.
 */
export function toCallToolResult(result: ToolResult, workspace: string): CallToolResult {
  const content: CallToolResult['content'] = [{ type: 'text', text: result.output }];
  for (const a of result.attachments ?? []) content.push(attachmentContent(a, workspace));
  const card = {
    ...(result.title !== undefined && { title: result.title }),
    ...(result.metadata !== undefined && { metadata: result.metadata }),
    // Image and audio content carry no file name: the card keeps them, in the attachments' order.
    ...(result.attachments?.length && { attachments: result.attachments.map((a) => a.name) }),
  };
  return {
    content,
    ...(!result.ok && { isError: true }),
    // In _meta, not structuredContent: a client may hand structured content to its model in place of
    // the text, and the card is for people (it is what the web app shows beside a call).
    ...(result.ok && Object.keys(card).length > 0 && { _meta: { [CARD_META]: card } }),
  };
}
