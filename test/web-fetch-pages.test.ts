/**
 * web_fetch over mozilla/readability's own test pages served from a local server: title, byline and
 * article text as Readability's expected files have them, in Markdown with links and tables kept;
 * the page whose meta says gb2312 over UTF-8 bytes; the Chinese page re-encoded as GBK and declared
 * by header only, by meta only, or not at all; a Japanese page in Shift_JIS; long pages by offset.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { JSDOM, VirtualConsole } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebFetchTool } from '../src/tools/web-fetch.js';
import { extractPage } from '../src/webpage/extract.js';
import { REPO_ROOT } from './support/cli.js';
import { call, failure, send, startSite, webCtx, type Site } from './support/web-site.js';

const HTML = path.join(REPO_ROOT, 'test', 'fixtures', 'html');
const PAGES = ['ars-1', 'gmw', 'heise', 'keep-tabular-data', 'qq', 'yahoo-4'];
const read = (page: string, file: string) => readFileSync(path.join(HTML, page, file));
const expectedMeta = (page: string) =>
  JSON.parse(read(page, 'expected-metadata.json').toString('utf8')) as {
    title: string;
    byline: string | null;
    siteName: string | null;
  };

/** Text without whitespace and Markdown's marks, so Markdown and Readability's HTML compare as text. */
const bare = (s: string) => s.replace(/\]\([^)]*\)/g, '').replace(/[\s*_\\[\]#|>`~-]+/g, '');
const expectedText = (page: string) =>
  new JSDOM(read(page, 'expected.html').toString('utf8'), { virtualConsole: new VirtualConsole() }).window.document.body
    .textContent ?? '';
const paragraphs = (page: string) =>
  [
    ...new JSDOM(read(page, 'expected.html').toString('utf8'), {
      virtualConsole: new VirtualConsole(),
    }).window.document.querySelectorAll('p'),
  ]
    .map((p) => p.textContent ?? '')
    .filter((t) => t.trim().length > 30);

const GMW_TITLE = '宇航员在太空中喝酒会怎么样';
const gmwWithout = () =>
  read('gmw', 'source.html')
    .toString('utf8')
    .replace(/<meta[^>]*charset[^>]*>/gi, '');

let site: Site;
const tool = createWebFetchTool({ policy: { allowPrivate: true } });

beforeAll(async () => {
  site = await startSite();
  for (const page of PAGES) site.route(`/${page}/`, send(read(page, 'source.html'), { 'content-type': 'text/html' }));
  const gbkNoMeta = iconv.encode(gmwWithout(), 'gbk');
  site.route('/gbk/header', send(gbkNoMeta, { 'content-type': 'text/html; charset=GBK' }));
  site.route(
    '/gbk/meta',
    send(
      iconv.encode(
        gmwWithout().replace(/<head[^>]*>/i, '$&<meta http-equiv="Content-Type" content="text/html; charset=gb2312">'),
        'gbk',
      ),
      { 'content-type': 'text/html' },
    ),
  );
  site.route('/gbk/none', send(gbkNoMeta, { 'content-type': 'text/html' }));
  site.route(
    '/sjis/none',
    send(
      iconv.encode(
        read('yahoo-4', 'source.html')
          .toString('utf8')
          .replace(/<meta[^>]*charset[^>]*>/gi, ''),
        'shift_jis',
      ),
      { 'content-type': 'text/html' },
    ),
  );
  const long = `<!doctype html><html><head><title>Long</title></head><body><article><h1>Long</h1>${Array.from({ length: 400 }, (_, i) => `<p>Paragraph ${i} of the long page, with enough words in it to look like prose to Readability.</p>`).join('')}</article></body></html>`;
  site.route('/long', send(long));
  site.route('/notes.txt', send('Line one\r\nLine two 中文\n', { 'content-type': 'text/plain; charset=utf-8' }));
  site.route('/data.json', send('{"a": 1, "名": "知行"}', { 'content-type': 'application/json' }));
  site.route('/doc.pdf', send(Buffer.from('%PDF-1.4\n%…'), { 'content-type': 'application/pdf' }));
  site.route('/unnamed.pdf', send(Buffer.from('%PDF-1.4\n1 0 obj\n'), {}));
  site.route('/pic.png', send(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]), { 'content-type': 'image/png' }));
  site.route('/missing', (_q, res) => {
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('<h1>gone</h1>');
  });
  site.route(
    '/bare',
    send(
      '<!doctype html><html><head><title>Links</title></head><body><ul><li><a href="/a">First</a></li><li><a href="https://example.org/b">Second</a></li></ul><form><input name="q"></form></body></html>',
    ),
  );
});
afterAll(() => site.close());

