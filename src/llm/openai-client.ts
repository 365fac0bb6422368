/**
 * The model client for any provider speaking OpenAI Chat Completions (OpenAI, DeepSeek,
 * DashScope, GLM, Kimi, OpenRouter, Ollama…), built on the official `openai` SDK.
 * The SDK is imported lazily on first use: offline mode and config never pay for it.
 *
 * Retries are the SDK's (408/409/429/5xx and connection errors, exponential backoff,
 * `Retry-After` / `retry-after-ms` honoured). They happen while waiting for the response
 * headers, so a retry never follows an event this client has yielded.
 */
import { randomBytes } from 'node:crypto';
import type { ClientOptions, OpenAI } from 'openai';
import { createStreamAssembler } from './stream-assembler.js';
import { createAttemptFetch, type RetryInfo, type WaitingInfo } from './attempt-fetch.js';
import { safeUrl } from '../config/config.js';
import { LlmError, toLlmError } from './llm-error.js';
import { createEventRedactor, redactKey } from './redact.js';
import type { ChatMessage, Llm, LlmEvent, LlmRequest, ToolSpec } from './types.js';

export { LlmError, type LlmErrorCode } from './llm-error.js';
export type { RetryInfo, WaitingInfo } from './attempt-fetch.js';

const DEFAULT_TIMEOUT_MS = 120_000;
const DEFAULT_HEADERS_TIMEOUT_MS = 60_000;
/** A few seconds of nothing is normal for a big model; after that, say we are still waiting, now and then. */
const WAITING_NOTICE_AFTER_MS = 5_000;
const WAITING_NOTICE_EVERY_MS = 15_000;
const DEFAULT_MAX_RETRIES = 3;
const TITLE_TIMEOUT_MS = 30_000;
const TITLE_MAX_RETRIES = 1;
const TITLE_INPUT_CHARS = 2_000;
const MAX_TITLE_CHARS = 40;
/** The SDK insists on some key; local servers (Ollama, LM Studio) need none, and we send no header. */
const NO_KEY_PLACEHOLDER = 'not-needed';

export interface OpenAiLlmOptions {
  /** OpenAI-compatible base URL, e.g. `https://api.deepseek.com/v1`. */
  baseUrl: string;
  /** Empty or missing for local servers: then no Authorization header is sent. */
  apiKey?: string;
  model: string;
  /** Provider name shown in status (`deepseek`, `custom`…). */
  provider: string;
  /** Per attempt: until the response starts, then the longest silence allowed mid-stream. Default 120 s. */
  timeoutMs?: number;
  /**
   * The longest wait for response headers. A server still silent by then is given up on at once,
   * not retried: it took the request and is not answering. Default 60 s.
   */
  headersTimeoutMs?: number;
  /** Retries after the first attempt. Default 3. */
  maxRetries?: number;
  /** Told before each retry, e.g. to show "rate-limited, retrying…". */
  onRetry?: (info: RetryInfo) => void;
  /** Told while an answer's response has not started: after 5 s, then every 15 s. Not for titles. */
  onWaiting?: (info: WaitingInfo) => void;
  /** When `onWaiting` is told (tests shorten it). */
  waitingNotice?: { afterMs: number; everyMs: number };
  /** Receives the SDK's own log lines (debug level). Without it the SDK logs nothing. */
  logger?: ClientOptions['logger'];
}

type Sdk = typeof import('openai');
type WireMessage = OpenAI.ChatCompletionMessageParam;

interface Attempt {
  client: OpenAI;
  signal: AbortSignal;
  /** Arm the mid-stream silence timer (after the response has started). */
  watchSilence(): void;
  readonly userAborted: boolean;
  readonly silent: boolean;
  readonly headersTimedOut: boolean;
  dispose(): void;
}

