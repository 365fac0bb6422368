/**
 * Runs `fn` with a signal of its own that follows `signal`: the SDK never takes its listener off a
 * signal it is given, so a long-lived one (a connection's, a turn's) must not be handed to it.
 */
export async function scoped<T>(signal: AbortSignal, fn: (own: AbortSignal) => Promise<T>): Promise<T> {
  const own = new AbortController();
  const forward = () => own.abort(signal.reason);
  if (signal.aborted) forward();
  else signal.addEventListener('abort', forward, { once: true });
  try {
    return await fn(own.signal);
  } finally {
    signal.removeEventListener('abort', forward);
  }
}

/**
 * As `scoped`, and the signal also aborts after `ms`, with `late()` as its reason: a limit on a whole
 * piece of work that nothing the other side sends can move.
 */
export async function bounded<T>(
  signal: AbortSignal,
  ms: number,
  late: () => Error,
  fn: (own: AbortSignal) => Promise<T>,
): Promise<T> {
  const own = new AbortController();
  const forward = () => own.abort(signal.reason);
  if (signal.aborted) forward();
  else signal.addEventListener('abort', forward, { once: true });
  const timer = setTimeout(() => own.abort(late()), ms);
  try {
    return await fn(own.signal);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', forward);
  }
}
