import { z } from '@hono/zod-openapi';
import { ChatResult } from '../contract/chat-result.js';
import { History } from '../contract/history.js';
import { Session, SessionList, type SessionRecord } from '../contract/session.js';
import { UndoResult } from '../contract/undo.js';
import { jsonResult } from '../sessions/json-result.js';
import { SessionError } from '../sessions/sessions.js';
import { streamTurn, followSession } from './chat-stream.js';
import type { ServerDeps } from './deps.js';
import { endpoint, newSubApp } from './openapi.js';

const SessionId = z.object({ id: z.string().min(1).max(200).describe('A session id, e.g. `ses_…`.') });

export const NewSession = z.object({ title: z.string().max(200).optional() }).openapi('NewSession');
export type NewSession = z.infer<typeof NewSession>;

export const Rename = z.object({ title: z.string().min(1).max(200) }).openapi('Rename');
export type Rename = z.infer<typeof Rename>;

export const ChatRequest = z
  .object({ message: z.string().min(1).describe('What the user says. At most 100,000 characters.') })
  .openapi('ChatRequest');
export type ChatRequest = z.infer<typeof ChatRequest>;

export const AbortResult = z
  .object({ aborted: z.boolean().describe('False when no turn was running.') })
  .openapi('AbortResult');
export type AbortResult = z.infer<typeof AbortResult>;

const FollowQuery = z.object({
  after: z
    .string()
    .regex(/^\d{1,15}$/, 'a whole number')
    .transform(Number)
    .optional()
    .describe('Replay events after this sequence number (as the Last-Event-ID header does).'),
});

const TURN_EVENTS =
  'Events (schemas: the `BusEvent` union in src/bus/events.ts): `turn.start` {turnId, messageId, text}, `step.start` {messageId, step}, ' +
  '`reasoning.delta` and `text.delta` {messageId, partId, delta}, `step.end` {messageId, calls, usage}, `tool.start` {partId, callId, tool, input}, ' +
  '`tool.progress` {partId, callId, message}, `tool.end` {partId, callId, tool, input, ok, output, ms, title, metadata, attachments, permission}, ' +
  '`permission.asked` / `permission.replied`, `llm.retry` / `llm.waiting`, `context.compacted` {messageId, partId, messages, model} / ' +
  '`context.compaction_failed` {reason}, `error` {code, message}, `turn.end` {reply, stopReason}. ' +
  'Each `data:` is the whole event as JSON with `type`, `sessionId` and `seq` (one more than the previous event of the session), which is also the `id:`. ' +
  "Long strings in a tool call's `input` are cut to 10,000 characters in events; GET …/messages has them whole.";

const wantsEvents = (accept: string | undefined) => accept?.includes('text/event-stream') ?? false;

