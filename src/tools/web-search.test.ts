import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PAGES, SEARCH_KEY, startSearchServer, type SearchServer } from '../../test/support/search-server.js';
import type { SearchSettings } from '../config/web-settings.js';
import type { Lang } from '../i18n.js';
import { plain } from './web-search-providers.js';
import type { ToolContext, ToolOutput } from './tool.js';
import { ToolError } from '../contract/tool-error.js';
import { createWebSearchTool } from './web-search.js';

let srv: SearchServer;
beforeAll(async () => {
  srv = await startSearchServer();
});
afterAll(() => srv?.close());
beforeEach(() => {
  srv.seen.length = 0;
  srv.mode = 'ok';
});

function ctx(lang: Lang = 'en', signal = new AbortController().signal): ToolContext {
  return {
    sessionId: 's1',
    turnId: 't1',
    callId: 'c1',
    workspace: '/tmp',
    signal,
    lang,
    ask: async () => 'allow',
    progress: () => {},
  };
}

const settings = {
  searxng: (): SearchSettings => ({ provider: 'searxng', url: srv.url }),
  brave: (key = SEARCH_KEY): SearchSettings => ({
    provider: 'brave',
    url: `${srv.url}/res/v1/web/search`,
    apiKey: key,
  }),
  tavily: (key = SEARCH_KEY): SearchSettings => ({ provider: 'tavily', url: `${srv.url}/search`, apiKey: key }),
  bing: (key = SEARCH_KEY): SearchSettings => ({ provider: 'bing', url: `${srv.url}/v7.0/search`, apiKey: key }),
};

async function search(
  search: SearchSettings | undefined,
  args: { query: string; count?: number },
  c = ctx(),
  timeoutMs?: number,
) {
  return (await createWebSearchTool({ search, timeoutMs }).execute(args, c)) as ToolOutput;
}

async function failure(
  search: SearchSettings | undefined,
  args: { query: string; count?: number },
  c = ctx(),
  timeoutMs?: number,
) {
  const err = await search_(search, args, c, timeoutMs).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ToolError);
  return (err as ToolError).message;
}
const search_ = search;

/** The three results every stand-in finds, as the model reads them: markup gone, entities read. */
const EXPECTED = [
  '1. 知行合一 - 维基百科，自由的百科全书\n   https://zh.wikipedia.org/wiki/知行合一\n   知行合一是明代思想家王阳明提出的哲学理论 & 教育思想。',
  '2. Wang Yangming Unity of Knowledge\n   https://plato.stanford.edu/entries/wang-yangming/\n   Wang held that knowledge and action are one "unity".',
  '3. Free prizes\n   javascript:alert(document.domain)\n   Click alert(1)here to claim.',
].join('\n\n');

