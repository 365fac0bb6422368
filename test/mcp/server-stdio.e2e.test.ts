import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BIN } from '../support/cli.js';
import { stdioClient, textOf } from '../support/mcp-peer.js';
import { servedToolsSuite } from '../support/mcp-served-tools.js';
import { useTempHomes } from '../support/temp-home.js';

const home = useTempHomes();
/** A sleep no other process runs: what the cancelled command runs, found in /proc while it lives. */
const MARK = '2.0173';

/** The ids of the processes whose command line holds `text`. */
function processesWith(text: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text)) found.push(pid);
    } catch {
      // It ended while being looked at.
    }
  }
  return found;
}

describe('zhixing mcp serve (stdio) with the official SDK client', () => {
  let peer: { client: Client; home: string };
  beforeAll(async () => {
    const h = home();
    const { client } = await stdioClient({ ZHIXING_HOME: h.home, ZHIXING_OFFLINE: '1' });
    peer = { client, home: h.home };
  });
  afterAll(() => peer?.client.close());
  servedToolsSuite(() => peer, 'stdio');
});

describe('zhixing mcp serve --yes', () => {
  let peer: { client: Client; home: string };
  beforeAll(async () => {
    const h = home();
    const { client } = await stdioClient({ ZHIXING_HOME: h.home, ZHIXING_OFFLINE: '1' }, ['--yes']);
    peer = { client, home: h.home };
  });
  afterAll(() => peer?.client.close());

  // The shell tells its latest line once a second: the command runs long enough for one.
  it('runs a command that would ask, sending its output lines as progress while it runs', async () => {
    const lines: string[] = [];
    const r = (await peer.client.callTool(
      { name: 'shell', arguments: { command: 'echo first; sleep 1.5; echo second > made.txt; echo third' } },
      undefined,
      { onprogress: (p) => lines.push(String(p.message)) },
    )) as CallToolResult;
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(textOf(r)).toContain('first');
    expect(existsSync(join(peer.home, 'workspace', 'made.txt'))).toBe(true);
    expect(lines.join('\n')).toContain('first');
  });

  it('still refuses what a deny rule or the sandbox refuses', async () => {
    const r = (await peer.client.callTool({
      name: 'file_write',
      arguments: { path: '/tmp/zhixing-outside.txt', content: 'x' },
    })) as CallToolResult;
    expect(r.isError).toBe(true);
    expect(existsSync('/tmp/zhixing-outside.txt')).toBe(false);
  });

  it('stops a call the client cancels, and answers the next one', async () => {
    const controller = new AbortController();
    const workspace = join(peer.home, 'workspace');
    const started = performance.now();
    // Were the cancel ignored, the file would be there two seconds later. The odd sleep names this command's processes.
    const call = peer.client.callTool(
      { name: 'shell', arguments: { command: `touch begun.txt; sleep ${MARK}; touch late.txt` } },
      undefined,
      { signal: controller.signal },
    );
    // Cancelled once the command is running (its first file is there), not after a guessed delay.
    await vi.waitFor(() => expect(existsSync(join(workspace, 'begun.txt'))).toBe(true), {
      timeout: 15_000,
      interval: 20,
    });
    controller.abort('changed my mind');
    await expect(call).rejects.toThrow();
    const r = (await peer.client.callTool({ name: 'calculator', arguments: { expression: '2+2' } })) as CallToolResult;
    expect(textOf(r)).toBe('4');
    expect(performance.now() - started).toBeLessThan(2_000);
    // Once no process of the command is left, nothing can write late.txt: wait for that, not for a while.
    await vi.waitFor(() => expect(processesWith(MARK)).toEqual([]), { timeout: 15_000, interval: 50 });
    expect(existsSync(join(workspace, 'late.txt'))).toBe(false);
  });
});

describe('zhixing mcp serve with rules that allow some commands', () => {
  let peer: { client: Client; home: string };
  beforeAll(async () => {
    const h = home();
    writeFileSync(
      join(h.home, 'config.json'),
      JSON.stringify({ permissions: { shell: { 'echo *': 'allow' }, file_write: { 'secret/*': 'deny' } } }),
    );
    const { client } = await stdioClient({ ZHIXING_HOME: h.home, ZHIXING_OFFLINE: '1' });
    peer = { client, home: h.home };
  });
  afterAll(() => peer?.client.close());

  it('runs what a rule allows without --yes, and names the part of a command line that still asks', async () => {
    const allowed = (await peer.client.callTool({
      name: 'shell',
      arguments: { command: 'echo allowed-by-rule' },
    })) as CallToolResult;
    expect(allowed.isError, textOf(allowed)).toBeFalsy();
    expect(textOf(allowed)).toContain('allowed-by-rule');
    const mixed = (await peer.client.callTool({
      name: 'shell',
      arguments: { command: 'echo hi; touch x.txt' },
    })) as CallToolResult;
    expect(mixed.isError).toBe(true);
    expect(textOf(mixed)).toContain('"shell": { "touch x.txt": "allow" }');
    expect(existsSync(join(peer.home, 'workspace', 'x.txt'))).toBe(false);
  });

  it("refuses what a rule denies, with the tool's own words", async () => {
    const denied = (await peer.client.callTool({
      name: 'file_write',
      arguments: { path: 'secret/a.txt', content: 'x' },
    })) as CallToolResult;
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toContain('refused by the permission settings');
    expect(textOf(denied)).not.toContain('zhixing mcp serve --yes');
    expect(existsSync(join(peer.home, 'workspace', 'secret', 'a.txt'))).toBe(false);
  });
});

