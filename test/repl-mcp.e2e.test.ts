import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { useTempHomes } from './support/temp-home.js';

const EVERYTHING = resolve('node_modules/.bin/mcp-server-everything');
const home = useTempHomes();

describe('/mcp in the REPL', () => {
  it('lists the servers with their state, turns them off and on (saved), reconnects, and says a failure unasked', async () => {
    const dir = home().home;
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({
        mcpServers: {
          everything: { command: EVERYTHING, args: ['stdio'] },
          // Dies at once, saying why on stderr with an escape sequence the terminal must not get.
          broken: { command: 'sh', args: ['-c', 'echo "\\033[2Jno such database" >&2; exit 3'], enabled: false },
        },
      }),
    );
    const input = [
      '/mcp reconnect everything',
      '/mcp',
      '/mcp disable everything',
      '/mcp enable broken',
      '/mcp',
      '/mcp reconnect nope',
      '/mcp explode',
      '/help',
      '/exit',
    ].join('\n');
    const r = await runCli(['chat'], { ZHIXING_HOME: dir, ZHIXING_LANG: 'en' }, { input, timeoutMs: 60_000 });
    expect(r.code).toBe(0);
    const out = r.stdout;
    // Reconnected, and shown connected with its tools once it is.
    expect(out).toMatch(/^Reconnected\.\neverything {2}connected · \d+ tools\n/m);
    expect(out).toMatch(/^ {2}tools {2}everything__echo, .*everything__get-sum/m);
    expect(out).toContain(`  command  ${EVERYTHING} stdio`);
    expect(out).toMatch(/^broken {2}disabled/m);
    expect(out).toContain('Disabled (saved to config.json): its tools are no longer offered.');
    expect(out).toMatch(/^everything {2}disabled/m);
    expect(out).toContain('Usage: /mcp · /mcp reconnect NAME · /mcp enable NAME · /mcp disable NAME');
    expect(out).toContain('/mcp             list the MCP servers with their state');
    // A server that dies is `failed`, with its reason and what it said; the enable that started it says so on stderr.
    expect(r.stderr).toMatch(
      /Enabled \(saved to config\.json\)\.\nbroken {2}failed\n.*\n {2}error {2}\S.*\n {2}its last stderr lines:\n {4}\| no such database/,
    );
    expect(r.stderr).toContain('There is no MCP server "nope". The servers are: everything, broken.');
    expect(r.stderr).toContain('Usage: /mcp · /mcp reconnect NAME');
    expect(r.stderr).toMatch(/MCP servers? failed: .*broken \(/);
    expect(out + r.stderr).not.toContain('\x1b[2J');
    const saved = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(saved.mcpServers.everything).toEqual({ command: EVERYTHING, args: ['stdio'], enabled: false });
    expect(saved.mcpServers.broken.enabled).toBeUndefined();
  }, 90_000);

  it('with no servers, says how to add one; in Chinese too', async () => {
    const dir = home().home;
    const en = await runCli(['chat'], { ZHIXING_HOME: dir, ZHIXING_LANG: 'en' }, { input: '/mcp\n' });
    expect(en.stdout).toContain(
      'No MCP servers are configured. Add one from a shell: zhixing mcp add NAME -- CMD [ARGS…]',
    );
    const zh = await runCli(['chat'], { ZHIXING_HOME: dir, ZHIXING_LANG: 'zh' }, { input: '/mcp\n' });
    expect(zh.stdout).toContain('没有配置 MCP 服务器。');
    expect(en.stderr + zh.stderr).toBe('');
  }, 30_000);
});
