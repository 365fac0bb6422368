/**
 * A signal that aborts when the caller's does or when a time limit passes. It replaces
 * `AbortSignal.any([signal, AbortSignal.timeout(ms)])`: on Node 20 nothing keeps the timeout signal
 * alive once it is only a source of `any`, so the garbage collector can take it and the limit never
 * fires (a server that drips bytes forever then holds the call until some outer limit). Here a plain
 * timer owns the controller, which keeps both alive until `clear()` — call it in `finally`.
 */
export interface Deadline {
  signal: AbortSignal;
  /** Whether the time limit (and not the caller) ended it. */
  timedOut(): boolean;
  /** Stops the timer and lets go of the caller's signal. */
  clear(): void;
}

export function deadline(outer: AbortSignal | undefined, ms: number): Deadline {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`The operation timed out after ${ms} ms.`, 'TimeoutError'));
  }, ms);
  const onAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) onAbort();
  else outer?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    clear() {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    },
  };
}
