/**
 * The open web's settings: whether web_fetch and the browser may reach private addresses, which
 * search service web_search asks, and which Chromium the browser tools drive.
 *
 * They are read from the environment, the home's .env and config.json's `web` (in that order), never from a ./.env
 * in the folder Zhixing starts in: a cloned project must not lift the network policy, point the
 * browser at a program of its choosing or send searches (and a key) to its own server.
 */
import { z } from 'zod';
import { SEARCH_PROVIDERS, type SearchProvider } from '../contract/search-provider.js';
import { hasControlChars } from './control-chars.js';
import { onOff } from './context-settings.js';
import { ConfigError } from './config-error.js';
import { echo, type SettingOrigin } from './setting-checks.js';

/** Each provider's endpoint when ZHIXING_SEARCH_URL does not name another (SearXNG has none: it is self-hosted). */
export const SEARCH_ENDPOINTS: Record<Exclude<SearchProvider, 'searxng'>, string> = {
  brave: 'https://api.search.brave.com/res/v1/web/search',
  tavily: 'https://api.tavily.com/search',
  bing: 'https://api.bing.microsoft.com/v7.0/search',
};

export interface SearchSettings {
  provider: SearchProvider;
  /** The endpoint asked: SearXNG's base URL, or the provider's API URL. */
  url: string;
  /** The provider's key (never for SearXNG). Never printed. */
  apiKey?: string;
}

export interface WebSettings {
  /** ZHIXING_ALLOW_PRIVATE_NETWORK=1: web_fetch and the browser may reach loopback and private addresses. */
  allowPrivateNetwork: boolean;
  /** Where web_search asks; none: the tool says how to set one up. */
  search?: SearchSettings;
  /** ZHIXING_CHROMIUM_PATH; none: found on PATH when the browser is first used. */
  chromiumPath?: string;
  /** ZHIXING_BROWSER_CDP_URL: attach to the user's running Chrome instead of starting one. */
  browserCdpUrl?: string;
}

/** config.json's `web`. The search key may sit here, as the model's may: config.json is the user's own file, in their home. */
export const WebFileSettings = z
  .object({
    allowPrivateNetwork: z.boolean().optional(),
    search: z
      .object({
        provider: z.enum(SEARCH_PROVIDERS).optional(),
        url: z.string().optional(),
        apiKey: z.string().optional(),
      })
      .strict()
      .optional(),
    chromiumPath: z.string().optional(),
    browserCdpUrl: z.string().optional(),
  })
  .strict();
export type WebFileSettings = z.infer<typeof WebFileSettings>;

/** A setting's value and where it came from; undefined when it is not set anywhere we read. */
export type Lookup = (name: string) => { value: string; origin: SettingOrigin } | undefined;

/**
 * The web settings in effect. `origins`, when given, gets where each one that is set came from, by
 * its environment name, for `zhixing config`.
 */