/** A raw stdio peer: lines in, lines out, nothing of the SDK between, to send what no client library would. */
function rawServer(env: Record<string, string>, args: string[] = []) {
  const child = spawn(process.execPath, [BIN, 'mcp', 'serve', ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    cwd: env.ZHIXING_HOME,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const messages = () =>
    out
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id?: number; result?: any; error?: any });
  const waitFor = async (id: number) => {
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      const m = messages().find((x) => x.id === id);
      if (m) return m;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no answer to ${id}; stdout: ${out.slice(0, 500)}; stderr: ${err.slice(0, 500)}`);
  };
  const send = (msg: unknown) => child.stdin.write(`${typeof msg === 'string' ? msg : JSON.stringify(msg)}\n`);
  const init = async () => {
    send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    await waitFor(0);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  };
  return { child, send, waitFor, init, exited, stdout: () => out, stderr: () => err };
}

describe('zhixing mcp serve against a hostile or careless client', () => {
  it('writes nothing but JSON-RPC on stdout, survives garbage lines, and exits 0 when stdin closes', async () => {
    const h = home();
    const s = rawServer({ ZHIXING_HOME: h.home, ZHIXING_OFFLINE: '1' });
    await s.init();
    s.send('this is not json');
    s.send('{"jsonrpc":"2.0","id":');
    s.send({ jsonrpc: '2.0', id: 'x', method: 'no/such/method' });
    s.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'calculator', arguments: { expression: '6*7' } },
    });
    const answer = await s.waitFor(2);
    expect(answer.result.content[0].text).toBe('42');
    s.child.stdin.end();
    expect(await s.exited).toBe(0);
    // Every line on stdout is one JSON-RPC message: warnings went to stderr.
    for (const line of s.stdout().split('\n').filter(Boolean)) expect(JSON.parse(line).jsonrpc).toBe('2.0');
    expect(s.stderr()).toMatch(/JSON/);
  });

  it('drops a message too large to read (12 MB) and goes on with the next', async () => {
    const h = home();
    const s = rawServer({ ZHIXING_HOME: h.home, ZHIXING_OFFLINE: '1' });
    await s.init();
    s.send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'calculator', arguments: { expression: '1+'.repeat(6_000_000) + '1' } },
    });
    s.send({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'calculator', arguments: { expression: '6*7' } },
    });
    expect((await s.waitFor(4)).result.content[0].text).toBe('42');
    expect(s.stderr()).toMatch(/a message of \d+ bytes was dropped/);
    s.child.stdin.end();
    expect(await s.exited).toBe(0);
  });

  it('exits 0 when the client hangs up in the middle of a call', async () => {
    const h = home();
    const s = rawServer({ ZHIXING_HOME: h.home, ZHIXING_OFFLINE: '1' });
    await s.init();
    s.send({
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/call',
      params: { name: 'chat', arguments: { message: '帮我算一下 1+1' } },
    });
    s.child.stdin.end();
    const started = Date.now();
    expect(await s.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('stops the calls and turns still running when the client leaves, then closes cleanly', async () => {
    const h = home();
    const s = rawServer({ ZHIXING_HOME: h.home, ZHIXING_OFFLINE: '1' }, ['--yes']);
    await s.init();
    s.send({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'shell', arguments: { command: 'touch call.txt; sleep 20' } },
    });
    s.send({
      jsonrpc: '2.0',
      id: 8,
      method: 'tools/call',
      params: { name: 'chat', arguments: { message: '运行 touch turn.txt; sleep 20' } },
    });
    // The client leaves once both commands run (each made its file), not after a guessed delay.
    await vi.waitFor(
      () => expect(['call.txt', 'turn.txt'].filter((f) => existsSync(join(h.home, 'workspace', f)))).toHaveLength(2),
      { timeout: 15_000, interval: 20 },
    );
    const started = Date.now();
    s.child.stdin.end();
    expect(await s.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(12_000);
    // Nothing failed on a database closed under a turn still writing.
    expect(s.stderr()).not.toMatch(/database|SQLITE|Error:/i);
    const { createStore } = await import('../../src/store/store.js');
    const store = createStore(join(h.home, 'zhixing.db'));
    try {
      const [session] = store.sessions.list();
      expect(session).toBeDefined();
      // The chat's turn was recorded as stopped, not left half-written.
      const messages = store.messages.list(session!.id);
      expect(messages.map((m) => m.role)).toContain('assistant');
    } finally {
      store.close();
    }
  });
});
