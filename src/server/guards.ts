import { UserError } from '../contract/user-error.js';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { ApiError } from './errors.js';

/** The most a request body may hold. A chat message is at most 100,000 characters: 1 MiB holds it in any script. */
export const MAX_BODY_BYTES = 1_048_576;
/** A bearer token shorter than this could be guessed by someone on the network. */
export const MIN_TOKEN_CHARS = 16;
const HTTP_DEFAULT_PORT = 80;

/**
 * Sent with every response. The CSP allows only what this server serves itself: no inline script
 * or style, no other origin, no framing. The pages we serve (/docs, later the web UI) are written
 * to work under it.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  // Other sites may not even load our responses as images or scripts (no-cors requests carry no Origin).
  'cross-origin-resource-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
  // What a session holds is nobody's cache's business.
  'cache-control': 'no-store',
};

/** True for addresses only this machine can reach: 127.0.0.0/8, ::1 and the name localhost. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h === '::1' || h === '::ffff:127.0.0.1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

export class ServeConfigError extends UserError<'unsafe_serve'> {
  override name = 'ServeConfigError';
  constructor(message: string, zh: string) {
    super('unsafe_serve', message, zh);
  }
}

/**
 * Refuses a setup that would expose the assistant: a non-loopback address without a token (anyone
 * on the network could run tools and read the history), or a token short enough to guess.
 */
export function checkServeConfig(host: string, token: string | undefined): void {
  if (token !== undefined && token.length < MIN_TOKEN_CHARS) {
    throw new ServeConfigError(
      `ZHIXING_TOKEN is too short (${token.length} characters); use at least ${MIN_TOKEN_CHARS}, e.g. the output of \`openssl rand -hex 32\`.`,
      `ZHIXING_TOKEN 太短（${token.length} 个字符）：至少要 ${MIN_TOKEN_CHARS} 个，例如 \`openssl rand -hex 32\` 的输出。`,
    );
  }
  if (!isLoopback(host) && token === undefined) {
    throw new ServeConfigError(
      `Refusing to serve on ${host} without a token: anyone who can reach it could use your assistant. ` +
        'Set ZHIXING_TOKEN to a long random secret (e.g. `openssl rand -hex 32`) and send it as `Authorization: Bearer <token>`, or serve on 127.0.0.1.',
      `拒绝在 ${host} 上无令牌地提供服务：能访问它的任何人都能使用你的助手。` +
        '请把 ZHIXING_TOKEN 设为一个长的随机密钥（例如 `openssl rand -hex 32`），以 `Authorization: Bearer <token>` 发送；或者在 127.0.0.1 上提供服务。',
    );
  }
}

export interface GuardOptions {
  /** The address the server is bound to. */
  host: string;
  /** The port it really listens on (after port 0 was resolved). */
  port: number;
  /** When set, every request needs `Authorization: Bearer <token>`. */
  token?: string;
}

/** What a request may do that others may not, decided by the caller from its method and path. */
export interface GuardPolicy {
  /**
   * The web app's own files: public code, served without the bearer token (the app asks the user
   * for it and sends it with each API call). Host, Origin and Sec-Fetch checks still apply.
   */
  public?: boolean;
  /** The most a declared body may hold (default MAX_BODY_BYTES); the route enforces it again while reading. */
  maxBodyBytes?: number;
}

export interface Guards {
  /** Why the request is refused, or undefined to let it through. Cheap: it runs before every request. */
  check(req: IncomingMessage, policy?: GuardPolicy): ApiError | undefined;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

const forbidden = (message: string) => new ApiError(403, 'forbidden', message);

/**
 * Origin and Host checks, the bearer token and the body-size limit, on the raw node request.
 *
 * Bound to loopback, Host must name this server by a loopback name and its port, so a page on
 * another site that re-points its DNS name at 127.0.0.1 (DNS rebinding) is refused. An Origin, when
 * sent, must be this server's own. Browsers always send Origin on cross-origin writes, so a page on
 * another site cannot post a chat message, whatever content type it uses. Bound to another address,
 * the token is the defence; Origin must then match the Host the client used.
 */
export function createGuards(options: GuardOptions): Guards {
  const loopback = isLoopback(options.host);
  // The loopback address it is bound to is its own name too (`--host 127.0.0.2` prints that URL).
  const bound =
    loopback && !['127.0.0.1', 'localhost', '::1', '0.0.0.0', '::'].includes(options.host)
      ? [options.host.includes(':') ? `[${options.host}]` : options.host]
      : [];
  const names = ['127.0.0.1', 'localhost', '[::1]', ...bound];
  const hosts = new Set(names.map((n) => `${n}:${options.port}`));
  if (options.port === HTTP_DEFAULT_PORT) names.forEach((n) => hosts.add(n));
  const origins = new Set([...hosts].map((h) => `http://${h}`));
  const expected = options.token === undefined ? undefined : digest(options.token);

  function tokenError(req: IncomingMessage): ApiError | undefined {
    if (!expected) return undefined;
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    // Digests compared in constant time: the comparison says nothing about how much of a guess was right.
    if (match && timingSafeEqual(digest(match[1]!), expected)) return undefined;
    return new ApiError(
      401,
      'unauthorized',
      header ? 'The bearer token is wrong.' : 'This server needs `Authorization: Bearer <ZHIXING_TOKEN>`.',
      {
        'www-authenticate': 'Bearer realm="zhixing"',
      },
    );
  }

  return {
    check(req, policy = {}) {
      const host = req.headers.host?.toLowerCase();
      if (!host) return forbidden('The request has no Host header.');
      if (loopback && !hosts.has(host)) {
        return forbidden(
          `This server answers only to its own address (http://127.0.0.1:${options.port} or http://localhost:${options.port}), not "${host}".`,
        );
      }
      const origin = req.headers.origin?.toLowerCase();
      if (origin !== undefined && !origins.has(origin) && !(!loopback && origin === `http://${host}`)) {
        return forbidden(`Requests from pages on ${origin} are refused: only this server's own pages may call it.`);
      }
      // A no-cors load from another site (an <img>, a <script>) sends no Origin, but browsers say where it came from.
      const site = req.headers['sec-fetch-site'];
      if (
        (site === 'cross-site' || site === 'same-site') &&
        !(req.headers['sec-fetch-mode'] === 'navigate' && req.method === 'GET')
      ) {
        return forbidden('Requests from other sites are refused.');
      }
      const unauthorized = policy.public ? undefined : tokenError(req);
      if (unauthorized) return unauthorized;
      const limit = policy.maxBodyBytes ?? MAX_BODY_BYTES;
      const length = Number(req.headers['content-length'] ?? 0);
      if (length > limit) return tooLarge(limit);
      return undefined;
    },
  };
}

/** The request body is over the limit. The connection is closed rather than read to the end. */
export const tooLarge = (limit = MAX_BODY_BYTES) =>
  new ApiError(413, 'too_large', `The request body is larger than ${limit} bytes.`, { connection: 'close' });
