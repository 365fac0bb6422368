/**
 * web_search as a user meets it: ./bin/zhixing with a model behind the local OpenAI-wire server
 * calling the tool, the search service a stand-in speaking Brave's or SearXNG's API. The search key
 * reaches no output, no history, no file, no request to the model, not /api/status and not
 * `zhixing config`, even when the service echoes it back.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, type Dirent } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore } from '../src/store/store.js';
import { runCli } from './support/cli.js';
import { request, startTestServer } from './support/http.js';
import { startOpenAiServer, textReply, toolCallsReply, type OpenAiServer } from './support/openai-server.js';
import { SEARCH_KEY, startSearchServer, type SearchServer } from './support/search-server.js';

vi.setConfig({ testTimeout: 60_000 });

let model: OpenAiServer;
let search: SearchServer;
const homes: string[] = [];
beforeAll(async () => {
  model = await startOpenAiServer();
  search = await startSearchServer();
});
afterAll(async () => {
  await model?.close();
  await search?.close();
  homes.forEach((h) => rmSync(h, { recursive: true, force: true }));
});
beforeEach(() => {
  model.requests.length = 0;
  search.seen.length = 0;
  search.mode = 'ok';
});

function newHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'zhixing-search-'));
  homes.push(home);
  return home;
}

function env(home: string, extra: Record<string, string>): Record<string, string> {
  return {
    ZHIXING_HOME: home,
    ZHIXING_BASE_URL: model.url,
    ZHIXING_API_KEY: 'sk-test-search-0000',
    ZHIXING_MODEL: 'test-model',
    ...extra,
  };
}

const braveEnv = () => ({
  ZHIXING_SEARCH_PROVIDER: 'brave',
  ZHIXING_SEARCH_URL: `${search.url}/res/v1/web/search`,
  ZHIXING_SEARCH_API_KEY: SEARCH_KEY,
});

/** The tool messages the model server was sent, by call id. */
function toolMessages(): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of model.requests) {
    for (const m of (r.body?.messages ?? []) as Array<{ role: string; tool_call_id?: string; content?: string }>) {
      if (m.role === 'tool' && m.tool_call_id) out.set(m.tool_call_id, String(m.content));
    }
  }
  return out;
}

function everyFile(dir: string): Array<[string, Buffer]> {
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as Dirent[])
    .filter((e) => e.isFile())
    .map((e) => [join(e.parentPath, e.name), readFileSync(join(e.parentPath, e.name))] as [string, Buffer]);
}