export function readWebSettings(
  lookup: Lookup,
  file: WebFileSettings | undefined,
  configPath: string,
  origins?: Record<string, SettingOrigin>,
): WebSettings {
  const fromFile = (key: string): SettingOrigin => ({ from: 'config-file', key: `web.${key}`, path: configPath });
  const pick = (name: string, fileKey: string, fileValue: string | boolean | undefined) => {
    const set =
      lookup(name) ??
      (fileValue === undefined || fileValue === ''
        ? undefined
        : { value: String(fileValue), origin: fromFile(fileKey) });
    if (set && origins) origins[name] = set.origin;
    return set;
  };

  const privateNet = pick('ZHIXING_ALLOW_PRIVATE_NETWORK', 'allowPrivateNetwork', file?.allowPrivateNetwork);
  const allowPrivateNetwork = privateNet
    ? onOff('ZHIXING_ALLOW_PRIVATE_NETWORK', privateNet.value, privateNet.origin)
    : false;

  const providerSet = pick('ZHIXING_SEARCH_PROVIDER', 'search.provider', file?.search?.provider);
  const urlSet = pick('ZHIXING_SEARCH_URL', 'search.url', file?.search?.url);
  const apiKey = pick('ZHIXING_SEARCH_API_KEY', 'search.apiKey', file?.search?.apiKey?.trim())?.value;
  let search: SearchSettings | undefined;
  if (providerSet || urlSet || apiKey) {
    const provider = providerSet ? searchProvider(providerSet.value) : urlSet && !apiKey ? 'searxng' : undefined;
    if (!provider) {
      throw new ConfigError(
        `ZHIXING_SEARCH_API_KEY is set but not which service it is for: set ZHIXING_SEARCH_PROVIDER to ${SEARCH_PROVIDERS.filter((p) => p !== 'searxng').join(', ')}.`,
        `设置了 ZHIXING_SEARCH_API_KEY，但没有说它属于哪个搜索服务：请把 ZHIXING_SEARCH_PROVIDER 设为 brave、tavily 或 bing。`,
      );
    }
    const url = urlSet?.value ?? (provider === 'searxng' ? undefined : SEARCH_ENDPOINTS[provider]);
    if (!url) {
      throw new ConfigError(
        'ZHIXING_SEARCH_PROVIDER=searxng needs ZHIXING_SEARCH_URL, the address of your SearXNG instance (e.g. http://127.0.0.1:8080).',
        'ZHIXING_SEARCH_PROVIDER=searxng 需要 ZHIXING_SEARCH_URL，即你的 SearXNG 地址（例如 http://127.0.0.1:8080）。',
      );
    }
    checkHttpUrl(url, 'ZHIXING_SEARCH_URL');
    if (provider !== 'searxng' && !apiKey) {
      throw new ConfigError(
        `web search through ${provider} needs its key in ZHIXING_SEARCH_API_KEY (in the environment or ~/.zhixing/.env), or in config.json as web.search.apiKey.`,
        `通过 ${provider} 搜索需要在 ZHIXING_SEARCH_API_KEY 里设置它的密钥（环境变量或 ~/.zhixing/.env），或写在 config.json 的 web.search.apiKey 里。`,
      );
    }
    search = { provider, url, ...(provider !== 'searxng' && apiKey ? { apiKey } : {}) };
  }

  const chromiumPath = pick('ZHIXING_CHROMIUM_PATH', 'chromiumPath', file?.chromiumPath)?.value;
  if (chromiumPath !== undefined && hasControlChars(chromiumPath)) {
    throw new ConfigError('ZHIXING_CHROMIUM_PATH holds control characters.', 'ZHIXING_CHROMIUM_PATH 里有控制字符。');
  }
  const browserCdpUrl = pick('ZHIXING_BROWSER_CDP_URL', 'browserCdpUrl', file?.browserCdpUrl)?.value;
  if (browserCdpUrl !== undefined)
    checkHttpUrl(browserCdpUrl, 'ZHIXING_BROWSER_CDP_URL', ['http:', 'https:', 'ws:', 'wss:']);

  return {
    allowPrivateNetwork,
    ...(search ? { search } : {}),
    ...(chromiumPath ? { chromiumPath } : {}),
    ...(browserCdpUrl ? { browserCdpUrl } : {}),
  };
}

function searchProvider(value: string): SearchProvider {
  const v = value.trim().toLowerCase();
  if ((SEARCH_PROVIDERS as readonly string[]).includes(v)) return v as SearchProvider;
  throw new ConfigError(
    `ZHIXING_SEARCH_PROVIDER must be one of ${SEARCH_PROVIDERS.join(', ')}, got ${echo(value, 'value')}.`,
    `ZHIXING_SEARCH_PROVIDER 必须是 ${SEARCH_PROVIDERS.join('、')} 之一，现在是 ${echo(value, 'value')}。`,
  );
}

function checkHttpUrl(value: string, name: string, schemes = ['http:', 'https:']): void {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || !schemes.includes(url.protocol)) {
    throw new ConfigError(
      `${name} must be a full ${schemes.map((s) => s.replace(':', '')).join('/')} URL, got ${echo(value, 'value')}.`,
      `${name} 必须是完整的 ${schemes.map((s) => s.replace(':', '')).join('/')} 地址，现在是 ${echo(value, 'value')}。`,
    );
  }
}
