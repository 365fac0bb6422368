/**
 * The API's shapes as the web app reads them. Events come from the one zod definition the server
 * streams (src/bus/events.ts); the resources mirror src/server/sessions.ts and status.ts.
 */
import type { BusEvent, McpServerChanged } from '../../../src/bus/events.js';

export type { BusEvent, McpServerChanged };
/** An MCP server as GET /api/mcp and `mcp.server` events give it. */
export type McpServer = McpServerChanged['server'];
/** What GET /api/events sends: session and permission events, and MCP servers' changes. */
export type ServerEvent = BusEvent | McpServerChanged;
export type McpState = McpServer['state'];
export type EventOf<T extends BusEvent['type']> = Extract<BusEvent, { type: T }>;

export interface Session {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  messageCount: number;
  status: 'busy' | 'idle';
}

export interface AttachmentInfo {
  name: string;
  mimeType: string;
  size: number;
  path?: string;
}

export type ToolState = 'pending' | 'running' | 'completed' | 'error';

export interface TextPart {
  id: string;
  type: 'text' | 'reasoning';
  text: string;
}

export interface ToolPart {
  id: string;
  type: 'tool';
  callId: string;
  tool: string;
  input: unknown;
  output: string | null;
  state: ToolState;
  ms: number | null;
  title?: string;
  metadata?: Record<string, unknown>;
  attachments?: AttachmentInfo[];
  /** How each permission the call requested was decided. */
  permission?: PermissionRecord[];
  /** The latest progress line while the call runs (events only). */
  progress?: string;
}

/** What a compaction wrote in place of older messages for the model; those messages stay in the history. */
export interface SummaryPart {
  id: string;
  type: 'summary';
  text: string;
  covers: { upTo: string; upToCreatedAt: number; messages: number; model: string };
}

export type Part = TextPart | ToolPart | SummaryPart;

export interface Message {
  id: string;
  sessionId: string;
  turnId: string;
  role: 'user' | 'assistant';
  createdAt: number;
  parts: Part[];
}

export type UndoState = 'undoable' | 'undone' | 'expired' | 'running';

export interface History {
  messages: Message[];
  resumeAfter: number;
  /** Turns that changed files, newest first (older servers leave it out). */
  undo?: Array<{ turnId: string; state: UndoState }>;
  /** Tools whose calls may change the workspace. */
  changingTools?: string[];
}

/** What POST …/undo did. */
export type UndoResult = Omit<EventOf<'undo'>, 'type' | 'seq' | 'sessionId'> & { session: string };

export interface Status {
  version: string;
  mode: 'offline' | 'llm';
  provider: string;
  model: string;
  tools: string[];
  mcp: Array<{ name: string; state: McpState; tools: number; error?: string }>;
  sessions: { running: string[]; limit: number };
  /** Absent from servers before long-term memory. */
  memory?: {
    count: number;
    embeddings: {
      kind: 'none' | 'remote' | 'local';
      model?: string;
      progress?: { done: number; total: number };
      error?: string;
    };
  };
}

export interface Memory {
  id: string;
  sessionId: string;
  kind: 'fact' | 'preference' | 'note';
  content: string;
  tags: string[];
  createdAt: number;
  updatedAt: number;
}

export interface Models {
  mode: 'offline' | 'llm';
  provider: string;
  current: string;
  models: string[];
  source: 'provider' | 'config' | 'offline';
}

export interface Uploaded {
  path: string;
  size: number;
  mimeType: string;
}

export type PermissionRecord = NonNullable<EventOf<'tool.end'>['permission']>[number];

export interface PermissionAsk {
  id: string;
  sessionId: string;
  turnId: string;
  callId: string;
  tool: string;
  action: string;
  target: string;
  /** For a command line: every sub-command it would run. */
  parts?: EventOf<'permission.asked'>['parts'];
  mustAsk?: string;
}

export type RuleDecision = 'allow' | 'ask' | 'deny';
/** A tool's rule: one decision, or decisions by pattern (first match wins). */
export type ToolRule = RuleDecision | Record<string, RuleDecision>;

/** GET /api/permissions. */
export interface PermissionSettings {
  rules: Record<string, ToolRule>;
  defaults: Record<string, ToolRule>;
  effective: Record<string, ToolRule>;
  remembered: Array<{ tool: string; pattern: string; decision: 'allow' | 'deny'; createdAt: number }>;
}
