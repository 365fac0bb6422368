import type { Db } from './db-type.js';

/** A turn's workspace snapshot as stored; the manifests are JSON the undo module reads. */
export interface SnapshotRow {
  turnId: string;
  sessionId: string;
  workspace: string;
  createdAt: number;
  /** The workspace before the turn's first change; null once pruned. */
  before: string | null;
  /** The state the turn left; null while it runs (or if it never ended), and once pruned. */
  after: string | null;
  endedAt: number | null;
  /** JSON: what the snapshot could not keep (too large, special files). */
  notCovered: string;
  /** Bytes of the blobs the "before" manifest needs. */
  bytes: number;
  undoneAt: number | null;
  prunedAt: number | null;
}

/** A snapshot without its manifests, for listings and bounds. */
export type SnapshotInfo = Omit<SnapshotRow, 'before' | 'after'> & { hasAfter: boolean };

export interface SnapshotsRepo {
  /** Records the "before" snapshot, the blobs it wrote and the blobs it needs, all in one transaction. */
  insertBefore(
    row: {
      turnId: string;
      sessionId: string;
      workspace: string;
      createdAt: number;
      before: string;
      notCovered: string;
      bytes: number;
    },
    newBlobs: Array<{ hash: string; size: number }>,
    hashes: Iterable<string>,
  ): void;
  setAfter(turnId: string, after: string, endedAt: number): void;
  /** Forgets a snapshot (a turn that changed nothing). */
  remove(turnId: string): void;
  get(turnId: string): SnapshotRow | undefined;
  /** A session's snapshots, newest first. */
  listForSession(sessionId: string): SnapshotInfo[];
  /** Every snapshot still holding its manifests, oldest first. */
  listLive(): SnapshotInfo[];
  /** The newest manifest taken of this workspace (the state a turn left, else before it), to reuse its hashes. */
  latestManifest(workspace: string): string | undefined;
  markUndone(turnId: string, now: number): void;
  /** Drops a snapshot's manifests and blob references; the row stays so undo can say it is gone. */
  prune(turnId: string, now: number): void;
  knownBlobs(): Set<string>;
  /** Blobs no snapshot needs: their rows are deleted here, their files are the caller's to delete. */
  takeUnreferencedBlobs(): string[];
  /** Bytes of every blob still recorded. */
  blobBytes(): number;
}

const INFO = `turn_id AS turnId, session_id AS sessionId, workspace, created_at AS createdAt, ended_at AS endedAt,
  not_covered AS notCovered, bytes, undone_at AS undoneAt, pruned_at AS prunedAt, after_manifest IS NOT NULL AS hasAfter`;

const toInfo = (r: SnapshotInfo & { hasAfter: number | boolean }): SnapshotInfo => ({
  ...r,
  hasAfter: Boolean(r.hasAfter),
});

export function createSnapshotsRepo(db: Db): SnapshotsRepo {
  const insert =
    db.prepare(`INSERT INTO snapshots (turn_id, session_id, workspace, created_at, before_manifest, not_covered, bytes)
    VALUES (@turnId, @sessionId, @workspace, @createdAt, @before, @notCovered, @bytes)`);
  const blob = db.prepare('INSERT OR IGNORE INTO snapshot_blobs (hash, size, created_at) VALUES (?, ?, ?)');
  const ref = db.prepare('INSERT OR IGNORE INTO snapshot_refs (turn_id, hash) VALUES (?, ?)');
  const setAfter = db.prepare('UPDATE snapshots SET after_manifest = ?, ended_at = ? WHERE turn_id = ?');
  const remove = db.prepare('DELETE FROM snapshots WHERE turn_id = ?');
  const get = db.prepare(
    `SELECT ${INFO}, before_manifest AS before, after_manifest AS after FROM snapshots WHERE turn_id = ?`,
  );
  const forSession = db.prepare(
    `SELECT ${INFO} FROM snapshots WHERE session_id = ? ORDER BY created_at DESC, rowid DESC`,
  );
  const live = db.prepare(`SELECT ${INFO} FROM snapshots WHERE pruned_at IS NULL ORDER BY created_at, rowid`);
  const latest = db.prepare(`SELECT coalesce(after_manifest, before_manifest) AS m FROM snapshots
    WHERE workspace = ? AND pruned_at IS NULL ORDER BY coalesce(ended_at, created_at) DESC, rowid DESC LIMIT 1`);
  const undone = db.prepare('UPDATE snapshots SET undone_at = ? WHERE turn_id = ?');
  const prune = db.prepare(
    'UPDATE snapshots SET before_manifest = NULL, after_manifest = NULL, pruned_at = ? WHERE turn_id = ?',
  );
  const unref = db.prepare('DELETE FROM snapshot_refs WHERE turn_id = ?');
  const known = db.prepare('SELECT hash FROM snapshot_blobs').pluck();
  const orphans = db
    .prepare('SELECT hash FROM snapshot_blobs b WHERE NOT EXISTS (SELECT 1 FROM snapshot_refs r WHERE r.hash = b.hash)')
    .pluck();
  const dropBlob = db.prepare('DELETE FROM snapshot_blobs WHERE hash = ?');
  const bytes = db.prepare('SELECT coalesce(sum(size), 0) FROM snapshot_blobs').pluck();
  const tx = <T>(fn: () => T): T => db.transaction(fn)();

  return {
    insertBefore: (row, newBlobs, hashes) =>
      tx(() => {
        for (const b of newBlobs) blob.run(b.hash, b.size, row.createdAt);
        insert.run(row);
        for (const h of hashes) ref.run(row.turnId, h);
      }),
    setAfter: (turnId, after, endedAt) => void setAfter.run(after, endedAt, turnId),
    remove: (turnId) => void remove.run(turnId),
    get: (turnId) => {
      const r = get.get(turnId) as (SnapshotRow & { hasAfter?: unknown }) | undefined;
      if (!r) return undefined;
      delete r.hasAfter;
      return r;
    },
    listForSession: (sessionId) => (forSession.all(sessionId) as SnapshotInfo[]).map(toInfo),
    listLive: () => (live.all() as SnapshotInfo[]).map(toInfo),
    latestManifest: (workspace) => (latest.get(workspace) as { m: string | null } | undefined)?.m ?? undefined,
    markUndone: (turnId, now) => void undone.run(now, turnId),
    prune: (turnId, now) =>
      tx(() => {
        prune.run(now, turnId);
        unref.run(turnId);
      }),
    knownBlobs: () => new Set(known.all() as string[]),
    takeUnreferencedBlobs: () =>
      tx(() => {
        const hashes = orphans.all() as string[];
        for (const h of hashes) dropBlob.run(h);
        return hashes;
      }),
    blobBytes: () => bytes.get() as number,
  };
}
