/**
 * What web_search does when it runs: the request to the configured service, its answer read under a
 * size cap, and the results as the model reads them. Loaded with the first search.
 */
import type { SearchSettings } from '../config/web-settings.js';
import { say, type Lang } from '../i18n.js';
import { deadline } from '../net/deadline.js';
import { parseResults, searchRequest, type SearchResult } from './web-search-providers.js';
import { DEFAULT_COUNT, MAX_RESPONSE_BYTES } from './web-search-limits.js';
import type { ToolContext, ToolOutput } from './tool.js';
import { ToolError } from '../contract/tool-error.js';
import { untrusted } from '../contract/untrusted-fence.js';

const PROVIDER_NAMES = { searxng: 'SearXNG', brave: 'Brave Search', tavily: 'Tavily', bing: 'Bing' } as const;

export interface RunDeps {
  search: SearchSettings | undefined;
  fetchFn: typeof fetch;
  timeoutMs: number;
}

export async function runSearch(
  { query: asked, count }: { query: string; count?: number },
  ctx: ToolContext,
  deps: RunDeps,
): Promise<ToolOutput> {
  const { fetchFn, timeoutMs } = deps;
  const query = asked.trim();
  if (!query) throw new ToolError(say(ctx.lang, '请告诉我要搜索什么。', 'Please say what to search for.'));
  const settings = deps.search;
  if (!settings) throw new ToolError(setupMessage(ctx.lang));
  const wanted = count ?? DEFAULT_COUNT;
  const { url, init } = searchRequest(settings, query, wanted);
  const name = PROVIDER_NAMES[settings.provider];
  ctx.progress(say(ctx.lang, `正在用 ${name} 搜索…`, `Searching with ${name}…`));

  const body = await getJson(url, init, { fetchFn, lang: ctx.lang, ctxSignal: ctx.signal, timeoutMs, settings });
  const results = parseResults(settings.provider, body, wanted);
  if (!results) throw fail(ctx.lang, settings, 'shape');

  const metadata = { provider: settings.provider, query, results };
  const title = say(
    ctx.lang,
    `「${query}」· ${results.length} 条结果`,
    `"${query}" · ${results.length} result${results.length === 1 ? '' : 's'}`,
  );
  if (results.length === 0) {
    return {
      output: say(ctx.lang, `${name} 没有找到「${query}」的结果。`, `${name} found no results for "${query}".`),
      title,
      metadata,
    };
  }
  return { output: untrusted(query, formatResults(results), 'search results'), title, metadata };
}

/** `1. Title\n   URL\n   snippet`, the shape a person scans and the model cites. */
export function formatResults(results: SearchResult[]): string {
  return results
    .map((r, i) => [`${i + 1}. ${r.title}`, `   ${r.url}`, ...(r.snippet ? [`   ${r.snippet}`] : [])].join('\n'))
    .join('\n\n');
}

/** What to tell the user when no search service is configured. */
export function setupMessage(lang: Lang): string {
  return say(
    lang,
    '还没有配置网络搜索服务。可以设置以下任意一种（写进环境变量或 ~/.zhixing/.env）：\n' +
      '- 自建的 SearXNG：ZHIXING_SEARCH_URL=http://127.0.0.1:8080（需在 settings.yml 的 search.formats 里启用 json）\n' +
      '- 或者带密钥的服务：ZHIXING_SEARCH_PROVIDER=brave、tavily 或 bing，再加 ZHIXING_SEARCH_API_KEY=你的密钥\n' +
      '设置后重新启动知行。',
    'No web search service is set up. To set one up (in the environment or ~/.zhixing/.env), use either:\n' +
      '- a SearXNG instance: ZHIXING_SEARCH_URL=http://127.0.0.1:8080 (with json enabled under search.formats in its settings.yml)\n' +
      '- or a service with a key: ZHIXING_SEARCH_PROVIDER=brave, tavily or bing, plus ZHIXING_SEARCH_API_KEY=<the key>\n' +
      'Then start Zhixing again.',
  );
}

interface JsonRequest {
  fetchFn: typeof fetch;
  lang: Lang;
  ctxSignal: AbortSignal;
  timeoutMs: number;
  settings: SearchSettings;
}

type Failure =
  'key' | 'rate' | 'timeout' | 'network' | 'shape' | 'not-json' | 'too-big' | 'redirect' | 'json-disabled' | number;

/**
 * The configured endpoint is the user's own setting, so a SearXNG on localhost is asked with a plain
 * fetch and not through the network policy. A key-bearing request is never redirected: the key's
 * header would go along to wherever the redirect points.
 */
