import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { processAlive, processStartTime } from '../process-alive.js';
import type { LockRow, LocksRepo } from '../store/locks-repo.js';

/** How often a holder says it is still there. */
const HEARTBEAT_MS = 5_000;
/** A holder on another host (a shared home) silent this long is gone: its pid cannot be checked from here. */
export const STALE_MS = 30_000;
/** How often a waiting process looks again. */
const POLL_MS = 100;

export interface SessionLocks {
  /**
   * Takes the session's turn lock, waiting up to `waitMs` for another process to finish its turn.
   * Resolves to a release function, or to `undefined` when the session stayed busy (`holderPid` says who).
   */
  acquire(
    sessionId: string,
    options: { waitMs: number; signal?: AbortSignal; onWait?: (holderPid: number) => void },
  ): Promise<(() => void) | undefined>;
  /** The pid of the other process running a turn in this session, if any. */
  holder(sessionId: string): number | undefined;
}

/**
 * One turn at a time per session across processes: a lock row per session, held by one process
 * (host, pid, start time and a random id) and kept fresh by a heartbeat. A holder whose process is
 * gone (kill -9) is taken over at once, one on another host once its heartbeat is stale, and the
 * turn it left unended is marked interrupted.
 */
export function createSessionLocks(options: { locks: LocksRepo; now?: () => number; pid?: number }): SessionLocks {
  const { locks } = options;
  const now = options.now ?? Date.now;
  const pid = options.pid ?? process.pid;
  const host = hostname();
  // `host:pid:start:random`: the start time tells this process from a later one given the same pid.
  const owner = `${host}:${pid}:${processStartTime(pid) ?? ''}:${randomBytes(4).toString('hex')}`;

  const live = (row: LockRow): boolean => {
    if (row.owner === owner) return true;
    const [rowHost, , started] = row.owner.split(':');
    // A pid means something only on its own host; elsewhere the heartbeat is all there is.
    if (rowHost !== host) return now() - row.heartbeatAt <= STALE_MS;
    // The same process, found by pid and start time, holds the lock however long it is stopped
    // (Ctrl-Z, a suspended laptop): taking over would interleave two turns when it wakes.
    if (started) return processStartTime(row.pid) === started;
    return processAlive(row.pid) && now() - row.heartbeatAt <= STALE_MS;
  };

  function tryTake(sessionId: string): boolean {
    const at = now();
    const row: LockRow = { sessionId, owner, pid, acquiredAt: at, heartbeatAt: at };
    const held = locks.get(sessionId);
    if (!held) return locks.insert(row);
    if (held.owner === owner || live(held)) return false;
    if (!locks.replace(held.owner, row)) return false;
    locks.endInterrupted(sessionId, at);
    return true;
  }

  return {
    holder(sessionId) {
      const held = locks.get(sessionId);
      return held && held.owner !== owner && live(held) ? held.pid : undefined;
    },
    async acquire(sessionId, { waitMs, signal, onWait }) {
      const deadline = now() + waitMs;
      let told = false;
      while (!tryTake(sessionId)) {
        if (now() >= deadline || signal?.aborted) return undefined;
        if (!told) {
          told = true;
          onWait?.(locks.get(sessionId)?.pid ?? 0);
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      const beat = setInterval(() => {
        try {
          locks.heartbeat(sessionId, owner, now());
        } catch {
          // A full disk must not crash the turn; the lock only goes stale, which is the safe side.
        }
      }, HEARTBEAT_MS);
      beat.unref();
      return () => {
        clearInterval(beat);
        try {
          locks.release(sessionId, owner);
        } catch {
          // Left behind, it goes stale on its own: this process is alive, so after STALE_MS.
        }
      };
    },
  };
}