export function createOpenAiLlm(options: OpenAiLlmOptions): Llm {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const headersTimeoutMs = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const waitingNotice = options.waitingNotice ?? { afterMs: WAITING_NOTICE_AFTER_MS, everyMs: WAITING_NOTICE_EVERY_MS };
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const apiKey = options.apiKey?.trim() ?? '';
  let model = options.model;
  const context = {
    apiKey,
    baseUrl: options.baseUrl,
    get model() {
      return model;
    },
    timeoutMs,
    headersTimeoutMs,
  };
  let sdkPromise: Promise<Sdk> | undefined;
  // Learned once per process: some servers reject `stream_options`; then we stop sending it.
  let sendStreamOptions = true;
  let generatedIds = 0;
  const idPrefix = `call_${randomBytes(3).toString('hex')}`;

  const loadSdk = () => (sdkPromise ??= import('openai'));

  function begin(
    sdk: Sdk,
    userSignal: AbortSignal | undefined,
    limits: { timeoutMs: number; maxRetries: number; quiet?: boolean },
    hooks: Pick<LlmRequest, 'onRetry' | 'onWaiting'> = {},
  ): Attempt {
    const controller = new AbortController();
    const onUserAbort = () => controller.abort();
    if (userSignal?.aborted) controller.abort();
    else userSignal?.addEventListener('abort', onUserAbort, { once: true });
    let silent = false;
    let headersTimedOut = false;
    let watching = false;
    let timer: NodeJS.Timeout | undefined;
    const touch = () => {
      if (!watching) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        silent = true;
        controller.abort();
      }, limits.timeoutMs);
      timer.unref();
    };
    const client = new sdk.OpenAI({
      baseURL: options.baseUrl,
      apiKey: apiKey || NO_KEY_PLACEHOLDER,
      // Pinned so OPENAI_* variables in the environment never leak into another provider's requests.
      organization: null,
      project: null,
      adminAPIKey: null,
      defaultHeaders: apiKey ? undefined : { Authorization: null },
      timeout: limits.timeoutMs,
      maxRetries: limits.maxRetries,
      logLevel: options.logger ? 'debug' : 'off',
      logger: options.logger,
      fetch: createAttemptFetch({
        maxRetries: limits.maxRetries,
        isAborted: () => controller.signal.aborted,
        // A title is a side request: its retries and waits are not worth telling the user about.
        // The request's own listeners (which know its session) come first.
        onRetry: limits.quiet ? undefined : (hooks.onRetry ?? options.onRetry),
        onWaiting: limits.quiet ? undefined : (hooks.onWaiting ?? options.onWaiting),
        waitingNotice,
        onBytes: touch,
        headersTimeoutMs,
        // Through the attempt's own signal: the SDK does not retry a request its caller aborted.
        onHeadersTimeout: () => {
          headersTimedOut = true;
          controller.abort();
        },
      }),
    });
    return {
      client,
      signal: controller.signal,
      watchSilence() {
        watching = true;
        touch();
      },
      get userAborted() {
        return userSignal?.aborted === true;
      },
      get silent() {
        return silent;
      },
      get headersTimedOut() {
        return headersTimedOut;
      },
      dispose() {
        watching = false;
        clearTimeout(timer);
        userSignal?.removeEventListener('abort', onUserAbort);
        controller.abort();
      },
    };
  }

  async function* stream(request: LlmRequest): AsyncGenerator<LlmEvent> {
    const sdk = await loadSdk();
    const attempt = begin(sdk, request.signal, { timeoutMs, maxRetries }, request);
    const fail = (error: unknown) => toLlmError(sdk, error, { ...context, maxRetries, ...flags(attempt) });
    try {
      const open = (withUsage: boolean) =>
        untilAborted(
          attempt.client.chat.completions.create(
            {
              model,
              messages: toWireMessages(request.messages),
              // Several servers reject `tools: []`; no tools means no key at all.
              ...(request.tools?.length ? { tools: request.tools.map(toWireTool) } : {}),
              stream: true,
              ...(withUsage ? { stream_options: { include_usage: true } } : {}),
            },
            { signal: attempt.signal },
          ),
          attempt.signal,
        );
      let chunks: AsyncIterable<unknown>;
      try {
        chunks = await open(sendStreamOptions);
      } catch (error) {
        if (!sendStreamOptions || !rejectsStreamOptions(sdk, error)) throw fail(error);
        sendStreamOptions = false;
        chunks = await open(false).catch((again: unknown) => Promise.reject(fail(again)));
      }
      attempt.watchSilence();
      const assembler = createStreamAssembler({ makeId: () => `${idPrefix}_${++generatedIds}` });
      // What the model says is outside text: a key it echoes must not reach the screen or the history.
      const redactor = createEventRedactor(apiKey);
      try {
        for await (const chunk of chunks) {
          for (const event of assembler.push(chunk)) yield* redactor.push(event);
        }
      } catch (error) {
        throw fail(error);
      }
      // The SDK ends a stream quietly when its request is aborted; say why it ended.
      if (attempt.userAborted || attempt.silent) throw fail(new Error('aborted'));
      if (assembler.chunks === 0) {
        throw new LlmError(
          'server',
          `The model service at ${safeUrl(options.baseUrl)} answered with an empty stream. Check that ZHIXING_BASE_URL points to an OpenAI-compatible API.`,
          undefined,
          `${safeUrl(options.baseUrl)} 的模型服务返回了空的流。请检查 ZHIXING_BASE_URL 是否指向兼容 OpenAI 的接口。`,
        );
      }
      for (const event of assembler.end()) yield* redactor.push(event);
    } finally {
      attempt.dispose();
    }
  }

  async function title(firstMessage: string, signal?: AbortSignal): Promise<string> {
    const sdk = await loadSdk();
    const limits = { timeoutMs: Math.min(TITLE_TIMEOUT_MS, timeoutMs), maxRetries: TITLE_MAX_RETRIES, quiet: true };
    const attempt = begin(sdk, signal, limits);
    try {
      const completion = await untilAborted(
        attempt.client.chat.completions.create(
          {
            model,
            messages: [
              {
                role: 'system',
                content:
                  'You name conversations. Reply with a title only: at most 6 words, or at most 12 Chinese characters ' +
                  'when the message is Chinese, in the language of the message. No quotes, no final punctuation, no explanation.',
              },
              { role: 'user', content: firstMessage.slice(0, TITLE_INPUT_CHARS) },
            ],
            stream: false,
          },
          { signal: attempt.signal },
        ),
        attempt.signal,
      );
      const text = cleanTitle(redactKey(completion.choices?.[0]?.message?.content ?? '', apiKey));
      if (!text)
        throw new LlmError('bad_request', 'The model returned an empty title.', undefined, '模型返回的标题是空的。');
      return text;
    } catch (error) {
      throw toLlmError(sdk, error, { ...context, ...limits, ...flags(attempt) });
    } finally {
      attempt.dispose();
    }
  }

  async function listModels({
    timeoutMs: limit,
    signal,
  }: {
    timeoutMs: number;
    signal?: AbortSignal;
  }): Promise<string[]> {
    const sdk = await loadSdk();
    // Through the same client as the turns: the key goes to its own base URL and nowhere else.
    const attempt = begin(sdk, signal, { timeoutMs: limit, maxRetries: 0, quiet: true });
    const timer = setTimeout(() => attempt.dispose(), limit);
    try {
      const page = await untilAborted(attempt.client.models.list({ signal: attempt.signal }), attempt.signal);
      // A name that carries the key (a misbehaving gateway echoing it) is dropped, not shown.
      return page.data.map((m) => m.id).filter((id) => typeof id === 'string' && redactKey(id, apiKey) === id);
    } catch (error) {
      throw toLlmError(sdk, error, { ...context, timeoutMs: limit, maxRetries: 0, ...flags(attempt) });
    } finally {
      clearTimeout(timer);
      attempt.dispose();
    }
  }

  return {
    mode: 'llm',
    provider: options.provider,
    get model() {
      return model;
    },
    setModel(next: string) {
      model = next;
    },
    stream,
    title,
    listModels,
  };
}

