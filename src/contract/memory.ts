/** A long-term memory as the store keeps it and the tools, the HTTP API and the web app show it. */
import { z } from 'zod';

export const MEMORY_KINDS = ['fact', 'preference', 'note'] as const;
export const MemoryKind = z.enum(MEMORY_KINDS);
export type MemoryKind = z.infer<typeof MemoryKind>;

/** `session`: memories saved in the asking session; `all`: every session's, only when the user asks. */
export type MemoryScope = 'session' | 'all';

export const Memory = z
  .object({
    id: z.string(),
    sessionId: z.string().describe('The session it was saved in; deleting that session deletes the memory.'),
    kind: MemoryKind,
    content: z.string(),
    tags: z.array(z.string()),
    createdAt: z.number().describe('Milliseconds since the epoch.'),
    updatedAt: z.number().describe('Milliseconds since the epoch.'),
  })
  .meta({ id: 'Memory' });
export type Memory = z.infer<typeof Memory>;

export interface MemoryHit extends Memory {
  /** Higher is more relevant; comparable only within one answer. */
  score: number;
}

/** Where vectors come from, and whether a (re-)embedding is under way. */
export const EmbeddingStatus = z
  .object({
    kind: z
      .enum(['none', 'remote', 'local'])
      .describe('`none`: lexical search only; otherwise where vectors come from.'),
    model: z.string().optional(),
    dimensions: z.number().int().optional(),
    /** A new model, or memories saved while it was down. */
    progress: z
      .object({ done: z.number().int(), total: z.number().int() })
      .optional()
      .describe('While memories are embedded in the background.'),
    /** The endpoint is down, the key is refused… */
    error: z.string().optional().describe('The last failure, in plain words.'),
  })
  .describe('How memories are searched.');
export type EmbeddingStatus = z.infer<typeof EmbeddingStatus>;
