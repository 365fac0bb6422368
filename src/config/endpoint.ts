import { PROVIDER_PRESETS, type ProviderName } from '../llm/presets.js';

/** One source of settings, as variable names to values: the environment, a .env file, config.json. */
export type Layer = Record<string, string | undefined>;

export interface Endpoint {
  /** A preset name, `custom` for a base URL of the user's own, or `openai` when nothing says otherwise. */
  provider: string;
  baseUrl?: string;
  apiKey?: string;
  model: string;
}

export class UnknownProviderError extends Error {
  override name = 'UnknownProviderError';
}

const value = (layer: Layer, name: string): string | undefined => {
  const v = layer[name]?.trim();
  return v ? v : undefined;
};

function presetOf(name: string): { name: ProviderName; baseUrl: string; model: string } {
  const key = name.toLowerCase();
  if (!Object.hasOwn(PROVIDER_PRESETS, key)) {
    throw new UnknownProviderError(`Unknown provider "${name}". Use one of: ${Object.keys(PROVIDER_PRESETS).join(', ')}.`);
  }
  return { name: key as ProviderName, ...PROVIDER_PRESETS[key as ProviderName] };
}

/**
 * Where requests go, with which key and model. Layers come highest first. The highest layer that
 * names an endpoint (ZHIXING_BASE_URL or ZHIXING_PROVIDER) decides it, and a provider named there
 * brings its preset's model ahead of any model set in a lower layer — so a DeepSeek choice in the
 * environment is never sent config.json's OpenRouter model. OPENAI_* variables are fallbacks, and
 * OPENAI_API_KEY is only ever sent to OpenAI or to an endpoint of the user's own, never to a named
 * other provider.
 */
export function resolveEndpoint(layers: Layer[]): Endpoint {
  const first = (name: string, upTo = layers.length) => {
    for (const layer of layers.slice(0, upTo)) {
      const v = value(layer, name);
      if (v !== undefined) return v;
    }
    return undefined;
  };
  const at = layers.findIndex((l) => value(l, 'ZHIXING_BASE_URL') ?? value(l, 'ZHIXING_PROVIDER'));
  const layer = at >= 0 ? layers[at]! : undefined;
  const named = layer && value(layer, 'ZHIXING_PROVIDER');
  const preset = named ? presetOf(named) : undefined;
  const ownUrl = layer && value(layer, 'ZHIXING_BASE_URL');

  const baseUrl = ownUrl ?? preset?.baseUrl ?? first('OPENAI_BASE_URL');
  const provider = preset?.name ?? (baseUrl ? 'custom' : 'openai');
  // A preset speaks for the layers below it; a URL of the user's own leaves their model choice alone.
  const model =
    (preset && !ownUrl ? first('ZHIXING_MODEL', at + 1) ?? preset.model : first('ZHIXING_MODEL')) ??
    first('OPENAI_MODEL') ??
    PROVIDER_PRESETS.openai.model;
  const openAiKeyAllowed = !preset || preset.name === 'openai';
  const apiKey = first('ZHIXING_API_KEY') ?? (openAiKeyAllowed ? first('OPENAI_API_KEY') : undefined);
  return { provider, baseUrl, apiKey, model };
}
