import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { cleanText } from './names.js';

/** How much of an error's message a state or a call's failure quotes. */
const MAX_REASON_CHARS = 300;

/**
 * True when the connection a request went out on is gone, so a new one may well succeed: the process
 * died, the server closed or forgot the session (404, "session terminated"), the network dropped.
 * A timeout, a refusal or a tool's own error is the server answering, not a dead connection.
 */
export function isConnectionLost(err: unknown): boolean {
  if (err instanceof McpError)
    return err.code === ErrorCode.ConnectionClosed || /session (?:terminated|not found|expired)/i.test(err.message);
  if (err instanceof StreamableHTTPError || err instanceof SseError) {
    // MCP says 404 for a session the server does not know; many servers (server-everything among
    // them) answer 400 "No valid session ID" instead.
    if (err.code === 400 && /session/i.test(err.message)) return true;
    return err.code === undefined || err.code === 404 || err.code >= 500 || err.code === -1;
  }
  if (!(err instanceof Error)) return false;
  const code = (err as NodeJS.ErrnoException).code ?? (err.cause as NodeJS.ErrnoException | undefined)?.code;
  if (
    code &&
    ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ERR_STREAM_DESTROYED', 'UND_ERR_SOCKET', 'ETIMEDOUT'].includes(code)
  )
    return true;
  return /not connected|fetch failed|socket hang up|session (?:terminated|not found)|connection closed/i.test(
    err.message,
  );
}

/** An error's message, cleaned and bounded, for a state's reason or a call's failure. */
export function reasonOf(err: unknown): string {
  if (err instanceof Error && err.name === 'AbortError') return 'it was stopped';
  const message = err instanceof Error ? err.message : String(err);
  const code =
    err instanceof Error
      ? ((err as NodeJS.ErrnoException).code ?? (err.cause as NodeJS.ErrnoException | undefined)?.code)
      : undefined;
  const text = cleanText(message.replace(/^MCP error -?\d+: /, ''), MAX_REASON_CHARS) || 'unknown error';
  return code && !text.includes(String(code)) ? `${text} (${code})` : text;
}

/** True for the SDK's timeout of a request. */
export const isTimeout = (err: unknown): boolean => err instanceof McpError && err.code === ErrorCode.RequestTimeout;

/** Shorter values than this are not secrets worth hiding (and hiding them would garble the text). */
const MIN_SECRET_CHARS = 4;

/**
 * Takes a server's secrets out of text about it: its headers' and env's values and, with `urls`, the
 * credentials and query of any URL (a token is often in one: for what is said about the connection,
 * not for a tool's output, whose links are the user's data).
 */
export function redactor(
  settings: { headers: Record<string, string>; env: Record<string, string>; url?: string },
  options: { urls: boolean },
): (text: string) => string {
  const secrets = [...Object.values(settings.headers), ...Object.values(settings.env), ...urlSecrets(settings.url)]
    .flatMap((v) => [v, ...v.split(/\s+/)])
    .filter((v) => v.length >= MIN_SECRET_CHARS)
    .sort((a, b) => b.length - a.length);
  const urls = options.urls ? redactUrls : (text: string) => text;
  if (!secrets.length) return urls;
  return (text) => {
    let out = urls(text);
    for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join('***');
    return out;
  };
}

/**
 * What a configured URL may carry that is a key: its user name, password and query values
 * (`?token=…`). A server may echo them back on their own, outside a whole URL.
 */
function urlSecrets(url: string | undefined): string[] {
  if (!url || !URL.canParse(url)) return [];
  const u = new URL(url);
  return [
    decodeURIComponent(u.username),
    decodeURIComponent(u.password),
    u.username,
    u.password,
    ...[...u.searchParams.values()],
    ...u.search
      .slice(1)
      .split('&')
      .map((p) => p.split('=').slice(1).join('=')),
  ];
}

/** Credentials and query taken out of every URL in a text. */
function redactUrls(text: string): string {
  if (!text.includes('://')) return text;
  return text
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]*@/gi, '$1***@')
    .replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^\s?#]*)[?#][^\s]*/gi, '$1');
}

/**
 * A failure that trying again will not mend: the program is not there or may not run, the server
 * refuses our credentials. Such a server is `failed` at once, with the reason, until the user acts.
 */
export function isHopeless(err: unknown): boolean {
  const code = err instanceof Error ? (err as NodeJS.ErrnoException).code : undefined;
  if (code === 'ENOENT' || code === 'EACCES' || code === 'ENOTDIR') return true;
  return (err instanceof StreamableHTTPError || err instanceof SseError) && (err.code === 401 || err.code === 403);
}
