import { UserError } from '../contract/user-error.js';
import { createHash } from 'node:crypto';
import { estimateTokens } from '../llm/tokens.js';
import { deadline } from '../net/deadline.js';
import type { MemoriesRepo, StoredMemory } from '../store/memories-repo.js';
import type { MemoryVectorsRepo } from '../store/memory-vectors-repo.js';
import { createEmbedWorker, type EmbedWorker } from './embed-worker.js';
import type { Embedder } from '../llm/embedder.js';
import { lexicalSearch } from './lexical.js';
import { fuseRanks, nearDuplicate } from './rank.js';
import { indexTerms } from './terms.js';
import type { EmbeddingStatus } from '../contract/memory.js';
import type { MemoryService } from './types.js';
import { MEMORY_KINDS, type Memory, type MemoryHit, type MemoryKind } from '../contract/memory.js';

export const MAX_MEMORY_CHARS = 4000;
export const MAX_TAGS = 16;
export const MAX_TAG_CHARS = 64;
export const MAX_SEARCH_LIMIT = 50;
/**
 * Candidates taken by hamming distance over the bits, per hit wanted, before exact re-ranking: enough
 * for the bench's recall target (bench/memory.mjs), few because sqlite-vec's top-k slows with k (at a
 * million: 10 candidates ~45 ms, 20 ~54, 50 ~87; recall@10 at 20 was 0.83–0.90, at 50 1.0).
 */
export const VECTOR_CANDIDATES_PER_HIT = 4;
export const MIN_VECTOR_CANDIDATES = 40;
/** Below this cosine a memory found only by its vector is not worth showing: it is merely the nearest of unrelated ones. */
const MIN_SIMILARITY = 0.3;
/** A question waits this long for its vector, then is answered from words alone. */
const QUERY_EMBED_TIMEOUT_MS = 2_000;
/** After an embeddings failure, questions skip the endpoint this long rather than each wait for it. */
const SKIP_AFTER_FAILURE_MS = 15_000;
/** Query vectors kept: recall asks with the same conversation text at every step of a turn. */
const QUERY_CACHE_SIZE = 64;
const RECALL_CANDIDATES = 20;
/** What a recalled memory costs beyond its text: the line it sits on, its kind. */
const RECALL_LINE_TOKENS = 8;

/** A memory the caller asked for in a way that cannot be kept: said in plain words. */
export class MemoryError extends UserError<'invalid_memory'> {
  override name = 'MemoryError';
  constructor(message: string, zh: string) {
    super('invalid_memory', message, zh);
  }
}

export interface MemoryDeps {
  repo: MemoriesRepo;
  newId: () => string;
  now?: () => number;
  /** Vectors and their index; with `embedder`, search is hybrid. */
  vectors?: MemoryVectorsRepo;
  embedder?: Embedder;
  /** Why embeddings are off though asked for (a missing package), shown in the status. */
  embedderProblem?: string;
  /**
   * Milliseconds after which memories without a vector for the model (a new model, saves made while the
   * endpoint was down) start being embedded, rather than waiting for the next save. Unset: not at start.
   */
  embedOnStartAfterMs?: number;
  retryAfterMs?: number;
}

/** A session's token in the indexes: short and evenly spread, so its posting list is cheap to intersect. */
export const scopeToken = (sessionId: string): string =>
  `s${createHash('sha1').update(sessionId).digest('hex').slice(0, 12)}`;

const embedText = (m: { content: string; tags: string | string[] }) => {
  const tags = typeof m.tags === 'string' ? (JSON.parse(m.tags) as string[]) : m.tags;
  return tags.length ? `${m.content}\n${tags.join(', ')}` : m.content;
};

function clean(input: { content?: string; kind?: MemoryKind; tags?: string[] }, old?: Memory) {
  const content = (input.content ?? old?.content ?? '').trim();
  if (!content) throw new MemoryError('A memory needs some content.', '记忆需要有内容。');
  if ([...content].length > MAX_MEMORY_CHARS)
    throw new MemoryError(
      `A memory is at most ${MAX_MEMORY_CHARS} characters.`,
      `一条记忆最多 ${MAX_MEMORY_CHARS} 个字符。`,
    );
  const kind = input.kind ?? old?.kind ?? 'fact';
  if (!MEMORY_KINDS.includes(kind))
    throw new MemoryError(
      `kind must be one of ${MEMORY_KINDS.join(', ')}.`,
      `kind 必须是 ${MEMORY_KINDS.join('、')} 之一。`,
    );
  const tags = [...new Set((input.tags ?? old?.tags ?? []).map((t) => t.trim()).filter(Boolean))];
  if (tags.length > MAX_TAGS || tags.some((t) => [...t].length > MAX_TAG_CHARS)) {
    throw new MemoryError(
      `At most ${MAX_TAGS} tags of ${MAX_TAG_CHARS} characters each.`,
      `最多 ${MAX_TAGS} 个标签，每个最多 ${MAX_TAG_CHARS} 个字符。`,
    );
  }
  return { content, kind, tags };
}

const publicHit = ({ seq: _seq, ...m }: StoredMemory, score: number): MemoryHit => ({ ...m, score });

/**
 * Long-term memory: words through two FTS5 indexes (trigram, and words with Chinese pairs), meaning
 * through vectors when an embedder is configured, the two fused by rank. Saving never waits for the
 * embedder: vectors are made in the background, and missing ones again after a failure.
 */
