import type { Db } from './db-type.js';

/** Who holds a session's turn: one process at a time, across every process on this home. */
export interface LockRow {
  sessionId: string;
  owner: string;
  pid: number;
  acquiredAt: number;
  heartbeatAt: number;
}

export interface LocksRepo {
  get(sessionId: string): LockRow | undefined;
  /** Takes a free lock; false when someone holds it already. */
  insert(row: LockRow): boolean;
  /** Takes over the lock from `from` (found stale); false when it changed hands meanwhile. */
  replace(from: string, row: LockRow): boolean;
  heartbeat(sessionId: string, owner: string, now: number): void;
  release(sessionId: string, owner: string): void;
  /** Ends the turns a dead holder left unended. Only the lock's holder may call it. */
  endInterrupted(sessionId: string, now: number): number;
}

/**
 * Each statement is atomic on its own (compare-and-swap on the owner), so two processes racing for
 * one lock cannot both win, with no transaction held open across the check.
 */
export function createLocksRepo(db: Db): LocksRepo {
  const get =
    db.prepare(`SELECT session_id AS sessionId, owner, pid, acquired_at AS acquiredAt, heartbeat_at AS heartbeatAt
    FROM session_locks WHERE session_id = ?`);
  const insert = db.prepare(`INSERT INTO session_locks (session_id, owner, pid, acquired_at, heartbeat_at)
    VALUES (@sessionId, @owner, @pid, @acquiredAt, @heartbeatAt) ON CONFLICT (session_id) DO NOTHING`);
  const replace = db.prepare(`UPDATE session_locks SET owner = @owner, pid = @pid, acquired_at = @acquiredAt,
    heartbeat_at = @heartbeatAt WHERE session_id = @sessionId AND owner = @from`);
  const beat = db.prepare('UPDATE session_locks SET heartbeat_at = ? WHERE session_id = ? AND owner = ?');
  const release = db.prepare('DELETE FROM session_locks WHERE session_id = ? AND owner = ?');
  const interrupted = db.prepare(
    "UPDATE turns SET ended_at = ?, stop_reason = 'interrupted' WHERE session_id = ? AND ended_at IS NULL",
  );
  return {
    get: (sessionId) => get.get(sessionId) as LockRow | undefined,
    insert: (row) => insert.run(row).changes === 1,
    replace: (from, row) => replace.run({ ...row, from }).changes === 1,
    heartbeat: (sessionId, owner, now) => void beat.run(now, sessionId, owner),
    release: (sessionId, owner) => void release.run(sessionId, owner),
    endInterrupted: (sessionId, now) => interrupted.run(now, sessionId).changes,
  };
}
