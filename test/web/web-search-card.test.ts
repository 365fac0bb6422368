/**
 * The web_search card in Chromium: the results listed under the call as links (title to the page,
 * its host, the snippet under it), opening in a new tab without a referrer or an opener; a result
 * whose address is not http(s), as a hostile service may send, is shown as text and never a link.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/http.js';
import { startOpenAiServer, textReply, toolCallsReply, type OpenAiServer } from '../support/openai-server.js';
import { startSearchServer, type SearchServer } from '../support/search-server.js';

const browser = useBrowser();

let model: OpenAiServer;
let search: SearchServer;
let server: TestServer;
beforeAll(async () => {
  model = await startOpenAiServer();
  search = await startSearchServer();
  server = await startTestServer({
    env: {
      ZHIXING_BASE_URL: model.url,
      ZHIXING_API_KEY: 'sk-test-search-card',
      ZHIXING_MODEL: 'test-model',
      ZHIXING_SEARCH_URL: search.url,
    },
  });
});
afterAll(async () => {
  await server?.close();
  await model?.close();
  await search?.close();
});

it('lists the search results as links on the card, a javascript: result as text, and again after a reload', async () => {
  model.enqueue(
    toolCallsReply([{ id: 'call_search', name: 'web_search', args: { query: '知行合一' } }]),
    textReply('知行合一是王阳明提出的。'),
  );
  const { page, expectNoErrors } = await browser.openPage(`${server.url}/`, { locale: 'zh-CN' });
  await page.locator('#composer').fill('搜一下知行合一');
  await page.locator('#composer').press('Enter');
  await page.locator('article.msg-assistant', { hasText: '知行合一是王阳明提出的。' }).waitFor();

  const check = async () => {
    const card = page.locator('.tool-card[data-tool="web_search"][data-state="completed"]');
    await card.waitFor();
    const list = card.locator('ol[data-search-results]');
    expect(await list.getAttribute('aria-label')).toBe('搜索结果');
    const items = list.locator('li');
    expect(await items.count()).toBe(3);
    const links = list.locator('a');
    expect(await links.count()).toBe(2);
    expect(
      await links.evaluateAll((as) =>
        as.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('target'), a.getAttribute('rel')]),
      ),
    ).toEqual([
      [
        '知行合一 - 维基百科，自由的百科全书',
        'https://zh.wikipedia.org/wiki/%E7%9F%A5%E8%A1%8C%E5%90%88%E4%B8%80',
        '_blank',
        'noopener noreferrer',
      ],
      [
        'Wang Yangming Unity of Knowledge',
        'https://plato.stanford.edu/entries/wang-yangming/',
        '_blank',
        'noopener noreferrer',
      ],
    ]);
    expect(await items.nth(0).locator('.search-url').textContent()).toBe('zh.wikipedia.org');
    expect(await items.nth(0).locator('.search-snippet').textContent()).toBe(
      '知行合一是明代思想家王阳明提出的哲学理论 & 教育思想。',
    );
    // The hostile result: its title is plain text, its address shown as written, nothing anywhere links to it.
    const hostile = items.nth(2);
    expect(await hostile.locator('a').count()).toBe(0);
    expect(await hostile.locator('.search-title').textContent()).toBe('Free prizes');
    expect(await hostile.locator('.search-url').textContent()).toBe('javascript:alert(document.domain)');
    expect(await page.locator('a[href^="javascript:"], [href*="alert("]').count()).toBe(0);
    // The snippet's <script> arrived as text at most, never as an element.
    expect(await card.locator('script').count()).toBe(0);
  };
  await check();
  await browser.screenshot(page, 'web-search-card');

  // Clicking a result opens a new tab, which cannot reach back to the app (no opener).
  const [popup] = await Promise.all([
    page.context().waitForEvent('page'),
    page.locator('.tool-card[data-tool="web_search"] a').first().click({ modifiers: [] }),
  ]);
  expect(await popup.evaluate(() => window.opener)).toBeNull();
  await popup.close();

  await page.reload();
  await check();
  await expectNoErrors();
});
