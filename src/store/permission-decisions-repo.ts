import type { Db } from './db-type.js';

/** A decision the user made "always": for this tool and what it touches, from then on. */
export interface PermissionDecisionRow {
  tool: string;
  /** What the call touches, as the tool named it; an exact target, or the exact text of one part of a command line. */
  pattern: string;
  decision: 'allow' | 'deny';
  createdAt: number;
}

export interface PermissionDecisionsRepo {
  list(): PermissionDecisionRow[];
  /** Records a decision; a later one for the same tool and pattern replaces it. */
  save(row: PermissionDecisionRow): void;
  /** Forgets the decision for this tool and pattern; false when there was none. */
  remove(tool: string, pattern: string): boolean;
}

export function createPermissionDecisionsRepo(db: Db): PermissionDecisionsRepo {
  const list = db.prepare(
    'SELECT tool, pattern, decision, created_at AS createdAt FROM permission_decisions ORDER BY created_at',
  );
  const save = db.prepare(`INSERT INTO permission_decisions (tool, pattern, decision, created_at) VALUES (?, ?, ?, ?)
    ON CONFLICT(tool, pattern) DO UPDATE SET decision = excluded.decision, created_at = excluded.created_at`);
  const remove = db.prepare('DELETE FROM permission_decisions WHERE tool = ? AND pattern = ?');
  return {
    list: () => list.all() as PermissionDecisionRow[],
    save: (r) => void save.run(r.tool, r.pattern, r.decision, r.createdAt),
    remove: (tool, pattern) => remove.run(tool, pattern).changes > 0,
  };
}
