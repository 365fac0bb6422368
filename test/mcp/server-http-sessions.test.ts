/** Idle /mcp sessions, however many, lock no MCP client out of `zhixing serve`. */
import { connect, type Socket } from 'node:net';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { request, startTestServer, type TestServer } from '../support/http.js';
import { httpClient, textOf } from '../support/mcp-peer.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
/** More than the 64 sessions the server keeps. */
const FLOOD = 80;
/** Names one client gives its sessions, 16 each (the most one name keeps): 64, every session there is. */
const EVIL_NAMES = 4;
const PER_NAME = 16;
/**
 * How long a body has to arrive (10 s in use): long enough that every trickle is still arriving
 * while the newcomer and the owner are served, which the test checks.
 */
const BODY_TIMEOUT_MS = 4_000;

/**
 * A POST on session `id` over a raw socket that promises 100,000 bytes and sends `{`, then nothing.
 * `heard` resolves once the server has its headers (it answers `Expect: 100-continue` as it reads
 * them, before the request reaches /mcp); `answer`, with all the server said, when it hangs up.
 */
function trickle(port: number, id: string): { socket: Socket; heard: Promise<void>; answer: Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  let text = '';
  let heard!: () => void;
  const heardP = new Promise<void>((resolve) => (heard = resolve));
  const answer = new Promise<string>((resolve) => {
    socket.on('data', (d) => {
      text += d.toString();
      if (text.includes('100 Continue')) heard();
    });
    socket.on('close', () => resolve(text));
    socket.on('error', () => {});
  });
  socket.write(
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
      `Mcp-Session-Id: ${id}\r\nMcp-Protocol-Version: 2025-06-18\r\nContent-Length: 100000\r\nExpect: 100-continue\r\n\r\n{`,
  );
  return { socket, heard: heardP, answer };
}

const initialize = (name: string) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name, version: '1' } },
});

describe('/mcp on zhixing serve under a flood of idle sessions', () => {
  let t: TestServer;
  beforeEach(async () => {
    t = await startTestServer({ mcpBodyTimeoutMs: BODY_TIMEOUT_MS });
  });
  afterEach(() => t?.close());

  /** Opens a session as a raw client that never uses it again; its id. */
  const leave = async (name: string) => {
    const r = await request(t.port, '/mcp', { headers: MCP_HEADERS, body: initialize(name) });
    expect(r.status).toBe(200);
    return String(r.headers['mcp-session-id']);
  };
  const list = (id: string) =>
    request(t.port, '/mcp', {
      headers: { ...MCP_HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' },
      body: { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    });

  it("lets a client that leaks sessions churn only its own: the owner's client and a newcomer go on working", async () => {
    const owner = await httpClient(`${t.url}/mcp`);
    expect(textOf(await owner.client.callTool({ name: 'calculator', arguments: { expression: '6*7' } }))).toBe('42');
    const ids: string[] = [];
    for (let i = 0; i < FLOOD; i++) ids.push(await leave('leaky-script'));
    expect(textOf(await owner.client.callTool({ name: 'calculator', arguments: { expression: '2+2' } }))).toBe('4');
    const newcomer = await httpClient(`${t.url}/mcp`);
    expect(textOf(await newcomer.client.callTool({ name: 'calculator', arguments: { expression: '3*3' } }))).toBe('9');
    // The leaking client keeps its 16 most recent sessions; its older ones were ended and say so.
    expect((await list(ids[0]!)).status).toBe(404);
    expect((await list(ids[FLOOD - 17]!)).status).toBe(404);
    expect((await list(ids[FLOOD - 16]!)).status).toBe(200);
    expect((await list(ids[FLOOD - 1]!)).status).toBe(200);
    await owner.client.close();
    await newcomer.client.close();
  });

  it('makes room under ever new names by ending the least recently used idle session: its client is told 404, starts again and works', async () => {
    const owner = await httpClient(`${t.url}/mcp`);
    expect(textOf(await owner.client.callTool({ name: 'calculator', arguments: { expression: '1+1' } }))).toBe('2');
    for (let i = 0; i < FLOOD; i++) await leave(`flood-${i}`);
    const newcomer = await httpClient(`${t.url}/mcp`);
    expect(textOf(await newcomer.client.callTool({ name: 'calculator', arguments: { expression: '5*5' } }))).toBe('25');
    // The owner's session was the least recently used idle one: ended, and the protocol's 404 says so.
    const lost = await owner.client
      .callTool({ name: 'calculator', arguments: { expression: '2*3' } })
      .catch((err: unknown) => err);
    expect(lost).toBeInstanceOf(StreamableHTTPError);
    expect((lost as StreamableHTTPError).code).toBe(404);
    await owner.client.close();
    const again = await httpClient(`${t.url}/mcp`);
    expect(textOf(await again.client.callTool({ name: 'calculator', arguments: { expression: '2*3' } }))).toBe('6');
    await again.client.close();
    await newcomer.client.close();
  });

  it('lets no client hold sessions with bodies it never finishes: idle sessions stay, a newcomer gets one, and a trickle gets 408', async () => {
    const owner = await httpClient(`${t.url}/mcp`);
    expect(textOf(await owner.client.callTool({ name: 'calculator', arguments: { expression: '6*7' } }))).toBe('42');
    const ids: string[] = [];
    for (let n = 0; n < EVIL_NAMES; n++) for (let i = 0; i < PER_NAME; i++) ids.push(await leave(`evil${n}`));
    const trickles = ids.map((id) => trickle(t.port, id));
    try {
      await Promise.all(trickles.map((tr) => tr.heard));
      let answered = 0;
      for (const tr of trickles) void tr.answer.then(() => answered++);
      // Every session but the owner's has a request arriving: none of them is answering one yet.
      const newcomer = await httpClient(`${t.url}/mcp`);
      expect(textOf(await newcomer.client.callTool({ name: 'calculator', arguments: { expression: '5*5' } }))).toBe(
        '25',
      );
      // Room was made from the client holding most, not from the owner's idle session.
      expect(textOf(await owner.client.callTool({ name: 'calculator', arguments: { expression: '2+2' } }))).toBe('4');
      await newcomer.client.close();
      // All that happened while every trickle was still arriving.
      expect(answered).toBe(0);
      // A body that never arrives whole is not waited for past its deadline.
      expect(await trickles.at(-1)!.answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 408 /);
    } finally {
      for (const tr of trickles) tr.socket.destroy();
      await owner.client.close();
    }
  });

  it('refuses a message nested deeper than 512 levels before parsing it, on a new session and an open one', async () => {
    const levels = 400_000;
    const deep = `${'['.repeat(levels)}${']'.repeat(levels)}`;
    const id = await leave('deep-sender');
    const init = JSON.stringify(initialize('deep-sender')).replace('"capabilities":{}', `"capabilities":{"x":${deep}}`);
    const call = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"calculator","arguments":{"expression":${deep}}}}`;
    for (const [body, session] of [
      [init, {}],
      [call, { 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' }],
    ] as const) {
      const r = await request(t.port, '/mcp', { headers: { ...MCP_HEADERS, ...session }, body });
      expect(r.status).toBe(400);
      expect(r.json().error.message).toBe('Parse error: the message nests deeper than 512 levels.');
    }
    expect((await list(id)).status).toBe(200);
  });
});
