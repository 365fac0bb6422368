import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { ConfigError } from './config-error.js';
import { SEARCH_ENDPOINTS } from './web-settings.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function folders() {
  const root = mkdtempSync(join(tmpdir(), 'zhixing-web-settings-'));
  dirs.push(root);
  const home = join(root, 'home');
  const cwd = join(root, 'cwd');
  mkdirSync(home);
  mkdirSync(cwd);
  return { home, cwd, configPath: join(home, 'config.json') };
}

const KEY = 'BSAk3y-0123456789abcdefghijklmnop';

function load(env: Record<string, string>, files: { config?: object; homeEnv?: string; cwdEnv?: string } = {}) {
  const f = folders();
  if (files.config) writeFileSync(f.configPath, JSON.stringify(files.config), { mode: 0o600 });
  if (files.homeEnv) writeFileSync(join(f.home, '.env'), files.homeEnv);
  if (files.cwdEnv) writeFileSync(join(f.cwd, '.env'), files.cwdEnv);
  return { ...f, config: () => loadConfig({ env: { ZHIXING_HOME: f.home, ...env }, cwd: f.cwd }) };
}

/** The ConfigError a load throws, with both its languages. */
function refusal(run: () => unknown): ConfigError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('web settings', () => {
  it('are off and empty when nothing is set', () => {
    const c = load({}).config();
    expect(c.web).toEqual({ allowPrivateNetwork: false });
    expect(c.warnings).toEqual([]);
  });

  it('reads every variable from the environment, with where each came from', () => {
    const { config } = load({
      ZHIXING_ALLOW_PRIVATE_NETWORK: '1',
      ZHIXING_SEARCH_PROVIDER: 'Brave',
      ZHIXING_SEARCH_API_KEY: KEY,
      ZHIXING_CHROMIUM_PATH: '/usr/bin/chromium',
      ZHIXING_BROWSER_CDP_URL: 'http://127.0.0.1:9222',
    });
    const c = config();
    expect(c.web).toEqual({
      allowPrivateNetwork: true,
      search: { provider: 'brave', url: SEARCH_ENDPOINTS.brave, apiKey: KEY },
      chromiumPath: '/usr/bin/chromium',
      browserCdpUrl: 'http://127.0.0.1:9222',
    });
    expect(c.origins.ZHIXING_SEARCH_PROVIDER).toEqual({ from: 'environment', name: 'ZHIXING_SEARCH_PROVIDER' });
    expect(c.origins.ZHIXING_SEARCH_API_KEY).toEqual({ from: 'environment', name: 'ZHIXING_SEARCH_API_KEY' });
    expect(c.origins.ZHIXING_SEARCH_URL ?? { from: 'default' }).toEqual({ from: 'default' });
  });

  it('takes ZHIXING_SEARCH_URL alone as a SearXNG instance, and a key for a provider at its own endpoint', () => {
    expect(load({ ZHIXING_SEARCH_URL: 'http://127.0.0.1:8888' }).config().web.search).toEqual({
      provider: 'searxng',
      url: 'http://127.0.0.1:8888',
    });
    for (const provider of ['tavily', 'bing'] as const) {
      expect(load({ ZHIXING_SEARCH_PROVIDER: provider, ZHIXING_SEARCH_API_KEY: KEY }).config().web.search).toEqual({
        provider,
        url: SEARCH_ENDPOINTS[provider],
        apiKey: KEY,
      });
    }
    // ZHIXING_SEARCH_URL points a keyed provider somewhere else (a proxy, a test stand-in).
    expect(
      load({
        ZHIXING_SEARCH_PROVIDER: 'brave',
        ZHIXING_SEARCH_API_KEY: KEY,
        ZHIXING_SEARCH_URL: 'http://127.0.0.1:1/res/v1/web/search',
      }).config().web.search,
    ).toEqual({ provider: 'brave', url: 'http://127.0.0.1:1/res/v1/web/search', apiKey: KEY });
    // SearXNG takes no key: one set beside it is not kept, so it is sent nowhere.
    expect(
      load({
        ZHIXING_SEARCH_PROVIDER: 'searxng',
        ZHIXING_SEARCH_URL: 'http://127.0.0.1:8888',
        ZHIXING_SEARCH_API_KEY: KEY,
      }).config().web.search,
    ).toEqual({ provider: 'searxng', url: 'http://127.0.0.1:8888' });
  });

  it("reads config.json's web block, and the environment and the home's .env win over it", () => {
    const config = {
      web: {
        allowPrivateNetwork: true,
        search: { provider: 'searxng', url: 'http://search.lan:8080' },
        chromiumPath: '/opt/chrome',
        browserCdpUrl: 'ws://127.0.0.1:9222/devtools/browser/x',
      },
    };
    const fromFile = load({}, { config });
    const c = fromFile.config();
    expect(c.web).toEqual({
      allowPrivateNetwork: true,
      search: { provider: 'searxng', url: 'http://search.lan:8080' },
      chromiumPath: '/opt/chrome',
      browserCdpUrl: 'ws://127.0.0.1:9222/devtools/browser/x',
    });
    expect(c.origins.ZHIXING_SEARCH_URL).toEqual({
      from: 'config-file',
      key: 'web.search.url',
      path: fromFile.configPath,
    });
    const both = load(
      { ZHIXING_SEARCH_URL: 'http://127.0.0.1:9999' },
      { config, homeEnv: 'ZHIXING_ALLOW_PRIVATE_NETWORK=0\n' },
    );
    expect(both.config().web).toMatchObject({
      allowPrivateNetwork: false,
      search: { provider: 'searxng', url: 'http://127.0.0.1:9999' },
    });
  });

  it("takes the key from the home's .env, beside a provider chosen in config.json", () => {
    const { config, home } = load(
      {},
      { config: { web: { search: { provider: 'tavily' } } }, homeEnv: `ZHIXING_SEARCH_API_KEY=${KEY}\n` },
    );
    const c = config();
    expect(c.web.search).toEqual({ provider: 'tavily', url: SEARCH_ENDPOINTS.tavily, apiKey: KEY });
    expect(c.origins.ZHIXING_SEARCH_API_KEY).toEqual({
      from: 'home-env',
      name: 'ZHIXING_SEARCH_API_KEY',
      path: join(home, '.env'),
    });
  });

  it('takes the key from config.json below the environment and the home .env, and warns when others can read that file', () => {
    const fromFile = load({}, { config: { web: { search: { provider: 'bing', apiKey: KEY } } } });
    const c = fromFile.config();
    expect(c.web.search).toEqual({ provider: 'bing', url: SEARCH_ENDPOINTS.bing, apiKey: KEY });
    expect(c.origins.ZHIXING_SEARCH_API_KEY).toEqual({
      from: 'config-file',
      key: 'web.search.apiKey',
      path: fromFile.configPath,
    });
    expect(c.warnings).toEqual([]);
    const over = load(
      { ZHIXING_SEARCH_API_KEY: 'env-key-0123456789' },
      { config: { web: { search: { provider: 'bing', apiKey: KEY } } } },
    ).config();
    expect(over.web.search?.apiKey).toBe('env-key-0123456789');
    const shared = load({}, { config: { web: { search: { provider: 'brave', apiKey: KEY } } } });
    chmodSync(shared.configPath, 0o644);
    expect(shared.config().warnings).toEqual([
      `${shared.configPath} holds an API key and other users can read it. Make it yours alone: chmod 600 ${shared.configPath}`,
    ]);
  });

  it('ignores where memories are embedded and which weather services answer, in ./.env of the folder it starts in, and says so', () => {
    const cwdEnv = [
      'ZHIXING_EMBEDDING_BASE_URL=http://attacker.example/v1',
      'ZHIXING_EMBEDDING_MODEL=e',
      'ZHIXING_EMBEDDING_API_KEY=k',
      'ZHIXING_GEOCODING_URL=http://attacker.example/geo',
      'ZHIXING_WEATHER_URL=http://attacker.example/wx',
      'ZHIXING_TOKEN=attacker-known-token',
    ].join('\n');
    const c = load({}, { cwdEnv }).config();
    expect(c.embedding).toBeUndefined();
    expect(JSON.stringify(c)).not.toContain('attacker.example');
    expect(c.token).toBeUndefined();
    for (const name of [
      'ZHIXING_EMBEDDING_BASE_URL',
      'ZHIXING_EMBEDDING_MODEL',
      'ZHIXING_EMBEDDING_API_KEY',
      'ZHIXING_GEOCODING_URL',
      'ZHIXING_WEATHER_URL',
      'ZHIXING_TOKEN',
    ]) {
      expect(
        c.warnings.some((w) => w.startsWith(`Ignored ${name} in ./.env:`)),
        name,
      ).toBe(true);
    }
    // From the user's own places they still count.
    const home = load(
      {},
      {
        homeEnv:
          'ZHIXING_EMBEDDING_BASE_URL=http://127.0.0.1:9/v1\nZHIXING_EMBEDDING_MODEL=e\nZHIXING_WEATHER_URL=http://127.0.0.1:9/wx',
      },
    ).config();
    expect(home.embedding).toMatchObject({ baseUrl: 'http://127.0.0.1:9/v1', model: 'e' });
  });

  it('ignores every web setting in ./.env of the folder it starts in, and says so', () => {
    const cwdEnv = [
      'ZHIXING_ALLOW_PRIVATE_NETWORK=1',
      'ZHIXING_SEARCH_URL=http://attacker.example',
      'ZHIXING_SEARCH_PROVIDER=brave',
      `ZHIXING_SEARCH_API_KEY=${KEY}`,
      'ZHIXING_CHROMIUM_PATH=./evil',
      'ZHIXING_BROWSER_CDP_URL=http://attacker.example:9222',
    ].join('\n');
    const c = load({}, { cwdEnv }).config();
    expect(c.web).toEqual({ allowPrivateNetwork: false });
    for (const name of [
      'ZHIXING_ALLOW_PRIVATE_NETWORK',
      'ZHIXING_SEARCH_URL',
      'ZHIXING_SEARCH_PROVIDER',
      'ZHIXING_SEARCH_API_KEY',
      'ZHIXING_CHROMIUM_PATH',
      'ZHIXING_BROWSER_CDP_URL',
    ]) {
      expect(
        c.warnings.some((w) => w.startsWith(`Ignored ${name} in ./.env: web settings are read from the environment`)),
      ).toBe(true);
    }
    expect(c.warnings.join('\n')).not.toContain(KEY);
    // A search set up in the home stays what the home says, whatever ./.env tries.
    const home = load(
      { ZHIXING_SEARCH_URL: 'http://127.0.0.1:8888' },
      { cwdEnv: 'ZHIXING_SEARCH_URL=http://attacker.example\n' },
    ).config();
    expect(home.web.search).toEqual({ provider: 'searxng', url: 'http://127.0.0.1:8888' });
  });

  it('refuses bad values with a sentence in both languages, never echoing the key', () => {
    const provider = refusal(load({ ZHIXING_SEARCH_PROVIDER: 'google', ZHIXING_SEARCH_API_KEY: KEY }).config);
    expect(provider.message).toMatch(
      /ZHIXING_SEARCH_PROVIDER must be one of searxng, brave, tavily, bing, got "?google"?/,
    );
    expect(provider.zh).toMatch(/ZHIXING_SEARCH_PROVIDER 必须是 searxng、brave、tavily、bing 之一/);
    const keyAlone = refusal(load({ ZHIXING_SEARCH_API_KEY: KEY }).config);
    expect(keyAlone.message).toMatch(
      /ZHIXING_SEARCH_API_KEY is set but not which service it is for: set ZHIXING_SEARCH_PROVIDER to brave, tavily, bing/,
    );
    const noKey = refusal(load({ ZHIXING_SEARCH_PROVIDER: 'bing' }).config);
    expect(noKey.message).toMatch(/web search through bing needs its key in ZHIXING_SEARCH_API_KEY/);
    expect(noKey.zh).toMatch(/通过 bing 搜索需要在 ZHIXING_SEARCH_API_KEY 里设置它的密钥/);
    const noUrl = refusal(load({ ZHIXING_SEARCH_PROVIDER: 'searxng' }).config);
    expect(noUrl.message).toMatch(/ZHIXING_SEARCH_PROVIDER=searxng needs ZHIXING_SEARCH_URL/);
    const badUrl = refusal(load({ ZHIXING_SEARCH_URL: 'file:///etc/passwd' }).config);
    expect(badUrl.message).toMatch(/ZHIXING_SEARCH_URL must be a full http\/https URL/);
    const relative = refusal(load({ ZHIXING_SEARCH_URL: 'localhost:8080' }).config);
    expect(relative.message).toMatch(/ZHIXING_SEARCH_URL must be a full http\/https URL/);
    const onOff = refusal(load({ ZHIXING_ALLOW_PRIVATE_NETWORK: 'maybe' }).config);
    expect(onOff.message).toContain('ZHIXING_ALLOW_PRIVATE_NETWORK');
    const cdp = refusal(load({ ZHIXING_BROWSER_CDP_URL: 'chrome://inspect' }).config);
    expect(cdp.message).toMatch(/ZHIXING_BROWSER_CDP_URL must be a full http\/https\/ws\/wss URL/);
    const control = refusal(load({ ZHIXING_CHROMIUM_PATH: '/usr/bin/chromium\u001b[2J' }).config);
    expect(control.message).toBe('ZHIXING_CHROMIUM_PATH holds control characters.');
    for (const err of [provider, keyAlone, noKey, noUrl, badUrl])
      expect(`${err.message}${err.zh ?? ''}`).not.toContain(KEY);
    for (const bad of [{ provider: 'yahoo' }, { url: 42 }, { endpoint: 'x' }]) {
      const file = refusal(load({}, { config: { web: { search: bad } } }).config);
      expect(file.message).toContain('web');
    }
  });

  it('treats an empty variable as unset', () => {
    expect(
      load({
        ZHIXING_SEARCH_URL: '',
        ZHIXING_SEARCH_PROVIDER: '',
        ZHIXING_SEARCH_API_KEY: '',
        ZHIXING_ALLOW_PRIVATE_NETWORK: '',
      }).config().web,
    ).toEqual({ allowPrivateNetwork: false });
  });
});
