/**
 * The one error a model call throws. Callers switch on `code`; the message is a sentence
 * for the user that says what to do, and never contains the API key.
 */
import type * as OpenAiSdk from 'openai';
import { safeUrl } from '../config/config.js';
import { redactSecret } from './redact.js';
import { UserError } from '../contract/user-error.js';

export { redactSecret } from './redact.js';

const MAX_DETAIL_CHARS = 200;
/** A server asking us to wait longer than this gets an error now instead of a silent hang. */
export const MAX_RETRY_WAIT_MS = 60_000;

/** `bad_response`: the service answered, but the model's output cannot be used (a malformed tool call). */
export type LlmErrorCode =
  'auth' | 'rate_limit' | 'server' | 'network' | 'timeout' | 'bad_request' | 'bad_response' | 'aborted';

export class LlmError extends UserError<LlmErrorCode> {
  override readonly name = 'LlmError';
  constructor(
    code: LlmErrorCode,
    message: string,
    /** HTTP status when the service answered with one. */
    readonly status: number | undefined,
    zh: string,
  ) {
    super(code, message, zh);
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
  const cancelled = () =>
    new LlmError('aborted', 'The request to the model was cancelled.', undefined, '对模型的请求已取消。');
  if (ctx.userAborted) return cancelled();
  if (ctx.headersTimedOut) {
    return new LlmError(
      'timeout',
      `The model service at ${safeUrl(ctx.baseUrl)} accepted the request but sent no answer within ${asSeconds(ctx.headersTimeoutMs)} s. Check that it is running and not overloaded, or try again.`,
      undefined,
      `${safeUrl(ctx.baseUrl)} 的模型服务收下了请求，但 ${asSeconds(ctx.headersTimeoutMs)} 秒内没有回答。请检查它是否在运行、是否过载，或者再试一次。`,
    );
  }
  if (ctx.silent) {
    return new LlmError(
      'timeout',
      `The model service went silent for ${seconds} s in the middle of an answer. Try again.`,
      undefined,
      `模型服务在回答中途 ${seconds} 秒没有动静。请再试一次。`,
    );
  }
  if (error instanceof sdk.APIConnectionTimeoutError) {
    return new LlmError(
      'timeout',
      `The model service did not answer within ${seconds} s${retried(ctx)}. Try again later, or check ZHIXING_BASE_URL.`,
      undefined,
      `模型服务 ${seconds} 秒内没有回答${retriedZh(ctx)}。请稍后再试，或检查 ZHIXING_BASE_URL。`,
    );
  }
  if (error instanceof sdk.APIUserAbortError) return cancelled();
  if (error instanceof sdk.APIConnectionError) {
    const cause = causeCode(error);
    return new LlmError(
      'network',
      `Could not reach the model service at ${safeUrl(ctx.baseUrl)}${cause ? ` (${cause})` : ''}${retried(ctx)}. Check ZHIXING_BASE_URL and the network.`,
      undefined,
      `连不上 ${safeUrl(ctx.baseUrl)} 的模型服务${cause ? `（${cause}）` : ''}${retriedZh(ctx)}。请检查 ZHIXING_BASE_URL 和网络。`,
    );
  }
  if (error instanceof sdk.APIError) return fromStatus(error, ctx);
  if (error instanceof SyntaxError) {
    return new LlmError(
      'server',
      `The model service sent data that is not valid JSON. Check that ZHIXING_BASE_URL (${safeUrl(ctx.baseUrl)}) points to an OpenAI-compatible API.`,
      undefined,
      `模型服务发来的数据不是有效的 JSON。请检查 ZHIXING_BASE_URL（${safeUrl(ctx.baseUrl)}）是否指向兼容 OpenAI 的接口。`,
    );
  }
  if (error instanceof TypeError && /invalid url/i.test(error.message)) {
    return new LlmError(
      'bad_request',
      `ZHIXING_BASE_URL is not a valid URL. Set it to something like https://api.openai.com/v1.`,
      undefined,
      'ZHIXING_BASE_URL 不是有效的网址。请设成类似 https://api.openai.com/v1 的地址。',
    );
  }
  if (error instanceof TypeError && /terminated|socket|ECONNRESET/i.test(`${error.message} ${causeCode(error)}`)) {
    return new LlmError(
      'network',
      'The connection to the model service broke off in the middle of an answer. Try again.',
      undefined,
      '和模型服务的连接在回答中途断开了。请再试一次。',
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new LlmError(
    'server',
    `The model request failed unexpectedly: ${detail(message, ctx)}.`,
    undefined,
    `模型请求意外失败：${detail(message, ctx)}。`,
  );
}

function fromStatus(error: OpenAiSdk.APIError, ctx: ErrorContext): LlmError {
  const status = error.status;
  const said = detail(providerMessage(error), ctx);
  if (status === undefined) {
    // An `{"error": …}` event inside an otherwise fine stream.
    return new LlmError(
      'server',
      `The model service reported an error in the middle of an answer${said ? ` (${said})` : ''}. Try again.`,
      undefined,
      `模型服务在回答中途报错${said ? `（${said}）` : ''}。请再试一次。`,
    );
  }
  if (status === 401) {
    return ctx.apiKey
      ? new LlmError(
          'auth',
          'The model service rejected the API key (401). Check ZHIXING_API_KEY.',
          status,
          '模型服务拒绝了这个 API 密钥（401）。请检查 ZHIXING_API_KEY。',
        )
      : new LlmError(
          'auth',
          'The model service needs an API key (401). Set ZHIXING_API_KEY.',
          status,
          '模型服务需要 API 密钥（401）。请设置 ZHIXING_API_KEY。',
        );
  }
  if (status === 403) {
    return new LlmError(
      'auth',
      `The model service refused access (403${said ? `: ${said}` : ''}). Check that ZHIXING_API_KEY may use the model "${ctx.model}".`,
      status,
      `模型服务拒绝访问（403${said ? `：${said}` : ''}）。请检查 ZHIXING_API_KEY 是否可以使用模型「${ctx.model}」。`,
    );
  }
  if (status === 402 || /insufficient_quota|insufficient balance/i.test(`${error.code ?? ''} ${said}`)) {
    return new LlmError(
      'rate_limit',
      `The model service says the account has no quota or balance left (${status}). Top up the account or use another key.`,
      status,
      `模型服务说账户的额度或余额用完了（${status}）。请充值，或换一个密钥。`,
    );
  }
  if (status === 429) {
    const waitMs = error.headers ? retryAfterMs(error.headers) : undefined;
    if (waitMs !== undefined && waitMs > MAX_RETRY_WAIT_MS) {
      const wait = Math.ceil(waitMs / 1000);
      return new LlmError(
        'rate_limit',
        `The model service is rate-limiting requests and asks to wait ${wait} s (429). Try again later.`,
        status,
        `模型服务正在限流，要求等待 ${wait} 秒（429）。请稍后再试。`,
      );
    }
    return new LlmError(
      'rate_limit',
      `The model service is rate-limiting requests (429)${retried(ctx)}. Wait a minute and try again.`,
      status,
      `模型服务正在限流（429）${retriedZh(ctx)}。请等一分钟再试。`,
    );
  }
  if (status === 408) {
    return new LlmError(
      'timeout',
      `The model service timed out (408)${retried(ctx)}. Try again later.`,
      status,
      `模型服务超时（408）${retriedZh(ctx)}。请稍后再试。`,
    );
  }
  if (status >= 500 || status === 409) {
    return new LlmError(
      'server',
      `The model service failed (${status}${said ? `: ${said}` : ''})${retried(ctx)}. Try again later.`,
      status,
      `模型服务出错了（${status}${said ? `：${said}` : ''}）${retriedZh(ctx)}。请稍后再试。`,
    );
  }
  const hint =
    status === 404 ? 'Check ZHIXING_MODEL and ZHIXING_BASE_URL.' : 'Check ZHIXING_MODEL and the request settings.';
  const hintZh = status === 404 ? '请检查 ZHIXING_MODEL 和 ZHIXING_BASE_URL。' : '请检查 ZHIXING_MODEL 和请求设置。';
  return new LlmError(
    'bad_request',
    `The model service refused the request (${status}${said ? `: ${said}` : ''}) for model "${ctx.model}". ${hint}`,
    status,
    `模型服务拒绝了对模型「${ctx.model}」的请求（${status}${said ? `：${said}` : ''}）。${hintZh}`,
  );
}

/** Whole seconds from 10 s up; below that the decimals matter (1.5 s). */
function asSeconds(ms: number): number {
  return ms >= 10_000 ? Math.round(ms / 1000) : ms / 1000;
}

function retried(ctx: ErrorContext): string {
  return ctx.maxRetries > 0 ? ` after ${ctx.maxRetries} ${ctx.maxRetries === 1 ? 'retry' : 'retries'}` : '';
}

function retriedZh(ctx: ErrorContext): string {
  return ctx.maxRetries > 0 ? `，已重试 ${ctx.maxRetries} 次` : '';
}

function providerMessage(error: OpenAiSdk.APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string') return body.message;
  // The SDK prefixes the status; the rest is the raw body text.
  return error.message.replace(/^\d{3}\s+/, '').replace(/^status code \(no body\)$/, '');
}

/** Provider text, made safe and short enough for a one-line message. */
function detail(text: string, ctx: ErrorContext): string {
  const flat = redactSecret(text, ctx.apiKey)
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.。]+$/, '');
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
