import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Ajv } from 'ajv';
import { expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { tempHome } from './temp-home.js';
import { textOf } from './mcp-peer.js';

/** Every built-in tool name the contract (INTERFACES.md) lists. */
const CONTRACT_TOOLS = [
  'calculator',
  'current_time',
  'todo_add',
  'todo_list',
  'todo_done',
  'todo_delete',
  'file_read',
  'file_write',
  'file_list',
  'weather',
  'shell',
  'web_fetch',
  'web_search',
  'pdf_read',
  'memory_save',
  'memory_search',
  'skill',
  'browser_navigate',
  'browser_snapshot',
  'browser_click',
  'browser_type',
  'browser_screenshot',
];

/** The built-in tools this version has, in the order the model sees them: what MCP must list (before `chat`). */
export async function builtinNames(): Promise<string[]> {
  const h = tempHome({ ZHIXING_OFFLINE: '1' });
  const app = await createApp(h.config);
  try {
    const names = app.tools
      .list()
      .filter((t) => t.source === 'builtin')
      .map((t) => t.name);
    for (const name of names) expect(CONTRACT_TOOLS, `${name} is not in the contract`).toContain(name);
    return names;
  } finally {
    app.close();
    h.cleanup();
  }
}

/**
 * What any MCP client must get from Zhixing's server, whatever the transport: the tools, results the
 * same as in-process, failures as isError, asks refused with how to allow them, and `chat`.
 */
export function servedToolsSuite(peer: () => { client: Client; home: string }, transport: 'stdio' | 'http'): void {
  it('lists the built-in tools and chat, with their annotations and schemas a validator accepts', async () => {
    const { tools } = await peer().client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...(await builtinNames()), 'chat']);
    expect(tools.map((t) => t.name)).toContain('calculator');
    const ajv = new Ajv({ strict: false });
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(() => ajv.compile(tool.inputSchema)).not.toThrow();
      expect(tool.description!.length).toBeGreaterThan(20);
      expect(tool.annotations?.title).toBeTruthy();
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.calculator!.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.shell!.annotations).toMatchObject({ destructiveHint: true, openWorldHint: true });
    expect(byName.weather!.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
    expect(byName.file_write!.inputSchema.required).toEqual(['path', 'content']);
    expect(byName.chat!.outputSchema?.required).toEqual(['reply', 'session', 'actions']);
  });

  it('calls calculator through the same registry: "(3+5)*2" is 16', async () => {
    const r = (await peer().client.callTool({
      name: 'calculator',
      arguments: { expression: '(3+5)*2' },
    })) as CallToolResult;
    expect(r.isError).toBeFalsy();
    expect(r.content).toEqual([{ type: 'text', text: '16' }]);
  });

  it('writes a file into the workspace and reads it back', async () => {
    const { client, home } = peer();
    const w = (await client.callTool({
      name: 'file_write',
      arguments: { path: 'notes/mcp.txt', content: '知行 over MCP\n' },
    })) as CallToolResult;
    expect(w.isError).toBeFalsy();
    expect(readFileSync(join(home, 'workspace', 'notes', 'mcp.txt'), 'utf8')).toBe('知行 over MCP\n');
    const r = (await client.callTool({ name: 'file_read', arguments: { path: 'notes/mcp.txt' } })) as CallToolResult;
    expect(r.isError).toBeFalsy();
    expect(textOf(r)).toContain('知行 over MCP');
  });

  it('answers bad arguments, unknown tools and paths outside the workspace with isError, not a protocol error', async () => {
    const { client } = peer();
    const missing = (await client.callTool({ name: 'calculator', arguments: {} })) as CallToolResult;
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/invalid arguments for calculator: expression/);
    const wrongType = (await client.callTool({ name: 'todo_done', arguments: { id: 'three' } })) as CallToolResult;
    expect(wrongType.isError).toBe(true);
    const bad = (await client.callTool({ name: 'calculator', arguments: { expression: '2 +* 3' } })) as CallToolResult;
    expect(bad.isError).toBe(true);
    const unknown = (await client.callTool({ name: 'everything__echo', arguments: {} })) as CallToolResult;
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain('no tool named "everything__echo"');
    const outside = (await client.callTool({
      name: 'file_read',
      arguments: { path: '../config.json' },
    })) as CallToolResult;
    expect(outside.isError).toBe(true);
    expect(textOf(outside)).not.toContain('{');
  });

  it('refuses a shell command that would ask, saying which tool, why, and how to allow it', async () => {
    const { client, home } = peer();
    const r = (await client.callTool({ name: 'shell', arguments: { command: 'touch made-by-mcp' } })) as CallToolResult;
    expect(r.isError).toBe(true);
    const text = textOf(r);
    expect(text).toContain('shell was not run');
    expect(text).toContain('touch made-by-mcp');
    expect(text).toContain(join(home, 'config.json'));
    expect(text).toContain('"permissions"');
    // `--yes` is offered only where it exists: `zhixing mcp serve`, not `/mcp` on `zhixing serve`.
    if (transport === 'stdio') expect(text).toContain('zhixing mcp serve --yes');
    else expect(text).not.toContain('--yes');
    expect(() => readFileSync(join(home, 'workspace', 'made-by-mcp'))).toThrow();
  });

  it('chat runs a whole turn: reply, a new session, and the actions as --json gives them; the session continues', async () => {
    const { client } = peer();
    // Progress lines as they come over the wire: the SDK client itself drops one it reads together with the
    // call's answer (it handles progress a tick later), which a busy test machine makes happen.
    const progress: string[] = [];
    const transport = client.transport!;
    const deliver = transport.onmessage!;
    transport.onmessage = (message, extra) => {
      if ('method' in message && message.method === 'notifications/progress')
        progress.push(String(message.params?.message));
      deliver(message, extra);
    };
    const r = (await client.callTool({ name: 'chat', arguments: { message: '帮我算一下 (3+5)*2' } }, undefined, {
      onprogress: () => {},
    })) as CallToolResult;
    transport.onmessage = deliver;
    expect(r.isError).toBeFalsy();
    // Each tool call of the turn is told as it starts and ends.
    expect(progress).toEqual(['calculator …', 'calculator done']);
    const out = r.structuredContent as {
      reply: string;
      session: string;
      actions: Array<{ tool: string; input: unknown; ok: boolean; output: string; ms: number }>;
    };
    expect(out.reply).toContain('16');
    expect(textOf(r)).toBe(out.reply);
    expect(out.session).toMatch(/^ses_/);
    expect(out.actions).toEqual([
      { tool: 'calculator', input: { expression: '(3+5)*2' }, ok: true, output: '16', ms: expect.any(Number) },
    ]);
    const next = (await client.callTool({
      name: 'chat',
      arguments: { message: '再乘以 3', session: out.session },
    })) as CallToolResult;
    const more = next.structuredContent as typeof out;
    expect(more.session).toBe(out.session);
    expect(more.actions[0]?.output).toBe('48');
    const fresh = (await client.callTool({ name: 'chat', arguments: { message: '1+1' } })) as CallToolResult;
    expect((fresh.structuredContent as typeof out).session).not.toBe(out.session);
  });

  it('chat with an unknown session or no message is isError', async () => {
    const { client } = peer();
    const unknown = (await client.callTool({
      name: 'chat',
      arguments: { message: 'hi', session: 'ses_nope' },
    })) as CallToolResult;
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain('There is no session "ses_nope"');
    const empty = (await client.callTool({ name: 'chat', arguments: { message: '  ' } })) as CallToolResult;
    expect(empty.isError).toBe(true);
  });

  it('answers 50 calls at once, each with its own result', async () => {
    const { client } = peer();
    const results = await Promise.all(
      Array.from(
        { length: 50 },
        (_, i) =>
          client.callTool({ name: 'calculator', arguments: { expression: `${i}*2` } }) as Promise<CallToolResult>,
      ),
    );
    expect(results.map(textOf)).toEqual(Array.from({ length: 50 }, (_, i) => String(i * 2)));
  });

  it('refuses a huge argument whole and keeps answering', async () => {
    const { client } = peer();
    const huge = (await client.callTool({
      name: 'calculator',
      arguments: { expression: '1+'.repeat(300_000) + '1' },
    })) as CallToolResult;
    expect(huge.isError).toBe(true);
    expect(textOf(huge)).toMatch(/too long/);
    expect(textOf(huge).length).toBeLessThan(2_000);
    const after = (await client.callTool({ name: 'calculator', arguments: { expression: '7*6' } })) as CallToolResult;
    expect(textOf(after)).toBe('42');
  });
}
