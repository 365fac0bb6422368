/**
 * Long-term memory as the rest of the program sees it: the tools, the context builder, the REPL,
 * the HTTP API and the web app all go through this interface, never through SQL.
 */

import type { EmbeddingStatus, Memory, MemoryHit, MemoryKind, MemoryScope } from '../contract/memory.js';

export interface MemoryService {
  save(input: { sessionId: string; content: string; kind?: MemoryKind; tags?: string[] }): Promise<Memory>;
  /** Ranked hits for a question or keywords; Chinese of any length, two characters included. */
  search(input: {
    query: string;
    sessionId: string;
    scope?: MemoryScope;
    limit?: number;
    signal?: AbortSignal;
  }): Promise<MemoryHit[]>;
  /**
   * The memories worth putting in front of the model for this conversation: several, deduplicated,
   * whose text fits in `maxTokens`. Scoped to the session.
   */
  recall(input: { sessionId: string; text: string; maxTokens: number; signal?: AbortSignal }): Promise<MemoryHit[]>;
  /** Newest first; a session's only when `sessionId` is given; filtered by `query` when given. */
  list(input?: { sessionId?: string; query?: string; limit?: number; offset?: number }): {
    memories: Memory[];
    total: number;
  };
  get(id: string): Memory | undefined;
  update(id: string, patch: { content?: string; kind?: MemoryKind; tags?: string[] }): Promise<Memory | undefined>;
  remove(id: string): boolean;
  embeddings(): EmbeddingStatus;
  /** Stops background embedding. */
  close(): void;
}

/** The user's standing instructions (「用中文回复」, "keep answers short"), in every system prompt. */
export interface PreferencesService {
  list(): string[];
  /** Replaces the whole list; returns it as stored (trimmed, empty lines and duplicates dropped). */
  set(instructions: string[]): string[];
}
