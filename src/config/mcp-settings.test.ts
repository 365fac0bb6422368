import { describe, expect, it } from 'vitest';
import { readMcpServers, toServerEntry, DEFAULT_MCP_TIMEOUT_MS } from './mcp-settings.js';

describe('mcpServers in config.json', () => {
  it('reads Claude Desktop\'s shape, HTTP servers, and what is off', () => {
    const warnings: string[] = [];
    const servers = readMcpServers({
      everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'], env: { A: '1' } },
      remote: { url: 'http://127.0.0.1:3001/mcp', headers: { Authorization: 'Bearer x' }, timeout_ms: 5000 },
      old: { type: 'sse', url: 'http://127.0.0.1:3001/sse', disabled: true },
    }, '/h/config.json', warnings);
    expect(warnings).toEqual([]);
    expect(servers.map((s) => [s.name, s.transport, s.enabled, s.timeoutMs])).toEqual([
      ['everything', 'stdio', true, DEFAULT_MCP_TIMEOUT_MS],
      ['remote', 'http', true, 5000],
      ['old', 'sse', false, DEFAULT_MCP_TIMEOUT_MS],
    ]);
    expect(servers[0]).toMatchObject({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'], env: { A: '1' } });
  });

  it('skips each bad entry with a warning naming it, and keeps the rest', () => {
    const warnings: string[] = [];
    const servers = readMcpServers({
      good: { command: 'srv' },
      both: { command: 'a', url: 'http://x/mcp' },
      neither: { args: [] },
      'bad name': { command: 'x' },
      badurl: { url: 'not a url' },
      list: ['x'],
    }, '/h/config.json', warnings);
    expect(servers.map((s) => s.name)).toEqual(['good']);
    expect(warnings).toHaveLength(5);
    expect(warnings.join('\n')).toMatch(/mcpServers\.both.*either "command".*"url"/);
    expect(warnings.join('\n')).toMatch(/mcpServers\.bad name.*letters, digits/);
    expect(readMcpServers([1], '/c', warnings)).toEqual([]);
    expect(warnings.at(-1)).toMatch(/must be an object/);
  });

  it('writes back only what differs from the defaults', () => {
    const [s] = readMcpServers({ a: { command: 'x', args: [], enabled: true, timeout_ms: DEFAULT_MCP_TIMEOUT_MS } }, '/c', []);
    expect(toServerEntry(s!)).toEqual({ command: 'x' });
    expect(toServerEntry({ ...s!, enabled: false, timeoutMs: 9 })).toEqual({ command: 'x', enabled: false, timeout_ms: 9 });
  });
});
