import type { Message, Part, Role, SummaryCoverage, SummaryPart } from '../contract/message.js';
import type { PermissionRecord } from '../contract/permission.js';
import type { AttachmentSummary, ToolCard, ToolState } from '../contract/tool-outcome.js';
import type { Db } from './db-type.js';

/**
 * A call's permission records are kept inside the part's `metadata` JSON under this key, which no
 * tool's metadata uses: the part's row needs no new column, and reading splits them out again.
 */
const PERMISSION_KEY = '~permission';

/** A tool call's attachment as stored: its bytes in base64, or a file in the workspace. */
export type StoredAttachment =
  | { name: string; mimeType: string; size: number; data: string }
  | { name: string; mimeType: string; size: number; path: string };

export type NewPart =
  | { type: 'text' | 'reasoning'; text: string }
  | Omit<SummaryPart, 'id'>
  /** A tool part may be written already finished, with its output, when the call was that quick. */
  | ({
      type: 'tool';
      callId: string;
      tool: string;
      input: unknown;
      state: ToolState;
      output?: string;
      ms?: number;
    } & ToolCard & { attachments?: StoredAttachment[] });

export interface MessagesRepo {
  /** A message with the parts it starts with (none by default): one row each, its size known at once. */
  addMessage(
    m: { id: string; sessionId: string; turnId: string; role: Role; now: number },
    parts?: Array<NewPart & { id: string; now: number }>,
  ): void;
  /** A part added to a message already stored. */
  addPart(p: NewPart & { id: string; messageId: string; now: number }): void;
  /** Moves a tool part along pending → running → completed | error. */
  updateToolPart(
    id: string,
    u: { state: ToolState; output?: string; ms?: number; now: number } & ToolCard & {
        attachments?: StoredAttachment[];
      },
  ): void;
  /** Tool parts come with their attachments summarised, without the bytes: `attachment` fetches one whole. */
  list(sessionId: string): Message[];
  /** The text the user wrote in a session, oldest first (what they named counts as chosen by them). */
  userTexts(sessionId: string): string[];
  /**
   * The tools a session has called, each once, and the names of the project's skills (a cloned folder's,
   * not shipped nor the user's) it loaded: read in one pass over its tool parts.
   */
  toolsCalled(sessionId: string): { tools: string[]; projectSkills: string[] };
  /** One attachment of a tool part, with its bytes; `index` counts from 0 in the listed order. */
  attachment(partId: string, index: number): StoredAttachment | undefined;
  /** True when the part belongs to a message of that session. */
  partInSession(sessionId: string, partId: string): boolean;
  /**
   * The most recent whole exchanges (a user message and all that answered it) whose parts hold at
   * most `maxChars` characters together, the newest exchange always included. Only message sizes
   * are read to choose them, so one huge message costs nothing once it falls outside. Parts longer
   * than `maxPartChars` come cut to that length.
   */
  listRecent(sessionId: string, options: { maxChars: number; maxPartChars: number; after?: string }): Message[];
  /** The session's latest summary part, found by index without reading its messages. */
  latestSummary(sessionId: string): Omit<SummaryPart, 'type'> | undefined;
}

interface PartRow {
  id: string;
  message_id: string;
  type: Part['type'];
  text: string | null;
  call_id: string | null;
  tool: string | null;
  input: string | null;
  output: string | null;
  state: ToolState | null;
  ms: number | null;
  /** Not read for a model's context (`listRecent`). */
  title?: string | null;
  metadata?: string | null;
  /** The summaries, without the bytes. */
  attachments?: string | null;
}

