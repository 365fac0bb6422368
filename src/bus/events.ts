/**
 * Every event the core emits, described once with zod: the bus, the SSE streams, the OpenAPI
 * document and the web app's types all come from here.
 *
 * Events of a session carry `seq`, a number that grows by one with each event of that session,
 * across turns and processes; a client that lost its connection asks for what came after the last
 * `seq` it saw. Events of a step carry the ids of its message and part, as stored, so a client can
 * build the same view the history gives.
 */
import { z } from 'zod';
import { McpServer } from '../contract/mcp-server.js';
import { ActionRecord } from '../contract/tool-outcome.js';
import { UndoSummary } from '../contract/undo.js';
import { Usage } from '../contract/usage.js';

const Session = {
  sessionId: z.string().describe('The session the event belongs to.'),
  seq: z
    .number()
    .int()
    .nonnegative()
    .describe('Per-session sequence number: one more than the previous event of this session.'),
};
const Turn = { ...Session, turnId: z.string() };
const Step = { ...Turn, messageId: z.string().describe('The assistant message of this step, as stored.') };
const Part = { ...Step, partId: z.string().describe('The part of that message, as stored.') };

/** One sub-command of a command line an ask is about; `opaque` says why what it runs cannot be checked. */
export const AskPart = z.object({
  text: z.string(),
  opaque: z.string().optional(),
  decision: z.enum(['allow', 'ask', 'deny']).optional().describe('How the rules alone take this part, when known.'),
  rule: z.string().optional(),
});

export const TurnStart = z.object({
  type: z.literal('turn.start'),
  ...Turn,
  messageId: z.string().describe('The user message.'),
  text: z.string(),
});
export const StepStart = z.object({
  type: z.literal('step.start'),
  ...Step,
  step: z.number().int().describe('0 for the first model step of the turn.'),
});
export const TextDelta = z.object({ type: z.literal('text.delta'), ...Part, delta: z.string() });
export const ReasoningDelta = z.object({ type: z.literal('reasoning.delta'), ...Part, delta: z.string() });
export const StepEnd = z.object({
  type: z.literal('step.end'),
  ...Step,
  calls: z.number().int().describe('Tool calls the step asked for.'),
  usage: Usage.optional(),
});
export const ToolStart = z.object({
  type: z.literal('tool.start'),
  ...Part,
  callId: z.string(),
  tool: z.string(),
  input: z.unknown(),
});
export const ToolProgress = z.object({
  type: z.literal('tool.progress'),
  ...Part,
  callId: z.string(),
  message: z.string(),
});
export const ToolEnd = z.object({ type: z.literal('tool.end'), ...Part, ...ActionRecord.shape });
export const TurnEnd = z.object({
  type: z.literal('turn.end'),
  ...Turn,
  reply: z.string(),
  stopReason: z.string().describe('done, max_steps, repeated_call, aborted, error or limit.'),
});
export const ErrorEvent = z.object({
  type: z.literal('error'),
  ...Session,
  turnId: z.string().optional(),
  code: z.string(),
  message: z.string(),
});
export const SessionStatus = z.object({
  type: z.literal('session.status'),
  ...Session,
  status: z.enum(['busy', 'idle', 'error']),
});
export const SessionDeleted = z
  .object({ type: z.literal('session.deleted'), ...Session })
  .describe('The session and its history are gone.');
export const LlmRetry = z
  .object({
    type: z.literal('llm.retry'),
    ...Turn,
    attempt: z.number().int(),
    maxRetries: z.number().int(),
    reason: z.string(),
    status: z.number().int().optional(),
    delayMs: z.number().optional(),
  })
  .describe('The model service refused or failed for now and the request will be sent again.');
export const LlmWaiting = z
  .object({ type: z.literal('llm.waiting'), ...Turn, elapsedMs: z.number() })
  .describe('The model service has taken the request but not started answering; repeated while that lasts.');
export const PermissionAsked = z
  .object({
    type: z.literal('permission.asked'),
    ...Turn,
    id: z.string().describe('The ask: answer it with POST /api/permissions/:id (once, always or deny).'),
    callId: z.string(),
    tool: z.string(),
    action: z.string().describe('What the tool would do, e.g. file.write.'),
    target: z.string().describe('What it touches: a path, a command, a URL.'),
    parts: z.array(AskPart).optional().describe('For a command line: every sub-command it would run.'),
    mustAsk: z.string().optional().describe('Why this call asks whatever the rules say, when it must.'),
    reason: z
      .string()
      .optional()
      .describe('Why it asks though the rules allow it, or why only a person may approve it.'),
    needsPerson: z
      .boolean()
      .optional()
      .describe('Only a person may approve it: --yes does not, and a host with nobody to ask refuses it.'),
  })
  .describe('A tool call waits for the user to allow or refuse it; no timeout runs meanwhile.');
export const PermissionReplied = z.object({
  type: z.literal('permission.replied'),
  ...Session,
  id: z.string(),
  decision: z
    .enum(['once', 'always', 'deny', 'cancelled'])
    .describe('cancelled: the turn stopped before anyone answered.'),
});

export const UndoAvailable = z
  .object({ type: z.literal('undo.available'), ...Turn })
  .describe('The turn changed files in the workspace; it can be undone (POST /api/sessions/{id}/undo).');
export const UndoDone = z
  .object({ type: z.literal('undo'), ...Session, ...UndoSummary.shape })
  .describe("A turn's changes to the workspace were undone.");

export const ContextCompacted = z
  .object({
    type: z.literal('context.compacted'),
    ...Turn,
    messageId: z.string().describe('The message holding the summary, as stored.'),
    partId: z.string().describe('The summary part.'),
    messages: z
      .number()
      .int()
      .describe(
        "How many stored messages the summary covers, an earlier summary's included. They stay in the history.",
      ),
    model: z.string().describe('The model that wrote it; `rules` when written offline by code.'),
  })
  .describe("Older messages were summarised to fit the model's context window; the history keeps every one of them.");
export const ContextCompactionFailed = z
  .object({
    type: z.literal('context.compaction_failed'),
    ...Turn,
    reason: z.string().describe('Why no summary was made (the model failed, answered nothing, took too long).'),
  })
  .describe(
    'Summarising older messages failed; this turn sends the most recent messages that fit, and nothing is changed.',
  );

export const BusEvent = z.discriminatedUnion('type', [
  TurnStart,
  StepStart,
  TextDelta,
  ReasoningDelta,
  StepEnd,
  ToolStart,
  ToolProgress,
  ToolEnd,
  TurnEnd,
  ErrorEvent,
  SessionStatus,
  SessionDeleted,
  LlmRetry,
  LlmWaiting,
  PermissionAsked,
  PermissionReplied,
  UndoAvailable,
  UndoDone,
  ContextCompacted,
  ContextCompactionFailed,
]);
export type BusEvent = z.infer<typeof BusEvent>;

/**
 * Not a session's event (no `sessionId`, no `seq`, never stored): the server-wide stream sends it when
 * an MCP server's state or tools change, or it is removed (`removed: true`).
 */
export const McpServerChanged = z
  .object({ type: z.literal('mcp.server'), server: McpServer, removed: z.boolean().optional() })
  .describe("An MCP server's state or tools changed, or it was removed.");
export type McpServerChanged = z.infer<typeof McpServerChanged>;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** An event as emitted: the bus numbers it. */
export type NewEvent = DistributiveOmit<BusEvent, 'seq'>;
