import {
  createServer as createHttpServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ASK_CAPABILITY, AskRequestSchema, CALL_META } from '../../src/mcp-server/ask-protocol.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createApp, type App } from '../../src/app.js';
import { createMcpHttp, type McpHttp } from '../../src/mcp-server/http.js';
import { defineTool } from '../../src/tools/tool.js';
import { request, startTestServer, type TestServer } from '../support/http.js';
import { httpClient, textOf } from '../support/mcp-peer.js';
import { servedToolsSuite } from '../support/mcp-served-tools.js';
import { tempHome } from '../support/temp-home.js';

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('/mcp on zhixing serve, with the official SDK client over Streamable HTTP', () => {
  let t: TestServer;
  let peer: { client: Client; home: string };
  beforeAll(async () => {
    t = await startTestServer();
    const { client } = await httpClient(`${t.url}/mcp`);
    peer = { client, home: t.home };
  });
  afterAll(async () => {
    await peer?.client.close();
    await t?.close();
  });
  servedToolsSuite(() => peer, 'http');

  it('refuses a foreign Origin and a Host that is not its own with 403, before any MCP is spoken', async () => {
    const origin = await request(t.port, '/mcp', {
      headers: { ...MCP_HEADERS, origin: 'http://evil.example' },
      body: INIT,
    });
    expect(origin.status).toBe(403);
    const host = await request(t.port, '/mcp', {
      headers: { ...MCP_HEADERS, host: `rebound.example:${t.port}` },
      body: INIT,
    });
    expect(host.status).toBe(403);
    const own = await request(t.port, '/mcp', {
      headers: { ...MCP_HEADERS, host: `localhost:${t.port}`, origin: `http://localhost:${t.port}` },
      body: INIT,
    });
    expect(own.status).toBe(200);
    expect(own.headers['mcp-session-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(own.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers garbage, an unknown session and a missing session with JSON-RPC errors, and keeps serving', async () => {
    const garbage = await request(t.port, '/mcp', { headers: MCP_HEADERS, body: '{"jsonrpc":"2.0", nope' });
    expect(garbage.status).toBe(400);
    expect(garbage.json().error.code).toBe(-32700);
    const notInit = await request(t.port, '/mcp', {
      headers: MCP_HEADERS,
      body: { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    });
    expect(notInit.status).toBe(400);
    const unknown = await request(t.port, '/mcp', {
      headers: { ...MCP_HEADERS, 'mcp-session-id': 'no-such' },
      body: { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    });
    expect(unknown.status).toBe(404);
    const get = await request(t.port, '/mcp', { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(400);
    const r = (await peer.client.callTool({ name: 'calculator', arguments: { expression: '6*7' } })) as CallToolResult;
    expect(textOf(r)).toBe('42');
  });

  it('refuses a body over 1 MiB with 413, and the session goes on', async () => {
    const big = await request(t.port, '/mcp', {
      headers: MCP_HEADERS,
      body: JSON.stringify({ ...INIT, padding: 'x'.repeat(1_100_000) }),
    });
    expect(big.status).toBe(413);
    expect(textOf(await peer.client.callTool({ name: 'calculator', arguments: { expression: '1+1' } }))).toBe('2');
  });

  it('never lets an HTTP client approve its own calls, whatever capability it claims', async () => {
    const client = new Client(
      { name: 'sly', version: '1' },
      { capabilities: { experimental: { [ASK_CAPABILITY]: {} } } },
    );
    let asked = 0;
    client.setRequestHandler(AskRequestSchema, async () => (asked++, { decision: 'allow' as const }));
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`)));
    const r = (await client.callTool({
      name: 'shell',
      arguments: { command: 'touch sly.txt' },
      _meta: { [CALL_META]: 'mine' },
    })) as CallToolResult;
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('shell was not run');
    expect(asked).toBe(0);
    expect(existsSync(join(t.home, 'workspace', 'sly.txt'))).toBe(false);
    await client.close();
  });

  it('ends a session on DELETE: its id is then unknown', async () => {
    const { client, transport } = await httpClient(`${t.url}/mcp`);
    const id = transport.sessionId!;
    await client.listTools();
    await transport.terminateSession();
    const after = await request(t.port, '/mcp', {
      headers: { ...MCP_HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' },
      body: { jsonrpc: '2.0', id: 9, method: 'tools/list' },
    });
    expect(after.status).toBe(404);
    await client.close();
  });

  it('keeps serving others when a client disconnects in the middle of a call', async () => {
    const { client } = await httpClient(`${t.url}/mcp`);
    const pending = client
      .callTool({ name: 'chat', arguments: { message: '帮我算一下 (1+2)*3' } })
      .catch(() => undefined);
    await client.close();
    await pending;
    const r = (await peer.client.callTool({ name: 'calculator', arguments: { expression: '3*3' } })) as CallToolResult;
    expect(textOf(r)).toBe('9');
  });
});

describe('shutting down zhixing serve with MCP clients connected', () => {
  it('ends their sessions and streams, and closes promptly', async () => {
    const t = await startTestServer();
    const { client } = await httpClient(`${t.url}/mcp`);
    await client.listTools();
    const started = Date.now();
    await t.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    await expect(client.callTool({ name: 'calculator', arguments: { expression: '1+1' } })).rejects.toThrow();
    await client.close().catch(() => {});
  });
});

describe('/mcp bound to a non-loopback address', () => {
  const token = 'a-long-enough-test-token-0123456789';
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ host: '0.0.0.0', token });
  });
  afterAll(() => t?.close());

  it('needs the bearer token; with it the SDK client works', async () => {
    const none = await request(t.port, '/mcp', { headers: MCP_HEADERS, body: INIT });
    expect(none.status).toBe(401);
    const wrong = await request(t.port, '/mcp', {
      headers: { ...MCP_HEADERS, authorization: 'Bearer wrong-token-wrong-token-wrong' },
      body: INIT,
    });
    expect(wrong.status).toBe(401);
    const { client } = await httpClient(`http://127.0.0.1:${t.port}/mcp`, { authorization: `Bearer ${token}` });
    expect(textOf(await client.callTool({ name: 'calculator', arguments: { expression: '(3+5)*2' } }))).toBe('16');
    await client.close();
  });
});

/**
 * A call that runs until it is let go: a session answering a whole request for as long as the test
 * wants. `running` is told when each call starts, in order; `releases` ends them.
 */
function holdTool(running: Array<() => void>, releases: Array<() => void>) {
  return defineTool({
    name: 'hold',
    description: 'Runs until let go.',
    parameters: z.object({}),
    execute: () =>
      new Promise<string>((resolve) => {
        releases.push(() => resolve('let go'));
        running.shift()?.();
      }),
  });
}

describe('MCP sessions over HTTP: a cap and idle expiry', () => {
  let app: App;
  let server: Server;
  let mcp: McpHttp;
  let url: string;
  const h = tempHome({ ZHIXING_OFFLINE: '1' });
  /** Told when a `hold` call starts running, in order. */
  const running: Array<() => void> = [];
  /** Ends the `hold` calls still running. */
  const releases: Array<() => void> = [];
  /** The sessions' clock: idleness passes when a test moves it on, not while it sleeps. */
  let clock = Date.now();
  /** GET streams open now: a client listening for what the server may send. */
  let listening = 0;
  beforeAll(async () => {
    app = await createApp(h.config);
    app.tools.register(holdTool(running, releases));
    mcp = createMcpHttp({
      app,
      version: '0.0.0',
      log: () => {},
      maxSessions: 3,
      idleMs: 1_500,
      now: () => clock,
      maxBodyBytes: 1_048_576,
    });
    server = createHttpServer((req, res) => {
      if (req.method === 'GET') {
        listening++;
        res.once('close', () => listening--);
      }
      void mcp.handle(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    for (const release of releases) release();
    await mcp.close();
    server.closeAllConnections();
    server.close();
    app.close();
    h.cleanup();
  });

  it('ends the least recently used idle session to make room, and takes new ones once idle ones expired', async () => {
    const port = Number(new URL(url).port);
    // Sessions opened and left: no request since, no stream open.
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await request(port, '/mcp', { headers: MCP_HEADERS, body: INIT });
      expect(r.status).toBe(200);
      ids.push(String(r.headers['mcp-session-id']));
    }
    // Three at most: the fourth took the place of the first, whose id is now unknown.
    expect(mcp.size).toBe(3);
    const first = await request(port, '/mcp', {
      headers: { ...MCP_HEADERS, 'mcp-session-id': ids[0]!, 'mcp-protocol-version': '2025-06-18' },
      body: { jsonrpc: '2.0', id: 3, method: 'tools/list' },
    });
    expect(first.status).toBe(404);
    // Idle past 1.5 s: the next initialize sweeps them out first.
    clock += 2_000;
    const late = await httpClient(url);
    expect(mcp.size).toBe(1);
    expect(textOf(await late.client.callTool({ name: 'calculator', arguments: { expression: '2*21' } }))).toBe('42');
    // An expired session's client is told so (404), as the protocol says: it must start again.
    const gone = await request(port, '/mcp', {
      headers: { ...MCP_HEADERS, 'mcp-session-id': ids[1]!, 'mcp-protocol-version': '2025-06-18' },
      body: { jsonrpc: '2.0', id: 3, method: 'tools/list' },
    });
    expect(gone.status).toBe(404);
    // A client with its stream open is in use, however long it stays quiet: another initialize
    // sweeps again, and its session stays.
    await vi.waitFor(() => expect(listening).toBe(1), { timeout: 10_000 });
    clock += 2_000;
    const other = await request(port, '/mcp', { headers: MCP_HEADERS, body: INIT });
    expect(other.status).toBe(200);
    expect(mcp.size).toBe(2);
    expect(textOf(await late.client.callTool({ name: 'calculator', arguments: { expression: '2*2' } }))).toBe('4');
    await late.client.close();
  });
});

describe('MCP sessions over HTTP: sessions answering a request are never ended to make room', () => {
  let app: App;
  let server: Server;
  let mcp: McpHttp;
  let port: number;
  const h = tempHome({ ZHIXING_OFFLINE: '1' });
  /** Told when a `hold` call starts running, in order. */
  const running: Array<() => void> = [];
  /** Ends the `hold` calls still running. */
  const releases: Array<() => void> = [];
  beforeAll(async () => {
    app = await createApp(h.config);
    app.tools.register(holdTool(running, releases));
    mcp = createMcpHttp({
      app,
      version: '0.0.0',
      log: () => {},
      maxSessions: 3,
      maxPerClient: 2,
      maxBodyBytes: 1_048_576,
    });
    server = createHttpServer((req, res) => void mcp.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const release of releases) release();
    await mcp.close();
    server.closeAllConnections();
    server.close();
    app.close();
    h.cleanup();
  });

  const init = (name: string) =>
    request(port, '/mcp', {
      headers: MCP_HEADERS,
      body: { ...INIT, params: { ...INIT.params, clientInfo: { name, version: '1' } } },
    });
  /** A whole `hold` call on the session, unanswered until `end()` hangs up; resolves once the call runs. */
  const hold = (id: string) =>
    new Promise<{ end(): Promise<void> }>((resolve) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        agent: false,
        headers: { ...MCP_HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' },
      });
      req.on('error', () => {});
      let answer: ServerResponse | undefined;
      const seen = (incoming: IncomingMessage, res: ServerResponse) => {
        if (incoming.headers['mcp-session-id'] !== id) return;
        server.off('request', seen);
        answer = res;
      };
      server.on('request', seen);
      running.push(() =>
        resolve({ end: () => new Promise<void>((done) => (answer!.once('close', () => done()), req.destroy())) }),
      );
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'hold', arguments: {} } }));
    });

  it('refuses a client past its cap only while its sessions are busy (429), and anyone while all are (503)', async () => {
    const a1 = String((await init('a')).headers['mcp-session-id']);
    const a2 = String((await init('a')).headers['mcp-session-id']);
    const busyA1 = await hold(a1);
    const busyA2 = await hold(a2);
    const full = await init('a');
    expect(full.status).toBe(429);
    expect(full.json().error.message).toContain('This client has 2 MCP sessions');
    const b1 = String((await init('b')).headers['mcp-session-id']);
    const busyB1 = await hold(b1);
    const none = await init('c');
    expect(none.status).toBe(503);
    expect(none.json().error.message).toContain('all answering a request now');
    // The busy ones were kept: none was ended under them.
    expect(mcp.size).toBe(3);
    // Once one request is over, its session is idle and makes room.
    await busyB1.end();
    expect((await init('c')).status).toBe(200);
    await busyA1.end();
    await busyA2.end();
  });
});