function parseInput(raw: string | null): unknown {
  if (raw === null) return null;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function toPart(r: PartRow): Part {
  if (r.type === 'summary')
    return { id: r.id, type: 'summary', text: r.text ?? '', covers: JSON.parse(r.metadata ?? '{}') as SummaryCoverage };
  if (r.type !== 'tool') return { id: r.id, type: r.type, text: r.text ?? '' };
  return {
    id: r.id,
    type: 'tool',
    callId: r.call_id ?? '',
    tool: r.tool ?? '',
    input: parseInput(r.input),
    output: r.output,
    state: r.state ?? 'error',
    ms: r.ms,
    ...(r.title != null && { title: r.title }),
    ...(r.metadata != null && cardMetadata(JSON.parse(r.metadata) as Record<string, unknown>)),
    ...(r.attachments != null && { attachments: JSON.parse(r.attachments) as AttachmentSummary[] }),
  };
}

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/** The tool's metadata and the permission records, as the one JSON value the `metadata` column keeps. */
function storedMetadata(card: ToolCard): string | null {
  if (!card.permission?.length) return json(card.metadata);
  return JSON.stringify({ ...card.metadata, [PERMISSION_KEY]: card.permission });
}

/** The stored `metadata` column split back into the tool's metadata and the permission records. */
function cardMetadata(stored: Record<string, unknown>): Pick<ToolCard, 'metadata' | 'permission'> {
  const { [PERMISSION_KEY]: permission, ...metadata } = stored;
  return {
    ...(Object.keys(metadata).length > 0 && { metadata }),
    ...(Array.isArray(permission) && { permission: permission as PermissionRecord[] }),
  };
}

/** A part's row in `insertPart`'s order, and the characters it adds to its message's size. */
function partRow(p: NewPart & { id: string; now: number }, messageId: string): { values: unknown[]; size: number } {
  // A summary is sent in the system message, never as history: it adds nothing to its message's size.
  if (p.type === 'summary')
    return {
      values: [
        p.id,
        messageId,
        p.type,
        p.text,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        p.now,
        null,
        JSON.stringify(p.covers),
        null,
      ],
      size: 0,
    };
  if (p.type !== 'tool')
    return {
      values: [
        p.id,
        messageId,
        p.type,
        p.text,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        p.now,
        null,
        null,
        null,
      ],
      size: p.text.length,
    };
  const input = (typeof p.input === 'string' ? p.input : JSON.stringify(p.input)) ?? null;
  const output = p.output ?? null;
  const values = [
    p.id,
    messageId,
    'tool',
    null,
    p.callId,
    p.tool,
    input,
    output,
    p.state,
    p.ms ?? null,
    p.state !== 'pending' ? p.now : null,
    p.state === 'completed' || p.state === 'error' ? p.now : null,
    p.now,
    p.title ?? null,
    storedMetadata(p),
    json(p.attachments),
  ];
  return { values, size: (input?.length ?? 0) + (output?.length ?? 0) };
}

export function createMessagesRepo(db: Db): MessagesRepo {
  const insertMessage = db.prepare(
    'INSERT INTO messages (id, session_id, turn_id, role, created_at, size) VALUES (?, ?, ?, ?, ?, ?)',
  );
  // Positional parameters: binding sixteen named ones costs more than the insert's own work.
  const insertPart = db.prepare(`INSERT INTO parts
    (id, message_id, type, text, call_id, tool, input, output, state, ms, started_at, ended_at, created_at, title, metadata, attachments)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const updateTool = db.prepare(`UPDATE parts SET state = @state,
    output = coalesce(@output, output), ms = coalesce(@ms, ms),
    title = coalesce(@title, title), metadata = coalesce(@metadata, metadata), attachments = coalesce(@attachments, attachments),
    started_at = CASE WHEN @state = 'running' THEN @now ELSE started_at END,
    ended_at = CASE WHEN @state IN ('completed', 'error') THEN @now ELSE ended_at END
    WHERE id = @id`);
  const messages = db.prepare(
    'SELECT id, session_id AS sessionId, turn_id AS turnId, role, created_at AS createdAt FROM messages WHERE session_id = ? ORDER BY rowid',
  );
  // Attachments are summarised here, in SQL, so their bytes never leave the database for a listing.
  const parts =
    db.prepare(`SELECT p.id, p.message_id, p.type, p.text, p.call_id, p.tool, p.input, p.output, p.state, p.ms, p.title, p.metadata,
    CASE WHEN p.attachments IS NULL THEN NULL ELSE (SELECT json_group_array(json_remove(value, '$.data')) FROM json_each(p.attachments)) END AS attachments
    FROM messages m JOIN parts p ON p.message_id = m.id WHERE m.session_id = ? ORDER BY p.rowid`);
  const userTextsOf = db
    .prepare(
      `SELECT p.text FROM messages m JOIN parts p ON p.message_id = m.id
    WHERE m.session_id = ? AND m.role = 'user' AND p.type = 'text' ORDER BY p.rowid`,
    )
    .pluck();
  const toolsOf =
    db.prepare(`SELECT DISTINCT p.tool, CASE WHEN p.tool = 'skill' AND json_valid(p.metadata) AND json_extract(p.metadata, '$.source') = 'project'
    THEN json_extract(p.metadata, '$.name') END AS projectSkill FROM messages m JOIN parts p ON p.message_id = m.id
    WHERE m.session_id = ? AND p.type = 'tool'`);
  const partOf = db
    .prepare('SELECT 1 FROM parts p JOIN messages m ON m.id = p.message_id WHERE p.id = ? AND m.session_id = ?')
    .pluck();
  const attachmentAt = db
    .prepare('SELECT a.value FROM parts p, json_each(p.attachments) a WHERE p.id = ? AND a.key = ?')
    .pluck();
  const grow = db.prepare('UPDATE messages SET size = size + ? WHERE id = ?');
  const growByPart = db.prepare(
    'UPDATE messages SET size = size + ? WHERE id = (SELECT message_id FROM parts WHERE id = ?)',
  );
  // Walks the session's index from its newest end, and stops at a summary's last message: never the whole history.
  const newestFirst = db.prepare(`SELECT id, role, size FROM messages WHERE session_id = @session
    AND rowid > coalesce((SELECT rowid FROM messages WHERE id = @after), 0) ORDER BY rowid DESC`);
  // CROSS JOIN keeps the parts outer: the few summary parts are read, not the session's messages.
  const summaryOf =
    db.prepare(`SELECT p.id, p.text, p.metadata FROM parts p INDEXED BY parts_summary CROSS JOIN messages m ON m.id = p.message_id
    WHERE p.type = 'summary' AND m.session_id = ? ORDER BY p.rowid DESC LIMIT 1`);
  const messagesIn = db.prepare(`SELECT id, session_id AS sessionId, turn_id AS turnId, role, created_at AS createdAt
    FROM messages WHERE id IN (SELECT value FROM json_each(?)) ORDER BY rowid`);
  const partsIn =
    db.prepare(`SELECT id, message_id, type, substr(text, 1, @max) AS text, call_id, tool, substr(input, 1, @max) AS input,
    substr(output, 1, @max) AS output, state, ms, CASE WHEN type = 'summary' THEN metadata END AS metadata FROM parts WHERE message_id IN (SELECT value FROM json_each(@ids)) ORDER BY rowid`);

  return {
    addMessage(m, parts = []) {
      const rows = parts.map((p) => partRow(p, m.id));
      let size = 0;
      for (const row of rows) size += row.size;
      insertMessage.run(m.id, m.sessionId, m.turnId, m.role, m.now, size);
      for (const row of rows) insertPart.run(row.values);
    },
    addPart(p) {
      const row = partRow(p, p.messageId);
      grow.run(row.size, p.messageId);
      insertPart.run(row.values);
    },
    updateToolPart(id, u) {
      updateTool.run({
        id,
        state: u.state,
        output: u.output ?? null,
        ms: u.ms ?? null,
        now: u.now,
        title: u.title ?? null,
        metadata: storedMetadata(u),
        attachments: json(u.attachments),
      });
      if (u.output) growByPart.run(u.output.length, id);
    },
    list(sessionId) {
      const byMessage = new Map<string, Message>();
      for (const m of messages.all(sessionId) as Omit<Message, 'parts'>[]) byMessage.set(m.id, { ...m, parts: [] });
      for (const r of parts.all(sessionId) as PartRow[]) byMessage.get(r.message_id)?.parts.push(toPart(r));
      return [...byMessage.values()];
    },
    userTexts: (sessionId) => userTextsOf.all(sessionId) as string[],
    toolsCalled(sessionId) {
      const rows = toolsOf.all(sessionId) as Array<{ tool: string; projectSkill: unknown }>;
      return {
        tools: [...new Set(rows.map((r) => r.tool))],
        projectSkills: [...new Set(rows.filter((r) => r.projectSkill != null).map((r) => String(r.projectSkill)))],
      };
    },
    attachment(partId, index) {
      const raw = attachmentAt.get(partId, index) as string | undefined;
      return raw === undefined ? undefined : (JSON.parse(raw) as StoredAttachment);
    },
    partInSession: (sessionId, partId) => partOf.get(partId, sessionId) !== undefined,
    latestSummary(sessionId) {
      const row = summaryOf.get(sessionId) as { id: string; text: string; metadata: string } | undefined;
      return row && { id: row.id, text: row.text, covers: JSON.parse(row.metadata) as SummaryCoverage };
    },
    listRecent(sessionId, { maxChars, maxPartChars, after }) {
      const kept: string[] = [];
      let unit: string[] = [];
      let unitChars = 0;
      let used = 0;
      for (const m of newestFirst.iterate({ session: sessionId, after: after ?? null }) as Iterable<{
        id: string;
        role: string;
        size: number;
      }>) {
        unit.push(m.id);
        unitChars += m.size;
        if (m.role !== 'user') continue;
        // A user message opens its exchange: take the exchange whole, or stop.
        if (kept.length > 0 && used + unitChars > maxChars) break;
        kept.push(...unit);
        used += unitChars;
        unit = [];
        unitChars = 0;
      }
      const ids = JSON.stringify(kept);
      const byMessage = new Map<string, Message>();
      for (const m of messagesIn.all(ids) as Omit<Message, 'parts'>[]) byMessage.set(m.id, { ...m, parts: [] });
      for (const r of partsIn.all({ ids, max: maxPartChars }) as PartRow[])
        byMessage.get(r.message_id)?.parts.push(toPart(r));
      return [...byMessage.values()];
    },
  };
}
