import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Lang } from '../i18n.js';
import type { UndoState } from '../contract/undo.js';
import type { SnapshotInfo, SnapshotsRepo } from '../store/snapshots-repo.js';
import { createBlobFiles, removeBlobFile } from './blobs.js';
import { diffManifests } from './diff.js';
import { scanWorkspace, scanWorkspaceAsync, type Manifest, type NotCovered } from './manifest.js';
import { revertChanges, type RevertOutcome } from './revert.js';
import { undoSentence } from './summary.js';
import { UserError } from '../contract/user-error.js';

const DAY_MS = 86_400_000;
/** A file larger than this is listed as not covered rather than copied. */
export const MAX_SNAPSHOT_FILE_BYTES = 50 * 1024 * 1024;
/** Paths walked per snapshot at most: past it the rest is listed as not covered. */
export const MAX_SNAPSHOT_ENTRIES = 200_000;
/** Blob files no snapshot knows (a crash between writing one and recording it) are removed after this. */
const ORPHAN_GRACE_MS = 3_600_000;
/** Looking for such files lists the whole blob folder: at most this often. */
const SWEEP_EVERY_MS = DAY_MS;
const PRIVATE_FOLDER_MODE = 0o700;

/** How much undo history is kept: changing turns per session, days, and bytes of copies in all. */
export interface UndoLimits {
  maxTurns: number;
  maxDays: number;
  maxBytes: number;
}
export const DEFAULT_UNDO_LIMITS: UndoLimits = { maxTurns: 20, maxDays: 7, maxBytes: 1024 ** 3 };

/** Undoing one turn: what was restored, removed, put back, kept, or could not be, and a sentence saying so. */
export interface UndoResult extends Omit<RevertOutcome, 'notCovered'> {
  turnId: string;
  notCovered: string[];
  message: string;
}

export type UndoErrorCode = 'nothing_to_undo' | 'expired' | 'elsewhere';

/** Why there is nothing undo can do, in English and Chinese. */
export class UndoError extends UserError<UndoErrorCode> {
  override name = 'UndoError';
}

export interface WorkspaceUndo {
  /** Snapshots the workspace before a turn's first change, pausing now and then for other work. */
  before(sessionId: string, turnId: string): Promise<void>;
  /** Records the state the turn left; forgets the snapshot when the turn changed nothing. True when it changed files. */
  after(turnId: string): boolean;
  /** Rolls back the session's last changing turn not yet undone. The caller makes sure no turn of the session runs. */
  undo(sessionId: string, lang: Lang): UndoResult;
  /** Each changing turn of the session and whether it can be undone. */
  states(sessionId: string): Array<{ turnId: string; state: UndoState }>;
  /** Applies the bounds and removes copies nothing needs; `startup` also looks for stray files (at most daily). */
  tidy(startup?: boolean): void;
}

export interface UndoDeps {
  repo: SnapshotsRepo;
  /** Where the copies live: `$ZHIXING_HOME/snapshots`, never inside the workspace. */
  dir: string;
  workspace: string;
  limits?: Partial<UndoLimits>;
  maxFileBytes?: number;
  now?: () => number;
  /** Takes the API key out of text: a path it changes is never stored (see ScanOptions.unstorable). */
  redact?: (text: string) => string;
}

