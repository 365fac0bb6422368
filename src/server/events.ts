import type { ServerResponse } from 'node:http';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Bus, BusEvent } from '../bus/bus.js';
import type { McpServerChanged } from '../bus/events.js';
import type { McpManager, McpServerView } from '../mcp/types.js';
import type { PendingAsk } from '../permission/permission.js';
import type { SseRegistry, SseStream } from './sse.js';
import { eventFrame, formatEvent } from './sse.js';
import { endpoint, newSubApp } from './openapi.js';

/** What goes to every client of GET /api/events: session status changes and permission asks. */
export const isServerWide = (event: BusEvent): boolean =>
  event.type === 'session.status' || event.type === 'session.deleted' || event.type.startsWith('permission.');

export interface EventFeed {
  /** Opens a server-wide event stream on `res`. */
  open(res: ServerResponse): void;
  readonly size: number;
  /** Ends the longest-open server-wide stream, to make room for another stream; false when there is none. */
  dropOldest(): boolean;
  /** Tells every client a server is gone (the manager's changes cover the rest). */
  mcpRemoved(server: McpServerView): void;
  stop(): void;
}

/**
 * One bus subscription for all server-wide streams: each event is formatted once and the same
 * frame written to every client, so a thousand listeners cost a thousand writes, not a thousand
 * JSON encodings.
 */
export function createEventFeed({
  bus,
  sse,
  pending,
  mcp,
  mcpView = (v) => v,
}: {
  bus: Bus;
  sse: SseRegistry;
  pending?: () => PendingAsk[];
  /** MCP servers' changes become `mcp.server` events; they belong to no session, so they do not pass through the bus. */
  mcp?: Pick<McpManager, 'onChange'>;
  /** What of a server's view may be sent (never a secret). */
  mcpView?: (v: McpServerView) => McpServerView;
}): EventFeed {
  const listeners = new Set<SseStream>();
  const send = (frame: string) => {
    for (const stream of listeners) stream.write(frame);
  };
  const off = bus.onAny((event) => {
    if (!isServerWide(event) || listeners.size === 0) return;
    send(eventFrame(event));
  });
  const mcpFrame = (server: McpServerView, removed?: boolean) => {
    const event: McpServerChanged = { type: 'mcp.server', server: mcpView(server), ...(removed ? { removed } : {}) };
    return formatEvent(event.type, JSON.stringify(event), undefined);
  };
  const offMcp = mcp?.onChange((server) => {
    if (listeners.size) send(mcpFrame(server));
  });
  return {
    mcpRemoved(server) {
      if (listeners.size) send(mcpFrame(server, true));
    },
    open(res) {
      const stream = sse.open(res, () => listeners.delete(stream));
      listeners.add(stream);
      // A client that connects (or reloads) while a turn waits for an answer must see the question,
      // or the turn would wait for nobody.
      for (const ask of pending?.() ?? []) stream.write(eventFrame({ type: 'permission.asked', ...ask }));
    },
    get size() {
      return listeners.size;
    },
    dropOldest() {
      // A Set keeps the order streams were added in: the first is the one open longest.
      const oldest = listeners.values().next().value;
      if (!oldest) return false;
      oldest.close();
      return true;
    },
    stop() {
      off();
      offMcp?.();
    },
  };
}

export function eventRoutes(feed: EventFeed) {
  const api = newSubApp();
  endpoint(
    api,
    {
      method: 'get',
      path: '/api/events',
      tag: 'events',
      summary: 'Server-wide events (SSE)',
      description:
        'An event stream that stays open: `session.status` (`{type, sessionId, status: busy|idle|error}`) whenever a session starts or ends a turn, `session.deleted`, ' +
        'and every `permission.*` event, e.g. `permission.asked` with `id`, `sessionId`, `tool`, `target` and, for a command line, `parts` (answer it with POST /api/permissions/{id}); ' +
        'asks still open when a client connects are sent to it first; ' +
        "`mcp.server` (`{type, server, removed?}`, no `sessionId`) whenever an MCP server's state or tools change, it is added, or removed (`removed: true`). " +
        'Each event is `event: <type>` and `data: <the event as JSON>`; a comment line every 15 s keeps the connection alive.',
      responses: { 200: { description: 'The stream.', events: true } },
    },
    (c) => {
      feed.open(c.env.outgoing);
      return RESPONSE_ALREADY_SENT;
    },
  );
  return api;
}
