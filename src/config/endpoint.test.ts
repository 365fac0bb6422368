import { describe, expect, it } from 'vitest';
import { resolveEndpoint } from './endpoint.js';

describe('resolveEndpoint', () => {
  it('lets a provider named in a higher layer bring its own URL and model over lower layers', () => {
    const env = { ZHIXING_PROVIDER: 'deepseek', ZHIXING_API_KEY: 'k-deepseek' };
    const file = { ZHIXING_BASE_URL: 'https://openrouter.ai/api/v1', ZHIXING_MODEL: 'anthropic/claude' };
    expect(resolveEndpoint([env, {}, {}, file])).toEqual({
      provider: 'deepseek',
      baseUrl: 'https://api.deepseek.com/v1',
      apiKey: 'k-deepseek',
      model: 'deepseek-chat',
    });
    // A model in the same layer as the provider, or above it, still wins.
    expect(resolveEndpoint([{ ZHIXING_MODEL: 'deepseek-reasoner' }, env, file]).model).toBe('deepseek-reasoner');
  });

  it('never sends an ambient OPENAI_API_KEY to another named provider', () => {
    const ambient = { OPENAI_API_KEY: 'k-openai' };
    expect(resolveEndpoint([{ ZHIXING_PROVIDER: 'deepseek', ...ambient }]).apiKey).toBeUndefined();
    expect(resolveEndpoint([{ ZHIXING_PROVIDER: 'openai', ...ambient }]).apiKey).toBe('k-openai');
    // A URL of the user's own is the OpenAI-compatible setup those variables are for.
    expect(resolveEndpoint([{ OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1', ...ambient }])).toMatchObject({ provider: 'custom', apiKey: 'k-openai' });
  });

  it('keeps the user\'s model with a URL of their own, from any layer', () => {
    expect(resolveEndpoint([{ ZHIXING_BASE_URL: 'http://127.0.0.1:11434/v1' }, {}, { ZHIXING_MODEL: 'qwen3:8b' }])).toEqual({
      provider: 'custom', baseUrl: 'http://127.0.0.1:11434/v1', apiKey: undefined, model: 'qwen3:8b',
    });
    expect(resolveEndpoint([{ ZHIXING_BASE_URL: 'http://proxy/v1', ZHIXING_PROVIDER: 'qwen' }])).toMatchObject({ provider: 'qwen', baseUrl: 'http://proxy/v1' });
  });

  it('has nothing to say when nothing is set, and refuses an unknown provider', () => {
    expect(resolveEndpoint([{}, {}])).toMatchObject({ provider: 'openai', baseUrl: undefined, apiKey: undefined });
    expect(() => resolveEndpoint([{ ZHIXING_PROVIDER: 'acme' }])).toThrow(/Unknown provider "acme"\. Use one of: openai, deepseek/);
  });
});
