/**
 * An MCP server's tools on the chat's tool cards, in a real Chromium: server-everything's long
 * operation shows its progress lines while it runs, and its tiny image shows as an attachment.
 */
import { join, resolve } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/http.js';
import { createScriptedLlm } from '../support/scripted-llm.js';

const SHOTS = process.env.ZHIXING_SHOTS_DIR ?? '/work/scratch-wt-hosts';
const EVERYTHING = resolve('node_modules/.bin/mcp-server-everything');
const browser = useBrowser();
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

it('a running MCP call shows its progress on its card, and an image it returns shows as an attachment', async () => {
  const llm = createScriptedLlm([
    { calls: [{ id: 'c1', name: 'everything__trigger-long-running-operation', args: { duration: 3, steps: 6 } }] },
    { calls: [{ id: 'c2', name: 'everything__get-tiny-image', args: {} }] },
    { text: 'Done: the operation finished and here is the image.' },
  ]);
  const s = (server = await startTestServer({
    llm,
    config: {
      mcpServers: { everything: { command: EVERYTHING, args: ['stdio'] } },
      permissions: { 'everything__*': 'allow' },
    },
  }));
  s.app.mcp.start();
  expect(await s.app.mcp.ready(30_000)).toEqual([]);
  const { page, expectNoErrors } = await browser.openPage(`${s.url}/`, { locale: 'en-US' });
  await page.locator('#composer').fill('Run the long operation, then show me the tiny image');
  await page.locator('#composer').press('Enter');

  const slow = page.locator('.tool-card[data-tool="everything__trigger-long-running-operation"]');
  const progress = slow.locator('.tool-progress');
  await progress.waitFor({ timeout: 15_000 });
  expect(await slow.getAttribute('data-state')).toBe('running');
  const first = await progress.innerText();
  expect(first).toMatch(/\d\/6/);
  // It moves on while the call runs.
  await expect.poll(() => progress.innerText().catch(() => first), { timeout: 10_000, interval: 100 }).not.toBe(first);
  await page.screenshot({ path: join(SHOTS, 'mcp-tool-progress.png') });

  await page.locator('article.msg-assistant', { hasText: 'Done: the operation finished' }).waitFor({ timeout: 20_000 });
  expect(await slow.getAttribute('data-state')).toBe('completed');
  expect(await progress.count()).toBe(0);
  const image = page.locator('.tool-card[data-tool="everything__get-tiny-image"] .attachments img');
  await image.waitFor();
  await expect.poll(() => image.evaluate((img: any) => img.complete && img.naturalWidth > 0)).toBe(true);
  // The model read text only: no image bytes in what it was sent.
  expect(JSON.stringify(llm.requests.map((r) => r.messages))).not.toMatch(/iVBORw0KGgo/);
  await page.screenshot({ path: join(SHOTS, 'mcp-tool-image.png') });
  await expectNoErrors();
}, 60_000);