describe('readability test pages', () => {
  it.each(PAGES)('%s: title, byline and article text as the expected files have them', async (page) => {
    const meta = expectedMeta(page);
    const r = await call(tool, { url: site.url(`/${page}/`) }, webCtx());
    expect(r.title).toBe(meta.title);
    expect(r.metadata?.title).toBe(meta.title);
    expect(r.metadata?.byline).toBe(meta.byline ?? undefined);
    expect(r.metadata?.siteName).toBe(meta.siteName ?? undefined);
    expect(r.output).toMatch(/^<untrusted-content kind="web page" source="http:\/\/127\.0\.0\.1:\d+\//);
    expect(r.output).not.toContain('\uFFFD');
    // The article's paragraphs are all there, as Markdown, across the windows of a long page.
    let all = r.output;
    for (let next = r.metadata?.nextOffset; next;) {
      const more = await call(tool, { url: site.url(`/${page}/`), offset: next }, webCtx());
      all += more.output;
      next = more.metadata?.nextOffset;
    }
    const out = bare(all);
    for (const p of paragraphs(page)) expect(out).toContain(bare(p));
    // And the article's text is Readability's own, character for character but whitespace.
    const extracted = await extractPage(read(page, 'source.html').toString('utf8'), 'http://fakehost/test/page.html');
    expect(extracted.text.replace(/\s+/g, '')).toBe(expectedText(page).replace(/\s+/g, ''));
  });

  it('keeps tables as Markdown tables and links as Markdown links', async () => {
    const r = await call(tool, { url: site.url('/keep-tabular-data/') }, webCtx());
    expect(r.output).toMatch(/^\| .+ \|$/m);
    expect(r.output).toMatch(/^\| ?:?-{3,}/m);
    expect(r.output).toMatch(/\[[^\]]+\]\(https?:\/\/[^)]+\)/);
    const links = r.metadata?.links as Array<{ text: string; href: string }>;
    expect(links.length).toBeGreaterThan(0);
    expect(links.length).toBeLessThanOrEqual(20);
    for (const l of links) expect(l.href).toMatch(/^https?:\/\//);
  });

  it('reads the page whose meta says gb2312 while its bytes are UTF-8', async () => {
    expect(read('qq', 'source.html').toString('latin1')).toMatch(/charset=gb2312/i);
    const r = await call(tool, { url: site.url('/qq/') }, webCtx());
    expect(r.metadata?.charset).toBe('utf-8');
    expect(r.output).toContain('DeepMind新电脑已可利用记忆自学');
    expect(r.output).not.toContain('\uFFFD');
  });
});

describe('the Chinese page as GBK', () => {
  it.each([
    ['header', '/gbk/header'],
    ['meta', '/gbk/meta'],
    ['no declaration (detected)', '/gbk/none'],
  ])('declared by %s', async (_how, p) => {
    const r = await call(tool, { url: site.url(p) }, webCtx());
    expect(r.metadata?.charset).toBe('gb18030');
    expect(r.title).toContain(GMW_TITLE);
    expect(r.metadata?.byline).toBe('肖春芳');
    expect(r.output).toContain('翱翔于距地球数千公里的太空中');
    expect(r.output).not.toContain('\uFFFD');
  });

  it('detects a Japanese page in Shift_JIS with no declaration', async () => {
    const r = await call(tool, { url: site.url('/sjis/none') }, webCtx());
    expect(r.metadata?.charset).toBe('shift_jis');
    expect(r.title).toBe(expectedMeta('yahoo-4').title);
  });
});

describe('long pages, other types, errors', () => {
  it('reads a long page in windows, each saying the offset to continue, from one request a turn', async () => {
    const requests = () => site.seen.filter((p) => p === '/long').length;
    const before = requests();
    const first = await call(tool, { url: site.url('/long') }, webCtx());
    const next = first.metadata?.nextOffset as number;
    expect(next).toBeGreaterThan(15_000);
    expect(next).toBeLessThanOrEqual(20_000);
    expect(first.output).toContain(`"offset": ${next}`);
    expect(first.output).not.toContain('Paragraph 399 ');
    let offset = next;
    let last = first;
    const seen = [first.output];
    while (offset) {
      last = await call(tool, { url: site.url('/long'), offset }, webCtx());
      seen.push(last.output);
      expect(last.metadata?.offset).toBe(offset);
      offset = last.metadata?.nextOffset as number;
    }
    expect(last.output).toContain('Paragraph 399 ');
    expect(last.output).toContain('This is the end of the page.');
    // Every paragraph comes exactly once across the windows.
    const all = seen.join('\n');
    for (const i of [0, 150, 250, 399]) expect(all.split(`Paragraph ${i} `).length - 1).toBe(1);
    expect(await failure(tool, { url: site.url('/long'), offset: 10_000_000 }, webCtx())).toMatch(/past the end/);
    // The turn's copy answered every window after the first: the site saw one request, and a
    // fragment is the same page. How often a page is read says nothing to the site.
    await call(tool, { url: `${site.url('/long')}#part-2`, offset: next }, webCtx());
    expect(requests() - before).toBeLessThanOrEqual(1);
  });

  it('returns text and JSON as they are', async () => {
    const txt = await call(tool, { url: site.url('/notes.txt') }, webCtx());
    expect(txt.output).toContain('Line one\nLine two 中文');
    const json = await call(tool, { url: site.url('/data.json') }, webCtx());
    expect(json.output).toContain('{"a": 1, "名": "知行"}');
  });

  it('says what a PDF, an image or a missing page is instead of reading it', async () => {
    expect(await failure(tool, { url: site.url('/doc.pdf') }, webCtx())).toMatch(/is a PDF document.*pdf_read/);
    expect(await failure(tool, { url: site.url('/unnamed.pdf') }, webCtx())).toMatch(/is a PDF document/);
    expect(await failure(tool, { url: site.url('/pic.png') }, webCtx())).toMatch(/binary content \(image\/png/);
    expect(await failure(tool, { url: site.url('/pic.png') }, webCtx({ lang: 'zh' }))).toMatch(/二进制/);
    expect(await failure(tool, { url: site.url('/missing') }, webCtx())).toMatch(/HTTP 404/);
  });

  it('falls back to the whole body when there is no article', async () => {
    const r = await call(tool, { url: site.url('/bare') }, webCtx());
    expect(r.title).toBe('Links');
    expect(r.output).toContain(`[First](${site.url('/a')})`);
    expect(r.output).toContain('[Second](https://example.org/b)');
  });
});
