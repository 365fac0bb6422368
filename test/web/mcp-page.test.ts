/**
 * The MCP servers page in a real Chromium, against the real API: servers with their state, the add
 * form whose dialog shows the whole command before anything is saved, enable, trust, remove, and
 * live updates from the server-wide stream. Screenshots go to /work/scratch-wt-hosts/.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/http.js';

const SHOTS = process.env.ZHIXING_SHOTS_DIR ?? '/work/scratch-wt-hosts';
const EVERYTHING = resolve('node_modules/.bin/mcp-server-everything');
const MEMORY = resolve('node_modules/.bin/mcp-server-memory');
const browser = useBrowser();
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const configOf = (s: TestServer) =>
  JSON.parse(readFileSync(join(s.home, 'config.json'), 'utf8')) as Record<string, any>;
/** Every try and state of the default backoff (five tries), without its seconds of waiting between them. */
const mcpRetry = { baseMs: 5, maxMs: 20, attempts: 5 };
const mcpServers = {
  everything: { command: EVERYTHING, args: ['stdio'] },
  // Says why on stderr and dies at once.
  broken: { command: 'sh', args: ['-c', 'echo "cannot open database: permission denied" >&2; exit 3'] },
  remote: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer secret' }, enabled: false },
};

async function openMcp(page: Page): Promise<void> {
  await page.locator('#composer').waitFor();
  await page.locator('[data-settings]').click();
  await page.locator('[data-mcp-status]').waitFor();
  await page.locator('[data-open-mcp]').click();
  await page.locator('[data-mcp-page] [data-mcp-server]').first().waitFor();
}

const card = (page: Page, name: string) => page.locator(`[data-mcp-server="${name}"]`);

it('lists the servers with their state, adds one after showing its whole command, turns one off, trusts and removes one', async () => {
  const s = (server = await startTestServer({ config: { mcpServers }, mcpRetry }));
  mkdirSync(SHOTS, { recursive: true });
  s.app.mcp.start();
  const { page, expectNoErrors } = await browser.openPage(`${s.url}/`, { locale: 'en-US' });
  await page.locator('#composer').waitFor();
  await page.locator('[data-settings]').click();
  // The status panel names each server with its state.
  await page.locator('[data-mcp-status]').waitFor();
  expect(await page.locator('[data-mcp-status-server]').count()).toBe(3);
  expect(await page.locator('[data-mcp-status-server="remote"]').getAttribute('data-state')).toBe('disabled');
  await page.locator('[data-open-mcp]').click();
  await card(page, 'everything').waitFor();

  await expect.poll(() => card(page, 'everything').getAttribute('data-state'), { timeout: 20_000 }).toBe('connected');
  expect(await card(page, 'everything').locator('[data-mcp-state]').innerText()).toBe('connected');
  expect(await card(page, 'everything').locator('[data-mcp-runs]').innerText()).toBe(`${EVERYTHING} stdio`);
  // Its tools, folded away until asked for.
  const tools = card(page, 'everything').locator('[data-mcp-tools]');
  expect(await tools.getAttribute('open')).toBeNull();
  await tools.locator('summary').click();
  expect(await tools.innerText()).toContain('everything__get-sum');
  // The one that died: failed, why, and what it wrote to stderr (folded).
  await expect.poll(() => card(page, 'broken').getAttribute('data-state'), { timeout: 20_000 }).toBe('failed');
  expect(await card(page, 'broken').locator('[data-mcp-error]').innerText()).not.toBe('');
  const stderr = card(page, 'broken').locator('[data-mcp-stderr]');
  expect(await stderr.getAttribute('open')).toBeNull();
  await stderr.locator('summary').click();
  expect(await stderr.locator('pre').innerText()).toContain('cannot open database: permission denied');

  // Reconnect: it goes round and comes back connected.
  const before = s.app.mcp.get('everything')!.reconnects;
  await card(page, 'everything').locator('[data-mcp-reconnect]').click();
  await expect.poll(() => s.app.mcp.get('everything')!.reconnects).toBeGreaterThan(before);
  await expect.poll(() => card(page, 'everything').getAttribute('data-state'), { timeout: 20_000 }).toBe('connected');
  expect(await card(page, 'remote').locator('[data-mcp-state]').innerText()).toBe('disabled');
  expect(await card(page, 'remote').innerText()).toContain('header Authorization');
  expect(await card(page, 'everything').locator('[data-mcp-trust-state]').getAttribute('data-trusted')).toBe('false');

  // Add: the dialog shows exactly what will run, and nothing is saved before the user says so.
  await page.locator('[data-mcp-name]').fill('mem');
  await page.locator('[data-mcp-command]').fill(`${MEMORY} --label 'my notes' ; echo $HOME`);
  await page.locator('[data-mcp-pairs]').fill('API_KEY=secret');
  await page.locator('[data-mcp-add]').click();
  const dialog = page.locator('[data-mcp-confirm-add]');
  await dialog.waitFor();
  expect(await dialog.locator('[data-mcp-full-command]').innerText()).toBe(
    `${MEMORY} --label 'my notes' ';' echo '$HOME'`,
  );
  expect(await dialog.innerText()).toContain('API_KEY');
  expect(await dialog.innerText()).not.toContain('secret');
  expect(configOf(s).mcpServers.mem).toBeUndefined();
  await page.screenshot({ path: join(SHOTS, 'mcp-add-confirm.png') });
  await dialog.locator('[data-mcp-confirm]').click();
  await card(page, 'mem').waitFor();
  // The memory server, started with the flags it was given: it ignores them and connects.
  await expect
    .poll(() => card(page, 'mem').getAttribute('data-state'), { timeout: 20_000 })
    .toMatch(/connected|failed/);
  expect(configOf(s).mcpServers.mem).toEqual({
    command: MEMORY,
    args: ['--label', 'my notes', ';', 'echo', '$HOME'],
    env: { API_KEY: 'secret' },
  });
  expect(await page.content()).not.toContain('secret');

  // A clash is refused by the server, said in the form, and the form keeps what was typed.
  await page.locator('[data-mcp-name]').fill('mem');
  await page.locator('[data-mcp-command]').fill('true');
  await page.locator('[data-mcp-add]').click();
  await dialog.locator('[data-mcp-confirm]').click();
  await page.locator('[data-mcp-form-error]').waitFor();
  expect(await page.locator('[data-mcp-form-error]').innerText()).toContain('There is already an MCP server "mem"');
  expect(await page.locator('[data-mcp-command]').inputValue()).toBe('true');

  // Off, saved; the badge follows.
  await card(page, 'mem').locator('[data-mcp-enabled]').uncheck();
  await expect.poll(() => card(page, 'mem').getAttribute('data-state')).toBe('disabled');
  expect(configOf(s).mcpServers.mem.enabled).toBe(false);

  // Trust, after a confirm that says what it allows: the rule lands in the permissions.
  await card(page, 'everything').locator('[data-mcp-trust]').click();
  const trust = page.locator('[data-mcp-confirm-trust]');
  expect(await trust.innerText()).toContain('“everything__*”: “allow”');
  expect(await trust.innerText()).toContain('without asking');
  await trust.locator('[data-mcp-confirm]').click();
  await expect.poll(() => configOf(s).permissions).toEqual({ 'everything__*': 'allow' });
  await expect
    .poll(() => card(page, 'everything').locator('[data-mcp-trust-state]').getAttribute('data-trusted'))
    .toBe('true');

  // Remove, after a confirm.
  await card(page, 'broken').locator('[data-mcp-remove]').click();
  await page.locator('[data-mcp-confirm-remove] [data-mcp-confirm]').click();
  await expect.poll(() => card(page, 'broken').count()).toBe(0);
  expect(Object.keys(configOf(s).mcpServers)).toEqual(['everything', 'remote', 'mem']);

  await page.screenshot({ path: join(SHOTS, 'mcp-page.png'), fullPage: true });
  await expectNoErrors([/409/]);
}, 60_000);

