/**
 * web_fetch's card in the chat, in a real Chromium: the fetched page's title links to the URL that
 * answered (after a redirect), the byline and site show beneath it, and the page's links are listed,
 * folded past five until asked for. Nothing the page wrote becomes markup or a script link.
 */
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { SCREENSHOTS, useBrowser } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/http.js';
import { createScriptedLlm } from '../support/scripted-llm.js';
import { send, startSite, type Site } from '../support/web-site.js';

const browser = useBrowser();
let server: TestServer | undefined;
let site: Site | undefined;
afterEach(async () => {
  await server?.close();
  await site?.close();
  server = site = undefined;
});

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Night trains across Europe</title>
<meta property="og:site_name" content="Rail Weekly"><meta name="author" content="Lin Mei"></head><body><article>
<h1>Night trains across Europe</h1>
<p>Night trains are back: new routes link Vienna, Berlin, Paris and Amsterdam, and more start next year, operators say.</p>
<p>Sleeper cars now have private pods, and tickets booked early cost less than a flight. See the
${['Vienna', 'Berlin', 'Paris', 'Amsterdam', 'Zurich', 'Prague', 'Brussels', 'Hamburg'].map((c, i) => `<a href="/routes/${i}">${c} timetable</a>`).join(', ')}
and the <a href="javascript:alert(1)">booking trick</a> pages for details, or <b>&lt;img src=x onerror=alert(1)&gt;</b>.</p>
<p>Most trains leave in the evening and arrive before nine in the morning, in time for meetings downtown.</p>
</article></body></html>`;

it('shows the fetched page title, linked to the final URL, and its links, folded when many', async () => {
  const s = (site = await startSite());
  s.route('/go', (_q, res) => {
    res.writeHead(302, { location: '/trains.html' });
    res.end();
  });
  s.route('/trains.html', send(PAGE));
  const llm = createScriptedLlm([
    { calls: [{ id: 'f1', name: 'web_fetch', args: { url: s.url('/go') } }] },
    { text: 'The page says night trains are back across Europe.' },
  ]);
  server = await startTestServer({ llm, config: { web: { allowPrivateNetwork: true } } });
  const { page, expectNoErrors } = await browser.openPage(`${server.url}/`, { locale: 'en-US' });
  await page.locator('#composer').fill('What does this page say about night trains?');
  await page.locator('#composer').press('Enter');
  await page.locator('article.msg-assistant', { hasText: 'night trains are back' }).waitFor({ timeout: 30_000 });

  const card = page.locator('.tool-card[data-tool="web_fetch"]');
  expect(await card.getAttribute('data-state')).toBe('completed');
  const title = card.locator('[data-web-page] .web-page-title');
  expect(await title.innerText()).toBe('Night trains across Europe');
  expect(await title.getAttribute('href')).toBe(s.url('/trains.html'));
  expect(await title.getAttribute('rel')).toContain('noopener');
  expect(await card.locator('.web-page-by').innerText()).toContain('Lin Mei · Rail Weekly');

  const links = card.locator('.web-page-links li a');
  expect(await links.count()).toBe(5);
  expect(await links.first().innerText()).toBe('Vienna timetable');
  expect(await links.first().getAttribute('href')).toBe(s.url('/routes/0'));
  await page.screenshot({ path: join(SCREENSHOTS, 'web-fetch-card.png') });
  await card.locator('[data-more-links]').click();
  expect(await links.count()).toBe(8);
  // The javascript: link never became a link, and the page's markup stayed text.
  const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  expect(hrefs.every((h) => h?.startsWith('http://127.0.0.1:'))).toBe(true);
  expect(await card.locator('img').count()).toBe(0);
  await page.screenshot({ path: join(SCREENSHOTS, 'web-fetch-card-links.png') });

  // The card's data is stored with the call: the history shows the same card after a reload.
  await page.reload();
  const again = page.locator('.tool-card[data-tool="web_fetch"] [data-web-page] .web-page-title');
  await again.waitFor({ timeout: 15_000 });
  expect(await again.getAttribute('href')).toBe(s.url('/trains.html'));
  await expectNoErrors();
});
