/**
 * A message and its parts, as the store keeps them, the turn reads them back, the HTTP API lists them and
 * the web app replays them. Every part is stored as it happens; a tool part moves along its `ToolState`.
 */
import { z } from 'zod';
import { AttachmentSummary, ToolCard, ToolState } from './tool-outcome.js';

/** Which stored messages a summary stands for: all of the session's up to and including `upTo`. */
export const SummaryCoverage = z.object({
  upTo: z.string().describe('The last message it covers (every earlier one is covered too).'),
  upToCreatedAt: z.number().int(),
  messages: z.number().int().describe('How many messages it covers.'),
  model: z.string().describe('The model that wrote it; `rules` when written offline by code.'),
});
export type SummaryCoverage = z.infer<typeof SummaryCoverage>;

export const TextPart = z.object({ id: z.string(), type: z.literal('text'), text: z.string() });
export type TextPart = z.infer<typeof TextPart>;

export const ReasoningPart = z.object({
  id: z.string(),
  type: z.literal('reasoning'),
  text: z.string().describe("The model's own thinking, never part of the reply."),
});
export type ReasoningPart = z.infer<typeof ReasoningPart>;

/** A compaction's view of older messages, sent in place of them to the model; those messages stay stored and listed. */
export const SummaryPart = z.object({
  id: z.string(),
  type: z.literal('summary'),
  text: z
    .string()
    .describe('What the earlier messages said, as the model reads it from now on. Those messages stay in the history.'),
  covers: SummaryCoverage,
});
export type SummaryPart = z.infer<typeof SummaryPart>;

/** A tool call with its input, output, state and duration, and what its card shows. */
export const ToolPart = z.object({
  id: z.string(),
  type: z.literal('tool'),
  callId: z.string(),
  tool: z.string(),
  input: z.unknown().describe('The arguments: parsed JSON when valid, else the raw text.'),
  output: z.string().nullable(),
  state: ToolState.describe('A tool call moves pending → running → completed | error.'),
  ms: z.number().nullable().describe('How long the call took, in milliseconds.'),
  title: ToolCard.shape.title,
  metadata: ToolCard.shape.metadata,
  attachments: z.array(AttachmentSummary).optional().describe('Files the call attached, without their bytes.'),
  permission: ToolCard.shape.permission,
});
export type ToolPart = z.infer<typeof ToolPart>;

export const Part = z.discriminatedUnion('type', [TextPart, ReasoningPart, SummaryPart, ToolPart]).meta({ id: 'Part' });
export type Part = z.infer<typeof Part>;

export const Role = z.enum(['user', 'assistant']);
export type Role = z.infer<typeof Role>;

export const Message = z
  .object({
    id: z.string(),
    sessionId: z.string(),
    turnId: z.string(),
    role: Role,
    createdAt: z.number().int(),
    parts: z.array(Part),
  })
  .meta({ id: 'Message' });
export type Message = z.infer<typeof Message>;
