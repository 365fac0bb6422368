/**
 * web_fetch through the whole program: ./bin/zhixing --json with a scripted model behind the local
 * OpenAI-wire server. The model reads the Chinese news page served as GBK (decoded, fenced), a URL a
 * rule in config.json denies is refused without a request, and loopback is refused without the opt-in.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REPO_ROOT, runCli } from './support/cli.js';
import { startOpenAiServer, textReply, toolCallsReply, type OpenAiServer } from './support/openai-server.js';
import { send, startSite, type Site } from './support/web-site.js';

vi.setConfig({ testTimeout: 60_000 });

let site: Site;
let model: OpenAiServer;
let home: string;

beforeAll(async () => {
  site = await startSite();
  const gmw = readFileSync(path.join(REPO_ROOT, 'test', 'fixtures', 'html', 'gmw', 'source.html'), 'utf8').replace(
    /<meta[^>]*charset[^>]*>/gi,
    '',
  );
  site.route('/news/gmw.html', send(iconv.encode(gmw, 'gbk'), { 'content-type': 'text/html; charset=GBK' }));
  site.route('/moved', (_q, res) => {
    res.writeHead(301, { location: '/news/gmw.html' });
    res.end();
  });
  site.route('/private/plan.html', send('<title>Plan</title><p>secret</p>'));
  model = await startOpenAiServer();
  home = mkdtempSync(path.join(tmpdir(), 'zhixing-web-fetch-'));
});
afterAll(async () => {
  await site?.close();
  await model?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

const env = (extra: Record<string, string> = {}) => ({
  ZHIXING_HOME: home,
  ZHIXING_BASE_URL: model.url,
  ZHIXING_API_KEY: 'sk-test-0000',
  ZHIXING_MODEL: 'test-model',
  ZHIXING_LANG: 'en',
  ...extra,
});

function toolMessage(id: string): string {
  for (const r of model.requests) {
    for (const m of (r.body?.messages ?? []) as Array<{ role: string; tool_call_id?: string; content?: string }>) {
      if (m.role === 'tool' && m.tool_call_id === id) return String(m.content);
    }
  }
  throw new Error(`no tool result for ${id}`);
}

interface Out {
  session: string;
  actions: Array<{ tool: string; ok: boolean; output: string }>;
}

describe('web_fetch in a turn', () => {
  it('reads a GBK page after a redirect, and a rule in config.json denies a URL', async () => {
    writeFileSync(
      path.join(home, 'config.json'),
      JSON.stringify({ permissions: { web_fetch: { 'http://127.0.0.1:*/private/*': 'deny' } } }),
    );
    model.enqueue(
      toolCallsReply([
        { id: 'news', name: 'web_fetch', args: { url: site.url('/moved') } },
        { id: 'plan', name: 'web_fetch', args: { url: site.url('/private/plan.html') } },
      ]),
      textReply('The article is about drinking alcohol in space.'),
    );
    const r = await runCli(['--json', '--new', 'read these two pages'], env({ ZHIXING_ALLOW_PRIVATE_NETWORK: '1' }), {
      timeoutMs: 55_000,
    });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as Out;
    expect(
      out.actions.map((a) => [a.tool, a.ok]),
      JSON.stringify(out.actions),
    ).toEqual([
      ['web_fetch', true],
      ['web_fetch', false],
    ]);
    const news = toolMessage('news');
    expect(news).toMatch(/^<untrusted-content kind="web page" source="http:\/\/127\.0\.0\.1:\d+\/news\/gmw\.html">/);
    expect(news).toContain('宇航员在太空中喝酒会怎么样');
    expect(news).toContain('肖春芳');
    expect(news).not.toContain('\uFFFD');
    expect(toolMessage('plan')).toMatch(/refused by the permission settings/);
    expect(site.seen).toEqual(['/moved', '/news/gmw.html']);
  });

  it('refuses loopback without the opt-in, whatever the spelling', async () => {
    writeFileSync(path.join(home, 'config.json'), '{}');
    const before = site.seen.length;
    model.enqueue(
      toolCallsReply(
        ['127.1', '2130706433', 'localhost', '[::ffff:127.0.0.1]'].map((h, i) => ({
          id: `x${i}`,
          name: 'web_fetch',
          args: { url: `http://${h}:${site.port}/news/gmw.html` },
        })),
      ),
      textReply('All refused.'),
    );
    const r = await runCli(['--json', '--new', 'open these'], env(), { timeoutMs: 55_000 });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as Out;
    expect(out.actions).toHaveLength(4);
    for (const a of out.actions)
      expect(a.ok === false && /ZHIXING_ALLOW_PRIVATE_NETWORK=1/.test(a.output), a.output).toBe(true);
    expect(site.seen.length).toBe(before);
  });
});