describe('web_search against each service', () => {
  it('asks SearXNG at /search?format=json and fences the numbered results as untrusted', async () => {
    const out = await search(settings.searxng(), { query: '知行合一' });
    expect(srv.seen).toHaveLength(1);
    expect(srv.seen[0]!.method).toBe('GET');
    expect(srv.seen[0]!.path).toBe(`/search?format=json&q=${encodeURIComponent('知行合一')}`);
    expect(out.output).toBe(
      `<untrusted-content kind="search results" source="知行合一">\n${EXPECTED}\n</untrusted-content>`,
    );
    expect(out.metadata).toEqual({
      provider: 'searxng',
      query: '知行合一',
      results: [
        {
          title: '知行合一 - 维基百科，自由的百科全书',
          url: PAGES[0]!.url,
          snippet: '知行合一是明代思想家王阳明提出的哲学理论 & 教育思想。',
        },
        {
          title: 'Wang Yangming Unity of Knowledge',
          url: PAGES[1]!.url,
          snippet: 'Wang held that knowledge and action are one "unity".',
        },
        { title: 'Free prizes', url: PAGES[2]!.url, snippet: 'Click alert(1)here to claim.' },
      ],
    });
    expect(out.title).toBe('"知行合一" · 3 results');
  });

  it('takes a SearXNG address that already ends in /search, or sits under a path', async () => {
    await search({ provider: 'searxng', url: `${srv.url}/search` }, { query: 'a b' });
    await search({ provider: 'searxng', url: `${srv.url}/searx/` }, { query: 'a b' });
    expect(srv.seen.map((s) => s.path)).toEqual(['/search?format=json&q=a+b', '/searx/search?format=json&q=a+b']);
  });

  it('cuts SearXNG results to the count asked for (it takes no count itself)', async () => {
    const out = await search(settings.searxng(), { query: 'x', count: 2 });
    expect((out.metadata!.results as unknown[]).length).toBe(2);
    expect(out.output).not.toContain('3. ');
  });

  it('asks Brave with the key in X-Subscription-Token and the count', async () => {
    const out = await search(settings.brave(), { query: '知行合一', count: 3 });
    const req = srv.seen[0]!;
    expect([req.method, req.path]).toEqual(['GET', `/res/v1/web/search?q=${encodeURIComponent('知行合一')}&count=3`]);
    expect(req.headers['x-subscription-token']).toBe(SEARCH_KEY);
    expect(req.headers.accept).toBe('application/json');
    expect(out.output).toContain(EXPECTED);
    expect(out.metadata!.provider).toBe('brave');
  });

  it('posts to Tavily as JSON with a Bearer key', async () => {
    const out = await search(settings.tavily(), { query: '知行合一', count: 3 });
    const req = srv.seen[0]!;
    expect([req.method, req.path]).toEqual(['POST', '/search']);
    expect(req.headers.authorization).toBe(`Bearer ${SEARCH_KEY}`);
    expect(req.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req.body)).toEqual({ query: '知行合一', max_results: 3 });
    expect(out.output).toContain(EXPECTED);
  });

  it('asks Bing v7 with Ocp-Apim-Subscription-Key', async () => {
    const out = await search(settings.bing(), { query: '知行合一' });
    const req = srv.seen[0]!;
    expect([req.method, req.path]).toEqual([
      'GET',
      `/v7.0/search?q=${encodeURIComponent('知行合一')}&count=8&textDecorations=false`,
    ]);
    expect(req.headers['ocp-apim-subscription-key']).toBe(SEARCH_KEY);
    expect(out.output).toContain(EXPECTED);
  });

  it('says so when a service finds nothing, in each shape', async () => {
    srv.mode = 'empty';
    for (const s of [settings.searxng(), settings.brave(), settings.tavily(), settings.bing()]) {
      const out = await search(s, { query: 'qqq' });
      expect(out.output).toMatch(/found no results for "qqq"\.$/);
      expect(out.metadata!.results).toEqual([]);
    }
    expect((await search(settings.bing(), { query: 'qqq' }, ctx('zh'))).output).toBe('Bing 没有找到「qqq」的结果。');
  });
});

