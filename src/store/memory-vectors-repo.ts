import { createRequire } from 'node:module';
import type { Db } from './db-type.js';

/**
 * Memory vectors: the exact float32 values per (memory, model) in a plain table, and per model a
 * sqlite-vec `vec0` index of their binary quantisation (one bit a dimension) for finding candidates
 * by hamming distance, with the session's scope token as a metadata column. The candidates are then
 * re-ranked with the exact vectors: brute force over a million 384-float vectors took 627 ms, over
 * their bits 66. sqlite-vec's top-k costs grow with k (over 100k bit vectors: k=10 3.8 ms, 50 8 ms,
 * 400 149 ms), so the candidate set is kept small. A session small enough is searched exactly
 * instead, over its own vectors: no candidates to miss, and a few milliseconds.
 *
 * sqlite-vec is loaded on first vector use, not when the database opens: it costs ~5 ms, and a
 * one-shot call without embeddings never needs it. So nothing that runs without it (a session's
 * delete) may touch a vec0 table: deletions are recorded in `memory_vectors_gone` by a trigger and
 * applied to the indexes when sqlite-vec is next loaded. Until then a deleted memory's bits may come
 * up as a candidate; it has no exact vector any more, so it never comes back as a hit.
 */

const load = createRequire(import.meta.url);
/** A model name becomes part of no SQL: indexes are named by number. */
const INDEX_PREFIX = 'memory_vec_';
/** A session with at most this many vectors is searched exactly (about 3 ms for 2,000 of 384 dimensions). */
const EXACT_SCAN_MAX = 2_000;

export interface VectorCandidate {
  seq: number;
  /** Cosine similarity with the query, from the exact vectors. */
  similarity: number;
}

export interface MemoryVectorsRepo {
  /** Memories with no vector for `model` yet, oldest first. */
  missing(model: string, limit: number): Array<{ seq: number; content: string; tags: string; scope: string }>;
  countMissing(model: string): number;
  count(model: string): number;
  /** Stores vectors (and their index entries), replacing any for the same memory and model. */
  put(model: string, rows: Array<{ seq: number; scope: string; vector: Float32Array }>): void;
  /**
   * The `k` nearest memories to `query` by cosine: `candidates` by hamming distance over the bits,
   * re-ranked exactly. Within a scope token when given.
   */
  nearest(
    model: string,
    query: Float32Array,
    options: { k: number; candidates: number; scope?: { sessionId: string; token: string } },
  ): VectorCandidate[];
  /** Drops a memory's vectors of every model (its text changed); its index entries are replaced when it is embedded again. */
  forget(memoryId: string): void;
  /** Entries in the model's vec0 index (for tests and status). */
  indexed(model: string): number;
}

const blob = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
/** Copied: a blob's bytes need not sit at an offset a Float32Array may start at. */
const floats = (b: Buffer) => new Float32Array(new Uint8Array(b).buffer);

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

