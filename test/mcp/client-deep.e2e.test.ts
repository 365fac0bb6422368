/** A server sending deeply nested JSON cannot hold the thread that serves every session. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fixture, harness, http, stdio, type Harness } from '../support/mcp.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

/** JSON.parse takes seconds over the fixtures' 4,000,000 levels; a depth check takes milliseconds. */
const MAX_STALL_MS = 500;
const LEVELS = 4_000_000;
const DEEP = `${'['.repeat(LEVELS)}${']'.repeat(LEVELS)}`;

/** Runs `work` while the event loop's delay is measured; the longest stall, in ms. */
async function longestStall(work: () => Promise<void>): Promise<number> {
  const delay: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  try {
    await work();
  } finally {
    delay.disable();
  }
  return delay.max / 1e6;
}

describe('a local server that sends deeply nested JSON', () => {
  let h: Harness;
  beforeAll(async () => {
    h = harness([stdio('deep', process.execPath, [fixture('deep.mjs')], { timeoutMs: 20_000 })]);
    h.manager.start();
    await h.until('deep', (v) => v.state === 'connected');
  });
  afterAll(async () => {
    await h.manager.close();
  });

  it('drops its deep notifications unread, says so in its stderr, and stays connected', async () => {
    const stall = await longestStall(async () => {
      expect((await h.call('deep__notify')).output).toBe('sent');
    });
    expect(stall).toBeLessThan(MAX_STALL_MS);
    const view = h.manager.get('deep')!;
    expect(view.state).toBe('connected');
    expect(view.stderr).toContain(
      'zhixing: a message from the server nests deeper than 512 levels; it was dropped unread (×3)',
    );
    expect((await h.call('deep__echo')).output).toBe('still here');
  });

  it('fails a call whose answer is deep at once, with a sentence, and goes on', async () => {
    let output = '';
    const stall = await longestStall(async () => {
      const r = await h.call('deep__deep');
      expect(r.ok).toBe(false);
      output = r.output;
    });
    expect(stall).toBeLessThan(MAX_STALL_MS);
    expect(output).toContain("the server's answer nests deeper than 512 levels, which Zhixing does not read");
    expect((await h.call('deep__echo')).output).toBe('still here');
  });
});

describe('a server over HTTP that sends deeply nested JSON', () => {
  let server: Server;
  let h: Harness;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.method === 'GET') return void res.writeHead(405).end();
      if (req.method === 'DELETE') return void res.writeHead(200).end();
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        const msg = JSON.parse(body) as { id?: number; method: string; params: { name?: string } };
        if (msg.id === undefined) return void res.writeHead(202).end();
        const json = (text: string) => res.writeHead(200, { 'content-type': 'application/json' }).end(text);
        const answer = (result: object) => json(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }));
        if (msg.method === 'initialize')
          return answer({
            protocolVersion: '2025-06-18',
            capabilities: { tools: {}, logging: {} },
            serverInfo: { name: 'deep-http', version: '1' },
          });
        if (msg.method === 'tools/list')
          return answer({ tools: ['json', 'sse', 'echo'].map((name) => ({ name, inputSchema: { type: 'object' } })) });
        const tool = msg.params.name;
        if (tool === 'echo') return answer({ content: [{ type: 'text', text: 'still here' }] });
        const deepAnswer = `{"jsonrpc":"2.0","id":${msg.id},"result":{"content":[],"structuredContent":{"x":${DEEP}}}}`;
        if (tool === 'json') return json(deepAnswer);
        // An event stream: a deep notification (its data split over two lines, CR LF endings), then a deep answer.
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(
          `id: 1\r\nevent: message\r\ndata: {"jsonrpc":"2.0","method":"notifications/message",\r\ndata: "params":{"level":"info","data":${DEEP}}}\r\n\r\n`,
        );
        res.end(`id: 2\nevent: message\ndata: ${deepAnswer}\n\n`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    h = harness([
      http('deep', `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, { timeoutMs: 20_000 }),
    ]);
    h.manager.start();
    await h.until('deep', (v) => v.state === 'connected');
  });
  afterAll(async () => {
    await h.manager.close();
    server.closeAllConnections();
    server.close();
  });

  it.each(['json', 'sse'])(
    'fails a call whose %s answer is deep at once, and drops a deep notification',
    async (tool) => {
      let output = '';
      const stall = await longestStall(async () => {
        const r = await h.call(`deep__${tool}`);
        expect(r.ok).toBe(false);
        output = r.output;
      });
      expect(stall).toBeLessThan(MAX_STALL_MS);
      expect(output).toContain("the server's answer nests deeper than 512 levels, which Zhixing does not read");
      if (tool === 'sse')
        expect(h.manager.get('deep')!.stderr).toContain(
          'zhixing: a message from the server nests deeper than 512 levels; it was dropped unread',
        );
      expect((await h.call('deep__echo')).output).toBe('still here');
    },
  );
});
