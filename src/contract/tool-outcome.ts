/**
 * What a tool call came to, as the turn reports it (events, `--json`, the HTTP API) and its card shows it
 * (the store's tool part, the web app's card).
 */
import { z } from 'zod';
import { PermissionRecord } from './permission.js';

/** A tool call moves pending → running → completed | error. */
export const ToolState = z.enum(['pending', 'running', 'completed', 'error']);
export type ToolState = z.infer<typeof ToolState>;

/** A file a call attached, named and sized: the bytes stay in the store for a host to fetch. */
export const AttachmentInfo = z.object({ name: z.string(), mimeType: z.string(), size: z.number() });
export type AttachmentInfo = z.infer<typeof AttachmentInfo>;

/** An attachment as listed with its part: what it is and how big (in bytes), never its bytes. */
export const AttachmentSummary = AttachmentInfo.extend({
  /** Set when it is a workspace file: its path relative to the workspace. */
  path: z.string().optional(),
});
export type AttachmentSummary = z.infer<typeof AttachmentSummary>;

/** What a tool call's card shows beside its output; each field is present only when the tool gave it. */
export const ToolCard = z.object({
  title: z.string().optional().describe("One short line for the call's card, when the tool gave one."),
  metadata: z.record(z.string(), z.unknown()).optional().describe('Small JSON details for the card.'),
  permission: z
    .array(PermissionRecord)
    .optional()
    .describe('How each permission the call requested was decided, in order; absent when it requested none.'),
});
export type ToolCard = z.infer<typeof ToolCard>;

/** What a tool call did: the `--json` action and the `tool.end` event, with the id the model gave the call. */
export const ActionRecord = z.object({
  callId: z.string().describe('The id the model gave the call, so a result can be matched to its call.'),
  tool: z.string(),
  input: z.unknown().describe('The arguments: parsed JSON when valid, else the raw text (cut when oversized).'),
  ok: z.boolean(),
  output: z.string().describe('What the model reads. A failed call starts with "Error: ".'),
  ms: z.number(),
  title: ToolCard.shape.title,
  metadata: ToolCard.shape.metadata,
  attachments: z
    .array(AttachmentInfo)
    .optional()
    .describe('What the call attached, named and sized; the bytes stay in the store for the UI to fetch.'),
  permission: ToolCard.shape.permission,
});
export type ActionRecord = z.infer<typeof ActionRecord>;
