import type { Db } from './db-type.js';
import type { Usage } from '../contract/usage.js';

export interface TurnRow {
  id: string;
  sessionId: string;
  mode: string;
  model: string;
  startedAt: number;
  endedAt: number | null;
  stopReason: string | null;
  steps: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** One row per turn: when it ran, how it ended, and the tokens it cost. */
export interface TurnsRepo {
  start(t: { id: string; sessionId: string; mode: string; model: string; now: number }): void;
  /** The turn's model steps and usage so far, stored as soon as they are known, so a crash keeps what was spent. */
  setSteps(id: string, steps: number, usage: Usage): void;
  end(id: string, stopReason: string, now: number): void;
  get(id: string): TurnRow | undefined;
  /**
   * Outside text the turn read other than through its tool calls (a project's skills in the prompt, a
   * remote server's tool descriptions, recalled memories): its words may live on in the turn's replies.
   */
  noteOutside(id: string, sources: OutsideSource[]): void;
  /** Every source noted by the session's turns, each once. */
  outsideOf(sessionId: string): OutsideSource[];
}

/** What a turn's trust record keeps of a source (permission/turn-trust.ts UntrustedSource). */
export interface OutsideSource {
  tool: string;
  from?: string;
  describes?: string;
}

export function createTurnsRepo(db: Db): TurnsRepo {
  const start = db.prepare('INSERT INTO turns (id, session_id, mode, model, started_at) VALUES (?, ?, ?, ?, ?)');
  const step = db.prepare(
    'UPDATE turns SET steps = ?, prompt_tokens = ?, completion_tokens = ?, total_tokens = ? WHERE id = ?',
  );
  const end = db.prepare('UPDATE turns SET ended_at = ?, stop_reason = ? WHERE id = ?');
  const noteOutside = db.prepare('UPDATE turns SET outside = ? WHERE id = ?');
  const outsideOf = db.prepare('SELECT outside FROM turns WHERE session_id = ? AND outside IS NOT NULL').pluck();
  const get = db.prepare(`SELECT id, session_id AS sessionId, mode, model, started_at AS startedAt,
    ended_at AS endedAt, stop_reason AS stopReason, steps, prompt_tokens AS promptTokens,
    completion_tokens AS completionTokens, total_tokens AS totalTokens FROM turns WHERE id = ?`);
  return {
    start: (t) => void start.run(t.id, t.sessionId, t.mode, t.model, t.now),
    setSteps: (id, n, u) => void step.run(n, u.promptTokens, u.completionTokens, u.totalTokens, id),
    end: (id, reason, now) => void end.run(now, reason, id),
    get: (id) => get.get(id) as TurnRow | undefined,
    noteOutside: (id, sources) => void noteOutside.run(JSON.stringify(sources), id),
    outsideOf(sessionId) {
      const seen = new Map<string, OutsideSource>();
      for (const text of outsideOf.all(sessionId) as string[]) {
        let list: unknown;
        try {
          list = JSON.parse(text);
        } catch {
          continue;
        }
        if (!Array.isArray(list)) continue;
        for (const s of list as OutsideSource[]) if (s && typeof s.tool === 'string') seen.set(JSON.stringify(s), s);
      }
      return [...seen.values()];
    },
  };
}