it('follows changes made elsewhere, live, and reads in Chinese on a phone in the dark theme', async () => {
  mkdirSync(SHOTS, { recursive: true });
  const s = (server = await startTestServer({ config: { mcpServers } }));
  s.app.mcp.start();
  const { page, expectNoErrors } = await browser.openPage(`${s.url}/`, {
    locale: 'zh-CN',
    viewport: { width: 390, height: 844 },
    colorScheme: 'dark',
  });
  await openMcp(page);
  expect(await page.locator('[data-mcp-page] h2').first().innerText()).toBe('MCP 服务器');
  // Connecting, then connected, as the server-wide stream tells it.
  await expect.poll(() => card(page, 'everything').getAttribute('data-state'), { timeout: 20_000 }).toBe('connected');
  expect(await card(page, 'everything').locator('[data-mcp-state]').innerText()).toBe('已连接');
  // Another host (the CLI's REPL, the API) turns a server off and removes another: the page follows.
  await s.app.mcp.setEnabled('everything', false);
  await expect.poll(() => card(page, 'everything').getAttribute('data-state')).toBe('disabled');
  expect(await card(page, 'everything').locator('[data-mcp-state]').innerText()).toBe('已停用');
  const added = await s.app.mcp.add({
    name: 'later',
    transport: 'stdio',
    command: 'true',
    args: [],
    env: {},
    headers: {},
    enabled: false,
    timeoutMs: 60_000,
  });
  expect(added.name).toBe('later');
  await card(page, 'later').waitFor();
  await page.screenshot({ path: join(SHOTS, 'mcp-page-zh-dark-phone.png'), fullPage: true });
  await expectNoErrors();
}, 60_000);

it("shows on the card what a server's list left out, in English and Chinese", async () => {
  const s = (server = await startTestServer({
    config: { mcpServers: { many: { command: process.execPath, args: [resolve('test/fixtures/mcp/many.mjs')] } } },
  }));
  s.app.mcp.start();
  for (const [locale, prefix] of [
    ['en-US', 'Warning: '],
    ['zh-CN', '注意：'],
  ] as const) {
    const { page, expectNoErrors } = await browser.openPage(`${s.url}/`, { locale });
    await openMcp(page);
    await expect.poll(() => card(page, 'many').getAttribute('data-state'), { timeout: 20_000 }).toBe('connected');
    const warning = card(page, 'many').locator('[data-mcp-warning]');
    await warning.waitFor();
    expect(await warning.isVisible()).toBe(true);
    expect(await warning.innerText()).toBe(`${prefix}it lists 150 tools; only the first 100 are offered.`);
    await expectNoErrors();
  }
}, 60_000);
