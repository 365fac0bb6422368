import type { Db } from './db-type.js';
import { contextMigration } from './migration-context.js';
import { MEMORIES_MIGRATION } from './memories-repo.js';

/**
 * What a tool call's card needs beside its output: a one-line title, JSON metadata, and JSON
 * attachments (each `{ name, mimeType, size }` with `data` in base64 or a workspace `path`).
 * Kept apart so that it can be ordered after the events change's migration when the two meet.
 */
export const PARTS_CARDS_MIGRATION = `
  ALTER TABLE parts ADD COLUMN title TEXT;
  ALTER TABLE parts ADD COLUMN metadata TEXT;
  ALTER TABLE parts ADD COLUMN attachments TEXT;
  `;

/** Decisions the user made "always" about a tool and what it touches, applied from then on. */
export const PERMISSION_DECISIONS_MIGRATION = `
  CREATE TABLE permission_decisions (
    tool TEXT NOT NULL,
    pattern TEXT NOT NULL,
    decision TEXT NOT NULL CHECK (decision IN ('allow', 'deny')),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (tool, pattern)
  );
  `;

/**
 * Each todo keeps the number it was given when added, so a deletion never renumbers the others.
 * Existing items keep the numbers they were last shown with (their place in creation order).
 */
export const TODO_NUMBERS_MIGRATION = `
  ALTER TABLE todos ADD COLUMN number INTEGER;
  UPDATE todos SET number = (SELECT count(*) FROM todos AS earlier WHERE earlier.id <= todos.id);
  CREATE UNIQUE INDEX todos_number ON todos(number);
  `;

/**
 * Workspace snapshots for undo: per changing turn, the manifest before it and the one it left
 * (JSON: path → entry), and which content-addressed blobs the "before" manifest needs, so unreferenced
 * blobs can be found with one query. A pruned snapshot keeps its row (manifests dropped) so undo can
 * say why it cannot go back that far.
 */
export const SNAPSHOTS_MIGRATION = `
  CREATE TABLE snapshots (
    turn_id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    workspace TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    before_manifest TEXT,
    after_manifest TEXT,
    ended_at INTEGER,
    not_covered TEXT NOT NULL DEFAULT '[]',
    bytes INTEGER NOT NULL DEFAULT 0,
    undone_at INTEGER,
    pruned_at INTEGER
  );
  CREATE INDEX snapshots_session ON snapshots(session_id, created_at);
  CREATE TABLE snapshot_blobs (
    hash TEXT PRIMARY KEY,
    size INTEGER NOT NULL,
    created_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE snapshot_refs (
    turn_id TEXT NOT NULL REFERENCES snapshots(turn_id) ON DELETE CASCADE,
    hash TEXT NOT NULL,
    PRIMARY KEY (turn_id, hash)
  ) WITHOUT ROWID;
  CREATE INDEX snapshot_refs_hash ON snapshot_refs(hash);
  `;

/** A migration: SQL, or a function for one that must read the schema it changes. Runs inside a transaction. */
export type Migration = string | ((db: Db) => void);

/** Numbered schema migrations. Append only: a shipped migration is never edited. */
export const MIGRATIONS: readonly Migration[] = [
  /* 1: sessions, messages with typed parts, turns, todos, preferences */ `
  CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE TABLE turns (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    mode TEXT NOT NULL,
    model TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    ended_at INTEGER,
    stop_reason TEXT,
    steps INTEGER NOT NULL DEFAULT 0,
    prompt_tokens INTEGER NOT NULL DEFAULT 0,
    completion_tokens INTEGER NOT NULL DEFAULT 0,
    total_tokens INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX turns_session ON turns(session_id);
  CREATE TABLE messages (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    turn_id TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
    created_at INTEGER NOT NULL
  );
  CREATE INDEX messages_session ON messages(session_id);
  CREATE TABLE parts (
    id TEXT PRIMARY KEY,
    message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    type TEXT NOT NULL CHECK (type IN ('text', 'reasoning', 'tool')),
    text TEXT,
    call_id TEXT,
    tool TEXT,
    input TEXT,
    output TEXT,
    state TEXT CHECK (state IN ('pending', 'running', 'completed', 'error')),
    started_at INTEGER,
    ended_at INTEGER,
    ms REAL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX parts_message ON parts(message_id);
  CREATE TABLE todos (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    content TEXT NOT NULL CHECK (length(trim(content)) > 0),
    due TEXT,
    done INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    done_at INTEGER
  );
  CREATE TABLE preferences (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    updated_at INTEGER NOT NULL
  );
  `,
  /* 2: each message's size in characters, so a context can be chosen without reading what it leaves out */ `
  ALTER TABLE messages ADD COLUMN size INTEGER NOT NULL DEFAULT 0;
  UPDATE messages SET size = coalesce((SELECT sum(coalesce(length(text), 0) + coalesce(length(input), 0) + coalesce(length(output), 0))
    FROM parts WHERE parts.message_id = messages.id), 0);
  `,
  /* 3: one turn at a time per session, across processes */ `
  CREATE TABLE session_locks (
    session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
    owner TEXT NOT NULL,
    pid INTEGER NOT NULL,
    acquired_at INTEGER NOT NULL,
    heartbeat_at INTEGER NOT NULL
  );
  `,
  /* 4: every event of a session, numbered, for clients that reconnect mid-turn */ `
  CREATE TABLE events (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (session_id, seq)
  ) WITHOUT ROWID;
  `,
  /* 5: tool call cards (title, metadata, attachments) */ PARTS_CARDS_MIGRATION,
  /* 6: permission decisions remembered across runs */ PERMISSION_DECISIONS_MIGRATION,
  /* 7: stable todo numbers */ TODO_NUMBERS_MIGRATION,
  /* 8: workspace snapshots for undo */ SNAPSHOTS_MIGRATION,
  /* 9: long-term memories with a trigram index */ MEMORIES_MIGRATION,
  /* 10: summary and attachment parts; session listings by index */ contextMigration,
  /* 11: outside text a turn read outside its tool calls (prompt, tool descriptions), for later turns */ `
  ALTER TABLE turns ADD COLUMN outside TEXT;
  `,
];
