import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { App } from '../app.js';
import type { BusEvent } from '../bus/bus.js';
import { SessionError } from '../sessions/sessions.js';
import type { ServerDeps } from './deps.js';
import { isUnexpected, toApiError } from './errors.js';
import type { ApiContext } from './openapi.js';
import { eventFrame, seqOf, type SseStream } from './sse.js';

/** Events read from the store per page of a replay. */
const REPLAY_PAGE_EVENTS = 500;

/** An event of this session's turns. Status changes go to GET /api/events; they are not part of a turn. */
const isTurnEvent = (event: BusEvent, sessionId: string): boolean =>
  'sessionId' in event && event.sessionId === sessionId && event.type !== 'session.status';

/**
 * One turn streamed as SSE. The response stays a plain JSON error until the turn has really begun,
 * so a refusal (no such session 404, busy 409, too many running 429, bad message 400) keeps its
 * status. After that every event of the turn goes out as it happens, and the stream ends after
 * `turn.end`. A client that leaves does not stop the turn: it runs to its end and is recorded.
 */
export async function streamTurn(
  { app, sse, turns, log }: ServerDeps,
  c: ApiContext,
  sessionId: string,
  message: string,
): Promise<Response> {
  const early: BusEvent[] = [];
  let stream: SseStream | undefined;
  let begun!: () => void;
  const started = new Promise<void>((resolve) => (begun = resolve));
  const off = app.bus.onAny((event) => {
    if (!isTurnEvent(event, sessionId)) return;
    if (!stream) {
      early.push(event);
      begun();
      return;
    }
    stream.write(eventFrame(event));
    if (event.type === 'turn.end') stream.close();
  });
  const result = turns.track(app.sessions.send(sessionId, message));
  try {
    await Promise.race([started, result]);
  } catch (err) {
    off();
    throw err;
  }
  const open = (stream = sse.open(c.env.outgoing, off));
  for (const event of early) open.write(eventFrame(event));
  if (early.some((e) => e.type === 'turn.end')) open.close();
  // The turn failed outside the loop's own error handling (a programmer error): say so, then end.
  result.then(
    () => open.close(),
    (err: unknown) => {
      if (isUnexpected(err))
        log(
          `zhixing: a turn in ${sessionId} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
        );
      const { code, message: text } = toApiError(err);
      open.write(eventFrame({ type: 'error', sessionId, code, message: text }));
      open.close();
    },
  );
  return RESPONSE_ALREADY_SENT;
}

/**
 * Follows a session: every event of its turns (and its status) as they happen, for as long as the
 * client stays. With `after` (from Last-Event-ID), events the client missed are replayed first when
 * the core keeps an event log (`app.events.since`); without one, the stream starts live. Events
 * that arrive during the replay are held and sent after it, each sequence number once.
 */
export async function followSession(
  { app, sse }: ServerDeps,
  c: ApiContext,
  sessionId: string,
  after: number | undefined,
): Promise<Response> {
  if (!app.sessions.get(sessionId))
    throw new SessionError('not_found', `There is no session "${sessionId}".`, `没有会话「${sessionId}」。`);
  // A number from the future (another server's, a typo) would silence every live event: take it as "now".
  if (after !== undefined) after = Math.min(after, app.events.lastSeq(sessionId));
  let lastSeq = after ?? -Infinity;
  let held: BusEvent[] | undefined = [];
  const send = (event: BusEvent) => {
    const seq = seqOf(event);
    if (seq !== undefined) {
      if (seq <= lastSeq) return;
      lastSeq = seq;
    }
    stream.write(eventFrame(event));
  };
  const off = app.bus.onAny((event) => {
    if (!('sessionId' in event) || event.sessionId !== sessionId) return;
    if (held) held.push(event);
    else send(event);
    // Nothing more will come: say so and end, rather than holding the stream open for nothing.
    if (event.type === 'session.deleted') stream.close();
  });
  const stream = sse.open(c.env.outgoing, off);
  try {
    if (after !== undefined) await replay(app, stream, sessionId, after, send);
  } catch {
    // The stream is open: a failed replay can only be said in it. Live events still follow.
    stream.write(
      eventFrame({
        type: 'error',
        sessionId,
        code: 'replay_failed',
        message: 'Could not replay the events you missed; live events follow.',
      }),
    );
  } finally {
    const live = held;
    held = undefined;
    live.forEach(send);
  }
  return RESPONSE_ALREADY_SENT;
}

/**
 * Sends the session's events after `after` from the store, a page at a time, waiting for the client
 * to take each page: however much was missed, neither the server's memory nor its event loop is held.
 */
async function replay(
  app: App,
  stream: SseStream,
  sessionId: string,
  after: number,
  send: (e: BusEvent) => void,
): Promise<void> {
  let from = after;
  for (let first = true; !stream.closed; first = false) {
    const page = app.events.since(sessionId, from, REPLAY_PAGE_EVENTS);
    // Numbers have no holes: a first event past `after + 1` means the older ones are no longer kept.
    if (first && page.length > 0 && page[0]!.seq > after + 1) {
      stream.write(
        eventFrame({
          type: 'error',
          sessionId,
          code: 'replay_gap',
          message: `Events ${after + 1}–${page[0]!.seq - 1} are no longer kept; load the history with GET /api/sessions/${sessionId}/messages.`,
        }),
      );
    }
    for (const event of page) send(event);
    if (page.length < REPLAY_PAGE_EVENTS) return;
    from = page.at(-1)!.seq;
    await stream.drained();
    // Let other requests in between pages.
    await new Promise((resolve) => setImmediate(resolve));
  }
}
