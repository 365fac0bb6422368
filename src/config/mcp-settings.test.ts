import { describe, expect, it } from 'vitest';
import {
  readMcpServers,
  toServerEntry,
  totalLimitMs,
  DEFAULT_MCP_MAX_TOTAL_MS,
  DEFAULT_MCP_TIMEOUT_MS,
} from './mcp-settings.js';

describe('mcpServers in config.json', () => {
  it("reads Claude Desktop's shape, HTTP servers, and what is off", () => {
    const warnings: string[] = [];
    const servers = readMcpServers(
      {
        everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'], env: { A: '1' } },
        remote: { url: 'http://127.0.0.1:3001/mcp', headers: { Authorization: 'Bearer x' }, timeout_ms: 5000 },
        old: { type: 'sse', url: 'http://127.0.0.1:3001/sse', disabled: true },
      },
      '/h/config.json',
      warnings,
    );
    expect(warnings).toEqual([]);
    expect(servers.map((s) => [s.name, s.transport, s.enabled, s.timeoutMs])).toEqual([
      ['everything', 'stdio', true, DEFAULT_MCP_TIMEOUT_MS],
      ['remote', 'http', true, 5000],
      ['old', 'sse', false, DEFAULT_MCP_TIMEOUT_MS],
    ]);
    expect(servers[0]).toMatchObject({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-everything'],
      env: { A: '1' },
    });
  });

  it('skips each bad entry with a warning naming it, and keeps the rest', () => {
    const warnings: string[] = [];
    const servers = readMcpServers(
      {
        good: { command: 'srv' },
        both: { command: 'a', url: 'http://x/mcp' },
        neither: { args: [] },
        'bad name': { command: 'x' },
        badurl: { url: 'not a url' },
        list: ['x'],
      },
      '/h/config.json',
      warnings,
    );
    expect(servers.map((s) => s.name)).toEqual(['good']);
    expect(warnings).toHaveLength(5);
    expect(warnings.join('\n')).toMatch(/mcpServers\.both.*either "command".*"url"/);
    expect(warnings.join('\n')).toMatch(/mcpServers\.bad name.*letters, digits/);
    expect(readMcpServers([1], '/c', warnings)).toEqual([]);
    expect(warnings.at(-1)).toMatch(/must be an object/);
  });

  it('writes back only what differs from the defaults', () => {
    const [s] = readMcpServers(
      { a: { command: 'x', args: [], enabled: true, timeout_ms: DEFAULT_MCP_TIMEOUT_MS } },
      '/c',
      [],
    );
    expect(toServerEntry(s!)).toEqual({ command: 'x' });
    expect(toServerEntry({ ...s!, enabled: false, timeoutMs: 9 })).toEqual({
      command: 'x',
      enabled: false,
      timeout_ms: 9,
    });
  });

  it("bounds a call's whole time: max_total_ms when set, else five minutes or timeout_ms when that is longer", () => {
    const warnings: string[] = [];
    const [plain, set, slow] = readMcpServers(
      {
        plain: { command: 'x' },
        set: { command: 'x', max_total_ms: 1_500 },
        slow: { command: 'x', timeout_ms: 600_000 },
      },
      '/c',
      warnings,
    );
    expect(warnings).toEqual([]);
    expect([plain, set, slow].map((s) => totalLimitMs(s!))).toEqual([DEFAULT_MCP_MAX_TOTAL_MS, 1_500, 600_000]);
    expect(toServerEntry(set!)).toEqual({ command: 'x', max_total_ms: 1_500 });
    expect(toServerEntry(plain!)).toEqual({ command: 'x' });
    expect(readMcpServers({ bad: { command: 'x', max_total_ms: 0 } }, '/c', warnings)).toEqual([]);
    expect(warnings[0]).toMatch(/max_total_ms/);
  });
});

describe('what a server entry may name', () => {
  it("refuses names that could make another server's tool names or match its rules", () => {
    for (const bad of ['a__b', 'ev_', 'a___b', '_a', '-a', 'x'.repeat(33), 'a b', 'ä']) {
      const warnings: string[] = [];
      expect(readMcpServers({ [bad]: { command: 'x' } }, '/h/config.json', warnings), bad).toEqual([]);
      expect(warnings[0]).toMatch(/single "_"/);
    }
    expect(
      readMcpServers(
        {
          a_b: { command: 'x' },
          'web-search': { command: 'x' },
          A1: { command: 'x' },
          ['x'.repeat(32)]: { command: 'x' },
        },
        '/c',
        [],
      ).map((s) => s.name),
    ).toEqual(['a_b', 'web-search', 'A1', 'x'.repeat(32)]);
  });

  it("reads a relative command or folder from config.json's folder, and takes only http(s) URLs", () => {
    const [rel] = readMcpServers({ rel: { command: './bin/server', cwd: 'data' } }, '/home/u/.zhixing/config.json', []);
    expect(rel).toMatchObject({ command: '/home/u/.zhixing/bin/server', cwd: '/home/u/.zhixing/data' });
    const [bare] = readMcpServers({ bare: { command: 'npx' } }, '/home/u/.zhixing/config.json', []);
    expect(bare!.command).toBe('npx');
    const warnings: string[] = [];
    expect(
      readMcpServers({ ftp: { url: 'ftp://x/mcp' }, file: { url: 'file:///etc/passwd' } }, '/c', warnings),
    ).toEqual([]);
    expect(warnings.join('\n')).toMatch(/http:\/\/ or https:\/\//);
  });
});