function flags(attempt: Attempt) {
  return { userAborted: attempt.userAborted, silent: attempt.silent, headersTimedOut: attempt.headersTimedOut };
}

/** Races the SDK promise with the signal: the SDK's retry sleep does not listen to aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  promise.catch(() => {}); // we may stop waiting for it; its late failure is not news
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('aborted'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function rejectsStreamOptions(sdk: Sdk, error: unknown): boolean {
  return (
    error instanceof sdk.APIError &&
    (error.status === 400 || error.status === 422) &&
    /stream_options/i.test(error.message)
  );
}

/** Our history → the OpenAI request shape. */
export function toWireMessages(messages: ChatMessage[]): WireMessage[] {
  return messages.map((message): WireMessage => {
    // A tool result's data is ours: providers get the standard fields only.
    if (message.role === 'tool') return { role: 'tool', tool_call_id: message.tool_call_id, content: message.content };
    if (message.role !== 'assistant') return { ...message };
    const calls = message.tool_calls ?? [];
    if (calls.length === 0) return { role: 'assistant', content: message.content ?? '' };
    return {
      role: 'assistant',
      // Several gateways reject an empty text part next to tool calls; null is the standard "no text".
      content: message.content ? message.content : null,
      // The non-standard field thinking models read back; others ignore unknown fields.
      ...(message.reasoning ? { reasoning_content: message.reasoning } : {}),
      tool_calls: calls.map((call) => ({
        id: call.id,
        type: 'function' as const,
        // A past call with broken JSON would make strict servers reject the whole history.
        function: { name: call.name, arguments: isJson(call.arguments) ? call.arguments : '{}' },
      })),
    };
  });
}

function toWireTool(tool: ToolSpec): OpenAI.ChatCompletionTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** One line, no quotes, no "Title:" label, no thinking block. */
export function cleanTitle(raw: string): string {
  const withoutThinking = raw.replace(/<think>[\s\S]*?(<\/think>|$)/gi, '');
  const line =
    withoutThinking
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l !== '') ?? '';
  let title = line
    .replace(/^#+\s*/, '')
    .replace(/\*\*/g, '')
    .replace(/^(title|标题)\s*[:：]\s*/i, '');
  const quotes = /^["'“”‘’「」『』《》【】`]+|["'“”‘’「」『』《》【】`]+$/g;
  for (let previous = ''; previous !== title;) {
    previous = title;
    title = title
      .replace(quotes, '')
      .replace(/[.。,，;；:：]+$/, '')
      .trim();
  }
  const chars = [...title];
  return chars.length > MAX_TITLE_CHARS ? chars.slice(0, MAX_TITLE_CHARS).join('').trim() : title;
}
