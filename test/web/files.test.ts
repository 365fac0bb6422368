import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/http.js';

// Code run inside the page: this project's TypeScript has no DOM types.
declare const window: any;
declare const document: any;

const browser = useBrowser();

/** Polls until the check passes: a busy machine may take seconds where an idle one takes milliseconds. */
const eventually = <T>(check: () => T | Promise<T>, timeout = 15_000) => expect.poll(check, { timeout, interval: 50 });
const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../fixtures');
const PNG = readFileSync(join(FIXTURES, 'images/bars.png')); // 48×32
const TRACEMONKEY = readFileSync(join(FIXTURES, 'pdf/tracemonkey_a11y.pdf'));
const XIAOBIAOSONG = readFileSync(join(FIXTURES, 'pdf/XiaoBiaoSong.pdf'));
const MAX_UPLOAD = 25 * 1024 * 1024;

let server: TestServer;
let scratch: string;
beforeAll(async () => {
  server = await startTestServer();
  scratch = mkdtempSync(join(tmpdir(), 'zhixing-upload-'));
});
afterAll(async () => {
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** A PDF of `n` pages made here, so the count is known: each page a black bar as wide as its number says. */
function pagesPdf(n: number): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${Array.from({ length: n }, (_, i) => `${3 + 2 * i} 0 R`).join(' ')}] /Count ${n} >>`,
  ];
  for (let i = 1; i <= n; i++) {
    const stream = `0 0 0 rg 20 20 ${20 * i} 60 re f`;
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents ${4 + 2 * (i - 1)} 0 R >>`);
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  }
  let out = '%PDF-1.4\n';
  const offsets = objects.map((o, i) => {
    const at = out.length;
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
    return at;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  return Buffer.from(
    `${out}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`,
    'latin1',
  );
}

async function openApp(locale = 'en-US') {
  const opened = await browser.openPage(`${server.url}/`, { locale });
  await opened.page.locator('#composer').waitFor();
  return opened;
}

const exactly = (s: string) => new RegExp(`^${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
/** The chip of an uploaded file, once its upload has finished (its button is enabled then). */
async function uploaded(page: Page, path: string) {
  const chip = page.locator('.chip').filter({ has: page.locator('.chip-name', { hasText: exactly(path) }) });
  await eventually(() => chip.locator('.chip-main').isEnabled(), 30_000).toBe(true);
  return chip;
}
const inWorkspace = (path: string) => readFileSync(join(server.app.workspace, path));

/** Opens the preview of a chip; returns its body once it is no longer loading. */
async function preview(page: Page, path: string, kind: string) {
  const chip = (await uploaded(page, path)).locator('.chip-main');
  // Nothing (a toast saying it was uploaded) lies over a chip just uploaded: it can be clicked at once.
  const uncovered = await chip.evaluate((el: any) => {
    const box = el.getBoundingClientRect();
    return el.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2));
  });
  expect(uncovered, `something lies over the chip of ${path}`).toBe(true);
  await chip.click();
  const body = page.locator(`dialog.preview[open] .preview-body[data-kind="${kind}"]`);
  await body.waitFor();
  expect(await page.locator('dialog.preview h2').textContent()).toBe(path);
  return body;
}
const closePreview = async (page: Page) => {
  await page.keyboard.press('Escape');
  await page.locator('dialog.preview').waitFor({ state: 'detached' });
};

/** Per drawn PDF page: its size, and the share of its pixels that are ink (opaque and not near white). */
const pdfPages = (page: Page) =>
  page.$$eval('.preview-pdf canvas.pdf-page', (canvases: any[]) =>
    canvases.map((c) => {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let ink = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 200 && d[i] + d[i + 1] + d[i + 2] < 600) ink++;
      return { width: c.width, height: c.height, ink: ink / (c.width * c.height) };
    }),
  );

async function expectPdf(page: Page, path: string, pageCount: number, drawn: number) {
  await preview(page, path, 'pdf');
  const pdf = page.locator('.preview-pdf[data-pages]');
  await pdf.waitFor({ timeout: 20_000 });
  expect(await pdf.getAttribute('data-pages')).toBe(String(pageCount));
  const pages = await pdfPages(page);
  expect(pages).toHaveLength(drawn);
  // Ink is a share of the page: the Chinese page's text is 4% of it, its rule line alone (text not drawn) 0.06%.
  for (const p of pages) {
    expect(p.width).toBeGreaterThan(250);
    expect(p.ink, `${path}: a page drawn blank`).toBeGreaterThan(0.01);
  }
  return pages;
}

it('uploads text, Markdown, an image and PDFs with the attach button: each is in the workspace and previews as itself', async () => {
  const { page, expectNoErrors } = await openApp();
  const text = 'Line one\n  indented ✓ 中文\n\n<b>not bold</b> & so on\n';
  const markdown = '# Trip notes\n\nPack **boots** and a `map`.\n\n- day one\n- day two\n';
  const eight = pagesPdf(8);
  await page.getByRole('button', { name: 'Attach a file' }).waitFor();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Attach a file' }).click();
  await (
    await chooser
  ).setFiles([
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from(text) },
    { name: 'trip.md', mimeType: 'text/markdown', buffer: Buffer.from(markdown) },
    { name: 'bars.png', mimeType: 'image/png', buffer: PNG },
    { name: 'tracemonkey.pdf', mimeType: 'application/pdf', buffer: TRACEMONKEY },
    { name: '目录.pdf', mimeType: 'application/pdf', buffer: XIAOBIAOSONG },
    { name: 'eight pages.pdf', mimeType: 'application/pdf', buffer: eight },
  ]);
  for (const name of ['notes.txt', 'trip.md', 'bars.png', 'tracemonkey.pdf', '目录.pdf', 'eight pages.pdf'])
    await uploaded(page, name);
  expect(await page.locator('.chip').count()).toBe(6);
  expect(inWorkspace('notes.txt').toString()).toBe(text);
  expect(inWorkspace('trip.md').toString()).toBe(markdown);
  expect(inWorkspace('bars.png').equals(PNG)).toBe(true);
  expect(inWorkspace('tracemonkey.pdf').equals(TRACEMONKEY)).toBe(true);
  expect(inWorkspace('目录.pdf').equals(XIAOBIAOSONG)).toBe(true);
  expect(inWorkspace('eight pages.pdf').equals(eight)).toBe(true);
  await browser.screenshot(page, 'upload-chips');

  // Text: exactly the file, markup and all shown as characters.
  const textBody = await preview(page, 'notes.txt', 'text');
  expect(await textBody.locator('.preview-text').textContent()).toBe(text);
  expect(await textBody.locator('b').count()).toBe(0);
  await browser.screenshot(page, 'preview-text');
  await closePreview(page);

  // Markdown: rendered, not shown as source.
  const mdBody = await preview(page, 'trip.md', 'markdown');
  expect(await mdBody.locator('.markdown h1').textContent()).toBe('Trip notes');
  expect(await mdBody.locator('.markdown strong').textContent()).toBe('boots');
  expect(await mdBody.locator('.markdown li').allTextContents()).toEqual(['day one', 'day two']);
  expect(await mdBody.textContent()).not.toContain('#');
  await browser.screenshot(page, 'preview-markdown');
  await closePreview(page);

  // The image, really loaded, at its own size.
  await preview(page, 'bars.png', 'image');
  const image = page.locator('.preview-image');
  await image.waitFor();
  await eventually(() => image.evaluate((img: any) => img.complete && img.naturalWidth)).toBe(48);
  expect(await image.evaluate((img: any) => img.naturalHeight)).toBe(32);
  await browser.screenshot(page, 'preview-image');
  await closePreview(page);

  // PDFs drawn by pdf.js: an English paper, a Chinese page, and only the first five of eight pages.
  await expectPdf(page, 'tracemonkey.pdf', 1, 1);
  await browser.screenshot(page, 'preview-pdf');
  await closePreview(page);
  await expectPdf(page, '目录.pdf', 1, 1);
  await browser.screenshot(page, 'preview-pdf-chinese');
  await closePreview(page);
  const pages = await expectPdf(page, 'eight pages.pdf', 8, 5);
  // Page n's bar is n units wide: the pages drawn are the first five, in order.
  for (let i = 1; i < pages.length; i++) expect(pages[i]!.ink).toBeGreaterThan(pages[i - 1]!.ink);
  await closePreview(page);
  await expectNoErrors();
});

it('uploads the files dropped on the window, showing where to drop while they are dragged over it', async () => {
  const { page, expectNoErrors } = await openApp('zh-CN');
  const files = await page.evaluateHandle(
    (png: number[]) => {
      const dt = new window.DataTransfer();
      dt.items.add(new window.File(['拖进来的文字\n'], '拖放.txt', { type: 'text/plain' }));
      dt.items.add(new window.File([new Uint8Array(png)], 'dropped.png', { type: 'image/png' }));
      return dt;
    },
    [...PNG],
  );
  await page.dispatchEvent('.shell', 'dragenter', { dataTransfer: files });
  await page.locator('.drop-zone').waitFor();
  // Leaving the window hides it again; coming back and dropping uploads.
  await page.dispatchEvent('.shell', 'dragleave', { dataTransfer: files });
  await page.locator('.drop-zone').waitFor({ state: 'detached' });
  await page.dispatchEvent('.shell', 'dragenter', { dataTransfer: files });
  await page.dispatchEvent('.shell', 'dragover', { dataTransfer: files });
  await page.dispatchEvent('.shell', 'drop', { dataTransfer: files });
  await page.locator('.drop-zone').waitFor({ state: 'detached' });
  await uploaded(page, '拖放.txt');
  await uploaded(page, 'dropped.png');
  expect(inWorkspace('拖放.txt').toString()).toBe('拖进来的文字\n');
  expect(inWorkspace('dropped.png').equals(PNG)).toBe(true);
  expect(await page.locator('.toast').allTextContents()).toContain('已上传到工作区：拖放.txt');
  const body = await preview(page, '拖放.txt', 'text');
  expect(await body.locator('.preview-text').textContent()).toBe('拖进来的文字\n');
  await closePreview(page);
  await expectNoErrors();
});

it('keeps the first file when a name is uploaded again: the second becomes "name (2).ext"', async () => {
  const { page, expectNoErrors } = await openApp();
  const input = page.locator('input[data-upload]');
  await input.setInputFiles({ name: 'plan.txt', mimeType: 'text/plain', buffer: Buffer.from('first plan') });
  await uploaded(page, 'plan.txt');
  await input.setInputFiles({ name: 'plan.txt', mimeType: 'text/plain', buffer: Buffer.from('second plan') });
  await uploaded(page, 'plan (2).txt');
  expect(await page.locator('.chip-name').allTextContents()).toEqual(['plan.txt', 'plan (2).txt']);
  expect(inWorkspace('plan.txt').toString()).toBe('first plan');
  expect(inWorkspace('plan (2).txt').toString()).toBe('second plan');
  // The chip previews the file it names.
  const body = await preview(page, 'plan (2).txt', 'text');
  expect(await body.locator('.preview-text').textContent()).toBe('second plan');
  await closePreview(page);
  await expectNoErrors();
});

it('previews an uploaded page with scripts as plain text, and nothing in it runs', async () => {
  const { page, expectNoErrors } = await openApp();
  const hostile = [
    '<!doctype html><h1>Win a prize</h1>',
    '<script>window.__pwned = "script"</script>',
    '<img src="/pwned.png" onerror="window.__pwned = \'img\'">',
    '<iframe src="javascript:parent.__pwned = \'frame\'"></iframe>',
  ].join('\n');
  await page
    .locator('input[data-upload]')
    .setInputFiles({ name: 'prize.html', mimeType: 'text/html', buffer: Buffer.from(hostile) });
  const body = await preview(page, 'prize.html', 'text');
  expect(await body.locator('.preview-text').textContent()).toBe(hostile);
  expect(await body.locator('h1, img, script, iframe').count()).toBe(0);
  expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
  await closePreview(page);
  // Opened straight from the server, it is text too.
  await page.goto(`${server.url}/api/files/raw?path=prize.html`);
  expect(await page.evaluate(() => [document.body.innerText, window.__pwned])).toEqual([hostile, undefined]);
  await expectNoErrors();
});

it('names the uploaded files in the message sent after them', async () => {
  const { page, expectNoErrors } = await openApp();
  await page.locator('input[data-upload]').setInputFiles([
    { name: 'budget.csv', mimeType: 'text/csv', buffer: Buffer.from('item,cost\nrent,900\n') },
    { name: 'receipt.png', mimeType: 'image/png', buffer: PNG },
  ]);
  await uploaded(page, 'budget.csv');
  await uploaded(page, 'receipt.png');
  await page.locator('#composer').fill('what time is it');
  await page.locator('#composer').press('Enter');
  const sent = page.locator('article.msg-user');
  await sent.waitFor();
  // The names are quoted, as material: whoever made a file chose its name.
  expect(await sent.textContent()).toMatch(/Files in the workspace:[\s\S]*budget\.csv[\s\S]*receipt\.png/);
  await page.locator('article.msg-assistant').last().waitFor();
  await page.locator('button.send[type=submit]').waitFor();
  // Sent with the message, the chips are gone: the next message does not name them again.
  expect(await page.locator('.chip').count()).toBe(0);
  const id = new URL(page.url()).pathname.split('/').pop()!;
  const history = await (await fetch(`${server.url}/api/sessions/${id}/messages`)).json();
  expect(JSON.stringify(history)).toContain('budget.csv\\nreceipt.png');
  await expectNoErrors();
});

it('refuses a file over 25 MB in the page, saying why, without sending it; 25 MB itself uploads', async () => {
  const { page, expectNoErrors } = await openApp();
  const posts: string[] = [];
  page.on('request', (r) => r.method() === 'POST' && posts.push(r.url()));
  const big = join(scratch, 'video.mp4');
  writeFileSync(big, '');
  truncateSync(big, MAX_UPLOAD + 1);
  await page.locator('input[data-upload]').setInputFiles(big);
  const error = page.locator('.toast-error');
  await error.waitFor();
  expect(await error.textContent()).toContain(
    'video.mp4 is larger than 25 MB, the most one upload may hold: it was not uploaded.',
  );
  expect(await page.locator('.chip.chip-error .chip-name').textContent()).toBe('video.mp4');
  expect(await page.locator('.chip.chip-error .chip-main').isDisabled()).toBe(true);
  expect(posts).toEqual([]);
  expect(existsSync(join(server.app.workspace, 'video.mp4'))).toBe(false);
  // The message can still be sent: a refused file holds nothing up, and is not named in it.
  await page.locator('#composer').fill('what time is it');
  expect(await page.locator('button.send[type=submit]').isEnabled()).toBe(true);

  const edge = join(scratch, 'edge.bin');
  writeFileSync(edge, '');
  truncateSync(edge, MAX_UPLOAD);
  await page.locator('input[data-upload]').setInputFiles(edge);
  await uploaded(page, 'edge.bin');
  expect(posts).toHaveLength(1);
  expect(readFileSync(join(server.app.workspace, 'edge.bin')).length).toBe(MAX_UPLOAD);
  await expectNoErrors();
});