async function getJson(url: URL, init: RequestInit, req: JsonRequest): Promise<unknown> {
  const limit = deadline(req.ctxSignal, req.timeoutMs);
  const { signal } = limit;
  const { lang, settings } = req;
  try {
    const res = await req.fetchFn(url, { ...init, signal, redirect: settings.apiKey ? 'manual' : 'follow' });
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      if (res.status >= 300 && res.status < 400) throw fail(lang, settings, 'redirect');
      // SearXNG answers 403 to a format its settings.yml does not enable.
      if (settings.provider === 'searxng' && res.status === 403) throw fail(lang, settings, 'json-disabled');
      if (res.status === 401 || res.status === 403) throw fail(lang, settings, 'key');
      if (res.status === 429)
        throw fail(
          lang,
          settings,
          'rate',
          /^\d{1,6}$/.test(res.headers.get('retry-after') ?? '') ? res.headers.get('retry-after') : undefined,
        );
      throw fail(lang, settings, res.status);
    }
    const text = await readCapped(res);
    if (text === undefined) throw fail(lang, settings, 'too-big');
    try {
      return JSON.parse(text);
    } catch {
      throw fail(lang, settings, settings.provider === 'searxng' ? 'json-disabled' : 'not-json');
    }
  } catch (err) {
    if (err instanceof ToolError) throw err;
    if (req.ctxSignal.aborted) throw new ToolError(say(lang, '搜索已取消。', 'The search was cancelled.'));
    if (limit.timedOut()) throw fail(lang, settings, 'timeout', String(Number((req.timeoutMs / 1000).toFixed(1))));
    throw fail(lang, settings, 'network');
  } finally {
    limit.clear();
  }
}

/** The body as text, or undefined past the cap (read no further: the rest is never downloaded). */
async function readCapped(res: Response): Promise<string | undefined> {
  const declared = Number(res.headers.get('content-length'));
  if (declared > MAX_RESPONSE_BYTES) {
    await res.body?.cancel().catch(() => {});
    return undefined;
  }
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    size += next.value.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(next.value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** One plain sentence per failure, naming the service and what to do; never the key, never a response body. */
function fail(lang: Lang, settings: SearchSettings, kind: Failure, detail?: string | null): ToolError {
  const name = PROVIDER_NAMES[settings.provider];
  const where = settings.provider === 'searxng' ? ` (${hostOf(settings.url)})` : '';
  const err = (zh: string, en: string) => new ToolError(say(lang, zh, en));
  switch (kind) {
    case 'key':
      return err(
        `${name} 拒绝了搜索密钥：请检查 ZHIXING_SEARCH_API_KEY 是否正确、是否仍有效。`,
        `${name} rejected the search key: check that ZHIXING_SEARCH_API_KEY is right and still valid.`,
      );
    case 'rate':
      return err(
        `${name} 的请求次数已达上限（HTTP 429）${detail ? `，请在 ${detail} 秒后再试` : '，请稍后再试'}。`,
        `${name} is rate limiting the searches (HTTP 429)${detail ? `: try again in ${detail} s` : ': try again later'}.`,
      );
    case 'timeout':
      return err(
        `${name}${where} 在 ${detail} 秒内没有回应，请稍后再试。`,
        `${name}${where} did not answer within ${detail} s; try again later.`,
      );
    case 'network':
      return err(
        `连接不上 ${name}${where}：请检查网络和 ZHIXING_SEARCH_URL。`,
        `Could not reach ${name}${where}: check the network and ZHIXING_SEARCH_URL.`,
      );
    case 'json-disabled':
      return err(
        `SearXNG${where} 没有返回 JSON：请在它的 settings.yml 里启用 JSON 格式（search: formats: [html, json]），然后重启 SearXNG。`,
        `SearXNG${where} did not answer in JSON: enable the JSON format in its settings.yml (search: formats: [html, json]) and restart SearXNG.`,
      );
    case 'not-json':
      return err(
        `${name} 返回的不是 JSON，请检查 ZHIXING_SEARCH_URL。`,
        `${name} did not answer in JSON; check ZHIXING_SEARCH_URL.`,
      );
    case 'shape':
      return err(
        `${name}${where} 的回应不是搜索结果的格式，请检查 ZHIXING_SEARCH_URL 和 ZHIXING_SEARCH_PROVIDER。`,
        `${name}${where} answered with something other than search results; check ZHIXING_SEARCH_URL and ZHIXING_SEARCH_PROVIDER.`,
      );
    case 'too-big':
      return err(
        `${name} 的回应太大（超过 ${MAX_RESPONSE_BYTES / 1024 / 1024} MB），已放弃。`,
        `${name} sent more than ${MAX_RESPONSE_BYTES / 1024 / 1024} MB; gave up on it.`,
      );
    case 'redirect':
      return err(
        `${name} 把请求重定向到了别处；为了不把密钥发给别的地址，没有跟随。请把 ZHIXING_SEARCH_URL 设为最终地址。`,
        `${name} redirected the request elsewhere; it was not followed, so the key goes nowhere else. Set ZHIXING_SEARCH_URL to the final address.`,
      );
    default:
      return err(
        `${name}${where} 出错了（HTTP ${kind}），请稍后再试。`,
        `${name}${where} failed (HTTP ${kind}); try again later.`,
      );
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
