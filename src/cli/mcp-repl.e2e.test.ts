import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpManager } from '../mcp/manager.js';
import type { McpManager } from '../mcp/types.js';
import { createToolRegistry } from '../tools/registry.js';
import { failureNotices, mcpCommand } from './mcp-repl.js';
import { createStyle } from './style.js';

const EVERYTHING = resolve('node_modules/.bin/mcp-server-everything');
const style = createStyle(false);
let manager: McpManager | undefined;
afterEach(async () => {
  await manager?.close();
  manager = undefined;
});

const server = (name: string, command: string, args: string[], enabled = true) => ({
  name,
  transport: 'stdio' as const,
  command,
  args,
  env: {},
  headers: {},
  enabled,
  timeoutMs: 60_000,
});

describe('/mcp against a real server', () => {
  it('reconnects, disables and enables it, waiting to show how it went; an unknown name lists the ones there are', async () => {
    let saved: unknown;
    manager = createMcpManager({
      servers: [server('everything', EVERYTHING, ['stdio'])],
      tools: createToolRegistry([]),
      saveServers: (s) => (saved = s),
      trusted: () => false,
    });
    manager.start();
    const again = await mcpCommand(manager, 'reconnect everything', 'en', style);
    expect(again.error).toBeFalsy();
    expect(again.text).toMatch(/^Reconnected\.\neverything {2}connected · \d+ tools\n/);
    const off = await mcpCommand(manager, 'disable everything', 'en', style);
    expect(off.text).toMatch(
      /^Disabled \(saved to config\.json\): its tools are no longer offered\.\neverything {2}disabled/,
    );
    expect(saved).toEqual({ everything: { command: EVERYTHING, args: ['stdio'], enabled: false } });
    const on = await mcpCommand(manager, 'enable  everything', 'zh', style);
    expect(on.text).toMatch(/^已启用（已保存到 config\.json）。\neverything {2}已连接 · \d+ 个工具/);
    const unknown = await mcpCommand(manager, 'reconnect nope', 'en', style);
    expect(unknown).toEqual({ text: 'There is no MCP server "nope". The servers are: everything.', error: true });
    expect((await mcpCommand(manager, 'reconnect', 'en', style)).error).toBe(true);
    expect((await mcpCommand(manager, 'reconnect a b', 'en', style)).error).toBe(true);
  }, 60_000);

  it('tells of a failure once, and again only after the server came back and failed anew', async () => {
    // Every try and state a real backoff goes through, without its waits between tries.
    const retry = { baseMs: 5, maxMs: 20, attempts: 5 };
    manager = createMcpManager({
      servers: [server('broken', 'sh', ['-c', 'echo down >&2; exit 3'])],
      tools: createToolRegistry([]),
      saveServers: () => {},
      trusted: () => false,
      retry,
    });
    const notices = failureNotices(manager);
    manager.start();
    await manager.ready(30_000);
    expect(notices('en')).toMatch(/^MCP server failed: broken \(.+\)\. \/mcp shows why\.$/);
    expect(notices('en')).toBeUndefined();
    await manager.setEnabled('broken', false);
    expect(notices('en')).toBeUndefined();
    await manager.setEnabled('broken', true);
    await manager.ready(30_000);
    expect(notices('zh')).toMatch(/^MCP 服务器连接失败：broken/);
  }, 60_000);
});

describe('Tab after /mcp', () => {
  it('completes the verbs, then the names of the servers', async () => {
    const { createSlashCommands } = await import('./repl-commands.js');
    const { cliText } = await import('./messages.js');
    const { replText } = await import('./repl-text.js');
    const views = [{ name: 'everything' }, { name: 'memory' }, { name: 'evil' }];
    const app = { mcp: { list: () => views } } as never;
    const commands = createSlashCommands({
      app,
      io: { stdout() {}, stderr() {}, style, text: cliText('en') },
      rt: replText('en'),
      catalog: {} as never,
      session: () => 's',
      setSession() {},
      ask: async () => '',
    });
    expect(commands.complete('/mc')?.candidates.map((c) => c.value)).toEqual(['/mcp']);
    expect(commands.complete('/mcp re')).toEqual({
      start: 5,
      candidates: [{ value: 'reconnect ', label: 'reconnect' }],
    });
    expect(commands.complete('/mcp reconnect ev')).toEqual({
      start: 15,
      candidates: [{ value: 'everything' }, { value: 'evil' }],
    });
    expect(commands.complete('/mcp disable ')?.candidates).toHaveLength(3);
    expect(commands.complete('/mcp explode ev')).toBeUndefined();
  });
});
