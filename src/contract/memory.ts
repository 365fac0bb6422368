/** A long-term memory as the store keeps it and the tools, the HTTP API and the web app show it. */

export const MEMORY_KINDS = ['fact', 'preference', 'note'] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];

/** `session`: memories saved in the asking session; `all`: every session's, only when the user asks. */
export type MemoryScope = 'session' | 'all';

export interface Memory {
  id: string;
  /** The session it was saved in; deleting that session deletes the memory. */
  sessionId: string;
  kind: MemoryKind;
  content: string;
  tags: string[];
  createdAt: number;
  updatedAt: number;
}

export interface MemoryHit extends Memory {
  /** Higher is more relevant; comparable only within one answer. */
  score: number;
}