export function createMemoryVectorsRepo(db: Db): MemoryVectorsRepo {
  let loaded = false;
  const tables = new Map<string, { name: string; dims: number }>();

  const missing = db.prepare(`SELECT m.seq, m.content, m.tags, m.scope FROM memories m
    WHERE NOT EXISTS (SELECT 1 FROM memory_vectors v WHERE v.model = ? AND v.seq = m.seq) ORDER BY m.seq LIMIT ?`);
  const countMissing = db
    .prepare(
      `SELECT count(*) FROM memories m
    WHERE NOT EXISTS (SELECT 1 FROM memory_vectors v WHERE v.model = ? AND v.seq = m.seq)`,
    )
    .pluck();
  const count = db.prepare('SELECT count(*) FROM memory_vectors WHERE model = ?').pluck();
  const upsert = db.prepare('INSERT OR REPLACE INTO memory_vectors (seq, model, vector) VALUES (?, ?, ?)');
  const forget = db.prepare('DELETE FROM memory_vectors WHERE seq = (SELECT seq FROM memories WHERE id = ?)');
  const indexOf = db.prepare('SELECT name, dims FROM memory_vector_indexes WHERE model = ?');
  // CROSS JOIN keeps the session's index as the outer loop: the planner otherwise walks every vector of the model.
  const sessionVectors =
    db.prepare(`SELECT v.seq, v.vector FROM memories m CROSS JOIN memory_vectors v ON v.model = ? AND v.seq = m.seq
    WHERE m.session_id = ? LIMIT ?`);
  const exact = db.prepare(
    'SELECT seq, vector FROM memory_vectors WHERE model = ? AND seq IN (SELECT value FROM json_each(?))',
  );

  const anyGone = db.prepare('SELECT EXISTS (SELECT 1 FROM memory_vectors_gone)').pluck();

  /** Loads sqlite-vec once; applies deletions recorded since (by this process or one without sqlite-vec). */
  function ensureLoaded(): void {
    if (!loaded) {
      (load('sqlite-vec') as { load(db: Db): void }).load(db);
      loaded = true;
    }
    if (!anyGone.get()) return;
    const names = db.prepare('SELECT name FROM memory_vector_indexes').pluck().all() as string[];
    db.transaction(() => {
      for (const name of names)
        db.prepare(`DELETE FROM ${name} WHERE rowid IN (SELECT seq FROM memory_vectors_gone)`).run();
      db.prepare('DELETE FROM memory_vectors_gone').run();
    })();
  }

  /** The model's vec0 table, made on first use with the model's dimension. */
  function table(model: string, dims?: number): { name: string; dims: number } | undefined {
    ensureLoaded();
    let t = tables.get(model) ?? (indexOf.get(model) as { name: string; dims: number } | undefined);
    if (!t && dims !== undefined) {
      const n = db.prepare('SELECT coalesce(max(rowid), 0) + 1 FROM memory_vector_indexes').pluck().get() as number;
      t = { name: `${INDEX_PREFIX}${n}`, dims };
      const made = t;
      db.transaction(() => {
        db.exec(`CREATE VIRTUAL TABLE ${made.name} USING vec0(scope text, bits bit[${dims}])`);
        db.prepare('INSERT INTO memory_vector_indexes (model, dims, name) VALUES (?, ?, ?)').run(
          model,
          dims,
          made.name,
        );
      })();
    }
    if (t) tables.set(model, t);
    return t;
  }

  return {
    missing: (model, limit) =>
      missing.all(model, limit) as Array<{ seq: number; content: string; tags: string; scope: string }>,
    countMissing: (model) => countMissing.get(model) as number,
    count: (model) => count.get(model) as number,
    put(model, rows) {
      if (rows.length === 0) return;
      const dims = rows[0]!.vector.length;
      const t = table(model, dims)!;
      if (rows.some((r) => r.vector.length !== t.dims)) {
        throw new Error(
          `The model ${model} gave vectors of ${rows.find((r) => r.vector.length !== t.dims)!.vector.length} dimensions; its index has ${t.dims}.`,
        );
      }
      const drop = db.prepare(`DELETE FROM ${t.name} WHERE rowid = ?`);
      const add = db.prepare(`INSERT INTO ${t.name} (rowid, scope, bits) VALUES (?, ?, vec_quantize_binary(?))`);
      const alive = db.prepare('SELECT 1 FROM memories WHERE seq = ?').pluck();
      db.transaction(() => {
        for (const r of rows) {
          // Deleted while it was being embedded: nothing to index.
          if (!alive.get(r.seq)) continue;
          upsert.run(r.seq, model, blob(r.vector));
          drop.run(BigInt(r.seq));
          add.run(BigInt(r.seq), r.scope, blob(r.vector));
        }
      })();
    },
    nearest(model, query, { k, candidates, scope }) {
      const t = table(model);
      if (!t || query.length !== t.dims) return [];
      const rank = (rows: Array<{ seq: number; vector: Buffer }>) =>
        rows
          .map((r) => ({ seq: r.seq, similarity: cosine(query, floats(r.vector)) }))
          .sort((a, b) => b.similarity - a.similarity)
          .slice(0, k);
      if (scope) {
        const own = sessionVectors.all(model, scope.sessionId, EXACT_SCAN_MAX + 1) as Array<{
          seq: number;
          vector: Buffer;
        }>;
        if (own.length <= EXACT_SCAN_MAX) return rank(own);
      }
      const where = scope ? 'AND scope = ?' : '';
      const knn = db
        .prepare(`SELECT rowid FROM ${t.name} WHERE bits MATCH vec_quantize_binary(?) AND k = ? ${where}`)
        .pluck();
      const args: unknown[] = [blob(query), candidates];
      if (scope) args.push(scope.token);
      const seqs = knn.all(...args) as number[];
      return rank(exact.all(model, JSON.stringify(seqs)) as Array<{ seq: number; vector: Buffer }>);
    },
    forget: (memoryId) => void forget.run(memoryId),
    indexed(model) {
      const t = table(model);
      return t ? (db.prepare(`SELECT count(*) FROM ${t.name}`).pluck().get() as number) : 0;
    },
  };
}
