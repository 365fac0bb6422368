/**
 * Why a turn ended. `done` is the only ending where the model wrote the final reply itself; `limit`
 * means the model sent more than a step may hold (text, reasoning or tool calls); `interrupted`, that the
 * program was shutting down.
 */
export type StopReason = 'done' | 'max_steps' | 'repeated_call' | 'aborted' | 'interrupted' | 'error' | 'limit';

/** The same call with the same arguments this many times in one turn is a loop, not progress. */
export const MAX_IDENTICAL_CALLS = 3;

/** A stable key for "the same call": the tool name and its arguments with keys sorted. */
export function callSignature(tool: string, input: unknown): string {
  return `${tool}:${stableStringify(input)}`;
}

function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/** Counts calls across a turn and says when one has been made `MAX_IDENTICAL_CALLS` times. */
export function createRepeatGuard(limit = MAX_IDENTICAL_CALLS) {
  const seen = new Map<string, number>();
  return {
    /** Records the call; true when this is the `limit`-th identical one and should not run. */
    isRepeat(tool: string, input: unknown): boolean {
      const key = callSignature(tool, input);
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      return n >= limit;
    },
  };
}

export const reachedMaxSteps = (step: number, maxSteps: number): boolean => step >= maxSteps;
