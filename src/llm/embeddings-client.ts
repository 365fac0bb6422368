/**
 * Vectors from an OpenAI-compatible `/embeddings` endpoint, through the official SDK as the chat
 * client uses it: the SDK loaded on first use, Node's own HTTP client underneath, the key sent only
 * to the base URL it was configured with, no Authorization header at all without one.
 */
import type { OpenAI } from 'openai';
import { safeUrl } from '../config/config.js';
import type { Embedder } from './embedder.js';
import { httpFetch } from './http-fetch.js';
import { redactKey } from './redact.js';

/** Embedding a batch is quick; a service slower than this is treated as down for now. */
const DEFAULT_TIMEOUT_MS = 20_000;
/** Background embedding retries a whole pass later; a request itself retries once (429/5xx). */
const DEFAULT_MAX_RETRIES = 1;
const NO_KEY_PLACEHOLDER = 'not-needed';

export interface EmbeddingsClientOptions {
  baseUrl: string;
  model: string;
  apiKey?: string;
  timeoutMs?: number;
  maxRetries?: number;
}

export function createEmbeddingsClient(options: EmbeddingsClientOptions): Embedder {
  const apiKey = options.apiKey?.trim() ?? '';
  let client: Promise<OpenAI> | undefined;
  const connect = () =>
    (client ??= import('openai').then(
      (sdk) =>
        new sdk.OpenAI({
          baseURL: options.baseUrl,
          apiKey: apiKey || NO_KEY_PLACEHOLDER,
          // Pinned so OPENAI_* variables in the environment never leak into this endpoint's requests.
          organization: null,
          project: null,
          defaultHeaders: apiKey ? undefined : { Authorization: null },
          timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
          logLevel: 'off',
          fetch: httpFetch,
        }),
    ));

  /** What went wrong, in words a user can act on, never with the key in it. */
  function plain(err: unknown): Error {
    const e = err as { status?: number; message?: string; name?: string };
    const where = `The embeddings service at ${safeUrl(options.baseUrl)}`;
    let text: string;
    if (e.status === 401 || e.status === 403)
      text = `${where} refused the key (HTTP ${e.status}). Check ZHIXING_EMBEDDING_API_KEY.`;
    else if (e.status === 404)
      text = `${where} has no model "${options.model}" or no /embeddings endpoint (HTTP 404). Check ZHIXING_EMBEDDING_MODEL and ZHIXING_EMBEDDING_BASE_URL.`;
    else if (e.status) text = `${where} answered HTTP ${e.status}: ${e.message ?? ''}`.trim();
    else if (e.name === 'APIConnectionTimeoutError' || /timed? ?out/i.test(e.message ?? ''))
      text = `${where} did not answer in time.`;
    else if (e.name === 'AbortError' || e.name === 'APIUserAbortError') text = `${where} request was stopped.`;
    else text = `${where} could not be reached (${e.message ?? String(err)}).`;
    return new Error(`${apiKey ? redactKey(text, apiKey) : text} Memory search uses words only until it works.`);
  }

  return {
    kind: 'remote',
    model: options.model,
    async embed(texts, signal) {
      if (texts.length === 0) return [];
      try {
        const res = await (
          await connect()
        ).embeddings.create({ model: options.model, input: texts, encoding_format: 'float' }, { signal });
        const out: Float32Array[] = new Array(texts.length);
        for (const d of res.data) out[d.index] = Float32Array.from(d.embedding);
        if (out.some((v) => v === undefined) || out.length !== texts.length)
          throw new Error(`answered ${res.data.length} vectors for ${texts.length} texts`);
        return out;
      } catch (err) {
        throw plain(err);
      }
    },
  };
}