export function createWorkspaceUndo(deps: UndoDeps): WorkspaceUndo {
  const { repo, workspace } = deps;
  const now = deps.now ?? Date.now;
  const limits = { ...DEFAULT_UNDO_LIMITS, ...deps.limits };
  const blobsDir = join(deps.dir, 'blobs');
  const blobs = createBlobFiles(blobsDir);
  // One snapshot never reads more than all snapshots may keep.
  const scanLimits = {
    maxFileBytes: deps.maxFileBytes ?? MAX_SNAPSHOT_FILE_BYTES,
    maxEntries: MAX_SNAPSHOT_ENTRIES,
    maxReadBytes: limits.maxBytes,
    ...(deps.redact && { unstorable: (path: string) => deps.redact!(path) !== path }),
  };
  // The last manifest this process took: its hashes are what the next snapshot reuses.
  let latest: Manifest | undefined;

  const previous = (): Manifest | undefined => {
    if (latest) return latest;
    const stored = repo.latestManifest(workspace);
    return stored ? (JSON.parse(stored) as Manifest) : undefined;
  };

  function takeAfter(turnId: string, before: Manifest): Manifest {
    const scan = scanWorkspace(workspace, { previous: before, ...scanLimits });
    latest = scan.manifest;
    return scan.manifest;
  }

  function prune(r: SnapshotInfo) {
    repo.prune(r.turnId, now());
  }

  function gc() {
    for (const hash of repo.takeUnreferencedBlobs()) blobs.remove(hash);
  }

  function sweep() {
    const marker = join(deps.dir, 'last-sweep');
    try {
      if (statSync(marker).mtimeMs > now() - SWEEP_EVERY_MS) return;
    } catch {
      // Never swept.
    }
    const known = repo.knownBlobs();
    for (const entry of blobs.files(now() - ORPHAN_GRACE_MS)) if (!known.has(entry)) removeBlobFile(blobs, entry);
    mkdirSync(deps.dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    writeFileSync(marker, '');
  }

  return {
    async before(sessionId, turnId) {
      mkdirSync(blobsDir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
      const known = repo.knownBlobs();
      const written: Array<{ hash: string; size: number }> = [];
      const scan = await scanWorkspaceAsync(workspace, {
        previous: previous(),
        ...scanLimits,
        keep: {
          has: (hash) => known.has(hash),
          put(hash, data) {
            blobs.write(hash, data);
            known.add(hash);
            written.push({ hash, size: data.length });
          },
        },
      });
      latest = scan.manifest;
      let bytes = 0;
      for (const size of scan.blobs.values()) bytes += size;
      repo.insertBefore(
        {
          turnId,
          sessionId,
          workspace,
          createdAt: now(),
          before: JSON.stringify(scan.manifest),
          notCovered: JSON.stringify(scan.notCovered),
          bytes,
        },
        written,
        scan.blobs.keys(),
      );
    },

    after(turnId) {
      const row = repo.get(turnId);
      if (!row?.before) return false;
      const before = JSON.parse(row.before) as Manifest;
      const after = takeAfter(turnId, before);
      if (diffManifests(before, after).length === 0) {
        repo.remove(turnId);
        gc();
        return false;
      }
      repo.setAfter(turnId, JSON.stringify(after), now());
      tidy();
      return true;
    },

    undo(sessionId, lang) {
      const row = repo.listForSession(sessionId).find((r) => r.undoneAt === null);
      if (!row) {
        throw new UndoError(
          'nothing_to_undo',
          'Nothing to undo: no turn of this session has changed files (or all of them are undone already).',
          '没有可以撤销的：这个会话里没有改过文件的轮次（或都已撤销）。',
        );
      }
      if (row.prunedAt !== null) {
        throw new UndoError(
          'expired',
          `The last turn that changed files is too old to undo: its snapshot was removed to keep within the limits (undo.maxTurns ${limits.maxTurns}, maxDays ${limits.maxDays}, maxBytes ${limits.maxBytes} in config.json).`,
          `上一个改过文件的轮次已经太久，无法撤销：为了不超出限制（config.json 里的 undo.maxTurns ${limits.maxTurns}、maxDays ${limits.maxDays}、maxBytes ${limits.maxBytes}），它的快照已被清理。`,
        );
      }
      if (row.workspace !== workspace) {
        throw new UndoError(
          'elsewhere',
          `The last turn that changed files worked in ${row.workspace}, not in the workspace now set (${workspace}). Set "workspace" back to undo it.`,
          `上一个改过文件的轮次是在 ${row.workspace} 里改的，不是现在设置的工作区（${workspace}）。把 "workspace" 改回去才能撤销。`,
        );
      }
      const full = repo.get(row.turnId)!;
      const before = JSON.parse(full.before!) as Manifest;
      // A turn that never recorded its end (the process died mid-turn): what it left is what is there now.
      const after = full.after ? (JSON.parse(full.after) as Manifest) : takeAfter(row.turnId, before);
      const outcome = revertChanges(workspace, diffManifests(before, after), (hash) => blobs.read(hash));
      // Folders the snapshot could not walk: what the turn did inside them is unknown, so say so.
      const hidden = (JSON.parse(full.notCovered) as NotCovered[])
        .filter((n) => n.reason === 'too_many_files' || n.reason === 'unreadable')
        .map((n) => n.path);
      const notCovered = [...new Set([...outcome.notCovered, ...hidden])];
      latest = undefined;
      if (outcome.failed.length === 0) {
        repo.markUndone(row.turnId, now());
        // Undone is final: its copies are no longer needed.
        repo.prune(row.turnId, now());
        gc();
      }
      const result = { turnId: row.turnId, ...outcome, notCovered };
      return { ...result, message: undoSentence(result, lang) };
    },

    states(sessionId) {
      let first = true;
      return repo.listForSession(sessionId).map((r) => {
        const state: UndoState =
          r.undoneAt !== null
            ? 'undone'
            : r.prunedAt !== null
              ? 'expired'
              : !r.hasAfter && first
                ? 'running'
                : 'undoable';
        first = false;
        return { turnId: r.turnId, state };
      });
    },

    tidy,
  };

  function tidy(startup = false): void {
    const t = now();
    const live = repo.listLive();
    const perSession = new Map<string, number>();
    const kept: SnapshotInfo[] = [];
    // Newest first, so the count per session keeps the most recent ones.
    for (const r of [...live].reverse()) {
      const n = (perSession.get(r.sessionId) ?? 0) + 1;
      perSession.set(r.sessionId, n);
      const done = r.hasAfter || r.createdAt < t - DAY_MS;
      if (done && (r.undoneAt !== null || n > limits.maxTurns || r.createdAt < t - limits.maxDays * DAY_MS)) prune(r);
      else kept.unshift(r);
    }
    gc();
    // Oldest first until the copies fit; a turn still running keeps its snapshot.
    for (const r of kept) {
      if (repo.blobBytes() <= limits.maxBytes) break;
      if (!r.hasAfter) continue;
      prune(r);
      gc();
    }
    if (startup) sweep();
  }
}
