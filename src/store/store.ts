import { openDb } from './db.js';
import type { Db } from './db-type.js';
import { isStorageFailure, toStoreError, type StoreError } from './store-error.js';
import { keepCopy } from './db-check.js';
import { createIdGenerator } from './ids.js';
import { createEventsRepo, type EventsRepo } from './events-repo.js';
import { createLocksRepo, type LocksRepo } from './locks-repo.js';
import { createMemoriesRepo, type MemoriesRepo } from './memories-repo.js';
import { createMemoryVectorsRepo, type MemoryVectorsRepo } from './memory-vectors-repo.js';
import { createMessagesRepo, type MessagesRepo } from './messages-repo.js';
import { createPermissionDecisionsRepo, type PermissionDecisionsRepo } from './permission-decisions-repo.js';
import { createPrefsRepo, type PrefsRepo } from './prefs-repo.js';
import { createSessionsRepo, type SessionsRepo } from './sessions-repo.js';
import { createSnapshotsRepo, type SnapshotsRepo } from './snapshots-repo.js';
import { createTodosRepo, type TodosRepo } from './todos-repo.js';
import { createTurnsRepo, type TurnsRepo } from './turns-repo.js';

/** Every repository over one SQLite file. The rest of the program never sees SQL. */
export interface Store {
  sessions: SessionsRepo;
  messages: MessagesRepo;
  turns: TurnsRepo;
  todos: TodosRepo;
  prefs: PrefsRepo;
  /** Long-term memories (the memory service ranks and embeds them). */
  memories: MemoriesRepo;
  /** Their vectors per embedding model, and the sqlite-vec indexes over them. */
  memoryVectors: MemoryVectorsRepo;
  locks: LocksRepo;
  events: EventsRepo;
  permissionDecisions: PermissionDecisionsRepo;
  /** Workspace snapshots for undo. */
  snapshots: SnapshotsRepo;
  newId: ReturnType<typeof createIdGenerator>;
  /** Runs `fn` in one transaction now: all of it lands or none. A failing disk throws a StoreError. */
  transaction<T>(fn: () => T): T;
  /**
   * Queues a write to commit with others at the end of this event-loop turn (group commit): a fast
   * agent step costs one commit among many instead of several, and any wait for I/O (a model, a
   * slow tool) commits what came before it. A crash loses at most the writes of the last tick.
   * Each write is atomic on its own: one that fails is rolled back alone and handed to its
   * `onError`, so it never takes another session's writes down with it.
   *
   * A write may run twice: the batch first runs without a savepoint per write, and only when one of
   * its writes fails is it rolled back whole and run again, each write in a savepoint of its own.
   * So a write must do the same thing each time it runs: it reads what it writes from state that it
   * does not change (or changes the same way every time).
   */
  defer(write: () => void, onError: (err: unknown) => void): void;
  /** Commits queued writes now. */
  flush(): void;
  /** `PRAGMA integrity_check` → "ok" when the file is sound. */
  integrityCheck(): string;
  /** Commits queued writes, then closes the file. */
  close(): void;
}

