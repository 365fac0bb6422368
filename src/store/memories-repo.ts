import type { Db } from './db.js';
import type { Memory, MemoryKind } from '../memory/types.js';

/**
 * Long-term memories: one row each, tied to the session that saved it (deleting the session deletes
 * them), with an FTS5 trigram index kept in step by triggers so Chinese of three characters and more
 * is found by substring. Shorter queries, ranking across both and vectors live in `src/memory/`.
 */
export const MEMORIES_MIGRATION = `
  CREATE TABLE memories (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('fact', 'preference', 'note')),
    content TEXT NOT NULL CHECK (length(trim(content)) > 0),
    tags TEXT NOT NULL DEFAULT '[]',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX memories_session ON memories(session_id, created_at);
  CREATE INDEX memories_created ON memories(created_at);
  CREATE VIRTUAL TABLE memories_fts USING fts5(content, tags, content='memories', content_rowid='rowid', tokenize='trigram');
  CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts(rowid, content, tags) VALUES (new.rowid, new.content, new.tags);
  END;
  CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
    INSERT INTO memories_fts(memories_fts, rowid, content, tags) VALUES ('delete', old.rowid, old.content, old.tags);
  END;
  CREATE TRIGGER memories_fts_update AFTER UPDATE OF content, tags ON memories BEGIN
    INSERT INTO memories_fts(memories_fts, rowid, content, tags) VALUES ('delete', old.rowid, old.content, old.tags);
    INSERT INTO memories_fts(rowid, content, tags) VALUES (new.rowid, new.content, new.tags);
  END;
  `;

interface Row {
  id: string;
  sessionId: string;
  kind: MemoryKind;
  content: string;
  tags: string;
  createdAt: number;
  updatedAt: number;
}

const COLUMNS = `m.id, m.session_id AS sessionId, m.kind, m.content, m.tags, m.created_at AS createdAt, m.updated_at AS updatedAt`;

const toMemory = (r: Row): Memory => ({ ...r, tags: JSON.parse(r.tags) as string[] });

/** Doubles the quotes of an FTS5 string, so any text is one phrase and never query syntax. */
export const ftsPhrase = (text: string): string => `"${text.replaceAll('"', '""')}"`;

export interface MemoriesRepo {
  insert(m: Memory): void;
  get(id: string): Memory | undefined;
  update(id: string, patch: { content: string; kind: MemoryKind; tags: string[]; now: number }): boolean;
  delete(id: string): boolean;
  /** Newest first. */
  list(options: { sessionId?: string; limit: number; offset: number }): { memories: Memory[]; total: number };
  /** Substring matches through the trigram index (each term ≥ 3 characters), best first by bm25. */
  matchTrigram(terms: string[], options: { sessionId?: string; limit: number }): Memory[];
  /** Substring matches for terms too short for trigrams, newest first. */
  matchLike(terms: string[], options: { sessionId?: string; limit: number }): Memory[];
}

export function createMemoriesRepo(db: Db): MemoriesRepo {
  const insert = db.prepare(`INSERT INTO memories (id, session_id, kind, content, tags, created_at, updated_at)
    VALUES (@id, @sessionId, @kind, @content, @tags, @createdAt, @updatedAt)`);
  const byId = db.prepare(`SELECT ${COLUMNS} FROM memories m WHERE m.id = ?`);
  const update = db.prepare('UPDATE memories SET content = ?, kind = ?, tags = ?, updated_at = ? WHERE id = ?');
  const del = db.prepare('DELETE FROM memories WHERE id = ?');
  const listAll = db.prepare(`SELECT ${COLUMNS} FROM memories m ORDER BY m.created_at DESC, m.id DESC LIMIT ? OFFSET ?`);
  const listSession = db.prepare(`SELECT ${COLUMNS} FROM memories m WHERE m.session_id = ? ORDER BY m.created_at DESC, m.id DESC LIMIT ? OFFSET ?`);
  const countAll = db.prepare('SELECT count(*) AS n FROM memories');
  const countSession = db.prepare('SELECT count(*) AS n FROM memories WHERE session_id = ?');

  const scoped = (sessionId: string | undefined) => (sessionId === undefined ? '' : 'AND m.session_id = @sessionId');

  return {
    insert: (m) => void insert.run({ ...m, tags: JSON.stringify(m.tags) }),
    get: (id) => {
      const row = byId.get(id) as Row | undefined;
      return row && toMemory(row);
    },
    update: (id, p) => update.run(p.content, p.kind, JSON.stringify(p.tags), p.now, id).changes > 0,
    delete: (id) => del.run(id).changes > 0,
    list({ sessionId, limit, offset }) {
      const rows = (sessionId === undefined ? listAll.all(limit, offset) : listSession.all(sessionId, limit, offset)) as Row[];
      const total = ((sessionId === undefined ? countAll.get() : countSession.get(sessionId)) as { n: number }).n;
      return { memories: rows.map(toMemory), total };
    },
    matchTrigram(terms, { sessionId, limit }) {
      if (terms.length === 0) return [];
      const query = terms.map(ftsPhrase).join(' OR ');
      const rows = db
        .prepare(`SELECT ${COLUMNS} FROM memories_fts f JOIN memories m ON m.rowid = f.rowid
          WHERE memories_fts MATCH @query ${scoped(sessionId)} ORDER BY bm25(memories_fts) LIMIT @limit`)
        .all({ query, sessionId, limit }) as Row[];
      return rows.map(toMemory);
    },
    matchLike(terms, { sessionId, limit }) {
      if (terms.length === 0) return [];
      const escape = (t: string) => `%${t.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const where = terms.map((_, i) => `m.content LIKE @t${i} ESCAPE '\\'`).join(' OR ');
      const params: Record<string, unknown> = { sessionId, limit };
      terms.forEach((t, i) => (params[`t${i}`] = escape(t)));
      const rows = db
        .prepare(`SELECT ${COLUMNS} FROM memories m WHERE (${where}) ${scoped(sessionId)} ORDER BY m.created_at DESC LIMIT @limit`)
        .all(params) as Row[];
      return rows.map(toMemory);
    },
  };
}
