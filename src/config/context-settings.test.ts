import { describe, expect, it } from 'vitest';
import { tempHome } from '../../test/support/temp-home.js';
import { ConfigError } from './config-error.js';

/** The config a fresh home with these settings gives; the home is removed at once. */
function configOf(env: Record<string, string>, file?: object) {
  const t = tempHome(env, file);
  t.cleanup();
  return t.config;
}

describe('the context settings', () => {
  it("take the preset's window, else 32,000; ZHIXING_CONTEXT_WINDOW or contextWindow wins", () => {
    expect(configOf({ ZHIXING_OFFLINE: '1' }).contextWindow).toBe(32_000);
    expect(configOf({ ZHIXING_PROVIDER: 'deepseek', ZHIXING_API_KEY: 'sk-x' }).contextWindow).toBe(128_000);
    expect(configOf({ ZHIXING_PROVIDER: 'moonshot', ZHIXING_API_KEY: 'sk-x' }).contextWindow).toBe(262_144);
    expect(configOf({ ZHIXING_PROVIDER: 'ollama' }).contextWindow).toBe(4_096);
    expect(configOf({ ZHIXING_BASE_URL: 'http://127.0.0.1:9/v1' }).contextWindow).toBe(32_000);
    expect(configOf({ ZHIXING_CONTEXT_WINDOW: '16000' }).contextWindow).toBe(16_000);
    const file = configOf({}, { contextWindow: 64_000, compaction: false });
    expect([file.contextWindow, file.compaction, file.origins.ZHIXING_CONTEXT_WINDOW?.from]).toEqual([
      64_000,
      false,
      'config-file',
    ]);
    expect(configOf({}).compaction).toBe(true);
    expect(configOf({ ZHIXING_COMPACTION: '0' }).compaction).toBe(false);
  });

  it('refuse a bad value, naming the setting and where it was set', () => {
    expect(() => tempHome({ ZHIXING_CONTEXT_WINDOW: 'lots' })).toThrow(
      /ZHIXING_CONTEXT_WINDOW must be a whole number from 2000 to 10000000 \(got "lots"\)/,
    );
    expect(() => tempHome({}, { contextWindow: 100 })).toThrow(
      /ZHIXING_CONTEXT_WINDOW must be a whole number .* It is set as "contextWindow" in .*config\.json/,
    );
    expect(() => tempHome({ ZHIXING_COMPACTION: 'maybe' })).toThrow(ConfigError);
    expect(() => tempHome({ ZHIXING_COMPACTION: 'maybe' })).toThrow(/ZHIXING_COMPACTION must be 1 or 0 .*got "maybe"/);
  });
});
