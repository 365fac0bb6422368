/**
 * How much a model can read at once, and whether older messages may be summarised: the settings
 * behind ZHIXING_CONTEXT_WINDOW / `contextWindow` and ZHIXING_COMPACTION / `compaction`.
 */
import { hasControlChars } from './control-chars.js';
// Used only when a value is refused, long after both modules have loaded.
import { ConfigError } from './config-error.js';
import { originLabel, type SettingOrigin } from './setting-checks.js';

/** Below this a request could not hold the system prompt and the tools' schemas. */
export const MIN_CONTEXT_WINDOW = 2_000;
export const MAX_CONTEXT_WINDOW = 10_000_000;
/** For a model nobody told us about: a size nearly every current chat model has. */
export const FALLBACK_CONTEXT_WINDOW = 32_000;

/**
 * The context window of each preset's default model, in tokens, from the providers' model pages
 * (2026): gpt-4.1-mini 1,047,576; deepseek-chat 128K; qwen-plus 131,072; glm-4.5-flash 128K;
 * kimi-k2.5 256K. Ollama's server gives a model 4,096 tokens unless OLLAMA_CONTEXT_LENGTH says more,
 * whatever the model could take: set ZHIXING_CONTEXT_WINDOW to match when you raise it.
 */
const PRESET_WINDOWS: Record<string, number> = {
  openai: 1_047_576,
  openrouter: 1_047_576,
  deepseek: 128_000,
  qwen: 131_072,
  zhipu: 128_000,
  moonshot: 262_144,
  ollama: 4_096,
  offline: FALLBACK_CONTEXT_WINDOW,
};

export function defaultContextWindow(provider: string): number {
  return PRESET_WINDOWS[provider] ?? FALLBACK_CONTEXT_WINDOW;
}

const ON = new Set(['1', 'true', 'on', 'yes']);
const OFF = new Set(['0', 'false', 'off', 'no']);

/** An on/off setting (default on): 1/0, true/false, on/off; anything else is refused, naming where it was set. */
export function onOff(name: string, raw: string | undefined, origin: SettingOrigin): boolean {
  if (raw === undefined) return true;
  const v = raw.trim().toLowerCase();
  if (ON.has(v)) return true;
  if (OFF.has(v)) return false;
  const label = originLabel(origin, name);
  const got = hasControlChars(raw) ? 'a value that contains control characters' : `"${raw.slice(0, 40)}"`;
  throw new ConfigError(
    `${label} must be 1 or 0 (true or false in config.json), got ${got}.`,
    `${label} 必须是 1 或 0（config.json 里写 true 或 false），现在是 ${got}。`,
  );
}
