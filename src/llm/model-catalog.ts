/**
 * The models to choose from, for every host: the web app's picker (GET /api/models) and the REPL's
 * /model. The provider is asked for its list (GET {baseUrl}/models) at most once a minute and never
 * twice at once; when it cannot say, the configured model is the only choice.
 */
import type { Llm } from './types.js';

/** A provider slow to list its models must not hold up whoever asked. */
export const LIST_TIMEOUT_MS = 5_000;
/** Providers add models rarely; the list is asked for again after this long. */
export const LIST_CACHE_MS = 60_000;
/** Some gateways list hundreds; past this a picker is useless anyway. */
const MAX_MODELS = 1_000;
export const MAX_MODEL_CHARS = 200;

export interface ModelList {
  mode: 'offline' | 'llm';
  /** The provider preset, `custom`, or `offline`. */
  provider: string;
  /** The model new turns use. */
  current: string;
  /** The models to choose from, `current` always among them. */
  models: string[];
  /** `provider`: the provider's own list; `config`: it could not be asked, so only the configured model; `offline`: the rule-based planner. */
  source: 'provider' | 'config' | 'offline';
}

export interface ModelCatalog {
  list(): Promise<ModelList>;
}

/** Why `name` cannot be a model name, or undefined when it can. */
export function modelNameProblem(name: string): string | undefined {
  if (!name) return 'empty';
  if (name.length > MAX_MODEL_CHARS) return `longer than ${MAX_MODEL_CHARS} characters`;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) return 'no control characters';
  if (name.trim() !== name) return 'no spaces around the name';
  return undefined;
}

export interface ModelCatalogOptions {
  now?: () => number;
  /** How long the provider has to list its models (default LIST_TIMEOUT_MS). */
  listTimeoutMs?: number;
}

export function createModelCatalog(
  llm: Llm,
  { now = Date.now, listTimeoutMs = LIST_TIMEOUT_MS }: ModelCatalogOptions = {},
): ModelCatalog {
  let cached: { at: number; models: string[] } | undefined;
  let inFlight: Promise<string[] | undefined> | undefined;

  const ask = async (): Promise<string[] | undefined> => {
    try {
      const models = (await llm.listModels!({ timeoutMs: listTimeoutMs }))
        .filter((m) => m.length <= MAX_MODEL_CHARS)
        .slice(0, MAX_MODELS);
      // An empty list (or an answer without one) says nothing about what the provider serves.
      if (models.length === 0) return undefined;
      cached = { at: now(), models };
      return models;
    } catch {
      // Whatever went wrong (down, 404, slow, refused the key), the configured model still works.
      return undefined;
    } finally {
      inFlight = undefined;
    }
  };
  const providerList = async (): Promise<string[] | undefined> => {
    if (!llm.listModels) return undefined;
    if (cached && now() - cached.at < LIST_CACHE_MS) return cached.models;
    return (inFlight ??= ask());
  };

  return {
    async list() {
      const base = { mode: llm.mode, provider: llm.provider, current: llm.model };
      if (llm.mode === 'offline') return { ...base, models: ['offline'], source: 'offline' };
      const listed = await providerList();
      if (!listed) return { ...base, models: [llm.model], source: 'config' };
      const sorted = [...new Set(listed)].sort();
      return { ...base, models: sorted.includes(llm.model) ? sorted : [llm.model, ...sorted], source: 'provider' };
    },
  };
}
