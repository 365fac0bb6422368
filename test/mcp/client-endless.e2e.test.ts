/** A server whose progress never ends must not hold a call past the call's total limit. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fixture, harness, http, stdio, type Harness } from '../support/mcp.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

/**
 * Small limits, so the test is quick: 3 s without progress (the handshake gets as long, on a busy
 * machine), 4 s in all, so only progress restarting the first keeps the call going until the second.
 */
const TIMEOUT_MS = 3_000;
const MAX_TOTAL_MS = 4_000;

describe('a server that reports progress forever', () => {
  let h: Harness;
  beforeAll(async () => {
    h = harness([
      stdio('endless', process.execPath, [fixture('endless.mjs')], { timeoutMs: TIMEOUT_MS, maxTotalMs: MAX_TOTAL_MS }),
    ]);
    h.manager.start();
    await h.until('endless', (v) => v.state === 'connected');
  });
  afterAll(async () => {
    await h.manager.close();
  });

  it('ends the call at its total limit with a clear sentence, tells the server to cancel, and the server goes on', async () => {
    h.progress.length = 0;
    const started = performance.now();
    const r = await h.call('endless__endless');
    const took = performance.now() - started;
    expect(r.ok).toBe(false);
    expect(r.output).toBe(
      'Error: The call to endless__endless on the MCP server "endless" went past its total limit of 4 s (progress notifications do not extend it) and was cancelled. Its max_total_ms in config.json sets the limit.',
    );
    // Progress kept the per-answer clock from firing: only the total limit ended it.
    expect(took).toBeGreaterThanOrEqual(MAX_TOTAL_MS - 50);
    expect(took).toBeLessThan(MAX_TOTAL_MS + 5_000);
    expect(h.progress.length).toBeGreaterThan(1);
    // Each line is the count and the start of the server's 100 KB message, not all of it.
    for (const line of h.progress) expect(line.length).toBeLessThanOrEqual(210);
    const view = await h.until('endless', (v) => v.stderr.some((l) => l.startsWith('endless: cancelled')));
    expect(view.state).toBe('connected');
    expect((await h.call('endless__echo')).output).toBe('still here');
  });

  it('says it in Chinese to a Chinese user', async () => {
    const r = await h.tools.run(
      { id: 'c2', name: 'endless__endless', arguments: '{}' },
      {
        sessionId: 's1',
        turnId: 't1',
        callId: 'c2',
        workspace: process.cwd(),
        lang: 'zh',
        signal: new AbortController().signal,
        progress: () => {},
        ask: async () => 'allow',
        refusal: () => undefined,
      },
    );
    expect(r.output).toBe(
      'Error: MCP 服务器 endless 的 endless__endless 调用超过了总时限 4 秒（进度通知不会延长总时限），已取消。可以在 config.json 里为它设置 max_total_ms。',
    );
  });
});

describe('a server over HTTP whose answer is one endless line', () => {
  let server: Server;
  let url: string;
  /** Resolves when the client hangs up on the endless answer. */
  let leftEndless: Promise<number>;
  beforeAll(async () => {
    let left!: (bytes: number) => void;
    leftEndless = new Promise((resolve) => (left = resolve));
    server = createServer((req, res) => {
      if (req.method === 'GET') return void res.writeHead(405).end();
      if (req.method === 'DELETE') return void res.writeHead(200).end();
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        const msg = JSON.parse(body) as { id?: number; method: string };
        if (msg.id === undefined) return void res.writeHead(202).end();
        const answer = (result: object) =>
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }));
        if (msg.method === 'initialize')
          return answer({
            protocolVersion: '2025-06-18',
            capabilities: { tools: {} },
            serverInfo: { name: 'endless-line', version: '1' },
          });
        if (msg.method === 'tools/list') return answer({ tools: [{ name: 'line', inputSchema: { type: 'object' } }] });
        // A progress message that never ends: written for as long as the client reads.
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        let sent = 0;
        const more = () => {
          while (res.write('x'.repeat(65_536))) sent += 65_536;
        };
        res.on('drain', more);
        res.on('close', () => left(sent));
        res.write(
          `data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":${msg.id},"progress":1,"message":"`,
        );
        more();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('hangs up after 10 MB of one message instead of reading it forever, and the call fails at its timeout', async () => {
    const h = harness([http('line', url, { timeoutMs: 3_000 })]);
    try {
      h.manager.start();
      await h.until('line', (v) => v.state === 'connected');
      const call = h.call('line__line');
      const sent = await leftEndless;
      expect(sent).toBeLessThan(64 * 1024 * 1024);
      expect((await call).ok).toBe(false);
    } finally {
      await h.manager.close();
    }
  });
});
