/**
 * HTTP requests under the network policy: an undici Agent whose every connection resolves names
 * through the policy's lookup and checks the socket's remote address once connected, and redirects
 * followed by hand (at most five), each hop checked again before it is requested.
 *
 * Node's global `fetch` ignores an `http.Agent`, so the policy lives in undici's own `fetch` and
 * dispatcher from the same package version.
 */
import type { Socket } from 'node:net';
import { Agent, buildConnector, fetch as undiciFetch, type Dispatcher, type Response } from 'undici';
import { checkSocket, checkUrl, NetworkPolicyError, policyLookup, type NetworkPolicy } from './policy.js';

export const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const CONNECT_TIMEOUT_MS = 10_000;

/** A dispatcher that connects only where the policy allows. One per policy; close it when done. */
export function policyDispatcher(policy: NetworkPolicy, options: { connectTimeoutMs?: number } = {}): Agent {
  const timeout = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  return new Agent({
    connect(opts, callback) {
      const port = Number(opts.port) || (opts.protocol === 'https:' ? 443 : 80);
      let target: URL;
      try {
        // IP literals never reach a lookup: check them here, before any connection is tried.
        target = checkUrl(`${opts.protocol}//${opts.host ?? opts.hostname}/`, policy);
      } catch (err) {
        callback(err as Error, null);
        return;
      }
      const connector = buildConnector({
        timeout,
        lookup: policyLookup(policy, () => port),
      } as buildConnector.BuildOptions);
      connector(opts, (err, socket) => {
        if (err || !socket) {
          callback(unwrapPolicyError(err) ?? new Error('connection failed'), null);
          return;
        }
        try {
          checkSocket(socket as Socket, policy, target.hostname);
        } catch (refused) {
          callback(refused as Error, null);
          return;
        }
        callback(null, socket);
      });
    },
  });
}

/** A refusal from inside the lookup comes back wrapped by net/tls: hand back the policy's own error. */
function unwrapPolicyError(err: Error | null): Error | null {
  if (!err) return err;
  if (err instanceof NetworkPolicyError) return err;
  const cause = (err as { cause?: unknown }).cause;
  return cause instanceof NetworkPolicyError ? cause : err;
}

export interface PolicyFetchOptions {
  policy: NetworkPolicy;
  dispatcher: Dispatcher;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  maxRedirects?: number;
  /** Called before each hop after the first, with the URL it goes to: may throw to refuse it (a permission rule). */
  beforeRedirect?: (url: URL) => Promise<void> | void;
}

export interface PolicyFetchResult {
  response: Response;
  /** The URL that answered, after redirects. */
  url: URL;
  /** Every URL requested before it, in order. */
  redirects: string[];
}

/** GET under the policy, following redirects by hand so that every hop is checked. */
export async function policyFetch(input: string | URL, options: PolicyFetchOptions): Promise<PolicyFetchResult> {
  const max = options.maxRedirects ?? MAX_REDIRECTS;
  let url = checkUrl(input, options.policy);
  const redirects: string[] = [];
  for (;;) {
    let response: Response;
    try {
      response = await undiciFetch(url, {
        dispatcher: options.dispatcher,
        redirect: 'manual',
        signal: options.signal,
        headers: options.headers,
      });
    } catch (err) {
      throw unwrapFetchError(err as Error);
    }
    const location = response.headers.get('location');
    if (!REDIRECT_STATUSES.has(response.status) || location === null) return { response, url, redirects };
    await response.body?.cancel().catch(() => {});
    if (redirects.length >= max) {
      throw new NetworkPolicyError(
        `Stopped after ${max} redirects (the last pointed to ${safeShown(location, url)}).`,
        'redirects',
        url.href,
      );
    }
    redirects.push(url.href);
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new NetworkPolicyError(`The server redirected to an invalid URL.`, 'redirects', url.href);
    }
    url = checkUrl(next, options.policy);
    await options.beforeRedirect?.(url);
  }
}

function safeShown(location: string, base: URL): string {
  try {
    const u = new URL(location, base);
    return `${u.protocol}//${u.host}${u.pathname}`.slice(0, 200);
  } catch {
    return 'an invalid URL';
  }
}

/** undici's fetch reports every failure as "fetch failed" with the reason as `cause`: surface the reason. */
function unwrapFetchError(err: Error): Error {
  if (err.name === 'AbortError' || err.name === 'TimeoutError') return err;
  let cause: unknown = err;
  for (let depth = 0; depth < 4 && cause instanceof Error; depth++) {
    if (cause instanceof NetworkPolicyError) return cause;
    cause = (cause as { cause?: unknown }).cause;
  }
  return err;
}