export function createStore(path: string): Store {
  const db: Db = openDb(path);
  /**
   * Set once SQLite finds the file damaged while running: from then on nothing is read from or written
   * to it, so a damaged file is never written into, and every caller hears the same plain sentence.
   */
  let damaged: StoreError | undefined;
  // What the disk says (SQLITE_FULL, EROFS…) becomes a sentence the user can act on.
  const plain = (err: unknown) => {
    if (!isStorageFailure(err)) return err;
    if (damaged) return damaged;
    // Damage found while running: a copy of the file and its WAL as they are now, before anything else.
    const failure = toStoreError(err, path, { damagedCopy: keepCopy });
    if (failure.code === 'damaged') damaged = failure;
    return failure;
  };
  const refuseIfDamaged = () => {
    if (damaged) throw damaged;
  };
  // Prepared once: better-sqlite3's db.transaction(fn) would build a new wrapper on every call.
  const begin = db.prepare('BEGIN');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');
  const savepoint = db.prepare('SAVEPOINT queued_write');
  const release = db.prepare('RELEASE queued_write');
  const rollbackTo = db.prepare('ROLLBACK TO queued_write');
  const queued: Array<{ write: () => void; onError: (err: unknown) => void }> = [];
  let scheduled = false;

  function transaction<T>(fn: () => T): T {
    if (db.inTransaction) return fn();
    refuseIfDamaged();
    try {
      begin.run();
      const result = fn();
      commit.run();
      return result;
    } catch (err) {
      if (db.inTransaction) rollback.run();
      throw plain(err);
    }
  }

  function flush(): void {
    if (queued.length === 0) return;
    const batch = queued.splice(0);
    // Inside a caller's transaction only savepoints can undo one write: take the careful way at once.
    if (db.inTransaction || commitAll(batch)) commitEach(batch);
  }

  /**
   * The common case: every write succeeds, so the batch costs one transaction and no savepoints.
   * Returns true when a write failed: the transaction has been rolled back, nothing of the batch
   * is on disk, and `commitEach` is to run it again.
   */
  function commitAll(batch: typeof queued): boolean {
    try {
      refuseIfDamaged();
      begin.run();
    } catch (err) {
      for (const { onError } of batch) onError(plain(err));
      return false;
    }
    try {
      for (const { write } of batch) write();
    } catch {
      if (db.inTransaction) rollback.run();
      return true;
    }
    try {
      commit.run();
    } catch (err) {
      if (db.inTransaction) rollback.run();
      // The commit itself failed (disk full, a lock held too long): every write of the batch is lost.
      for (const { onError } of batch) onError(plain(err));
    }
    return false;
  }

  /** Each write in a savepoint of its own: one that fails is rolled back alone and told to its `onError`. */
  function commitEach(batch: typeof queued): void {
    try {
      transaction(() => {
        for (const { write, onError } of batch) {
          savepoint.run();
          try {
            write();
            release.run();
          } catch (err) {
            // SQLite rolled the whole transaction back (a full disk, an I/O error): the batch is lost.
            if (!db.inTransaction) throw err;
            rollbackTo.run();
            release.run();
            onError(plain(err));
          }
        }
      });
    } catch (err) {
      // The commit itself failed (disk full, a lock held too long): every write of the batch is lost.
      for (const { onError } of batch) onError(plain(err));
    }
  }

  /** The repository with storage failures thrown as StoreErrors, for reads and for writes made outside a turn's queue. */
  function guarded<R extends object>(repo: R): R {
    const out = {} as R;
    for (const [key, fn] of Object.entries(repo) as Array<[keyof R, (...args: unknown[]) => unknown]>) {
      out[key] = ((...args: unknown[]) => {
        try {
          refuseIfDamaged();
          return fn(...args);
        } catch (err) {
          throw plain(err);
        }
      }) as R[keyof R];
    }
    return out;
  }

  /** The repository with queued writes committed before each of its calls. */
  function flushedFirst<R extends object>(repo: R): R {
    const out = {} as R;
    for (const [key, fn] of Object.entries(repo) as Array<[keyof R, (...args: unknown[]) => unknown]>) {
      out[key] = ((...args: unknown[]) => (flush(), fn(...args))) as R[keyof R];
    }
    return out;
  }

  const messages = createMessagesRepo(db);
  const events = createEventsRepo(db);
  return {
    // Every repository says a storage failure (a damaged file above all) as a StoreError, never as SQLite's bare words.
    sessions: guarded(createSessionsRepo(db)),
    // Reads see every write queued before them.
    messages: guarded({
      ...messages,
      list: (sessionId) => (flush(), messages.list(sessionId)),
      listRecent: (sessionId, options) => (flush(), messages.listRecent(sessionId, options)),
      attachment: (partId, index) => (flush(), messages.attachment(partId, index)),
      partInSession: (sessionId, partId) => (flush(), messages.partInSession(sessionId, partId)),
    }),
    turns: guarded(createTurnsRepo(db)),
    todos: guarded(createTodosRepo(db)),
    prefs: guarded(createPrefsRepo(db)),
    // A memory names its session, which may still sit in the queue.
    memories: guarded(flushedFirst(createMemoriesRepo(db))),
    memoryVectors: guarded(flushedFirst(createMemoryVectorsRepo(db))),
    locks: guarded(createLocksRepo(db)),
    events: guarded({ ...events, since: (sessionId, seq, limit) => (flush(), events.since(sessionId, seq, limit)) }),
    permissionDecisions: guarded(createPermissionDecisionsRepo(db)),
    // Turns queue their rows: a snapshot's reads see them (and its writes fail as StoreErrors).
    snapshots: guarded(flushedFirst(createSnapshotsRepo(db))),
    newId: createIdGenerator(),
    transaction,
    defer(write, onError) {
      queued.push({ write, onError });
      if (scheduled) return;
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        flush();
      });
    },
    flush,
    integrityCheck: () => db.pragma('integrity_check', { simple: true }) as string,
    close() {
      try {
        flush();
      } finally {
        // Closing checkpoints the WAL into the main file, and so does better-sqlite3's own clean-up when
        // Node ends of itself: a damaged file is left as it is, WAL and all, and the process ends through
        // process.exit (which runs no such clean-up) once it has nothing left to do.
        if (!damaged) db.close();
        else process.once('beforeExit', () => process.exit(process.exitCode ?? 1));
      }
    },
  };
}
