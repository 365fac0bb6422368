/**
 * A pdf_read call's card in a real Chromium: the document's title, its page count and the pages
 * read, and thumbnails of those pages drawn from the workspace file, at most four.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/http.js';
import { startOpenAiServer, textReply, toolCallsReply, type OpenAiServer } from '../support/openai-server.js';
import { makePdf } from '../support/pdf-writer.js';

const browser = useBrowser();
const eventually = <T>(check: () => T | Promise<T>, timeout = 20_000) => expect.poll(check, { timeout, interval: 100 });

let model: OpenAiServer;
let server: TestServer;
beforeAll(async () => {
  model = await startOpenAiServer();
  server = await startTestServer({
    env: { ZHIXING_BASE_URL: model.url, ZHIXING_API_KEY: 'sk-test-pdf-card', ZHIXING_MODEL: 'test-model' },
  });
  const workspace = server.app.config.workspace;
  mkdirSync(workspace, { recursive: true });
  copyFileSync(join(__dirname, '..', 'fixtures', 'pdf', 'issue14297.pdf'), join(workspace, 'annual-report.pdf'));
  const pages = Array.from({ length: 8 }, (_, i) => [`Chapter ${i + 1}`, 'Some words on this page.']);
  writeFileSync(join(workspace, 'book.pdf'), makePdf(pages, { title: 'A Short Book' }));
});
afterAll(async () => {
  await server?.close();
  await model?.close();
});

it('shows the title, page count, pages read and their thumbnails on a pdf_read card', async () => {
  model.enqueue(
    toolCallsReply([
      { id: 'report', name: 'pdf_read', args: { path: 'annual-report.pdf', pages: '1' } },
      { id: 'book', name: 'pdf_read', args: { path: 'book.pdf', pages: '2-7' } },
    ]),
    textReply('The report has two statements; the book has eight chapters.'),
  );
  const { page, expectNoErrors } = await browser.openPage(`${server.url}/`, { locale: 'en-US' });
  await page.locator('#composer').fill('Read the annual report and chapters 2 to 7 of the book');
  await page.locator('#composer').press('Enter');
  await page
    .locator('article.msg-assistant', { hasText: 'The report has two statements' })
    .waitFor({ timeout: 30_000 });

  const cards = page.locator('.tool-card[data-tool="pdf_read"][data-state="completed"]');
  expect(await cards.count()).toBe(2);
  const report = cards.nth(0);
  expect(await report.locator('[data-pdf-title]').textContent()).toBe('Consolidated Statement of Comprehensive Income');
  expect(await report.locator('[data-pdf-pages]').textContent()).toBe('1 page');
  expect(await report.locator('[data-pdf-read]').textContent()).toBe('read: 1');
  const book = cards.nth(1);
  expect(await book.locator('[data-pdf-title]').textContent()).toBe('A Short Book');
  expect(await book.locator('[data-pdf-pages]').textContent()).toBe('8 pages');
  expect(await book.locator('[data-pdf-read]').textContent()).toBe('read: 2-7');

  // Thumbnails of the pages read, four at most, drawn (not blank) from the workspace file.
  await eventually(() => report.locator('canvas.pdf-thumb').count()).toBe(1);
  await eventually(() => book.locator('canvas.pdf-thumb').count()).toBe(4);
  expect(
    await book.locator('canvas.pdf-thumb').evaluateAll((cs) => cs.map((c) => (c as HTMLCanvasElement).dataset.page)),
  ).toEqual(['2', '3', '4', '5']);
  await eventually(() => report.locator('[data-pdf-thumbs]').getAttribute('data-drawn')).toBe('1');
  const inked = await report.locator('canvas.pdf-thumb').evaluate((c) => {
    const canvas = c as HTMLCanvasElement;
    const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    let dark = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i]! < 128 && data[i + 3]! > 0) dark++;
    return dark;
  });
  expect(inked).toBeGreaterThan(50);
  await browser.screenshot(page, 'pdf-read-card');
  await expectNoErrors();
}, 90_000);
