/**
 * A `fetch` for one logical model request, handed to the SDK. The SDK keeps doing the
 * retrying; this only watches it: tells `onRetry` before each retry, stops retries that
 * make no sense (a Retry-After longer than we will wait, an exhausted quota), bounds the
 * wait for response headers (telling `onWaiting` while it lasts), reports every body byte
 * so a stream that goes silent can be timed out, and drops the SSE blocks that carry no
 * data, which the SDK would fail on, failing a stream that floods (see sse-filter.ts).
 */
import { httpFetch } from './http-fetch.js';
import { MAX_RETRY_WAIT_MS, retryAfterMs } from './llm-error.js';
import { sseFilterStream } from './sse-filter.js';

/** What `onRetry` is told. Never carries the key or a request body. */
export interface RetryInfo {
  /** 1 for the first retry. */
  attempt: number;
  maxRetries: number;
  reason: 'rate_limit' | 'server' | 'network' | 'timeout';
  status?: number;
  /** The wait the server asked for, when it said (`Retry-After`); else the SDK's backoff applies. */
  delayMs?: number;
}

/** What `onWaiting` is told while no response headers have come. */
export interface WaitingInfo {
  /** Since this try was sent. */
  elapsedMs: number;
}

export interface AttemptFetchHooks {
  maxRetries: number;
  isAborted(): boolean;
  onRetry?: (info: RetryInfo) => void;
  onBytes(): void;
  /** The longest wait for response headers; then `onHeadersTimeout`, which should stop the whole attempt. */
  headersTimeoutMs: number;
  onHeadersTimeout(): void;
  /** Told after `waitingNotice.afterMs`, then every `waitingNotice.everyMs`, while no headers have come. */
  onWaiting?: (info: WaitingInfo) => void;
  waitingNotice: { afterMs: number; everyMs: number };
}

export function createAttemptFetch(hooks: AttemptFetchHooks) {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const retryCount = Number(new Headers(init?.headers).get('x-stainless-retry-count') ?? '0') || 0;
    const willRetry = retryCount < hooks.maxRetries;
    const announce = (info: Omit<RetryInfo, 'attempt' | 'maxRetries'>) => {
      if (!willRetry || hooks.isAborted() || !hooks.onRetry) return;
      try {
        hooks.onRetry({ attempt: retryCount + 1, maxRetries: hooks.maxRetries, ...info });
      } catch {
        // A failing listener must not turn into a failed request.
      }
    };
    let response: Response;
    const stopWatching = watchHeaders(hooks);
    try {
      response = await httpFetch(input, init);
    } catch (error) {
      const name = (error as { name?: string } | null)?.name;
      announce({ reason: name === 'AbortError' || name === 'TimeoutError' ? 'timeout' : 'network' });
      throw error;
    } finally {
      stopWatching();
    }
    if (!response.ok) {
      if (!sdkWouldRetry(response)) return response;
      const waitMs = retryAfterMs(response.headers);
      const hopeless = (waitMs !== undefined && waitMs > MAX_RETRY_WAIT_MS) || (await isQuotaExhausted(response));
      if (hopeless) return withHeader(response, 'x-should-retry', 'false');
      const status = response.status;
      const reason = status === 429 ? 'rate_limit' : status === 408 ? 'timeout' : 'server';
      announce({ reason, status, ...(waitMs !== undefined ? { delayMs: waitMs } : {}) });
      return response;
    }
    if (!response.body) return response;
    let body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(bytes, controller) {
          // Every raw chunk counts as life, even one the filter then drops (a keep-alive ping).
          hooks.onBytes();
          controller.enqueue(bytes);
        },
      }),
    );
    if (/text\/event-stream/i.test(response.headers.get('content-type') ?? ''))
      body = body.pipeThrough(sseFilterStream());
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/**
 * Until the headers come: a timer that gives up on a server that took the request and says
 * nothing (the SDK's own timeout would retry it three times, eight minutes in all), and
 * notices so the user is not left staring at nothing. Returns the function that stops both.
 */
function watchHeaders(hooks: AttemptFetchHooks): () => void {
  const started = Date.now();
  const notify = () => {
    if (hooks.isAborted()) return;
    try {
      hooks.onWaiting?.({ elapsedMs: Date.now() - started });
    } catch {
      // A failing listener must not turn into a failed request.
    }
  };
  let every: NodeJS.Timeout | undefined;
  const first = hooks.onWaiting
    ? setTimeout(() => {
        notify();
        every = setInterval(notify, hooks.waitingNotice.everyMs);
        every.unref();
      }, hooks.waitingNotice.afterMs)
    : undefined;
  first?.unref();
  const deadline = setTimeout(() => hooks.onHeadersTimeout(), hooks.headersTimeoutMs);
  deadline.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
    clearTimeout(deadline);
  };
}

/** The SDK's own rule (client.ts `shouldRetry`), mirrored so announcements match what it does. */
function sdkWouldRetry(response: Response): boolean {
  const header = response.headers.get('x-should-retry');
  if (header === 'true') return true;
  if (header === 'false') return false;
  return response.status === 408 || response.status === 409 || response.status === 429 || response.status >= 500;
}

async function isQuotaExhausted(response: Response): Promise<boolean> {
  if (response.status !== 429) return false;
  const text = await response
    .clone()
    .text()
    .catch(() => '');
  return /insufficient_quota/i.test(text);
}

function withHeader(response: Response, name: string, value: string): Response {
  const headers = new Headers(response.headers);
  headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
