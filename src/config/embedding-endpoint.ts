import type { Layer, ResolveOptions } from './endpoint.js';

/** Where memory's vectors come from: an OpenAI-compatible `/embeddings` endpoint. */
export interface EmbeddingEndpoint {
  baseUrl: string;
  model: string;
  /** Sent only to `baseUrl`. */
  apiKey?: string;
}

const value = (layer: Layer, name: string): string | undefined => {
  const v = layer[name]?.trim();
  return v ? v : undefined;
};

/** Two spellings of one base URL (a trailing slash, the host's case) are the same endpoint. */
export function sameBaseUrl(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  try {
    const norm = (u: string) => {
      const url = new URL(u);
      return `${url.protocol}//${url.host.toLowerCase()}${url.pathname.replace(/\/+$/, '')}`;
    };
    return norm(a) === norm(b);
  } catch {
    return false;
  }
}

/**
 * ZHIXING_EMBEDDING_MODEL turns embeddings on; ZHIXING_EMBEDDING_BASE_URL says where (the model
 * service's own base URL when unset). ZHIXING_EMBEDDING_API_KEY is sent only to an endpoint set in its
 * own layer or in a home layer below it, as the model's key is. The model's key is used only when the
 * embeddings go to the model's own base URL: an embeddings URL from anywhere else never receives it.
 * Layers come highest first; `model` is the model endpoint as resolved (its key already bound to it).
 */
export function resolveEmbedding(
  layers: Layer[],
  model: { baseUrl?: string; apiKey?: string },
  options: ResolveOptions = {},
): { endpoint?: EmbeddingEndpoint; warning?: string } {
  const find = (name: string) => {
    for (let i = 0; i < layers.length; i++) {
      const v = value(layers[i]!, name);
      if (v !== undefined) return { layer: i, value: v };
    }
    return undefined;
  };
  const name = find('ZHIXING_EMBEDDING_MODEL');
  const url = find('ZHIXING_EMBEDDING_BASE_URL');
  if (!name) {
    return url
      ? {
          warning:
            'ZHIXING_EMBEDDING_BASE_URL is set but ZHIXING_EMBEDDING_MODEL is not: memory search uses words only.',
        }
      : {};
  }
  const baseUrl = url?.value ?? model.baseUrl;
  if (!baseUrl)
    return {
      warning:
        'ZHIXING_EMBEDDING_MODEL is set but there is no ZHIXING_EMBEDDING_BASE_URL (nor a model service): memory search uses words only.',
    };
  const own = find('ZHIXING_EMBEDDING_API_KEY');
  if (own) {
    const bound =
      !url || url.layer === own.layer || (url.layer > own.layer && (options.homeLayers ?? []).includes(url.layer));
    if (bound) return { endpoint: { baseUrl, model: name.value, apiKey: own.value } };
    return {
      endpoint: { baseUrl, model: name.value },
      warning:
        'Withheld ZHIXING_EMBEDDING_API_KEY: the embeddings base URL is set in another place, and a key is only sent to an endpoint set in the same place.',
    };
  }
  const apiKey = sameBaseUrl(baseUrl, model.baseUrl) ? model.apiKey : undefined;
  return { endpoint: { baseUrl, model: name.value, ...(apiKey ? { apiKey } : {}) } };
}
