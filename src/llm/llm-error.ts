/**
 * The one error a model call throws. Callers switch on `code`; the message is a sentence
 * for the user that says what to do, and never contains the API key.
 */
import type * as OpenAiSdk from 'openai';
import { safeUrl } from '../config/config.js';
import { redactSecret } from './redact.js';

export { redactSecret } from './redact.js';

const MAX_DETAIL_CHARS = 200;
/** A server asking us to wait longer than this gets an error now instead of a silent hang. */
export const MAX_RETRY_WAIT_MS = 60_000;

/** `bad_response`: the service answered, but the model's output cannot be used (a malformed tool call). */
export type LlmErrorCode = 'auth' | 'rate_limit' | 'server' | 'network' | 'timeout' | 'bad_request' | 'bad_response' | 'aborted';

export class LlmError extends Error {
  override readonly name = 'LlmError';
  constructor(
    readonly code: LlmErrorCode,
    message: string,
    /** HTTP status when the service answered with one. */
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface ErrorContext {
  apiKey: string;
  baseUrl: string;
  model: string;
  timeoutMs: number;
  headersTimeoutMs: number;
  maxRetries: number;
  /** The caller's signal fired. */
  userAborted: boolean;
  /** Our own mid-stream silence timer fired. */
  silent: boolean;
  /** No response headers came within `headersTimeoutMs`. */
  headersTimedOut: boolean;
}

/** Maps whatever the SDK (or fetch, or a parser) threw to an `LlmError`. */
export function toLlmError(sdk: typeof OpenAiSdk, error: unknown, ctx: ErrorContext): LlmError {
  if (error instanceof LlmError) return error;
  const seconds = asSeconds(ctx.timeoutMs);
  if (ctx.userAborted) return new LlmError('aborted', 'The request to the model was cancelled.');
  if (ctx.headersTimedOut) {
    return new LlmError(
      'timeout',
      `The model service at ${safeUrl(ctx.baseUrl)} accepted the request but sent no answer within ${asSeconds(ctx.headersTimeoutMs)} s. Check that it is running and not overloaded, or try again.`,
    );
  }
  if (ctx.silent) {
    return new LlmError('timeout', `The model service went silent for ${seconds} s in the middle of an answer. Try again.`);
  }
  if (error instanceof sdk.APIConnectionTimeoutError) {
    return new LlmError(
      'timeout',
      `The model service did not answer within ${seconds} s${retried(ctx)}. Try again later, or check ZHIXING_BASE_URL.`,
    );
  }
  if (error instanceof sdk.APIUserAbortError) return new LlmError('aborted', 'The request to the model was cancelled.');
  if (error instanceof sdk.APIConnectionError) {
    const cause = causeCode(error);
    return new LlmError(
      'network',
      `Could not reach the model service at ${safeUrl(ctx.baseUrl)}${cause ? ` (${cause})` : ''}${retried(ctx)}. Check ZHIXING_BASE_URL and the network.`,
    );
  }
  if (error instanceof sdk.APIError) return fromStatus(error, ctx);
  if (error instanceof SyntaxError) {
    return new LlmError(
      'server',
      `The model service sent data that is not valid JSON. Check that ZHIXING_BASE_URL (${safeUrl(ctx.baseUrl)}) points to an OpenAI-compatible API.`,
    );
  }
  if (error instanceof TypeError && /invalid url/i.test(error.message)) {
    return new LlmError('bad_request', `ZHIXING_BASE_URL is not a valid URL. Set it to something like https://api.openai.com/v1.`);
  }
  if (error instanceof TypeError && /terminated|socket|ECONNRESET/i.test(`${error.message} ${causeCode(error)}`)) {
    return new LlmError('network', 'The connection to the model service broke off in the middle of an answer. Try again.');
  }
  const message = error instanceof Error ? error.message : String(error);
  return new LlmError('server', `The model request failed unexpectedly: ${detail(message, ctx)}.`);
}

function fromStatus(error: OpenAiSdk.APIError, ctx: ErrorContext): LlmError {
  const status = error.status;
  const said = detail(providerMessage(error), ctx);
  if (status === undefined) {
    // An `{"error": …}` event inside an otherwise fine stream.
    return new LlmError('server', `The model service reported an error in the middle of an answer${said ? ` (${said})` : ''}. Try again.`);
  }
  if (status === 401) {
    return ctx.apiKey
      ? new LlmError('auth', 'The model service rejected the API key (401). Check ZHIXING_API_KEY.', status)
      : new LlmError('auth', 'The model service needs an API key (401). Set ZHIXING_API_KEY.', status);
  }
  if (status === 403) {
    return new LlmError(
      'auth',
      `The model service refused access (403${said ? `: ${said}` : ''}). Check that ZHIXING_API_KEY may use the model "${ctx.model}".`,
      status,
    );
  }
  if (status === 402 || /insufficient_quota|insufficient balance/i.test(`${error.code ?? ''} ${said}`)) {
    return new LlmError(
      'rate_limit',
      `The model service says the account has no quota or balance left (${status}). Top up the account or use another key.`,
      status,
    );
  }
  if (status === 429) {
    const waitMs = error.headers ? retryAfterMs(error.headers) : undefined;
    if (waitMs !== undefined && waitMs > MAX_RETRY_WAIT_MS) {
      const wait = Math.ceil(waitMs / 1000);
      return new LlmError('rate_limit', `The model service is rate-limiting requests and asks to wait ${wait} s (429). Try again later.`, status);
    }
    return new LlmError('rate_limit', `The model service is rate-limiting requests (429)${retried(ctx)}. Wait a minute and try again.`, status);
  }
  if (status === 408) {
    return new LlmError('timeout', `The model service timed out (408)${retried(ctx)}. Try again later.`, status);
  }
  if (status >= 500 || status === 409) {
    return new LlmError('server', `The model service failed (${status}${said ? `: ${said}` : ''})${retried(ctx)}. Try again later.`, status);
  }
  const hint = status === 404 ? 'Check ZHIXING_MODEL and ZHIXING_BASE_URL.' : 'Check ZHIXING_MODEL and the request settings.';
  return new LlmError(
    'bad_request',
    `The model service refused the request (${status}${said ? `: ${said}` : ''}) for model "${ctx.model}". ${hint}`,
    status,
  );
}

/** Whole seconds from 10 s up; below that the decimals matter (1.5 s). */
function asSeconds(ms: number): number {
  return ms >= 10_000 ? Math.round(ms / 1000) : ms / 1000;
}

function retried(ctx: ErrorContext): string {
  return ctx.maxRetries > 0 ? ` after ${ctx.maxRetries} ${ctx.maxRetries === 1 ? 'retry' : 'retries'}` : '';
}

function providerMessage(error: OpenAiSdk.APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string') return body.message;
  // The SDK prefixes the status; the rest is the raw body text.
  return error.message.replace(/^\d{3}\s+/, '').replace(/^status code \(no body\)$/, '');
}

/** Provider text, made safe and short enough for a one-line message. */
function detail(text: string, ctx: ErrorContext): string {
  const flat = redactSecret(text, ctx.apiKey).replace(/\s+/g, ' ').trim().replace(/[.。]+$/, '');
  return flat.length > MAX_DETAIL_CHARS ? `${flat.slice(0, MAX_DETAIL_CHARS)}…` : flat;
}

function causeCode(error: unknown): string {
  // undici nests the system error: TypeError('fetch failed') → cause: Error { code: 'ECONNREFUSED' }.
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return '';
}

/** The wait a response asks for (`retry-after-ms`, then `Retry-After` in seconds or as a date). */
export function retryAfterMs(headers: Headers): number | undefined {
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms)) return Math.max(0, ms);
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}
