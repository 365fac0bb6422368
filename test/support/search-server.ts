/**
 * Stand-ins for the search services web_search asks, on 127.0.0.1 port 0, each answering in its
 * real service's shape (as their API references document it) and checking what the real one checks:
 * SearXNG `GET /search?format=json` (403 for another format, as a SearXNG without json enabled),
 * Brave `GET /res/v1/web/search` with X-Subscription-Token, Tavily `POST /search` with a Bearer key,
 * Bing `GET /v7.0/search` with Ocp-Apim-Subscription-Key. A wrong key gets the service's 401.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenSearch {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How the next requests are answered: as the service would, or one of the ways it fails. */
/** `echo-key`: a careless service that repeats the key it was sent inside a result. */
export type SearchMode =
  'ok' | 'redirect' | 'echo-key' | 'empty' | 'rate-limited' | 'slow' | 'html' | 'huge' | 'server-error' | 'wrong-shape';

export interface SearchServer {
  url: string;
  seen: SeenSearch[];
  mode: SearchMode;
  close(): Promise<void>;
}

export const SEARCH_KEY = 'BSAk3y-0123456789abcdefghijklmnop';

/** What every service finds for any query: the same three pages, one with markup and one hostile. */
export const PAGES = [
  {
    title: '知行合一 - 维基百科，自由的百科全书',
    url: 'https://zh.wikipedia.org/wiki/知行合一',
    text: '<strong>知行合一</strong>是明代思想家王阳明提出的哲学理论 &amp; 教育思想。',
  },
  {
    title: 'Wang Yangming <b>Unity</b> of Knowledge',
    url: 'https://plato.stanford.edu/entries/wang-yangming/',
    text: 'Wang held that <strong>knowledge and action</strong> are one &quot;unity&quot;.',
  },
  {
    title: 'Free prizes',
    url: 'javascript:alert(document.domain)',
    text: 'Click <script>alert(1)</script>here to claim.',
  },
];

function searxng(q: string) {
  return {
    query: q,
    number_of_results: 0,
    results: PAGES.map((p, i) => ({
      url: p.url,
      title: p.title,
      content: p.text,
      engine: 'duckduckgo',
      parsed_url: ['https', new URL(p.url).host, '', '', '', ''],
      template: 'default.html',
      engines: ['duckduckgo', 'bing'],
      positions: [i + 1],
      score: 3 - i,
      category: 'general',
    })),
    answers: [],
    corrections: [],
    infoboxes: [],
    suggestions: [],
    unresponsive_engines: [],
  };
}

function brave(q: string, n: number) {
  return {
    type: 'search',
    query: {
      original: q,
      show_strict_warning: false,
      is_navigational: false,
      local_decision: 'drop',
      is_news_breaking: false,
      spellcheck_off: true,
      country: 'us',
      bad_results: false,
      should_fallback: false,
      postal_code: '',
      city: '',
      header_country: '',
      more_results_available: true,
      state: '',
    },
    mixed: { type: 'mixed', main: PAGES.map((_, i) => ({ type: 'web', index: i, all: false })), top: [], side: [] },
    web: {
      type: 'search',
      results: PAGES.slice(0, n).map((p) => ({
        title: p.title,
        url: p.url,
        is_source_local: false,
        is_source_both: false,
        description: p.text,
        page_age: '2024-03-01T00:00:00',
        profile: { name: 'Site', url: p.url, long_name: 'site', img: 'https://imgs.search.brave.com/x.png' },
        language: 'zh',
        family_friendly: true,
        type: 'search_result',
        subtype: 'generic',
        meta_url: { scheme: 'https', netloc: 'example', hostname: 'example', favicon: '', path: '' },
      })),
      family_friendly: true,
    },
  };
}

function tavily(q: string, n: number) {
  return {
    query: q,
    follow_up_questions: null,
    answer: null,
    images: [],
    results: PAGES.slice(0, n).map((p, i) => ({
      title: p.title,
      url: p.url,
      content: p.text,
      score: 0.9 - i / 10,
      raw_content: null,
    })),
    response_time: 1.12,
    request_id: '123e4567-e89b-12d3-a456-426614174111',
  };
}

function bing(q: string, n: number) {
  return {
    _type: 'SearchResponse',
    queryContext: { originalQuery: q },
    webPages: {
      webSearchUrl: `https://www.bing.com/search?q=${encodeURIComponent(q)}`,
      totalEstimatedMatches: 1230000,
      value: PAGES.slice(0, n).map((p, i) => ({
        id: `https://api.bing.microsoft.com/api/v7/#WebPages.${i}`,
        name: p.title,
        url: p.url,
        isFamilyFriendly: true,
        displayUrl: p.url,
        snippet: p.text,
        dateLastCrawled: '2024-03-01T00:00:00.0000000Z',
        language: 'zh',
        isNavigational: false,
      })),
    },
    rankingResponse: {
      mainline: {
        items: PAGES.map((_, i) => ({
          answerType: 'WebPages',
          resultIndex: i,
          value: { id: `https://api.bing.microsoft.com/api/v7/#WebPages.${i}` },
        })),
      },
    },
  };
}

