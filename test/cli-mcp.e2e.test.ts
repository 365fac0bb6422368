import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readMcpServers } from '../src/config/mcp-settings.js';
import { runCli } from './support/cli.js';
import { useTempHomes } from './support/temp-home.js';

/** The official reference server over stdio, as a user's config would start it. */
const EVERYTHING = resolve('node_modules/.bin/mcp-server-everything');
/** A server listing 150 tools: more than are offered. */
const MANY = resolve('test/fixtures/mcp/many.mjs');
const home = useTempHomes();
const configIn = (dir: string) => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as Record<string, any>;
// No model, no key: managing servers must not need one.
const envOf = (dir: string, lang = 'en') => ({ ZHIXING_HOME: dir, ZHIXING_LANG: lang });

describe('zhixing mcp add', () => {
  it("saves the server in Claude Desktop's shape, shows the whole command, whether it connected, and how to trust it", async () => {
    const dir = home().home;
    const r = await runCli(
      ['mcp', 'add', '-e', 'API_KEY=secret', '--timeout', '5000', 'everything', '--', EVERYTHING, 'stdio'],
      envOf(dir),
      { timeoutMs: 30_000 },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Added the MCP server "everything" to ${join(dir, 'config.json')}.`);
    expect(r.stdout).toContain(`It runs this command:\n  ${EVERYTHING} stdio\n`);
    expect(r.stdout).toContain('Set (values kept in config.json, not shown): env API_KEY');
    expect(r.stdout).toContain('"everything__*": "allow"');
    expect(r.stdout).toContain('/permissions allow everything__*');
    expect(r.stdout).toMatch(/^Connected: \d+ tools\.$/m);
    expect(r.stdout + r.stderr).not.toContain('secret');
    expect(r.stderr).toContain('Connecting (up to 10 s)');
    expect(configIn(dir).mcpServers).toEqual({
      everything: { command: EVERYTHING, args: ['stdio'], env: { API_KEY: 'secret' }, timeout_ms: 5000 },
    });
    const warnings: string[] = [];
    expect(readMcpServers(configIn(dir).mcpServers, 'config.json', warnings)).toMatchObject([
      { name: 'everything', env: { API_KEY: 'secret' } },
    ]);
    expect(warnings).toEqual([]);
  }, 40_000);

  it('saves a command given as a relative path as the path from where it was typed', async () => {
    const dir = home().home;
    const r = await runCli(
      ['mcp', 'add', 'rel', '--', 'node_modules/.bin/mcp-server-everything', 'stdio'],
      envOf(dir),
      { timeoutMs: 30_000, cwd: resolve('.') },
    );
    expect(r.code).toBe(0);
    expect(configIn(dir).mcpServers.rel.command).toBe(EVERYTHING);
    const bare = await runCli(['mcp', 'add', 'bare', '--', 'true'], envOf(dir), { timeoutMs: 30_000 });
    expect(configIn(dir).mcpServers.bare.command, bare.stderr).toBe('true');
    // A program that exits at once is said after its one try, not tried again until the wait runs out.
    expect(bare.stdout).toMatch(
      /^bare {2}failed\n[\s\S]*^ {2}error {2}the program exited before it finished connecting/m,
    );
    expect(bare.stdout).not.toMatch(/gave up after|Not connected within/);
  }, 60_000);

  it("adds a server over HTTP with its headers, showing the URL and only the headers' names", async () => {
    const dir = home().home;
    const r = await runCli(
      [
        'mcp',
        'add',
        '--transport',
        'http',
        '-H',
        'Authorization: Bearer secret',
        'remote',
        'http://127.0.0.1:9/mcp?token=secret',
      ],
      envOf(dir),
      { timeoutMs: 30_000 },
    );
    expect(r.code).toBe(0);
    // A query may hold a token: the URL is shown without it.
    expect(r.stdout).toContain('It connects (http) to:\n  http://127.0.0.1:9/mcp (…)\n');
    expect(r.stdout).toContain('header Authorization');
    // Nothing listens there: failed, saying why.
    expect(r.stdout).toMatch(/^remote {2}failed\n[\s\S]*^ {2}error {2}\S/m);
    // A refused connection is said at once, not tried again until the wait runs out.
    expect(r.stdout).not.toMatch(/gave up after|Not connected within/);
    expect(r.stdout + r.stderr).not.toContain('secret');
    expect(configIn(dir).mcpServers.remote).toEqual({
      url: 'http://127.0.0.1:9/mcp?token=secret',
      headers: { Authorization: 'Bearer secret' },
    });
  }, 40_000);

  it('speaks Chinese when asked', async () => {
    const dir = home().home;
    const r = await runCli(['mcp', 'add', 'x', '--', 'sh', '-c', "echo 'hi'; exit 1"], envOf(dir, 'zh'), {
      timeoutMs: 30_000,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('已把 MCP 服务器「x」加入');
    // Each word as a shell would need it: what runs is not ambiguous.
    expect(r.stdout).toContain(`它会运行这条命令：\n  sh -c 'echo '\\''hi'\\''; exit 1'\n`);
    expect(r.stdout).toContain('/permissions allow x__*');
  }, 40_000);

  it('refuses bad names, a clash and a missing command with exit 2, and leaves config.json alone', async () => {
    const dir = home().home;
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ maxSteps: 5, mcpServers: { a: { command: 'true' } } }));
    const before = readFileSync(join(dir, 'config.json'), 'utf8');
    for (const args of [
      ['mcp', 'add', 'bad name', '--', 'x'],
      ['mcp', 'add', '-x', '--', 'x'],
      ['mcp', 'add', 'a'.repeat(33), '--', 'x'],
      ['mcp', 'add', 'b'],
      ['mcp', 'add', '--transport', 'http', 'b', 'ftp://h'],
      ['mcp', 'add', '-e', 'NOEQUALS', 'b', '--', 'x'],
    ]) {
      const r = await runCli(args, envOf(dir));
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^zhixing: /);
    }
    const clash = await runCli(['mcp', 'add', 'a', '--', 'other'], envOf(dir));
    expect(clash.code).toBe(2);
    expect(clash.stderr).toBe(
      'zhixing: There is already an MCP server "a". Remove it first with zhixing mcp remove a, then add it again.\n',
    );
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
  }, 60_000);

  it('two adds at once both land, and config.json stays valid JSON', async () => {
    const dir = home().home;
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ maxSteps: 5 }));
    const runs = await Promise.all(
      ['one', 'two', 'three'].map((n) =>
        runCli(['mcp', 'add', n, '--', EVERYTHING, 'stdio'], envOf(dir), { timeoutMs: 30_000 }),
      ),
    );
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0]);
    for (const r of runs) expect(r.stdout).toMatch(/^Connected: \d+ tools\.$/m);
    const saved = configIn(dir);
    expect(saved.maxSteps).toBe(5);
    expect(Object.keys(saved.mcpServers).sort()).toEqual(['one', 'three', 'two']);
  }, 60_000);
});

describe('servers that hang or lie', () => {
  it('a server that never answers, or answers garbage, costs add and list at most the bounded wait, and is stopped after', async () => {
    const dir = home().home;
    const started = Date.now();
    // Both adds at once (config.json's lock lets both land): each waits out its own bound.
    const [hang, liar] = await Promise.all([
      runCli(['mcp', 'add', 'hang', '--', 'sleep', '61.25'], envOf(dir), { timeoutMs: 30_000 }),
      runCli(
        ['mcp', 'add', 'liar', '--', 'sh', '-c', 'while true; do echo "not json {"; sleep 0.05; done'],
        envOf(dir),
        { timeoutMs: 30_000 },
      ),
    ]);
    expect(hang.code).toBe(0);
    // It never answers the handshake: given up on within the wait, or not connected by its end.
    expect(hang.stdout).toMatch(/Not connected within 10 s|hang {2}failed/);
    expect(liar.code).toBe(0);
    expect(liar.stdout).toMatch(/Not connected within 10 s|liar {2}failed/);
    const list = await runCli(['mcp', 'list'], envOf(dir), { timeoutMs: 30_000 });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^hang {2}(connecting|failed)/m);
    expect(list.stdout).toMatch(/^liar {2}(connecting|failed)/m);
    expect(Date.now() - started).toBeLessThan(45_000);
    // Nothing the commands started outlives them.
    const { execFileSync } = await import('node:child_process');
    let left: string;
    try {
      left = execFileSync('pgrep', ['-f', 'sleep 61.25'], { encoding: 'utf8' });
    } catch {
      left = '';
    }
    expect(left.trim()).toBe('');
  }, 60_000);
});

describe('zhixing mcp list', () => {
  it('says there are none, as text and JSON', async () => {
    const dir = home().home;
    expect(await runCli(['mcp', 'list'], envOf(dir))).toEqual({
      code: 0,
      stdout: 'No MCP servers are configured. Add one: zhixing mcp add NAME -- CMD [ARGS…]\n',
      stderr: '',
    });
    expect(JSON.parse((await runCli(['mcp', 'list', '--json'], envOf(dir))).stdout)).toEqual({ servers: [] });
  });

  it('shows each server with its state, what runs and why one failed; --json gives the views without secrets', async () => {
    const dir = home().home;
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({
        mcpServers: {
          everything: { command: EVERYTHING, args: ['stdio'], env: { API_KEY: 'secret' } },
          // A server that writes escape sequences to stderr and dies: the terminal must not act on them.
          broken: { command: 'sh', args: ['-c', 'printf "\\033]0;pwned\\007boom \\033[31mred\\n" >&2; exit 3'] },
          off: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer secret' }, enabled: false },
        },
      }),
    );
    const r = await runCli(['mcp', 'list'], envOf(dir), { timeoutMs: 30_000 });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^everything {2}connected · \d+ tools$/m);
    expect(r.stdout).toContain(`  command  ${EVERYTHING} stdio`);
    expect(r.stdout).toMatch(/^ {2}tools {2}everything__echo, .*everything__get-sum/m);
    // It died saying why: the reason and its last stderr lines, the escape sequences taken out.
    expect(r.stdout).toMatch(
      /^broken {2}failed\n {2}command {2}sh -c 'printf .*'\n {2}error {2}\S.*\n {2}its last stderr lines:\n {4}\| boom red( \(×\d+\))?$/m,
    );
    expect(r.stdout).toMatch(
      /^off {2}disabled\n {2}http {2}http:\/\/127\.0\.0\.1:9\/mcp\n {2}set \(values not shown\) {2}header Authorization/m,
    );
    expect(r.stdout).not.toContain('\x1b');
    expect(r.stdout + r.stderr).not.toContain('secret');

    const json = await runCli(['mcp', 'list', '--json'], envOf(dir), { timeoutMs: 30_000 });
    expect(json.code).toBe(0);
    expect(json.stdout).not.toContain('secret');
    const { servers } = JSON.parse(json.stdout);
    expect(servers.map((s: { name: string }) => s.name)).toEqual(['everything', 'broken', 'off']);
    expect(servers[0]).toMatchObject({
      transport: 'stdio',
      command: `${EVERYTHING} stdio`,
      envKeys: ['API_KEY'],
      enabled: true,
      trusted: false,
      state: 'connected',
    });
    expect(servers[0].tools).toEqual(
      expect.arrayContaining(['everything__get-sum', 'everything__trigger-long-running-operation']),
    );
    expect(servers[1]).toMatchObject({ state: 'failed', error: expect.any(String) });
    expect(servers[1].stderr.at(-1)).toContain('boom');
    expect(servers[2]).toMatchObject({ state: 'disabled', headerKeys: ['Authorization'], tools: [] });
  }, 60_000);
});

describe('a server whose list is cut', () => {
  it('list and list --json say what was left out, in both languages', async () => {
    const dir = home().home;
    const add = await runCli(['mcp', 'add', 'many', '--', process.execPath, MANY], envOf(dir), { timeoutMs: 30_000 });
    expect(add.code).toBe(0);
    expect(add.stdout).toMatch(
      /^Connected: 100 tools\.\nWarning: it lists 150 tools; only the first 100 are offered\./m,
    );
    const r = await runCli(['mcp', 'list'], envOf(dir), { timeoutMs: 30_000 });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^many {2}connected · 100 tools\n(?: {2}.*\n)* {2}warning {2}it lists 150 tools; only the first 100 are offered\./m,
    );
    const zh = await runCli(['mcp', 'list'], envOf(dir, 'zh'), { timeoutMs: 30_000 });
    expect(zh.stdout).toMatch(/^ {2}注意 {2}it lists 150 tools; only the first 100 are offered\./m);
    const json = await runCli(['mcp', 'list', '--json'], envOf(dir), { timeoutMs: 30_000 });
    const [server] = JSON.parse(json.stdout).servers;
    expect(server).toMatchObject({
      name: 'many',
      state: 'connected',
      via: 'stdio',
      warning: expect.stringMatching(/^it lists 150 tools; only the first 100 are offered\./),
    });
    expect(server.tools).toHaveLength(100);
  }, 90_000);
});

describe('zhixing mcp remove, enable, disable', () => {
  it('turns a server off and on and removes it, in config.json', async () => {
    const dir = home().home;
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ mcpServers: { a: { command: 'true', disabled: true }, b: { command: 'true' } } }),
    );
    expect(await runCli(['mcp', 'enable', 'a'], envOf(dir))).toEqual({
      code: 0,
      stdout: 'Enabled the MCP server "a": Zhixing connects it when it next starts.\n',
      stderr: '',
    });
    expect(configIn(dir).mcpServers.a).toEqual({ command: 'true' });
    expect((await runCli(['mcp', 'disable', 'a'], envOf(dir))).code).toBe(0);
    expect(configIn(dir).mcpServers.a).toEqual({ command: 'true', enabled: false });
    expect(await runCli(['mcp', 'remove', 'a'], envOf(dir))).toEqual({
      code: 0,
      stdout: 'Removed the MCP server "a".\n',
      stderr: '',
    });
    expect(configIn(dir).mcpServers).toEqual({ b: { command: 'true' } });
  });

  it("removes the rules of the server's tools with it, and says a rule already trusts a name added again", async () => {
    const dir = home().home;
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({
        mcpServers: { ev: { command: 'true' } },
        permissions: { 'ev__*': 'allow', 'evx__*': 'allow', shell: 'ask' },
      }),
    );
    const removed = await runCli(['mcp', 'remove', 'ev'], envOf(dir));
    expect(removed.stdout).toBe('Removed the MCP server "ev" (and its permission rules: ev__*).\n');
    expect(configIn(dir).permissions).toEqual({ 'evx__*': 'allow', shell: 'ask' });
    const untrusted = await runCli(['mcp', 'add', 'ev', '--', 'true'], envOf(dir), { timeoutMs: 30_000 });
    expect(untrusted.stdout).toContain('Its tools ask before each call until you trust it');
    const trusted = await runCli(['mcp', 'add', 'evx', '--', 'true'], envOf(dir), { timeoutMs: 30_000 });
    expect(trusted.stdout).toContain('Your permission rules already trust "evx": its tools run without asking.');
    expect(trusted.stdout).not.toContain('until you trust it');
  }, 60_000);

  it('an unknown name is exit 2 naming the servers there are', async () => {
    const dir = home().home;
    const none = await runCli(['mcp', 'remove', 'ghost'], envOf(dir));
    expect(none).toEqual({
      code: 2,
      stdout: '',
      stderr: 'zhixing: There is no MCP server "ghost". None is configured.\n',
    });
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ mcpServers: { a: { command: 'true' }, b: { command: 'true' } } }),
    );
    for (const action of ['remove', 'enable', 'disable']) {
      const r = await runCli(['mcp', action, 'ghost'], envOf(dir));
      expect(r).toEqual({
        code: 2,
        stdout: '',
        stderr: 'zhixing: There is no MCP server "ghost". The servers are: a, b.\n',
      });
    }
    const zh = await runCli(['mcp', 'remove', 'ghost'], envOf(dir, 'zh'));
    expect(zh.stderr).toBe('zhixing: 没有名为「ghost」的 MCP 服务器。已有的：a、b。\n');
    expect((await runCli(['mcp', 'remove'], envOf(dir))).code).toBe(2);
    expect(configIn(dir).mcpServers).toEqual({ a: { command: 'true' }, b: { command: 'true' } });
  });

  it('a config.json that is not JSON is left alone and said (exit 1)', async () => {
    const dir = home().home;
    writeFileSync(join(dir, 'config.json'), '{ "mcpServers": ');
    const r = await runCli(['mcp', 'remove', 'a'], envOf(dir));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/^zhixing: /);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe('{ "mcpServers": ');
  });
});

describe('zhixing config', () => {
  it('names the configured MCP servers with what runs, and where their state is shown', async () => {
    const dir = home().home;
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({
        mcpServers: {
          everything: { command: EVERYTHING, args: ['stdio'], env: { API_KEY: 'secret' } },
          remote: { url: 'http://127.0.0.1:9/mcp', enabled: false },
        },
      }),
    );
    const r = await runCli(['config'], envOf(dir));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(`^mcp +everything  ${EVERYTHING.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} stdio$`, 'm'),
    );
    expect(r.stdout).toMatch(/^ +remote {6}http:\/\/127\.0\.0\.1:9\/mcp \(disabled\)$/m);
    expect(r.stdout).toContain('zhixing mcp list connects them and shows their state');
    expect(r.stdout).not.toContain('secret');
  });
});

describe('an MCP call in a one-shot', () => {
  it('shows its progress lines in the trace while it runs, then its result', async () => {
    const { startOpenAiServer, textReply, toolCallsReply } = await import('./support/openai-server.js');
    const model = await startOpenAiServer();
    try {
      const dir = home().home;
      writeFileSync(
        join(dir, 'config.json'),
        JSON.stringify({
          mcpServers: { everything: { command: EVERYTHING, args: ['stdio'] } },
          permissions: { 'everything__*': 'allow' },
        }),
      );
      model.enqueue(
        toolCallsReply([
          { id: 'c1', name: 'everything__trigger-long-running-operation', args: { duration: 2, steps: 4 } },
        ]),
        textReply('It finished.'),
      );
      const r = await runCli(
        ['--show-actions', 'run the long operation with everything'],
        {
          ...envOf(dir),
          ZHIXING_BASE_URL: model.url,
          ZHIXING_API_KEY: 'sk-test-mcp-progress-1234',
          ZHIXING_MODEL: 'test-model',
        },
        { timeoutMs: 40_000 },
      );
      expect(r.code).toBe(0);
      // Each step as it comes, then the call's trace line with its result.
      expect(r.stdout).toMatch(/^( {2}… [1-4]\/4.*\n){2,}🔧 everything__trigger-long-running-operation .*✓/m);
      expect(r.stdout).toContain('It finished.');
    } finally {
      await model.close();
    }
  }, 60_000);
});
