/**
 * Provider presets for `ZHIXING_PROVIDER`: a base URL and a default model each.
 * Config reads them on every start, so this file stays free of imports.
 */

export type ProviderName = 'openai' | 'deepseek' | 'qwen' | 'zhipu' | 'moonshot' | 'openrouter' | 'ollama';

/** What a preset fills in when the user names a provider instead of a URL. */
export interface ProviderPreset {
  /** OpenAI-compatible base URL, ending before `/chat/completions`. */
  baseUrl: string;
  /** Default model: one that calls tools well and is cheap enough to leave on. */
  model: string;
  /** Name shown to the user. */
  label: string;
}

export const PROVIDER_PRESETS: Record<ProviderName, ProviderPreset> = {
  openai: { baseUrl: 'https://api.openai.com/v1', model: 'gpt-4.1-mini', label: 'OpenAI' },
  deepseek: { baseUrl: 'https://api.deepseek.com/v1', model: 'deepseek-chat', label: 'DeepSeek 深度求索' },
  qwen: {
    baseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
    model: 'qwen-plus',
    label: 'Qwen 通义千问 (DashScope)',
  },
  zhipu: { baseUrl: 'https://open.bigmodel.cn/api/paas/v4', model: 'glm-4.5-flash', label: 'Zhipu GLM 智谱' },
  moonshot: { baseUrl: 'https://api.moonshot.cn/v1', model: 'kimi-k2.5', label: 'Moonshot Kimi 月之暗面' },
  openrouter: { baseUrl: 'https://openrouter.ai/api/v1', model: 'openai/gpt-4.1-mini', label: 'OpenRouter' },
  ollama: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen3:8b', label: 'Ollama (local)' },
};

export function isProviderName(value: string): value is ProviderName {
  return Object.hasOwn(PROVIDER_PRESETS, value);
}
