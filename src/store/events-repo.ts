import type { Db } from './db-type.js';

/** One event of a session as kept for clients that reconnect: its number, type and the whole event as JSON. */
export interface StoredEvent {
  sessionId: string;
  seq: number;
  type: string;
  data: string;
  createdAt: number;
}

export interface EventsRepo {
  append(e: StoredEvent): void;
  /**
   * Several events at once (a few rows per statement). One that cannot be kept, its session deleted
   * meanwhile, is left out, and the others are kept; a failing disk throws.
   */
  appendAll(events: StoredEvent[]): void;
  /** The session's events after `seq`, oldest first, at most `limit`. */
  since(sessionId: string, seq: number, limit: number): StoredEvent[];
  /** The highest number used in the session so far (0 for none). */
  lastSeq(sessionId: string): number;
  /** The number of the session's latest event of `type` (0 for none). */
  lastOfType(sessionId: string, type: string): number;
  /** Forgets the session's events numbered below `seq`. */
  prune(sessionId: string, belowSeq: number): void;
}

/** Rows per insert statement: one statement of many rows costs about half as much per row as one each. */
const CHUNKS = [16, 4, 1];

const isConstraint = (err: unknown) => String((err as { code?: unknown } | null)?.code).startsWith('SQLITE_CONSTRAINT');

export function createEventsRepo(db: Db): EventsRepo {
  const insert = db.prepare(
    'INSERT INTO events (session_id, seq, type, data, created_at) VALUES (@sessionId, @seq, @type, @data, @createdAt)',
  );
  const insertRows = new Map(
    CHUNKS.map((n) => [
      n,
      db.prepare(
        `INSERT INTO events (session_id, seq, type, data, created_at) VALUES ${Array(n).fill('(?, ?, ?, ?, ?)').join(', ')}`,
      ),
    ]),
  );
  const appendOne = (e: StoredEvent) => {
    try {
      insert.run(e);
    } catch (err) {
      if (!isConstraint(err)) throw err;
    }
  };
  const since = db.prepare(`SELECT session_id AS sessionId, seq, type, data, created_at AS createdAt FROM events
    WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?`);
  const last = db.prepare('SELECT coalesce(max(seq), 0) AS seq FROM events WHERE session_id = ?');
  const prune = db.prepare('DELETE FROM events WHERE session_id = ? AND seq < ?');
  const lastOfType = db.prepare('SELECT coalesce(max(seq), 0) AS seq FROM events WHERE session_id = ? AND type = ?');
  return {
    append: (e) => void insert.run(e),
    appendAll(events) {
      for (let i = 0; i < events.length;) {
        const n = CHUNKS.find((size) => size <= events.length - i)!;
        const values: unknown[] = [];
        for (let k = i; k < i + n; k++) {
          const e = events[k]!;
          values.push(e.sessionId, e.seq, e.type, e.data, e.createdAt);
        }
        try {
          insertRows.get(n)!.run(values);
        } catch (err) {
          if (!isConstraint(err)) throw err;
          // A statement that fails leaves nothing behind: its rows go again one by one.
          for (let k = i; k < i + n; k++) appendOne(events[k]!);
        }
        i += n;
      }
    },
    since: (sessionId, seq, limit) => since.all(sessionId, seq, limit) as StoredEvent[],
    lastSeq: (sessionId) => (last.get(sessionId) as { seq: number }).seq,
    prune: (sessionId, belowSeq) => void prune.run(sessionId, belowSeq),
    lastOfType: (sessionId, type) => (lastOfType.get(sessionId, type) as { seq: number }).seq,
  };
}
