import { estimateTokens } from '../llm/tokens.js';
import type { MemoriesRepo } from '../store/memories-repo.js';
import { queryTerms } from './terms.js';
import { MEMORY_KINDS, type Memory, type MemoryHit, type MemoryKind, type MemoryService } from './types.js';

export const MAX_MEMORY_CHARS = 4000;
export const MAX_TAGS = 16;
export const MAX_TAG_CHARS = 64;
const TRIGRAM = 3;

/** A memory the caller asked for in a way that cannot be kept: said in plain words. */
export class MemoryError extends Error {}

export interface MemoryDeps {
  repo: MemoriesRepo;
  newId: () => string;
  now?: () => number;
}

function clean(input: { content?: string; kind?: MemoryKind; tags?: string[] }, old?: Memory) {
  const content = (input.content ?? old?.content ?? '').trim();
  if (!content) throw new MemoryError('A memory needs some content.');
  if ([...content].length > MAX_MEMORY_CHARS) throw new MemoryError(`A memory is at most ${MAX_MEMORY_CHARS} characters.`);
  const kind = input.kind ?? old?.kind ?? 'fact';
  if (!MEMORY_KINDS.includes(kind)) throw new MemoryError(`kind must be one of ${MEMORY_KINDS.join(', ')}.`);
  const tags = [...new Set((input.tags ?? old?.tags ?? []).map((t) => t.trim()).filter(Boolean))];
  if (tags.length > MAX_TAGS || tags.some((t) => [...t].length > MAX_TAG_CHARS)) {
    throw new MemoryError(`At most ${MAX_TAGS} tags of ${MAX_TAG_CHARS} characters each.`);
  }
  return { content, kind, tags };
}

/**
 * Lexical long-term memory: terms of three characters and more through the trigram index, shorter
 * ones by substring; a memory ranks by how many of the question's terms it holds.
 */
export function createMemoryService(deps: MemoryDeps): MemoryService {
  const now = deps.now ?? Date.now;
  const { repo } = deps;

  function lexical(query: string, sessionId: string | undefined, limit: number): MemoryHit[] {
    const terms = queryTerms(query);
    if (terms.length === 0) return [];
    const pool = new Map<string, Memory>();
    const long = terms.filter((t) => [...t].length >= TRIGRAM);
    const short = terms.filter((t) => [...t].length < TRIGRAM);
    for (const m of repo.matchTrigram(long, { sessionId, limit: limit * 4 })) pool.set(m.id, m);
    for (const m of repo.matchLike(short, { sessionId, limit: limit * 4 })) pool.set(m.id, m);
    const scored = [...pool.values()].map((m) => {
      const text = `${m.content} ${m.tags.join(' ')}`.toLowerCase();
      const held = terms.filter((t) => text.includes(t)).reduce((n, t) => n + [...t].length, 0);
      return { ...m, score: held };
    });
    return scored.filter((h) => h.score > 0).sort((a, b) => b.score - a.score || b.createdAt - a.createdAt).slice(0, limit);
  }

  return {
    async save(input) {
      const { content, kind, tags } = clean(input);
      const at = now();
      const memory: Memory = { id: deps.newId(), sessionId: input.sessionId, kind, content, tags, createdAt: at, updatedAt: at };
      repo.insert(memory);
      return memory;
    },
    async search({ query, sessionId, scope = 'session', limit = 10 }) {
      return lexical(query, scope === 'all' ? undefined : sessionId, Math.max(1, Math.min(limit, 50)));
    },
    async recall({ sessionId, text, maxTokens }) {
      const hits: MemoryHit[] = [];
      let used = 0;
      for (const hit of lexical(text, sessionId, 20)) {
        if (hits.some((h) => h.content === hit.content)) continue;
        const cost = estimateTokens(hit.content) + 8;
        if (used + cost > maxTokens) break;
        hits.push(hit);
        used += cost;
      }
      return hits;
    },
    list(input = {}) {
      const limit = Math.max(1, Math.min(input.limit ?? 50, 500));
      const offset = Math.max(0, input.offset ?? 0);
      if (input.query?.trim()) {
        const memories = lexical(input.query, input.sessionId, limit + offset).slice(offset);
        return { memories, total: memories.length + offset };
      }
      return repo.list({ sessionId: input.sessionId, limit, offset });
    },
    get: (id) => repo.get(id),
    async update(id, patch) {
      const old = repo.get(id);
      if (!old) return undefined;
      const next = clean(patch, old);
      repo.update(id, { ...next, now: now() });
      return repo.get(id);
    },
    remove: (id) => repo.delete(id),
    embeddings: () => ({ kind: 'none' }),
    close() {},
  };
}
