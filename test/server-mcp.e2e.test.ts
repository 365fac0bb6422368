import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readMcpServers } from '../src/config/mcp-settings.js';
import { publicView } from '../src/server/mcp.js';
import { openStream, request, startTestServer, type HttpResult, type TestServer } from './support/http.js';

/** The official reference server, started over stdio as a user's config would. */
const EVERYTHING = resolve('node_modules/.bin/mcp-server-everything');
/** States a freshly added, enabled server may be in, whichever client runs it. */
const LIVE = ['connecting', 'connected', 'failed'];

let running: TestServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const configOf = (s: TestServer) =>
  JSON.parse(readFileSync(join(s.home, 'config.json'), 'utf8')) as Record<string, any>;
const everything = { command: EVERYTHING, args: ['stdio'] };
/** Lists 150 tools: more than are offered. */
const many = { command: process.execPath, args: [resolve('test/fixtures/mcp/many.mjs')] };
/** Every try and state of the default backoff (five tries), without its seconds of waiting between them. */
const mcpRetry = { baseMs: 5, maxMs: 20, attempts: 5 };
/** Says why on stderr and dies at once. */
const broken = { command: 'sh', args: ['-c', 'echo "cannot open database: permission denied" >&2; exit 3'] };

describe('/api/mcp', () => {
  it('GET lists the configured servers with their state and tools, in config order; status counts them; a server that dies is failed with its stderr', async () => {
    const s = (running = await startTestServer({
      config: { mcpServers: { everything, broken, off: { url: 'http://127.0.0.1:9/mcp', enabled: false } } },
      mcpRetry,
    }));
    s.app.mcp.start();
    expect(await s.app.mcp.ready(30_000)).toEqual([]);
    const r = await request(s.port, '/api/mcp');
    expect(r.status).toBe(200);
    const servers = r.json().servers;
    expect(servers.map((v: { name: string }) => v.name)).toEqual(['everything', 'broken', 'off']);
    expect(servers[0]).toMatchObject({
      transport: 'stdio',
      command: `${EVERYTHING} stdio`,
      enabled: true,
      envKeys: [],
      headerKeys: [],
      trusted: false,
      state: 'connected',
    });
    expect(servers[0].tools).toEqual(
      expect.arrayContaining(['everything__get-sum', 'everything__echo', 'everything__get-tiny-image']),
    );
    expect(servers[0].serverInfo.name).toEqual(expect.any(String));
    expect(servers[1]).toMatchObject({ state: 'failed', error: expect.any(String), tools: [] });
    expect(servers[1].stderr.join('\n')).toContain('cannot open database: permission denied');
    expect(servers[2]).toMatchObject({
      transport: 'http',
      url: 'http://127.0.0.1:9/mcp',
      state: 'disabled',
      tools: [],
    });
    const status = (await request(s.port, '/api/status')).json();
    expect(status.mcp).toEqual([
      { name: 'everything', state: 'connected', tools: servers[0].tools.length },
      { name: 'broken', state: 'failed', tools: 0, error: servers[1].error },
      { name: 'off', state: 'disabled', tools: 0 },
    ]);
    // The model is offered them too.
    expect(status.tools).toEqual(expect.arrayContaining(['everything__get-sum']));
  }, 60_000);

  it("says what a server's list left out, and the transport in use, in GET and in the server-wide stream", async () => {
    const s = (running = await startTestServer());
    const stream = await openStream(s.port, '/api/events');
    expect((await request(s.port, '/api/mcp', { body: { name: 'many', ...many } })).status).toBe(201);
    await stream.waitFor('"state":"connected"', 30_000);
    const view = (await request(s.port, '/api/mcp')).json().servers[0];
    expect(view).toMatchObject({
      name: 'many',
      state: 'connected',
      via: 'stdio',
      warning: expect.stringMatching(/it lists 150 tools; only the first 100 are offered/),
    });
    expect(view.tools).toHaveLength(100);
    await stream.waitFor('only the first 100 are offered');
    stream.leave();
    const told = stream
      .text()
      .split('\n')
      .filter((l) => l.startsWith('data:') && l.includes('"state":"connected"'))
      .map((l) => JSON.parse(l.slice(5)));
    expect(told.at(-1).server).toMatchObject({ via: 'stdio', warning: view.warning });
  }, 60_000);

  it('a server trusted by a rule is shown trusted', async () => {
    const s = (running = await startTestServer({
      config: { mcpServers: { everything }, permissions: { 'everything__*': 'allow' } },
    }));
    expect((await request(s.port, '/api/mcp')).json().servers[0].trusted).toBe(true);
  });

  it("POST adds a server to config.json in Claude Desktop's shape and answers 201 with the whole command line", async () => {
    const s = (running = await startTestServer({ config: { maxSteps: 9 } }));
    const r = await request(s.port, '/api/mcp', {
      body: {
        name: 'everything',
        command: EVERYTHING,
        args: ['stdio', '--flag with space'],
        cwd: s.home,
        timeout_ms: 5000,
        max_total_ms: 90_000,
      },
    });
    expect(r.status).toBe(201);
    expect(r.json()).toMatchObject({ name: 'everything', transport: 'stdio', timeoutMs: 5000 });
    // The whole command line, each word quoted as a shell would need it.
    expect(r.json().command).toMatch(
      new RegExp(`^${EVERYTHING.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} stdio '?--flag with space'?$`),
    );
    expect(LIVE).toContain(r.json().state);
    const saved = configOf(s);
    expect(saved.maxSteps).toBe(9);
    expect(saved.mcpServers).toEqual({
      everything: {
        command: EVERYTHING,
        args: ['stdio', '--flag with space'],
        cwd: s.home,
        timeout_ms: 5000,
        max_total_ms: 90_000,
      },
    });
    const warnings: string[] = [];
    expect(readMcpServers(saved.mcpServers, 'config.json', warnings)).toMatchObject([
      { name: 'everything', command: EVERYTHING, args: ['stdio', '--flag with space'], timeoutMs: 5000 },
    ]);
    expect(warnings).toEqual([]);
    expect((await request(s.port, '/api/mcp')).json().servers).toHaveLength(1);

    const http = await request(s.port, '/api/mcp', {
      body: { name: 'remote', url: 'https://mcp.example.com/mcp', transport: 'sse', enabled: false },
    });
    expect(http.status).toBe(201);
    expect(http.json()).toMatchObject({
      transport: 'sse',
      url: 'https://mcp.example.com/mcp',
      state: 'disabled',
      enabled: false,
    });
    expect(configOf(s).mcpServers.remote).toEqual({ type: 'sse', url: 'https://mcp.example.com/mcp', enabled: false });
  });

  it('a name that exists is a 409 unless replacing is asked for', async () => {
    const s = (running = await startTestServer({ config: { mcpServers: { everything } } }));
    const clash = await request(s.port, '/api/mcp', { body: { name: 'everything', command: 'other' } });
    expect(clash.status).toBe(409);
    expect(clash.json().error).toMatchObject({ code: 'exists', message: expect.stringContaining('"replace": true') });
    expect(configOf(s).mcpServers.everything.command).toBe(EVERYTHING);
    const replaced = await request(s.port, '/api/mcp', {
      body: { name: 'everything', command: EVERYTHING, args: ['stdio'], enabled: false, replace: true },
    });
    expect(replaced.status).toBe(201);
    expect(configOf(s).mcpServers).toEqual({ everything: { command: EVERYTHING, args: ['stdio'], enabled: false } });
  });

  it('refuses what cannot be a server with a 400 naming the field, and saves nothing', async () => {
    const s = (running = await startTestServer({ config: { maxSteps: 9 } }));
    const bad: Array<[unknown, RegExp]> = [
      [{ name: 'x', command: 'a', url: 'http://h/mcp' }, /body/],
      [{ name: 'x' }, /body/],
      [{ name: 'bad name', command: 'a' }, /name/],
      [{ name: '-x', command: 'a' }, /name/],
      [{ name: 'a'.repeat(33), command: 'a' }, /name/],
      [{ name: 'x', command: '' }, /command/],
      [{ name: 'x', command: 'a\nb' }, /command/],
      [{ name: 'x', command: 'a', args: 'stdio' }, /args/],
      [{ name: 'x', command: 'a', args: Array(300).fill('x') }, /args/],
      [{ name: 'x', command: 'a', env: { 'BAD-NAME': 'v' } }, /env/],
      [{ name: 'x', command: 'a', env: { K: 1 } }, /env/],
      [{ name: 'x', url: 'ftp://h/mcp' }, /url/],
      [{ name: 'x', url: 'not a url' }, /url/],
      [{ name: 'x', url: 'http://h/mcp', headers: { 'X-A': 'v\r\nInjected: 1' } }, /headers/],
      [{ name: 'x', url: 'http://h/mcp', headers: { 'Bad Header': 'v' } }, /headers/],
      [{ name: 'x', url: 'http://h/mcp', transport: 'stdio' }, /transport/],
      [{ name: 'x', command: 'a', timeout_ms: 0 }, /timeout_ms/],
      [{ name: 'x', command: 'a', max_total_ms: 3_600_001 }, /max_total_ms/],
      [{ name: 'x', command: 'a', headers: { A: 'b' } }, /headers|body/],
    ];
    for (const [body, field] of bad) {
      const r = await request(s.port, '/api/mcp', { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json().error.code).toBe('bad_request');
      expect(r.json().error.message, JSON.stringify(body)).toMatch(field);
    }
    expect((await request(s.port, '/api/mcp', { body: '{"name":' })).status).toBe(400);
    const huge = await request(s.port, '/api/mcp', {
      body: { name: 'x', command: 'a', args: ['y'.repeat(2 * 1024 * 1024)] },
    });
    expect(huge.status).toBe(413);
    expect(configOf(s)).toEqual({ maxSteps: 9 });
    expect((await request(s.port, '/api/mcp')).json().servers).toEqual([]);
  });

  it('a config.json broken by hand meanwhile is left alone, and the answer says so', async () => {
    const s = (running = await startTestServer({ config: { maxSteps: 9 } }));
    writeFileSync(join(s.home, 'config.json'), '{ "maxSteps": 9, ');
    const r = await request(s.port, '/api/mcp', { body: { name: 'x', command: 'true' } });
    expect(r.status).toBe(500);
    expect(r.json().error).toEqual({
      code: 'config_not_written',
      message: expect.stringContaining('is not a JSON object, so it was not changed'),
    });
    expect(readFileSync(join(s.home, 'config.json'), 'utf8')).toBe('{ "maxSteps": 9, ');
  });

  it('DELETE removes a server from config.json, and 404s naming the ones there are', async () => {
    const permissions = { 'everything__*': 'allow', everything__echo: 'deny', 'other__*': 'allow', shell: 'ask' };
    const s = (running = await startTestServer({
      config: { mcpServers: { everything, other: { command: 'true' } }, permissions },
    }));
    const gone = await request(s.port, '/api/mcp/everything', { method: 'DELETE' });
    expect(gone.status).toBe(200);
    // Its rules go with it: a server added later under the same name starts untrusted.
    expect(gone.json()).toEqual({ ok: true, removedRules: ['everything__*', 'everything__echo'] });
    expect(configOf(s).mcpServers).toEqual({ other: { command: 'true' } });
    expect(configOf(s).permissions).toEqual({ 'other__*': 'allow', shell: 'ask' });
    const again = await request(s.port, '/api/mcp/everything', { method: 'DELETE' });
    expect(again.status).toBe(404);
    expect(again.json().error).toEqual({
      code: 'not_found',
      message: 'There is no MCP server "everything". The servers are: other.',
    });
    expect((await request(s.port, '/api/mcp')).json().servers.map((v: { name: string }) => v.name)).toEqual(['other']);
  });

  it('PATCH turns a server off and on, saved, its tools going and coming back; reconnect connects it again; both 404 on an unknown name', async () => {
    const s = (running = await startTestServer({ config: { mcpServers: { everything } } }));
    s.app.mcp.start();
    await s.app.mcp.ready(30_000);
    expect(s.app.tools.names()).toContain('everything__get-sum');
    const off = await request(s.port, '/api/mcp/everything', { method: 'PATCH', body: { enabled: false } });
    expect(off.status).toBe(200);
    expect(off.json()).toMatchObject({ name: 'everything', enabled: false, state: 'disabled', tools: [] });
    expect(s.app.tools.names()).not.toContain('everything__get-sum');
    expect(configOf(s).mcpServers.everything).toEqual({ ...everything, enabled: false });
    const on = await request(s.port, '/api/mcp/everything', { method: 'PATCH', body: { enabled: true } });
    expect(on.json().enabled).toBe(true);
    expect(LIVE).toContain(on.json().state);
    expect(configOf(s).mcpServers.everything).toEqual(everything);
    await s.app.mcp.ready(30_000);
    expect((await request(s.port, '/api/mcp')).json().servers[0]).toMatchObject({
      state: 'connected',
      tools: expect.arrayContaining(['everything__get-sum']),
    });
    expect((await request(s.port, '/api/mcp/everything', { method: 'PATCH', body: { enabled: 'yes' } })).status).toBe(
      400,
    );
    expect(
      (await request(s.port, '/api/mcp/everything', { method: 'PATCH', body: { enabled: true, other: 1 } })).status,
    ).toBe(400);
    expect((await request(s.port, '/api/mcp/nope', { method: 'PATCH', body: { enabled: true } })).status).toBe(404);
    const before = s.app.mcp.get('everything')!.reconnects;
    const again = await request(s.port, '/api/mcp/everything/reconnect', { method: 'POST' });
    expect(again.status).toBe(200);
    expect(again.json().name).toBe('everything');
    await s.app.mcp.ready(30_000);
    const after = (await request(s.port, '/api/mcp')).json().servers[0];
    expect(after).toMatchObject({ state: 'connected', tools: expect.arrayContaining(['everything__get-sum']) });
    expect(after.reconnects).toBeGreaterThan(before);
    expect((await request(s.port, '/api/mcp/nope/reconnect', { method: 'POST' })).status).toBe(404);
  });

  it('env and header values never leave the server: not in answers, not in events, not in status', async () => {
    const s = (running = await startTestServer({ mcpRetry }));
    const stream = await openStream(s.port, '/api/events');
    const answers: HttpResult[] = [];
    const add = await request(s.port, '/api/mcp', {
      body: { name: 'local', command: EVERYTHING, args: ['stdio'], env: { API_KEY: 'secret' } },
    });
    answers.push(add);
    expect(add.json().envKeys).toEqual(['API_KEY']);
    const remote = await request(s.port, '/api/mcp', {
      body: {
        name: 'remote',
        url: 'http://user:secret@127.0.0.1:9/mcp?token=secret#secret',
        headers: { Authorization: 'Bearer secret' },
      },
    });
    answers.push(remote);
    expect(remote.json().headerKeys).toEqual(['Authorization']);
    expect(remote.json().url).toBe('http://127.0.0.1:9/mcp');
    await stream.waitFor('"name":"remote"');
    answers.push(await request(s.port, '/api/mcp'));
    answers.push(await request(s.port, '/api/status'));
    answers.push(await request(s.port, '/api/mcp/local', { method: 'PATCH', body: { enabled: false } }));
    answers.push(await request(s.port, '/api/mcp/remote/reconnect', { method: 'POST' }));
    answers.push(await request(s.port, '/api/mcp/remote', { method: 'DELETE' }));
    answers.push(
      await request(s.port, '/api/mcp', { body: { name: 'local', command: 'x', env: { API_KEY: 'secret' } } }),
    );
    answers.push(await request(s.port, '/openapi.json'));
    await stream.waitFor('"removed":true');
    stream.leave();
    for (const a of answers) expect(a.body).not.toContain('secret');
    expect(stream.text()).toContain('event: mcp.server');
    expect(stream.text()).not.toContain('secret');
    // They are kept where the user put them: config.json, the user's own file.
    expect(configOf(s).mcpServers.local.env).toEqual({ API_KEY: 'secret' });
  });

  it('a view keeps only its own fields: whatever else a manager holds (the env itself) never leaves', () => {
    const view = {
      name: 'x',
      transport: 'stdio',
      command: 'x',
      envKeys: ['K'],
      headerKeys: [],
      enabled: true,
      timeoutMs: 1,
      state: 'failed',
      stderr: [],
      tools: [],
      trusted: false,
      since: '',
      reconnects: 0,
    } as const;
    const leaky = { ...view, env: { K: 'secret' }, headers: { A: 'secret' }, settings: { env: { K: 'secret' } } };
    expect(publicView(leaky as never)).toEqual(view);
    expect(JSON.stringify(publicView(leaky as never))).not.toContain('secret');
  });

  it('the server-wide stream tells of a server added, connected with its tools, turned off and removed', async () => {
    const s = (running = await startTestServer());
    const stream = await openStream(s.port, '/api/events');
    const added = await request(s.port, '/api/mcp', { body: { name: 'everything', ...everything } });
    expect(added.json().state).toBe('connecting');
    // Connected, with its tools, told live.
    await stream.waitFor('"state":"connected"', 30_000);
    expect(stream.text()).toContain('everything__get-sum');
    await request(s.port, '/api/mcp/everything', { method: 'PATCH', body: { enabled: false } });
    await stream.waitFor('"state":"disabled"');
    await request(s.port, '/api/mcp/everything', { method: 'DELETE' });
    const text = await stream.waitFor('"removed":true');
    stream.leave();
    const events = text
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice(6)))
      .filter((e) => e.type === 'mcp.server');
    expect(events.at(-1)).toMatchObject({ type: 'mcp.server', removed: true, server: { name: 'everything' } });
    for (const e of events) expect(e.sessionId).toBeUndefined();
  });
});

describe('config.json shared with other processes', () => {
  it('a server added by `zhixing mcp add` while the server runs survives a change made through the API', async () => {
    const s = (running = await startTestServer({
      config: { mcpServers: { everything, other: { command: 'true', enabled: false } } },
    }));
    const { runCli } = await import('./support/cli.js');
    const added = await runCli(
      ['mcp', 'add', 'fromcli', '--', 'true'],
      { ZHIXING_HOME: s.home, ZHIXING_LANG: 'en' },
      { timeoutMs: 30_000 },
    );
    expect(added.code).toBe(0);
    expect((await request(s.port, '/api/mcp/everything', { method: 'PATCH', body: { enabled: false } })).status).toBe(
      200,
    );
    expect((await request(s.port, '/api/mcp/other', { method: 'DELETE' })).status).toBe(200);
    expect(configOf(s).mcpServers).toEqual({
      everything: { ...everything, enabled: false },
      fromcli: { command: 'true' },
    });
  }, 60_000);
});
