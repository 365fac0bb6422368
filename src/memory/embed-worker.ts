import type { MemoryVectorsRepo } from '../store/memory-vectors-repo.js';
import type { Embedder } from '../llm/embedder.js';

/** Texts per request: fewer requests than one each, small enough for any provider's batch limit. */
const BATCH_SIZE = 32;
/** After a failure, the next try at the memories still without a vector. */
const RETRY_AFTER_MS = 30_000;

export interface EmbedWorkerState {
  progress?: { done: number; total: number };
  error?: string;
  dimensions?: number;
}

export interface EmbedWorker {
  /** Embeds every memory without a vector for the model, in the background; a call while it runs is folded into that run. */
  kick(): void;
  state(): EmbedWorkerState;
  /** Records the outcome of a request made elsewhere (a query), so the status says what is true now. */
  report(error: string | undefined, dimensions?: number): void;
  /** Resolves when no run is under way (tests, the bench). */
  idle(): Promise<void>;
  close(): void;
}

export interface EmbedWorkerDeps {
  vectors: MemoryVectorsRepo;
  embedder: Embedder;
  /** The text a memory is embedded as. */
  text: (row: { content: string; tags: string }) => string;
  retryAfterMs?: number;
}

export function createEmbedWorker(deps: EmbedWorkerDeps): EmbedWorker {
  const { vectors, embedder } = deps;
  const model = embedder.model;
  const state: EmbedWorkerState = {};
  const controller = new AbortController();
  let running: Promise<void> | undefined;
  let again = false;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;

  async function pass(): Promise<void> {
    let done = 0;
    let total = vectors.countMissing(model);
    if (total === 0) return;
    state.progress = { done, total };
    for (;;) {
      const rows = vectors.missing(model, BATCH_SIZE);
      if (rows.length === 0 || closed) break;
      const vecs = await embedder.embed(rows.map(deps.text), controller.signal);
      if (closed) break;
      vectors.put(
        model,
        rows.map((r, i) => ({ seq: r.seq, scope: r.scope, vector: vecs[i]! })),
      );
      state.dimensions = vecs[0]?.length ?? state.dimensions;
      state.error = undefined;
      done += rows.length;
      // Memories saved meanwhile join this pass.
      total = Math.max(total, done);
      state.progress = { done, total };
    }
  }

  async function run(): Promise<void> {
    do {
      again = false;
      try {
        await pass();
        state.progress = undefined;
      } catch (err) {
        if (closed) return;
        state.error = err instanceof Error ? err.message : String(err);
        clearTimeout(retry);
        retry = setTimeout(kick, deps.retryAfterMs ?? RETRY_AFTER_MS);
        retry.unref();
        return;
      }
    } while (again && !closed);
  }

  function kick(): void {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = run().finally(() => (running = undefined));
  }

  return {
    kick,
    state: () => ({ ...state, ...(state.progress ? { progress: { ...state.progress } } : {}) }),
    report(error, dimensions) {
      state.error = error;
      if (dimensions) state.dimensions = dimensions;
    },
    async idle() {
      while (running) await running;
    },
    close() {
      closed = true;
      clearTimeout(retry);
      controller.abort();
    },
  };
}
