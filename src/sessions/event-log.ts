import type { BusEvent, NewEvent } from '../bus/events.js';
import type { StoredEvent } from '../store/events-repo.js';
import type { Store } from '../store/store.js';

/** A session keeps this many of its latest events for reconnecting clients; the history holds the rest. */
const KEPT_EVENTS = 50_000;
/** The most events one `since` call returns. */
const MAX_REPLAY = 100_000;

export interface EventLog {
  /** Numbers a session's event and queues it for the store (group commit, with the turn's own writes). */
  stamp(event: NewEvent): BusEvent;
  /** The session's events after `seq`, oldest first, at most `limit`: what a client that reconnects has missed. */
  since(sessionId: string, seq: number, limit?: number): BusEvent[];
  /**
   * Where a client that has just read the history should follow from (`?after=`): the latest event,
   * or, while a model step is streaming, the event before it began — that step is not in the history
   * yet, and its text comes only as deltas. Events name message and part ids, so a client can merge.
   */
  resumePoint(sessionId: string): number;
  /** The highest number the session's events have reached so far (0 for none). */
  lastSeq(sessionId: string): number;
  /**
   * Takes up the session's numbering from the store: another process may have added events since.
   * Called at the start of each turn, under the session's lock, when nobody else writes to it.
   */
  sync(sessionId: string): void;
}

/**
 * Per-session event numbers, kept in the store. Numbering is in memory between syncs (a turn has the
 * session to itself, across processes), so an event costs one queued insert and no read.
 */
export function createEventLog(options: { store: Store; now?: () => number }): EventLog {
  const { store } = options;
  const now = options.now ?? Date.now;
  const last = new Map<string, number>();
  // Events of one tick go to the store as one queued write: a step emits several. The write keeps
  // its own batch, so it writes the same events however often the store runs it.
  let pending: StoredEvent[] | undefined;
  const queue = (): StoredEvent[] => {
    const batch: StoredEvent[] = [];
    store.defer(() => {
      if (pending === batch) pending = undefined;
      // One event that cannot be kept (its session deleted meanwhile) does not cost the others theirs;
      // a failing disk fails the write, and the store undoes it whole.
      store.events.appendAll(batch);
    }, ignore);
    return batch;
  };
  const ignore = () => {
    // Losing a replay record is not worth failing a turn: the turn writer reports a failing disk itself.
  };

  return {
    stamp(input) {
      const { sessionId } = input;
      const seq = (last.get(sessionId) ?? (store.flush(), store.events.lastSeq(sessionId))) + 1;
      last.set(sessionId, seq);
      const event = { ...input, seq } as BusEvent;
      // A deleted session keeps nothing, not even the news of its deletion.
      if (event.type === 'session.deleted') return event;
      (pending ??= queue()).push({ sessionId, seq, type: event.type, data: JSON.stringify(event), createdAt: now() });
      return event;
    },
    since(sessionId, seq, limit = MAX_REPLAY) {
      return store.events.since(sessionId, seq, Math.min(limit, MAX_REPLAY)).map((e) => JSON.parse(e.data) as BusEvent);
    },
    resumePoint(sessionId) {
      store.flush();
      const started = store.events.lastOfType(sessionId, 'step.start');
      const ended = store.events.lastOfType(sessionId, 'step.end');
      return started > ended ? started - 1 : store.events.lastSeq(sessionId);
    },
    lastSeq(sessionId) {
      // From the store: another process may have run the session's last turn.
      store.flush();
      return store.events.lastSeq(sessionId);
    },
    sync(sessionId) {
      store.flush();
      const seq = store.events.lastSeq(sessionId);
      last.set(sessionId, seq);
      if (seq > KEPT_EVENTS) store.events.prune(sessionId, seq - KEPT_EVENTS);
    },
  };
}