/** Each service's own refusal of a key. */
const UNAUTHORIZED = {
  brave: {
    type: 'ErrorResponse',
    error: {
      id: 'x',
      status: 401,
      code: 'SUBSCRIPTION_TOKEN_INVALID',
      detail: 'The provided subscription token is invalid.',
      meta: {},
    },
    time: 1,
  },
  tavily: { detail: { error: 'Unauthorized: missing or invalid API key.' } },
  bing: { error: { code: '401', message: 'Access denied due to invalid subscription key or wrong API endpoint.' } },
};

export async function startSearchServer(): Promise<SearchServer> {
  const seen: SeenSearch[] = [];
  const state = { mode: 'ok' as SearchMode };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d) => (body += d));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      const url = new URL(req.url ?? '/', 'http://x');
      const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
        res.end(JSON.stringify(value));
      };
      const mode = state.mode;
      if (mode === 'slow') return void setTimeout(() => json(200, {}), 5_000).unref();
      if (mode === 'rate-limited')
        return json(
          429,
          { type: 'ErrorResponse', error: { status: 429, code: 'RATE_LIMITED' } },
          { 'retry-after': '7' },
        );
      if (mode === 'server-error') return json(502, { error: 'bad gateway' });
      if (mode === 'html') {
        res.writeHead(200, { 'content-type': 'text/html' });
        return void res.end('<!doctype html><title>SearXNG</title><p>results</p>');
      }
      if (mode === 'huge') {
        // Chunked, with no length announced: the cap must hold while reading, not only on a header.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"results":[');
        const item = '{"url":"https://a.example/","title":"x","content":"y"},'.repeat(1_000);
        for (let i = 0; i < 60; i++) res.write(item);
        return void res.end('{}]}');
      }
      if (mode === 'wrong-shape') return json(200, { hello: 'world' });
      // An address that moved: every request is sent on to the same path under /moved (served normally).
      if (mode === 'redirect' && !url.pathname.startsWith('/moved')) {
        res.writeHead(302, { location: `/moved${url.pathname}${url.search}` });
        return void res.end();
      }
      if (url.pathname.startsWith('/moved')) url.pathname = url.pathname.slice('/moved'.length);
      const n = (k: string) => Number(url.searchParams.get(k) ?? 10);
      const empty = mode === 'empty';
      if (
        req.method === 'GET' &&
        /\/search$/.test(url.pathname) &&
        !url.pathname.includes('/res/') &&
        !url.pathname.includes('/v7.0/')
      ) {
        // SearXNG refuses a format settings.yml does not enable with 403 Forbidden.
        if (url.searchParams.get('format') !== 'json') return json(403, { error: 'format not allowed' });
        const r = searxng(url.searchParams.get('q') ?? '');
        return json(200, empty ? { ...r, results: [] } : r);
      }
      if (req.method === 'GET' && url.pathname === '/res/v1/web/search') {
        if (req.headers['x-subscription-token'] !== SEARCH_KEY) return json(401, UNAUTHORIZED.brave);
        const r = brave(url.searchParams.get('q') ?? '', n('count'));
        if (mode === 'echo-key') r.web.results[0]!.description += ` (token ${req.headers['x-subscription-token']})`;
        return json(200, empty ? { type: 'search', query: r.query } : r);
      }
      if (req.method === 'POST' && url.pathname === '/search') {
        if (req.headers.authorization !== `Bearer ${SEARCH_KEY}`) return json(401, UNAUTHORIZED.tavily);
        const asked = JSON.parse(body) as { query: string; max_results?: number };
        const r = tavily(asked.query, asked.max_results ?? 5);
        return json(200, empty ? { ...r, results: [] } : r);
      }
      if (req.method === 'GET' && url.pathname === '/v7.0/search') {
        if (req.headers['ocp-apim-subscription-key'] !== SEARCH_KEY) return json(401, UNAUTHORIZED.bing);
        const r = bing(url.searchParams.get('q') ?? '', n('count'));
        return json(200, empty ? { _type: 'SearchResponse', queryContext: r.queryContext } : r);
      }
      json(404, { error: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    get mode() {
      return state.mode;
    },
    set mode(m: SearchMode) {
      state.mode = m;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
