import type { Db } from './db-type.js';
import type { Memory, MemoryKind } from '../contract/memory.js';

/**
 * Long-term memories: one row each, tied to the session that saved it (deleting the session deletes
 * them). Two FTS5 indexes are kept in step by triggers: a trigram index over the text (substrings of
 * three characters and more, any language), and a word index over `terms` (English stemmed by Porter: peanuts → peanut), a column the memory service
 * fills with the text's words and its Chinese characters and character pairs, so a two-character
 * word (过敏) is one index lookup rather than a scan. Both carry `scope`, a short token per session,
 * so a session's search intersects its posting list inside the index instead of filtering afterwards.
 * `seq` never repeats (AUTOINCREMENT): vector indexes key on it and may hold a deleted one's entry
 * until they are next opened (see memory-vectors-repo.ts).
 */
export const MEMORIES_MIGRATION = `
  CREATE TABLE memories (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('fact', 'preference', 'note')),
    content TEXT NOT NULL CHECK (length(trim(content)) > 0),
    tags TEXT NOT NULL DEFAULT '[]',
    scope TEXT NOT NULL,
    terms TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX memories_session ON memories(session_id, created_at);
  CREATE INDEX memories_created ON memories(created_at);
  CREATE VIRTUAL TABLE memories_fts USING fts5(scope, content, tags, content='memories', content_rowid='seq', tokenize='trigram');
  CREATE VIRTUAL TABLE memories_terms USING fts5(scope, terms, content='memories', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
  CREATE TRIGGER memories_index_insert AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts(rowid, scope, content, tags) VALUES (new.seq, new.scope, new.content, new.tags);
    INSERT INTO memories_terms(rowid, scope, terms) VALUES (new.seq, new.scope, new.terms);
  END;
  CREATE TRIGGER memories_index_delete AFTER DELETE ON memories BEGIN
    INSERT INTO memories_fts(memories_fts, rowid, scope, content, tags) VALUES ('delete', old.seq, old.scope, old.content, old.tags);
    INSERT INTO memories_terms(memories_terms, rowid, scope, terms) VALUES ('delete', old.seq, old.scope, old.terms);
  END;
  CREATE TRIGGER memories_index_update AFTER UPDATE OF content, tags, terms ON memories BEGIN
    INSERT INTO memories_fts(memories_fts, rowid, scope, content, tags) VALUES ('delete', old.seq, old.scope, old.content, old.tags);
    INSERT INTO memories_fts(rowid, scope, content, tags) VALUES (new.seq, new.scope, new.content, new.tags);
    INSERT INTO memories_terms(memories_terms, rowid, scope, terms) VALUES ('delete', old.seq, old.scope, old.terms);
    INSERT INTO memories_terms(rowid, scope, terms) VALUES (new.seq, new.scope, new.terms);
  END;
  -- Vectors per (memory, model), as float32 blobs: the exact values re-ranking reads.
  CREATE TABLE memory_vectors (
    seq INTEGER NOT NULL REFERENCES memories(seq) ON DELETE CASCADE,
    model TEXT NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (model, seq)
  );
  CREATE INDEX memory_vectors_seq ON memory_vectors(seq);
  -- One sqlite-vec index per embedding model, made when the model is first used.
  CREATE TABLE memory_vector_indexes (
    model TEXT PRIMARY KEY,
    dims INTEGER NOT NULL,
    name TEXT NOT NULL UNIQUE
  );
  -- Deleted memories the vector indexes may still list; cleared when sqlite-vec is next loaded.
  CREATE TABLE memory_vectors_gone (seq INTEGER PRIMARY KEY);
  CREATE TRIGGER memories_vectors_gone AFTER DELETE ON memories
    WHEN EXISTS (SELECT 1 FROM memory_vector_indexes) BEGIN
    INSERT OR IGNORE INTO memory_vectors_gone(seq) VALUES (old.seq);
  END;
  `;

interface Row {
  seq: number;
  id: string;
  sessionId: string;
  kind: MemoryKind;
  content: string;
  tags: string;
  createdAt: number;
  updatedAt: number;
}

/** A memory with its row number, which the indexes key on. */
export interface StoredMemory extends Memory {
  seq: number;
}

/** What the memory service derives from a memory for the indexes. */
export interface MemoryIndexing {
  /** The session's token in the indexes. */
  scope: string;
  /** Words, Chinese characters and pairs, space-separated. */
  terms: string;
}

/** One lexical lookup: any of the terms (or all of them), newest first, within a scope when given. */
export interface LexicalQuery {
  /** Whole tokens of the word index. */
  tokens: string[];
  /** Substrings of three characters and more, through the trigram index. */
  substrings: string[];
  scope?: string;
  /** Every term must match (a precise first pass) rather than any. */
  all: boolean;
  limit: number;
  /** Found this many through whole words, substrings are not looked for. */
  enough: number;
}

const COLUMNS = `m.seq, m.id, m.session_id AS sessionId, m.kind, m.content, m.tags, m.created_at AS createdAt, m.updated_at AS updatedAt`;

const toMemory = (r: Row): StoredMemory => ({ ...r, tags: JSON.parse(r.tags) as string[] });
const publicMemory = ({ seq: _seq, ...m }: StoredMemory): Memory => m;

