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
      source: { layer: 0, name: 'ZHIXING_PROVIDER' },
      // The preset's model: set nowhere.
      modelSource: undefined,
      keySource: { layer: 0, name: 'ZHIXING_API_KEY' },
    });
    // A model in the same layer as the provider, or above it, still wins.
    expect(resolveEndpoint([{ ZHIXING_MODEL: 'deepseek-reasoner' }, env, file]).model).toBe('deepseek-reasoner');
  });

  it('never sends an ambient OPENAI_API_KEY to another named provider', () => {
    const ambient = { OPENAI_API_KEY: 'k-openai' };
    expect(resolveEndpoint([{ ZHIXING_PROVIDER: 'deepseek', ...ambient }]).apiKey).toBeUndefined();
    expect(resolveEndpoint([{ ZHIXING_PROVIDER: 'openai', ...ambient }]).apiKey).toBe('k-openai');
    // A URL of the user's own is the OpenAI-compatible setup those variables are for.
    expect(resolveEndpoint([{ OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1', ...ambient }])).toMatchObject({
      provider: 'custom',
      apiKey: 'k-openai',
    });
  });

  it("keeps the user's model with a URL of their own, from any layer", () => {
    expect(
      resolveEndpoint([{ ZHIXING_BASE_URL: 'http://127.0.0.1:11434/v1' }, {}, { ZHIXING_MODEL: 'qwen3:8b' }]),
    ).toEqual({
      provider: 'custom',
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: undefined,
      model: 'qwen3:8b',
      source: { layer: 0, name: 'ZHIXING_BASE_URL' },
      modelSource: { layer: 2, name: 'ZHIXING_MODEL' },
      keySource: undefined,
    });
    expect(resolveEndpoint([{ ZHIXING_BASE_URL: 'http://proxy/v1', ZHIXING_PROVIDER: 'qwen' }])).toMatchObject({
      provider: 'qwen',
      baseUrl: 'http://proxy/v1',
    });
  });

  it('has nothing to say when nothing is set, and refuses an unknown provider', () => {
    expect(resolveEndpoint([{}, {}])).toMatchObject({ provider: 'openai', baseUrl: undefined, apiKey: undefined });
    expect(() => resolveEndpoint([{ ZHIXING_PROVIDER: 'acme' }])).toThrow(
      /Unknown provider "acme"\. Use one of: openai, deepseek/,
    );
  });

  it('sends a key only with the endpoint of its own layer, or one from a home layer below it', () => {
    const home = { homeLayers: [2, 3] };
    const url = (u: string) => ({ ZHIXING_BASE_URL: u });
    // The key's own layer names the endpoint.
    expect(resolveEndpoint([{}, { ...url('http://a/v1'), ZHIXING_API_KEY: 'k' }], home).apiKey).toBe('k');
    // A key in the shell, a provider chosen in config.json.
    expect(resolveEndpoint([{ ZHIXING_API_KEY: 'k' }, {}, {}, { ZHIXING_PROVIDER: 'deepseek' }], home).apiKey).toBe(
      'k',
    );
    // No endpoint named anywhere: OpenAI's.
    expect(resolveEndpoint([{}, {}, {}, { ZHIXING_API_KEY: 'k' }], home).apiKey).toBe('k');
    // A higher layer re-points the key, or a lower one that is not the user's home.
    expect(resolveEndpoint([url('http://b/v1'), {}, {}, { ZHIXING_API_KEY: 'k' }], home)).toMatchObject({
      baseUrl: 'http://b/v1',
      apiKey: undefined,
      withheld: { key: { layer: 3, name: 'ZHIXING_API_KEY' }, endpoint: { layer: 0, name: 'ZHIXING_BASE_URL' } },
    });
    expect(resolveEndpoint([{ ZHIXING_API_KEY: 'k' }, url('http://c/v1')], home).withheld?.endpoint).toEqual({
      layer: 1,
      name: 'ZHIXING_BASE_URL',
    });
    expect(resolveEndpoint([{ ZHIXING_API_KEY: 'k' }, {}, { ZHIXING_PROVIDER: 'qwen' }]).apiKey).toBeUndefined();
    // OPENAI_* names an endpoint and brings a key the same way.
    expect(resolveEndpoint([{ OPENAI_API_KEY: 'k' }, { OPENAI_BASE_URL: 'http://d/v1' }], home).withheld).toEqual({
      key: { layer: 0, name: 'OPENAI_API_KEY' },
      endpoint: { layer: 1, name: 'OPENAI_BASE_URL' },
    });
    // The endpoint actually used decides, not an OPENAI_BASE_URL that a ZHIXING_* setting overrides.
    expect(
      resolveEndpoint(
        [{ OPENAI_BASE_URL: 'http://e/v1' }, {}, {}, { ...url('http://f/v1'), ZHIXING_API_KEY: 'k' }],
        home,
      ),
    ).toMatchObject({
      baseUrl: 'http://f/v1',
      apiKey: 'k',
    });
  });
});