export function sessionRoutes(deps: ServerDeps) {
  const { app, turns } = deps;
  const sessions = app.sessions;
  const api = newSubApp();
  const withStatus = (s: SessionRecord): Session => ({ ...s, status: sessions.status(s.id) });
  const changingTools = () => app.tools.names().filter((name) => app.tools.get(name)?.changesWorkspace);
  const mustExist = (id: string): SessionRecord => {
    const s = sessions.get(id);
    if (!s)
      throw new SessionError(
        'not_found',
        `There is no session "${id}". List them with GET /api/sessions.`,
        `没有会话「${id}」。用 GET /api/sessions 列出会话。`,
      );
    return s;
  };

  endpoint(
    api,
    {
      method: 'get',
      path: '/api/sessions',
      tag: 'sessions',
      summary: 'List sessions',
      responses: { 200: { description: 'The sessions.', schema: SessionList } },
    },
    (c) => c.json({ sessions: sessions.list().map(withStatus) } satisfies SessionList),
  );

  endpoint(
    api,
    {
      method: 'post',
      path: '/api/sessions',
      tag: 'sessions',
      summary: 'Create a session',
      body: NewSession,
      responses: { 201: { description: 'The new session.', schema: Session } },
      errors: [400, 413],
    },
    (c, { body }) => c.json(withStatus(sessions.create(body.title)), 201),
  );

  endpoint(
    api,
    {
      method: 'get',
      path: '/api/sessions/{id}',
      tag: 'sessions',
      summary: 'One session',
      params: SessionId,
      responses: { 200: { description: 'The session.', schema: Session } },
      errors: [404],
    },
    (c, { params }) => c.json(withStatus(mustExist(params.id))),
  );

  endpoint(
    api,
    {
      method: 'patch',
      path: '/api/sessions/{id}',
      tag: 'sessions',
      summary: 'Rename a session',
      params: SessionId,
      body: Rename,
      responses: { 200: { description: 'The renamed session.', schema: Session } },
      errors: [400, 404],
    },
    (c, { params, body }) => c.json(withStatus(sessions.rename(params.id, body.title))),
  );

  endpoint(
    api,
    {
      method: 'delete',
      path: '/api/sessions/{id}',
      tag: 'sessions',
      summary: 'Delete a session and its history',
      description: 'A running turn is stopped first and allowed to settle.',
      params: SessionId,
      responses: { 204: { description: 'Deleted.' } },
      errors: [404],
    },
    async (c, { params }) => {
      await sessions.delete(params.id);
      return c.body(null, 204);
    },
  );

  endpoint(
    api,
    {
      method: 'get',
      path: '/api/sessions/{id}/messages',
      tag: 'sessions',
      summary: 'The history',
      description: 'Every message with its parts: text, and tool calls with input, output, state and duration.',
      params: SessionId,
      responses: { 200: { description: 'The history.', schema: History } },
      errors: [404],
    },
    (c, { params }) => {
      // Read before the history: whatever happens in between is replayed, never missed.
      const resumeAfter = app.events.resumePoint(params.id);
      return c.json({
        messages: sessions.history(params.id),
        undo: sessions.undoStates(params.id),
        changingTools: changingTools(),
        resumeAfter,
      } satisfies History);
    },
  );

  endpoint(
    api,
    {
      method: 'post',
      path: '/api/sessions/{id}/chat',
      tag: 'sessions',
      summary: 'One turn',
      description:
        'With `Accept: text/event-stream` the turn streams as it happens and the stream ends after `turn.end`; otherwise the answer is the CLI `--json` object. ' +
        `${TURN_EVENTS} Leaving (closing the connection) does not stop the turn; POST …/abort does.`,
      params: SessionId,
      body: ChatRequest,
      responses: {
        200: { description: 'The turn: a ChatResult, or the event stream.', schema: ChatResult, events: true },
      },
      errors: [400, 404, 409, 413, 429],
    },
    async (c, { params, body }) => {
      if (wantsEvents(c.req.header('accept'))) return streamTurn(deps, c, params.id, body.message);
      const result = await turns.track(sessions.send(params.id, body.message));
      return c.json(jsonResult(params.id, app.llm.mode, result));
    },
  );

  endpoint(
    api,
    {
      method: 'get',
      path: '/api/sessions/{id}/events',
      tag: 'sessions',
      summary: "Follow a session's events (SSE)",
      description: `Every event of the session's turns as they happen, and its \`session.status\`, while the client stays. ${TURN_EVENTS} With Last-Event-ID (or ?after=), the events missed are replayed from the store first; an error event with code replay_gap says when the oldest of them are no longer kept.`,
      params: SessionId,
      query: FollowQuery,
      responses: { 200: { description: 'The stream.', events: true } },
      errors: [404],
    },
    (c, { params, query }) => {
      // Only plain digits: Number() would also take "1e1" or "0x10".
      const header = c.req.header('last-event-id')?.trim() ?? '';
      const after = query.after ?? (/^\d{1,15}$/.test(header) ? Number(header) : undefined);
      return followSession(deps, c, params.id, after);
    },
  );

  endpoint(
    api,
    {
      method: 'post',
      path: '/api/sessions/{id}/abort',
      tag: 'sessions',
      summary: 'Stop the running turn',
      description:
        'Stops the model request and the running tool; the turn ends with `stopReason` `aborted` and a reply that says what was and was not done.',
      params: SessionId,
      responses: { 200: { description: 'Whether a turn was running.', schema: AbortResult } },
      errors: [404],
    },
    (c, { params }) => {
      mustExist(params.id);
      return c.json({ aborted: sessions.abort(params.id) } satisfies AbortResult);
    },
  );

  endpoint(
    api,
    {
      method: 'post',
      path: '/api/sessions/{id}/undo',
      tag: 'sessions',
      summary: 'Undo the last turn that changed files',
      description:
        "As `zhixing undo`: puts the workspace back as it was before the session's last turn that changed files (by a file tool or the shell) and is not undone yet; " +
        'called again, it goes one turn further back. Files created by the turn are removed, changed ones restored, deleted ones put back; ' +
        "a file changed since the turn is kept as it is and listed in `conflicts`. Also sent to the session's followers as an `undo` event.",
      params: SessionId,
      responses: {
        200: { description: "What was restored, and a sentence in the user's language saying so.", schema: UndoResult },
      },
      errors: [404, 409],
      errorText: {
        409: 'Nothing to undo (code `nothing_to_undo`: no such turn, or its snapshot is gone), or a turn of the session is running (code `busy`).',
      },
    },
    async (c, { params }) => {
      mustExist(params.id);
      const result = await sessions.undo(params.id);
      return c.json({ session: params.id, ...result } satisfies UndoResult);
    },
  );
  return api;
}
