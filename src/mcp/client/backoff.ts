/** How a server that dropped is tried again: waits doubling from `baseMs` up to `maxMs`, `attempts` tries in all. */
export interface RetryPolicy {
  baseMs: number;
  maxMs: number;
  /** Failed connects in a row before the server is left `failed` until the user reconnects it. */
  attempts: number;
}

export const DEFAULT_RETRY: RetryPolicy = { baseMs: 500, maxMs: 30_000, attempts: 5 };

/**
 * The wait before try number `failures + 1`: 0.5 s, 1 s, 2 s … up to the cap, each with up to a
 * quarter more at random so servers that dropped together do not all come back in the same instant.
 */
export function backoffMs(policy: RetryPolicy, failures: number, random: () => number = Math.random): number {
  const plain = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, failures - 1));
  return Math.round(plain * (1 + random() * 0.25));
}