describe('web_search through the agent', () => {
  it('searches SearXNG on loopback without the private-network opt-in, and the model reads the fenced results', async () => {
    const home = newHome();
    model.enqueue(
      toolCallsReply([{ id: 's1', name: 'web_search', args: { query: '知行合一' } }]),
      textReply('知行合一是王阳明的学说。'),
    );
    const r = await runCli(
      ['--json', '--new', '搜一下知行合一'],
      env(home, { ZHIXING_SEARCH_URL: search.url, ZHIXING_LANG: 'zh' }),
    );
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as {
      reply: string;
      actions: Array<{ tool: string; ok: boolean; input: unknown; output: string }>;
    };
    expect(out.actions.map((a) => [a.tool, a.ok, a.input])).toEqual([['web_search', true, { query: '知行合一' }]]);
    expect(out.reply).toBe('知行合一是王阳明的学说。');
    expect(search.seen.map((s) => s.path)).toEqual([`/search?format=json&q=${encodeURIComponent('知行合一')}`]);
    const seen = toolMessages().get('s1')!;
    expect(seen).toMatch(/^<untrusted-content kind="search results" source="知行合一">\n1\. 知行合一 - 维基百科/);
    expect(seen).toContain(
      '   https://zh.wikipedia.org/wiki/知行合一\n   知行合一是明代思想家王阳明提出的哲学理论 & 教育思想。',
    );
    // The system prompt tells the model what the fence means, since a fencing tool is offered.
    const turn = model.requests.find((q) => Array.isArray(q.body?.tools));
    expect(JSON.stringify(turn!.body)).toContain('Text inside <untrusted-content>');
  });

  it('keeps the search key out of the output, the history, every file and the model, even when the service echoes it', async () => {
    const home = newHome();
    search.mode = 'echo-key';
    model.enqueue(
      toolCallsReply([{ id: 'b1', name: 'web_search', args: { query: 'wang yangming', count: 2 } }]),
      textReply('Found two pages.'),
    );
    const r = await runCli(['--json', '--new', 'search wang yangming'], env(home, braveEnv()));
    expect(r.code, r.stderr).toBe(0);
    // The request carried the key, in the header Brave reads.
    expect(search.seen[0]!.headers['x-subscription-token']).toBe(SEARCH_KEY);
    expect(search.seen[0]!.path).toBe('/res/v1/web/search?q=wang+yangming&count=2');
    const out = JSON.parse(r.stdout) as { actions: Array<{ ok: boolean; output: string }> };
    expect(out.actions[0]!.ok).toBe(true);
    expect(out.actions[0]!.output).toContain('(token [key])');
    expect(r.stdout + r.stderr).not.toContain(SEARCH_KEY);
    expect(toolMessages().get('b1')).toContain('(token [key])');
    expect(JSON.stringify(model.requests.map((q) => q.body))).not.toContain(SEARCH_KEY);
    // The stored history (the database and its journal) and everything else in the home.
    for (const [path, bytes] of everyFile(home)) expect(bytes.includes(SEARCH_KEY), path).toBe(false);
    // The history as the app reads it back: the tool part stored with its output and card scrubbed.
    const store = createStore(join(home, 'zhixing.db'));
    try {
      const session = JSON.parse(r.stdout).session as string;
      const history = JSON.stringify(store.messages.list(session));
      expect(history).toContain('(token [key])');
      expect(history).toContain('"provider":"brave"');
      expect(history).not.toContain(SEARCH_KEY);
    } finally {
      store.close();
    }
  });

  it('says in Chinese how to set a search service up when none is, and the model can relay it', async () => {
    const home = newHome();
    model.enqueue(
      toolCallsReply([{ id: 'n1', name: 'web_search', args: { query: '今天的新闻' } }]),
      textReply('还没有配置搜索服务。'),
    );
    const r = await runCli(['--json', '--new', '搜一下今天的新闻'], env(home, { ZHIXING_LANG: 'zh' }));
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { actions: Array<{ tool: string; ok: boolean; output: string }> };
    expect(out.actions.map((a) => [a.tool, a.ok])).toEqual([['web_search', false]]);
    expect(out.actions[0]!.output).toContain('还没有配置网络搜索服务');
    expect(toolMessages().get('n1')).toContain('ZHIXING_SEARCH_URL=http://127.0.0.1:8080');
    expect(search.seen).toEqual([]);
  });

  it('reports a rejected key as rejected, through the agent', async () => {
    const home = newHome();
    model.enqueue(
      toolCallsReply([{ id: 'k1', name: 'web_search', args: { query: 'x' } }]),
      textReply('The key was refused.'),
    );
    const wrong = 'BSAwrong-0000000000000000000000';
    const r = await runCli(
      ['--json', '--new', 'search x'],
      env(home, { ...braveEnv(), ZHIXING_SEARCH_API_KEY: wrong, ZHIXING_LANG: 'en' }),
    );
    const out = JSON.parse(r.stdout) as { actions: Array<{ ok: boolean; output: string }> };
    expect(out.actions[0]).toMatchObject({
      ok: false,
      output: expect.stringContaining('Brave Search rejected the search key'),
    });
    expect(r.stdout + r.stderr).not.toContain(wrong);
  });
});

describe('the search service in the settings shown', () => {
  it('zhixing config names the provider and where it is, and shows the key only as set', async () => {
    const home = newHome();
    const text = await runCli(['config'], env(home, braveEnv()));
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/ZHIXING_SEARCH_PROVIDER\s+brave\s+environment/);
    expect(text.stdout).toMatch(
      new RegExp(`ZHIXING_SEARCH_URL\\s+${search.url.replace(/[.]/g, '\\.')}/res/v1/web/search\\s+environment`),
    );
    expect(text.stdout).toMatch(/ZHIXING_SEARCH_API_KEY\s+\(set\)\s+environment/);
    const json = await runCli(['config', '--json'], env(home, braveEnv()));
    const settings = JSON.parse(json.stdout).settings;
    expect(settings.ZHIXING_SEARCH_PROVIDER).toEqual({
      value: 'brave',
      from: 'environment',
      name: 'ZHIXING_SEARCH_PROVIDER',
    });
    expect(settings.ZHIXING_SEARCH_API_KEY.value).toBe('(set)');
    for (const out of [text, json]) expect(out.stdout + out.stderr).not.toContain(SEARCH_KEY.slice(-8));
    const none = await runCli(['config', '--json'], env(home, {}));
    expect(JSON.parse(none.stdout).settings.ZHIXING_SEARCH_PROVIDER).toEqual({ value: null, from: 'default' });
  });

  it('/api/status names the service and never the key', async () => {
    const server = await startTestServer({ env: braveEnv() });
    try {
      const res = await request(server.port, '/api/status');
      expect(res.status).toBe(200);
      expect(res.json().search).toEqual({ provider: 'brave', url: `${search.url}/res/v1/web/search` });
      expect(res.json().tools).toContain('web_search');
      expect(res.body).not.toContain(SEARCH_KEY.slice(-8));
    } finally {
      await server.close();
    }
    const plain = await startTestServer();
    try {
      expect((await request(plain.port, '/api/status')).json().search).toBeNull();
    } finally {
      await plain.close();
    }
  });
});