export function createMemoryService(deps: MemoryDeps): MemoryService & { embeddingsIdle(): Promise<void> } {
  const now = deps.now ?? Date.now;
  const { repo, vectors, embedder } = deps;
  const worker: EmbedWorker | undefined =
    vectors && embedder
      ? createEmbedWorker({ vectors, embedder, text: embedText, retryAfterMs: deps.retryAfterMs })
      : undefined;
  const queryCache = new Map<string, Float32Array>();
  let failedAt = -Infinity;
  let startTimer: NodeJS.Timeout | undefined;
  if (worker && deps.embedOnStartAfterMs !== undefined) {
    startTimer = setTimeout(() => worker.kick(), deps.embedOnStartAfterMs);
    startTimer.unref();
  }

  async function queryVector(text: string, signal?: AbortSignal): Promise<Float32Array | undefined> {
    if (!embedder || !worker) return undefined;
    const cached = queryCache.get(text);
    if (cached) return cached;
    if (Date.now() - failedAt < SKIP_AFTER_FAILURE_MS) return undefined;
    const limit = deadline(signal, QUERY_EMBED_TIMEOUT_MS);
    try {
      const [v] = await embedder.embed([text], limit.signal);
      if (!v) return undefined;
      if (queryCache.size >= QUERY_CACHE_SIZE) queryCache.delete(queryCache.keys().next().value!);
      queryCache.set(text, v);
      const hadError = worker.state().error;
      worker.report(undefined, v.length);
      if (hadError) worker.kick();
      return v;
    } catch (err) {
      if (signal?.aborted) throw err;
      failedAt = Date.now();
      worker.report(err instanceof Error ? err.message : String(err));
      return undefined;
    } finally {
      limit.clear();
    }
  }

  async function hybrid(
    sessionId: string | undefined,
    query: string,
    limit: number,
    signal?: AbortSignal,
  ): Promise<MemoryHit[]> {
    const scope = scopeOf(sessionId);
    const lexical = lexicalSearch(repo, query, scope, limit);
    const v = await queryVector(query, signal);
    if (!v || !vectors || !embedder) return lexical.map((h) => publicHit(h, h.score));
    const near = vectors
      .nearest(embedder.model, v, {
        k: limit,
        candidates: Math.max(MIN_VECTOR_CANDIDATES, limit * VECTOR_CANDIDATES_PER_HIT),
        scope,
      })
      .filter((c) => c.similarity >= MIN_SIMILARITY);
    const bySeq = new Map(repo.bySeq(near.map((c) => c.seq)).map((m) => [m.seq, m]));
    const vectorList = near.map((c) => bySeq.get(c.seq)).filter((m): m is StoredMemory => m !== undefined);
    return fuseRanks<StoredMemory>([lexical, vectorList], (m) => m.id)
      .slice(0, limit)
      .map(({ item, score }) => publicHit(item, score));
  }

  const scopeOf = (sessionId: string | undefined) =>
    sessionId === undefined ? undefined : { sessionId, token: scopeToken(sessionId) };
  const bound = (limit: number | undefined, fallback: number) =>
    Math.max(1, Math.min(limit ?? fallback, MAX_SEARCH_LIMIT));

  return {
    async save(input) {
      const { content, kind, tags } = clean(input);
      const at = now();
      const memory: Memory = {
        id: deps.newId(),
        sessionId: input.sessionId,
        kind,
        content,
        tags,
        createdAt: at,
        updatedAt: at,
      };
      repo.insert(memory, { scope: scopeToken(input.sessionId), terms: indexTerms(`${content} ${tags.join(' ')}`) });
      worker?.kick();
      return memory;
    },
    search({ query, sessionId, scope = 'session', limit, signal }) {
      return hybrid(scope === 'all' ? undefined : sessionId, query, bound(limit, 10), signal);
    },
    async recall({ sessionId, text, maxTokens, signal }) {
      const hits: MemoryHit[] = [];
      let used = 0;
      for (const hit of await hybrid(sessionId, text, RECALL_CANDIDATES, signal)) {
        if (hits.some((h) => nearDuplicate(h.content, hit.content))) continue;
        const cost = estimateTokens(hit.content) + RECALL_LINE_TOKENS;
        if (used + cost > maxTokens) continue;
        hits.push(hit);
        used += cost;
      }
      return hits;
    },
    list(input = {}) {
      const limit = Math.max(1, Math.min(input.limit ?? 50, 500));
      const offset = Math.max(0, input.offset ?? 0);
      if (input.query?.trim()) {
        const found = lexicalSearch(repo, input.query, scopeOf(input.sessionId), MAX_SEARCH_LIMIT);
        const memories = found.slice(offset, offset + limit).map(({ seq: _seq, score: _score, ...m }) => m);
        return { memories, total: found.length };
      }
      return repo.list({ sessionId: input.sessionId, limit, offset });
    },
    get: (id) => repo.get(id),
    async update(id, patch) {
      const old = repo.get(id);
      if (!old) return undefined;
      const next = clean(patch, old);
      repo.update(id, { ...next, terms: indexTerms(`${next.content} ${next.tags.join(' ')}`), now: now() });
      // The text changed: its vectors describe the old one.
      if (vectors && (next.content !== old.content || next.tags.join() !== old.tags.join())) {
        vectors.forget(id);
        worker?.kick();
      }
      return repo.get(id);
    },
    remove: (id) => repo.delete(id),
    embeddings(): EmbeddingStatus {
      if (!embedder || !worker)
        return deps.embedderProblem ? { kind: 'none', error: deps.embedderProblem } : { kind: 'none' };
      const s = worker.state();
      return {
        kind: embedder.kind,
        model: embedder.model,
        dimensions: s.dimensions,
        progress: s.progress,
        error: s.error,
      };
    },
    embeddingsIdle: () => worker?.idle() ?? Promise.resolve(),
    close() {
      clearTimeout(startTimer);
      worker?.close();
    },
  };
}
