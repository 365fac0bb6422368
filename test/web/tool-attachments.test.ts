import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Download, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/tools/tool.js';
import { useBrowser } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/http.js';
import { startOpenAiServer, textReply, toolCallsReply, type OpenAiServer } from '../support/openai-server.js';

const browser = useBrowser();

/** Polls until the check passes: a busy machine may take seconds where an idle one takes milliseconds. */
const eventually = <T>(check: () => T | Promise<T>, timeout = 15_000) => expect.poll(check, { timeout, interval: 50 });
const PNG = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../fixtures/images/bars.png')); // 48×32
const CSV = 'month,sales\nJanuary,120\nFebruary,95\nMarch,143\n';
const SUMMARY = 'Sales rose 19% in March.\n';

let model: OpenAiServer;
let server: TestServer;
beforeAll(async () => {
  model = await startOpenAiServer();
  server = await startTestServer({
    env: { ZHIXING_BASE_URL: model.url, ZHIXING_API_KEY: 'sk-test-attachments', ZHIXING_MODEL: 'test-model' },
  });
  // A tool like a chart maker: an image and a table as bytes, and a file it wrote into the workspace.
  server.app.tools.register(
    defineTool({
      name: 'sales_chart',
      description: 'Draws a chart of the sales.',
      parameters: z.object({ period: z.string() }),
      execute: ({ period }, ctx) => {
        writeFileSync(join(ctx.workspace, 'summary.txt'), SUMMARY);
        return {
          output: `Chart of ${period} drawn.`,
          title: `Sales, ${period}`,
          attachments: [
            { name: 'chart.png', mimeType: 'image/png', data: PNG.toString('base64') },
            { name: 'report.csv', mimeType: 'text/csv', data: Buffer.from(CSV).toString('base64') },
            { name: 'summary.txt', mimeType: 'text/plain', path: 'summary.txt' },
          ],
        };
      },
    }),
  );
});
afterAll(async () => {
  await server?.close();
  await model?.close();
});

/** The downloaded file's text, read through Playwright (the browser may run in another process, its files out of reach). */
const downloaded = async (download: Download) => {
  const parts: Buffer[] = [];
  for await (const part of await download.createReadStream()) parts.push(part as Buffer);
  return Buffer.concat(parts).toString();
};

/** Checks the card and its attachments: the image shown and loaded, the others offered as downloads of their own bytes. */
async function expectAttachments(page: Page) {
  const card = page.locator('.tool-card[data-tool="sales_chart"][data-state="completed"]');
  await card.waitFor();
  expect(await card.locator('.tool-title').textContent()).toBe('Sales, first quarter');
  const image = card.locator('.attachments img');
  await image.waitFor();
  await eventually(() => image.evaluate((img: any) => img.complete && img.naturalWidth)).toBe(48);
  expect(await image.evaluate((img: any) => [img.naturalHeight, img.alt, img.src.startsWith('blob:')])).toEqual([
    32,
    'chart.png',
    true,
  ]);
  expect(await card.locator('.attachment-image figcaption').textContent()).toBe('chart.png');

  const files = card.locator('button.attachment-file');
  expect(await files.count()).toBe(2);
  expect(await files.nth(0).textContent()).toMatch(/report\.csv\s+\d+ B/);
  for (const [i, name, content] of [
    [0, 'report.csv', CSV],
    [1, 'summary.txt', SUMMARY],
  ] as const) {
    const download = page.waitForEvent('download');
    await files.nth(i).click();
    const got = await download;
    expect(got.suggestedFilename()).toBe(name);
    expect(await downloaded(got)).toBe(content);
  }
}

it("shows a tool's attachments on its card: images inline, other files to download; they are still there after a reload", async () => {
  model.enqueue(
    toolCallsReply([{ id: 'call_chart', name: 'sales_chart', args: { period: 'first quarter' } }]),
    textReply('Here is the chart, with its table.'),
  );
  const { page, expectNoErrors } = await browser.openPage(`${server.url}/`, { locale: 'en-US' });
  await page.locator('#composer').fill('Chart my sales for the first quarter');
  await page.locator('#composer').press('Enter');
  await page.locator('article.msg-assistant', { hasText: 'Here is the chart, with its table.' }).waitFor();
  await expectAttachments(page);
  await browser.screenshot(page, 'tool-attachments');

  // The model read the tool's text only: the bytes are for the user.
  const toolMessages = model.requests
    .flatMap((r) => (r.body?.messages ?? []) as Array<{ role: string; content: string }>)
    .filter((m) => m.role === 'tool');
  expect(toolMessages.map((m) => m.content)).toEqual(['Chart of first quarter drawn.']);
  expect(JSON.stringify(model.requests.map((r) => r.body))).not.toContain(PNG.toString('base64').slice(0, 40));
  expect(model.pending()).toBe(0);

  // From the stored history, after a reload.
  expect(new URL(page.url()).pathname).toMatch(/^\/s\/ses_/);
  await page.reload();
  await expectAttachments(page);
  // Expanded, the card shows what the tool was given and said, beside the attachments.
  await page.locator('.tool-card .tool-head').click();
  expect(JSON.parse((await page.locator('pre.tool-input').textContent())!)).toEqual({ period: 'first quarter' });
  expect(await page.locator('pre.tool-output').textContent()).toBe('Chart of first quarter drawn.');
  await expectNoErrors();
});