describe('web_search without a service, and when the service fails', () => {
  it("tells how to set one up, in the user's language", async () => {
    const en = await failure(undefined, { query: 'x' });
    expect(en).toContain('No web search service is set up');
    // The offline planner shows this to the user as it is: it speaks to no one in the third person.
    expect(en).toContain('To set one up (in the environment or ~/.zhixing/.env)');
    expect(en).not.toMatch(/tell the user/i);
    expect(en).toContain('ZHIXING_SEARCH_URL=http://127.0.0.1:8080');
    expect(en).toContain('ZHIXING_SEARCH_PROVIDER=brave, tavily or bing, plus ZHIXING_SEARCH_API_KEY');
    const zh = await failure(undefined, { query: 'x' }, ctx('zh'));
    expect(zh).toContain('还没有配置网络搜索服务');
    expect(zh).toContain('可以设置以下任意一种');
    expect(zh).not.toContain('告诉用户');
    expect(zh).toContain('ZHIXING_SEARCH_URL');
    expect(srv.seen).toEqual([]);
  });

  it('says a rejected key is rejected, for each keyed service, without printing it', async () => {
    const wrong = 'tvly-wrong-key-abcdef0123456789';
    for (const s of [settings.brave(wrong), settings.tavily(wrong), settings.bing(wrong)]) {
      const message = await failure(s, { query: 'x' });
      expect(message).toMatch(/rejected the search key: check that ZHIXING_SEARCH_API_KEY is right/);
      expect(message).not.toContain(wrong);
      expect(message).not.toContain('invalid');
    }
    expect(await failure(settings.brave(wrong), { query: 'x' }, ctx('zh'))).toBe(
      'Brave Search 拒绝了搜索密钥：请检查 ZHIXING_SEARCH_API_KEY 是否正确、是否仍有效。',
    );
  });

  it('says when it is rate limited, with the wait the service asks for', async () => {
    srv.mode = 'rate-limited';
    expect(await failure(settings.brave(), { query: 'x' })).toBe(
      'Brave Search is rate limiting the searches (HTTP 429): try again in 7 s.',
    );
    expect(await failure(settings.tavily(), { query: 'x' }, ctx('zh'))).toBe(
      'Tavily 的请求次数已达上限（HTTP 429），请在 7 秒后再试。',
    );
  });

  it('gives up on a service that does not answer in time, and stops when the turn stops', async () => {
    srv.mode = 'slow';
    expect(await failure(settings.searxng(), { query: 'x' }, ctx(), 300)).toMatch(
      /^SearXNG \(127\.0\.0\.1:\d+\) did not answer within 0.3 s/,
    );
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 100);
    expect(await failure(settings.brave(), { query: 'x' }, ctx('zh', stop.signal))).toBe('搜索已取消。');
  });

  it('tells a SearXNG without json enabled how to enable it, whether it refuses or answers HTML', async () => {
    srv.mode = 'html';
    const html = await failure(settings.searxng(), { query: 'x' });
    expect(html).toContain(
      'did not answer in JSON: enable the JSON format in its settings.yml (search: formats: [html, json])',
    );
    srv.mode = 'ok';
    // The stand-in refuses other formats with 403, as SearXNG does: an address with ?format=html baked in is fixed, not refused.
    await search({ provider: 'searxng', url: `${srv.url}/search?format=html` }, { query: 'x' });
    expect(srv.seen.at(-1)!.path).toBe('/search?format=json&q=x');
  });

  it('names bad answers: not JSON, not the shape, too big, a server error, nothing listening', async () => {
    srv.mode = 'html';
    expect(await failure(settings.bing(), { query: 'x' })).toBe(
      'Bing did not answer in JSON; check ZHIXING_SEARCH_URL.',
    );
    srv.mode = 'wrong-shape';
    expect(await failure(settings.tavily(), { query: 'x' })).toBe(
      'Tavily answered with something other than search results; check ZHIXING_SEARCH_URL and ZHIXING_SEARCH_PROVIDER.',
    );
    srv.mode = 'huge';
    expect(await failure(settings.searxng(), { query: 'x' })).toMatch(/SearXNG sent more than 2 MB; gave up on it\./);
    srv.mode = 'server-error';
    expect(await failure(settings.brave(), { query: 'x' })).toBe('Brave Search failed (HTTP 502); try again later.');
    const closed = await startSearchServer();
    await closed.close();
    expect(await failure({ provider: 'searxng', url: closed.url }, { query: 'x' }, ctx('zh'))).toMatch(
      /^连接不上 SearXNG \(127\.0\.0\.1:\d+\)：请检查网络和 ZHIXING_SEARCH_URL。$/,
    );
  });

  it('follows a redirect for SearXNG, which has no key, but never sends a key on to where a redirect points', async () => {
    srv.mode = 'redirect';
    const out = await search(settings.searxng(), { query: 'x' });
    expect(out.metadata!.results).toHaveLength(3);
    expect(srv.seen.map((s) => s.path)).toEqual(['/search?format=json&q=x', '/moved/search?format=json&q=x']);
    srv.seen.length = 0;
    expect(await failure(settings.brave(), { query: 'x' })).toMatch(
      /^Brave Search redirected the request elsewhere; it was not followed/,
    );
    expect(srv.seen.map((s) => s.path)).toEqual(['/res/v1/web/search?q=x&count=8']);
  });

  it('asks for a query when given only spaces', async () => {
    expect(await failure(settings.searxng(), { query: '   ' }, ctx('zh'))).toBe('请告诉我要搜索什么。');
    expect(srv.seen).toEqual([]);
  });
});

describe('plain', () => {
  it('takes tags, entities and highlight marks out, and keeps text that looks like markup only once decoded out too', () => {
    expect(plain('<b>a</b> &amp; b&nbsp;c &#x4e2d;&#25991; \ue000hit\ue001 &lt;img src=x onerror=alert(1)&gt;')).toBe(
      'a & b c 中文 hit',
    );
    expect(plain('  two\n\nlines\t')).toBe('two lines');
    expect(plain('&bogus; 5 < 6')).toBe('&bogus; 5 < 6');
  });
});