/** Doubles the quotes of an FTS5 string, so any text is one phrase and never query syntax. */
export const ftsPhrase = (text: string): string => `"${text.replaceAll('"', '""')}"`;

/** An FTS5 expression: the terms joined by OR (or AND), inside the scope's posting list when given. */
function expression(phrases: string[], scope: string | undefined, all: boolean): string | undefined {
  if (phrases.length === 0) return undefined;
  const body = `(${phrases.join(all ? ' AND ' : ' OR ')})`;
  return scope === undefined ? body : `scope : ${ftsPhrase(scope)} AND ${body}`;
}

export interface MemoriesRepo {
  insert(m: Memory, indexing: MemoryIndexing): void;
  get(id: string): Memory | undefined;
  /** A session's memories, newest first, at most `max`. */
  inSession(sessionId: string, max: number): StoredMemory[];
  /** The memories of these row numbers, in no particular order. */
  bySeq(seqs: number[]): StoredMemory[];
  update(id: string, patch: { content: string; kind: MemoryKind; tags: string[]; terms: string; now: number }): boolean;
  delete(id: string): boolean;
  /** Newest first. */
  list(options: { sessionId?: string; limit: number; offset: number }): { memories: Memory[]; total: number };
  /**
   * Row numbers matching a lexical query, newest first. Newest rather than best-ranked: ranking every
   * match of a common word costs a pass over all of them (half a second at a million), while walking a
   * posting list backwards stops after `limit`. The service ranks the candidates itself.
   */
  matchLexical(q: LexicalQuery): number[];
}

export function createMemoriesRepo(db: Db): MemoriesRepo {
  const insert =
    db.prepare(`INSERT INTO memories (id, session_id, kind, content, tags, scope, terms, created_at, updated_at)
    VALUES (@id, @sessionId, @kind, @content, @tags, @scope, @terms, @createdAt, @updatedAt)`);
  const byId = db.prepare(`SELECT ${COLUMNS} FROM memories m WHERE m.id = ?`);
  const inSession = db.prepare(
    `SELECT ${COLUMNS} FROM memories m WHERE m.session_id = ? ORDER BY m.created_at DESC LIMIT ?`,
  );
  const bySeq = db.prepare(`SELECT ${COLUMNS} FROM memories m WHERE m.seq IN (SELECT value FROM json_each(?))`);
  const update = db.prepare(
    'UPDATE memories SET content = ?, kind = ?, tags = ?, terms = ?, updated_at = ? WHERE id = ?',
  );
  const del = db.prepare('DELETE FROM memories WHERE id = ?');
  const listAll = db.prepare(
    `SELECT ${COLUMNS} FROM memories m ORDER BY m.created_at DESC, m.seq DESC LIMIT ? OFFSET ?`,
  );
  const listSession = db.prepare(
    `SELECT ${COLUMNS} FROM memories m WHERE m.session_id = ? ORDER BY m.created_at DESC, m.seq DESC LIMIT ? OFFSET ?`,
  );
  const countAll = db.prepare('SELECT count(*) AS n FROM memories');
  const countSession = db.prepare('SELECT count(*) AS n FROM memories WHERE session_id = ?');
  const matchTerms = db
    .prepare('SELECT rowid AS seq FROM memories_terms WHERE memories_terms MATCH ? ORDER BY rowid DESC LIMIT ?')
    .pluck();
  const matchTrigram = db
    .prepare('SELECT rowid AS seq FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rowid DESC LIMIT ?')
    .pluck();

  return {
    insert: (m, ix) => void insert.run({ ...m, tags: JSON.stringify(m.tags), ...ix }),
    get: (id) => {
      const row = byId.get(id) as Row | undefined;
      return row && publicMemory(toMemory(row));
    },
    inSession: (sessionId, max) => (inSession.all(sessionId, max) as Row[]).map(toMemory),
    bySeq: (seqs) => (seqs.length === 0 ? [] : (bySeq.all(JSON.stringify(seqs)) as Row[]).map(toMemory)),
    update: (id, p) => update.run(p.content, p.kind, JSON.stringify(p.tags), p.terms, p.now, id).changes > 0,
    delete: (id) => del.run(id).changes > 0,
    list({ sessionId, limit, offset }) {
      const rows = (
        sessionId === undefined ? listAll.all(limit, offset) : listSession.all(sessionId, limit, offset)
      ) as Row[];
      const total = ((sessionId === undefined ? countAll.get() : countSession.get(sessionId)) as { n: number }).n;
      return { memories: rows.map((r) => publicMemory(toMemory(r))), total };
    },
    matchLexical(q) {
      const seqs = new Set<number>();
      const termsQuery = expression(q.tokens.map(ftsPhrase), q.scope, q.all);
      if (termsQuery) for (const s of matchTerms.all(termsQuery, q.limit) as number[]) seqs.add(s);
      // Substrings inside words (a name's part, "ergic" in allergic) only when whole words found too few:
      // a trigram query over common words costs more than the word index's.
      if (seqs.size >= q.enough) return [...seqs];
      const trigramQuery = expression(q.substrings.map(ftsPhrase), q.scope, q.all);
      if (trigramQuery) for (const s of matchTrigram.all(trigramQuery, q.limit) as number[]) seqs.add(s);
      return [...seqs];
    },
  };
}
