import type { Db } from './db-type.js';

/**
 * Every column of `parts` as migration 5 left it, in order. The table is rebuilt to widen its
 * `type` CHECK (SQLite cannot alter one), so nothing may be left out on the way.
 */
const PARTS_COLUMNS =
  'id, message_id, type, text, call_id, tool, input, output, state, started_at, ended_at, ms, created_at, title, metadata, attachments';

const NEW_PARTS = `CREATE TABLE parts_new (
    id TEXT PRIMARY KEY,
    message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    type TEXT NOT NULL CHECK (type IN ('text', 'reasoning', 'tool', 'summary', 'attachment')),
    text TEXT,
    call_id TEXT,
    tool TEXT,
    input TEXT,
    output TEXT,
    state TEXT CHECK (state IN ('pending', 'running', 'completed', 'error')),
    started_at INTEGER,
    ended_at INTEGER,
    ms REAL,
    created_at INTEGER NOT NULL,
    title TEXT,
    metadata TEXT,
    attachments TEXT
  )`;

/**
 * Room for `summary` parts (a compaction's view of older messages) and `attachment` parts, and
 * the indexes that let a 50,000-message session cost what a small one does:
 * - `parts` rebuilt with the wider CHECK. Its indexes and triggers, whoever made them (an earlier
 *   migration, or one ordered before this at merge), are read from the schema and made again.
 * - `parts_summary`: a session's latest summary without reading its other parts.
 * - `sessions.user_messages`, kept by triggers: listings show a count without counting.
 * - `sessions_recent`: the most recent session and the list, in order, from an index.
 */
export function contextMigration(db: Db): void {
  const kept = db
    .prepare(
      "SELECT sql FROM sqlite_master WHERE tbl_name = 'parts' AND type IN ('index', 'trigger') AND sql IS NOT NULL",
    )
    .pluck()
    .all() as string[];
  db.exec(`${NEW_PARTS};
    INSERT INTO parts_new (${PARTS_COLUMNS}) SELECT ${PARTS_COLUMNS} FROM parts;
    DROP TABLE parts;
    ALTER TABLE parts_new RENAME TO parts;`);
  for (const sql of kept) db.exec(sql);
  db.exec(`
    CREATE INDEX parts_summary ON parts(message_id) WHERE type = 'summary';
    ALTER TABLE sessions ADD COLUMN user_messages INTEGER NOT NULL DEFAULT 0;
    UPDATE sessions SET user_messages = (SELECT count(*) FROM messages m WHERE m.session_id = sessions.id AND m.role = 'user');
    CREATE TRIGGER messages_count_user AFTER INSERT ON messages WHEN new.role = 'user'
      BEGIN UPDATE sessions SET user_messages = user_messages + 1 WHERE id = new.session_id; END;
    CREATE TRIGGER messages_uncount_user AFTER DELETE ON messages WHEN old.role = 'user'
      BEGIN UPDATE sessions SET user_messages = user_messages - 1 WHERE id = old.session_id; END;
    CREATE INDEX sessions_recent ON sessions(updated_at);
  `);
}
