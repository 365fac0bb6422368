/**
 * `fetch` for the model client, over `node:http` and `node:https` instead of the built-in fetch.
 *
 * The built-in fetch (undici) parses HTTP with a WebAssembly module that V8 compiles on first
 * use and then optimises on a background thread, which a process waits for before it exits: a
 * one-shot call spent ~100 ms on it after the answer was printed (and ~15 ms loading undici's
 * client). Node's own HTTP client parses in native code. Idle kept-alive connections are unref'd
 * by Node's agent, so they are reused by the next request of a REPL or a server and never hold up
 * a process that is done.
 *
 * It covers what the SDK sends (a string or bytes body, any headers, an abort signal). Anything
 * else, and redirects, go to the built-in fetch, which behaves as before. Failures look like the
 * built-in fetch's: a request that cannot be sent rejects with `TypeError('fetch failed')`, its
 * cause the system error; a body cut short errors with `TypeError('terminated')`; an abort is an
 * `AbortError`.
 */
import type { Agent as HttpAgent, IncomingMessage, RequestOptions } from 'node:http';
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';

/** Node's own modules, loaded when first needed (https brings TLS, only for an https URL). */
const load = createRequire(import.meta.url);

type FetchInput = string | URL | Request;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Statuses whose response has no body, whatever its headers say. */
const NO_BODY = new Set([101, 204, 205, 304]);

interface Transport {
  request: typeof import('node:http').request;
  agent: HttpAgent;
}

const transports = new Map<string, Transport>();

/** One keep-alive agent per protocol for the whole process. */
function transport(protocol: 'http:' | 'https:'): Transport {
  let t = transports.get(protocol);
  if (!t) {
    const m = load(protocol === 'https:' ? 'node:https' : 'node:http') as typeof import('node:http');
    t = { request: m.request, agent: new m.Agent({ keepAlive: true }) };
    transports.set(protocol, t);
  }
  return t;
}

/** The body as bytes or text, or `undefined` for one this transport does not send (a stream, a form). */
function sendable(body: RequestInit['body']): string | Uint8Array | null | undefined {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  return undefined;
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  return new DOMException('This operation was aborted', 'AbortError');
}

export async function httpFetch(input: FetchInput, init: RequestInit = {}): Promise<Response> {
  const body = sendable(init.body);
  const url = typeof input === 'string' ? new URL(input) : input instanceof URL ? input : undefined;
  if (
    !url ||
    body === undefined ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    init.redirect === 'manual' ||
    init.redirect === 'error'
  ) {
    return fetch(input, init);
  }
  const signal = init.signal ?? undefined;
  if (signal?.aborted) throw abortError(signal);
  const { request, agent } = transport(url.protocol);
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, key) => (headers[key] = value));
  const method = (init.method ?? 'GET').toUpperCase();
  if (body !== null)
    headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);

  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const options: RequestOptions = { method, headers, agent, ...(signal ? { signal } : {}) };
    const req = request(url, options, resolve);
    req.on('error', (err) =>
      reject(signal?.aborted ? abortError(signal) : new TypeError('fetch failed', { cause: err })),
    );
    req.end(body ?? undefined);
  });

  // Listened to from here on: whatever happens to a body nobody reads must not crash the process.
  res.on('error', () => {});
  const status = res.statusCode ?? 0;
  if (REDIRECTS.has(status) && res.headers.location) {
    // Rare for a model service: the built-in fetch follows it with the same request.
    res.resume();
    return fetch(input, init);
  }
  const responseHeaders = new Headers();
  for (let i = 0; i < res.rawHeaders.length; i += 2) responseHeaders.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  const empty = method === 'HEAD' || NO_BODY.has(status);
  if (empty) res.resume();
  return new Response(empty ? null : webBody(res, signal), {
    status,
    statusText: res.statusMessage ?? '',
    headers: responseHeaders,
  });
}

/** The response body as a web stream, decompressed when the server compressed it unasked. */
function webBody(res: IncomingMessage, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  let source: Readable = res;
  const encoding = String(res.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip' || encoding === 'deflate' || encoding === 'br') {
    const zlib = load('node:zlib') as typeof import('node:zlib');
    const decoder =
      encoding === 'br'
        ? zlib.createBrotliDecompress()
        : encoding === 'deflate'
          ? zlib.createInflate()
          : zlib.createGunzip();
    res.on('error', (err) => decoder.destroy(err));
    source = res.pipe(decoder);
  }
  const failure = (err: unknown) =>
    signal?.aborted ? abortError(signal) : new TypeError('terminated', { cause: err });
  let done = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        source.on('data', (chunk: Buffer) => {
          if (done) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          // Read no further than the reader wants: a flooding server waits on its socket, not in memory here.
          if ((controller.desiredSize ?? 0) <= 0) source.pause();
        });
        source.on('end', () => {
          if (done) return;
          done = true;
          controller.close();
        });
        source.on('error', (err) => {
          if (done) return;
          done = true;
          controller.error(failure(err));
        });
        // A connection that closes before the body ended, with no error of its own.
        res.on('close', () => {
          if (done || res.complete) return;
          done = true;
          controller.error(failure(new Error('other side closed')));
        });
      },
      pull() {
        source.resume();
      },
      cancel() {
        done = true;
        res.destroy();
      },
    },
    { highWaterMark: 1 },
  );
}
