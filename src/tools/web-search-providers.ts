/**
 * How each search service is asked and how its answer reads: the request (address, method, headers,
 * body) and the results pulled out of its JSON. No I/O here; web_search sends and receives.
 *
 * Shapes, as the services document them:
 * - SearXNG `GET /search?format=json&q=`: `{ query, results: [{ url, title, content, engine }] }`
 * - Brave `GET /res/v1/web/search?q=&count=` with `X-Subscription-Token`:
 *   `{ type: 'search', query: { original }, web: { results: [{ title, url, description }] } }` (description holds `<strong>`)
 * - Tavily `POST /search` `{ query, max_results }` with `Authorization: Bearer`:
 *   `{ query, answer, results: [{ title, url, content, score }] }`
 * - Bing v7 `GET /v7.0/search?q=&count=` with `Ocp-Apim-Subscription-Key`:
 *   `{ _type: 'SearchResponse', webPages: { value: [{ name, url, snippet }] } }`
 */
import type { SearchSettings } from '../config/web-settings.js';

/** One result as the tool shows it: plain text, no markup. */
export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

export interface SearchRequest {
  url: URL;
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string };
}

/** Titles and snippets longer than these are cut: a result is a pointer, the page is read with web_fetch. */
const MAX_TITLE_CHARS = 300;
const MAX_SNIPPET_CHARS = 600;
const MAX_URL_CHARS = 2_000;

/** The request for `query`, asking for `count` results where the service takes a count. */
export function searchRequest(settings: SearchSettings, query: string, count: number): SearchRequest {
  const headers: Record<string, string> = { accept: 'application/json' };
  const key = settings.apiKey ?? '';
  switch (settings.provider) {
    case 'searxng': {
      // The setting may be the instance's base (`http://host:8080`, `https://host/searx/`) or its search page already.
      const url = new URL(settings.url);
      if (!/\/search\/?$/.test(url.pathname)) url.pathname = `${url.pathname.replace(/\/+$/, '')}/search`;
      url.search = '';
      url.searchParams.set('format', 'json');
      url.searchParams.set('q', query);
      return { url, init: { method: 'GET', headers } };
    }
    case 'brave': {
      const url = new URL(settings.url);
      url.searchParams.set('q', query);
      url.searchParams.set('count', String(count));
      return { url, init: { method: 'GET', headers: { ...headers, 'x-subscription-token': key } } };
    }
    case 'tavily': {
      const body = JSON.stringify({ query, max_results: count });
      return {
        url: new URL(settings.url),
        init: {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json', authorization: `Bearer ${key}` },
          body,
        },
      };
    }
    case 'bing': {
      const url = new URL(settings.url);
      url.searchParams.set('q', query);
      url.searchParams.set('count', String(count));
      url.searchParams.set('textDecorations', 'false');
      return { url, init: { method: 'GET', headers: { ...headers, 'ocp-apim-subscription-key': key } } };
    }
  }
}

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): Raw[] => (Array.isArray(v) ? v.filter(isObject) : []);
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * The results in the service's answer, in its order, at most `count`. Undefined when the JSON is not
 * the service's shape at all (an error page, another API behind the address).
 */
export function parseResults(
  provider: SearchSettings['provider'],
  body: unknown,
  count: number,
): SearchResult[] | undefined {
  if (!isObject(body)) return undefined;
  let raw: Array<{ title: unknown; url: unknown; snippet: unknown }>;
  switch (provider) {
    case 'searxng':
    case 'tavily':
      if (!Array.isArray(body.results)) return undefined;
      raw = list(body.results).map((r) => ({ title: r.title, url: r.url, snippet: r.content }));
      break;
    case 'brave':
      // A query with no web results comes back without `web` at all.
      if (body.web !== undefined && !isObject(body.web)) return undefined;
      if (body.web === undefined && body.type !== 'search') return undefined;
      raw = list(isObject(body.web) ? body.web.results : []).map((r) => ({
        title: r.title,
        url: r.url,
        snippet: r.description,
      }));
      break;
    case 'bing':
      if (body.webPages === undefined && body._type !== 'SearchResponse') return undefined;
      raw = list(isObject(body.webPages) ? body.webPages.value : []).map((r) => ({
        title: r.name,
        url: r.url,
        snippet: r.snippet,
      }));
      break;
  }
  const results: SearchResult[] = [];
  for (const r of raw) {
    const url = text(r.url).trim();
    if (!url || url.length > MAX_URL_CHARS) continue;
    results.push({
      title: cut(plain(text(r.title)), MAX_TITLE_CHARS) || url,
      url,
      snippet: cut(plain(text(r.snippet)), MAX_SNIPPET_CHARS),
    });
    if (results.length >= count) break;
  }
  return results;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/**
 * Markup out of a title or snippet: tags gone, entities read, Bing's highlight marks and control
 * characters dropped, whitespace folded. The text stays untrusted: this only makes it readable.
 */
export function plain(value: string): string {
  return value
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+\d*);/gi, (m, name: string) => {
      const lower = name.toLowerCase();
      if (lower in ENTITIES) return ENTITIES[lower]!;
      const code = lower.startsWith('#x')
        ? parseInt(lower.slice(2), 16)
        : lower.startsWith('#')
          ? parseInt(lower.slice(1), 10)
          : NaN;
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    })
    .replace(/<[^>]*>/g, '')
    .replace(/[\ue000-\ue001\u0000-\u0008\u000b-\u001f\u007f]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function cut(value: string, max: number): string {
  return value.length <= max ? value : `${value.slice(0, max - 1).trimEnd()}…`;
}
