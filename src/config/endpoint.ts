import { UserError } from '../contract/user-error.js';
import { PROVIDER_PRESETS, type ProviderName } from './presets.js';
import { hasControlChars } from './control-chars.js';

/** One source of settings, as variable names to values: the environment, a .env file, config.json. */
export type Layer = Record<string, string | undefined>;

/** Where one setting came from: the index of its layer, and the variable that held it. */
export interface Source {
  layer: number;
  name: string;
}

export interface Endpoint {
  /** A preset name, `custom` for a base URL of the user's own, or `openai` when nothing says otherwise. */
  provider: string;
  baseUrl?: string;
  apiKey?: string;
  model: string;
  /** Where the endpoint was named; none when nothing names one (OpenAI's, by default). */
  source?: Source;
  /** Where the model name was set; none when it is the preset's or OpenAI's default. */
  modelSource?: Source;
  /** Where the key that is sent was set; none when no key is sent. */
  keySource?: Source;
  /** Set when a key is configured but not sent, because the endpoint came from elsewhere. */
  withheld?: { key: Source; endpoint: Source };
}

export interface ResolveOptions {
  /**
   * The layers only the user writes ($ZHIXING_HOME/.env, config.json). An endpoint chosen there
   * may take a key from a higher layer: a key exported in the shell, a provider picked in config.json.
   */
  homeLayers?: readonly number[];
}

export class UnknownProviderError extends UserError<'unknown_provider'> {
  override name = 'UnknownProviderError';
  constructor(message: string, zh: string) {
    super('unknown_provider', message, zh);
  }
}

const value = (layer: Layer, name: string): string | undefined => {
  const v = layer[name]?.trim();
  return v ? v : undefined;
};

function presetOf(name: string): { name: ProviderName; baseUrl: string; model: string } {
  const key = name.toLowerCase();
  if (!Object.hasOwn(PROVIDER_PRESETS, key)) {
    const control = hasControlChars(name);
    const names = Object.keys(PROVIDER_PRESETS);
    throw new UnknownProviderError(
      `${control ? 'The provider name contains control characters' : `Unknown provider "${name}"`}. Use one of: ${names.join(', ')}.`,
      `${control ? '模型服务商的名字里有控制字符' : `没有叫「${name}」的模型服务商`}。可用的有：${names.join(', ')}。`,
    );
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
 *
 * A key is sent only to the endpoint configured with it: one from its own layer, one from a home
 * layer below it, or OpenAI's when no layer names any. Otherwise a file that could not set the key
 * (a cloned project's .env) could still say where it goes. Such a key is withheld, not swapped for
 * another: the user's precedence chose it.
 */
export function resolveEndpoint(layers: Layer[], options: ResolveOptions = {}): Endpoint {
  const find = (name: string, upTo = layers.length): (Source & { value: string }) | undefined => {
    for (let i = 0; i < upTo; i++) {
      const v = value(layers[i]!, name);
      if (v !== undefined) return { layer: i, name, value: v };
    }
    return undefined;
  };
  const at = layers.findIndex((l) => value(l, 'ZHIXING_BASE_URL') ?? value(l, 'ZHIXING_PROVIDER'));
  const layer = at >= 0 ? layers[at]! : undefined;
  const named = layer && value(layer, 'ZHIXING_PROVIDER');
  const preset = named ? presetOf(named) : undefined;
  const ownUrl = layer && value(layer, 'ZHIXING_BASE_URL');
  const openAiUrl = find('OPENAI_BASE_URL');

  const baseUrl = ownUrl ?? preset?.baseUrl ?? openAiUrl?.value;
  const endpoint: Source | undefined = layer
    ? { layer: at, name: ownUrl ? 'ZHIXING_BASE_URL' : 'ZHIXING_PROVIDER' }
    : openAiUrl;
  const provider = preset?.name ?? (baseUrl ? 'custom' : 'openai');
  // A preset speaks for the layers below it; a URL of the user's own leaves their model choice alone.
  const chosen = preset && !ownUrl ? find('ZHIXING_MODEL', at + 1) : (find('ZHIXING_MODEL') ?? find('OPENAI_MODEL'));
  const model = chosen?.value ?? (preset && !ownUrl ? preset.model : PROVIDER_PRESETS.openai.model);
  const modelSource = chosen && { layer: chosen.layer, name: chosen.name };
  const openAiKeyAllowed = !preset || preset.name === 'openai';
  const key = find('ZHIXING_API_KEY') ?? (openAiKeyAllowed ? find('OPENAI_API_KEY') : undefined);
  const bound =
    !key ||
    !endpoint ||
    endpoint.layer === key.layer ||
    (endpoint.layer > key.layer && (options.homeLayers ?? []).includes(endpoint.layer));
  if (bound)
    return {
      provider,
      baseUrl,
      apiKey: key?.value,
      model,
      source: endpoint,
      modelSource,
      keySource: key && { layer: key.layer, name: key.name },
    };
  return {
    provider,
    baseUrl,
    apiKey: undefined,
    model,
    source: endpoint,
    modelSource,
    withheld: { key: { layer: key.layer, name: key.name }, endpoint: { layer: endpoint.layer, name: endpoint.name } },
  };
}
