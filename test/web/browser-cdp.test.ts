/**
 * The browser tools attached over CDP to a Chrome the user runs (ZHIXING_BROWSER_CDP_URL): the
 * session gets a context of its own in it, the network policy holds there too, and closing detaches
 * without closing the user's browser or their tabs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sandboxChoice } from '../../src/browser/launch.js';
import { createBrowserManager } from '../../src/browser/manager.js';
import { createBrowserTools } from '../../src/tools/browser.js';
import type { ToolContext, ToolOutput } from '../../src/tools/tool.js';
import { CHROMIUM_PATH } from '../support/browser.js';
import { startSites, type Sites } from '../support/browser-site.js';

let sites: Sites;
let chrome: ChildProcess;
let profile: string;
let cdpUrl: string;

beforeAll(async () => {
  sites = await startSites();
  profile = mkdtempSync(path.join(tmpdir(), 'zhixing-cdp-'));
  // The user's Chrome, started as its documentation says: a debugging port, its own profile, a tab open.
  chrome = spawn(
    CHROMIUM_PATH,
    [
      ...sandboxChoice(process.getuid?.(), false).args,
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const ws = await new Promise<string>((resolve, reject) => {
    let err = '';
    chrome.stderr!.setEncoding('utf8').on('data', (d: string) => {
      err += d;
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(err);
      if (m) resolve(m[1]!);
    });
    chrome.once('exit', (code) => reject(new Error(`Chromium exited (${code}): ${err}`)));
  });
  cdpUrl = `http://${new URL(ws).host}`;
});
afterAll(async () => {
  if (chrome && chrome.exitCode === null && chrome.signalCode === null) {
    const exited = new Promise((resolve) => chrome!.once('exit', resolve));
    chrome.kill('SIGKILL');
    await exited;
  }
  await sites?.close();
  // Chromium's children may still be writing the profile a moment after the browser is gone.
  if (profile) rmSync(profile, { recursive: true, force: true, maxRetries: 50, retryDelay: 200 });
});

const ctx = (sessionId: string): ToolContext => ({
  sessionId,
  turnId: 't',
  callId: 'c',
  workspace: '/nonexistent',
  signal: new AbortController().signal,
  lang: 'en',
  ask: async () => 'allow',
  progress: () => {},
});

it("drives a context of its own in the user's Chrome under the policy, and leaves that Chrome running", async () => {
  const manager = createBrowserManager({ source: { cdpUrl, searchPath: '', env: {} }, policy: sites.policy });
  const [navigate, , , type] = createBrowserTools(manager);
  try {
    await navigate!.execute({ url: `http://public.test:${sites.publicPort}/form` }, ctx('ses_cdp'));
    await type!.execute({ selector: '#name', text: 'Mei' }, ctx('ses_cdp'));
    const done = (await type!.execute(
      { selector: '#city', text: "Xi'an", submit: true },
      ctx('ses_cdp'),
    )) as ToolOutput;
    expect(done.output).toContain("Thanks, Mei from Xi'an");
    const refused = await Promise.resolve(
      navigate!.execute(
        {
          url: `http://public.test:${sites.publicPort}/redirect?to=${encodeURIComponent(`http://127.0.0.1:${sites.privatePort}/`)}`,
        },
        ctx('ses_cdp'),
      ),
    ).then(
      () => '',
      (e: Error) => e.message,
    );
    expect(refused).toMatch(/ZHIXING_ALLOW_PRIVATE_NETWORK=1/);
    expect(sites.privateHits).toEqual([]);
  } finally {
    await manager.close();
  }
  // Detached, not closed: the user's Chrome answers, with its own tab still open and ours gone.
  expect(chrome.exitCode).toBeNull();
  const tabs = (await (await fetch(`${cdpUrl}/json/list`)).json()) as Array<{ type: string; url: string }>;
  expect(tabs.filter((t) => t.type === 'page').map((t) => t.url)).toEqual(['about:blank']);
});
