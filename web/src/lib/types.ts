/**
 * The API's shapes as the web app reads them: the server's own definitions (src/contract and the
 * events of src/bus/events.ts), imported as types only so no schema code reaches the bundle. What is
 * defined here is the web app's own: the chat view's parts and what it keeps of events.
 */
import type { BusEvent, McpServerChanged } from '../../../src/bus/events.js';
import type { McpServer } from '../../../src/contract/mcp-server.js';
import type { History as ServedHistory } from '../../../src/contract/history.js';
import type { Message as StoredMessage, Part as StoredPart } from '../../../src/contract/message.js';

export type { BusEvent, McpServerChanged };
export type { Memory } from '../../../src/contract/memory.js';
export type {
  PermissionRecord,
  PermissionRule as RuleDecision,
  PermissionSettings,
  RuleValue as ToolRule,
} from '../../../src/contract/permission.js';
export type { Models } from '../../../src/contract/models.js';
export type { Status } from '../../../src/contract/status.js';
export type { Uploaded } from '../../../src/contract/upload.js';
export type { Session } from '../../../src/contract/session.js';
export type { AttachmentSummary as AttachmentInfo, ToolState } from '../../../src/contract/tool-outcome.js';
export type { UndoResult, UndoState } from '../../../src/contract/undo.js';

/** An MCP server as GET /api/mcp and `mcp.server` events give it. */
export type { McpServer };
/** What GET /api/events sends: session and permission events, and MCP servers' changes. */
export type ServerEvent = BusEvent | McpServerChanged;
export type McpState = McpServer['state'];
export type EventOf<T extends BusEvent['type']> = Extract<BusEvent, { type: T }>;

/** A text or reasoning part, as the chat view grows it from deltas. */
export type TextPart = Extract<StoredPart, { type: 'text' | 'reasoning' }>;
export type SummaryPart = Extract<StoredPart, { type: 'summary' }>;
/** A tool part as the chat view holds it: as stored, and while it runs its latest progress line (events only). */
export type ToolPart = Extract<StoredPart, { type: 'tool' }> & { progress?: string };
export type Part = TextPart | ToolPart | SummaryPart;
/** A message as the chat view holds it. */
export type Message = Omit<StoredMessage, 'parts'> & { parts: Part[] };
/** GET …/messages as the web app reads it: servers from before undo leave out `undo` and `changingTools`. */
export type History = Omit<ServedHistory, 'undo' | 'changingTools'> &
  Partial<Pick<ServedHistory, 'undo' | 'changingTools'>>;

/** A permission ask waiting for the user, as a `permission.asked` event brings it. */
export type PermissionAsk = Pick<
  EventOf<'permission.asked'>,
  'id' | 'sessionId' | 'turnId' | 'callId' | 'tool' | 'action' | 'target' | 'parts' | 'mustAsk'
>;
