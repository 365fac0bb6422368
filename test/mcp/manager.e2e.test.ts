/** The manager's life cycle against real servers: add, disable, enable, reconnect, remove, close; HTTP and SSE. */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { bin, everything, everythingOverHttp, harness, http, stdio } from '../support/mcp.js';

// Real servers start as processes: on a busy machine a test's few connects take more than the default 20 s.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

describe('MCP manager', () => {
  it("adds, disables, enables, reconnects and removes a server, saving config.json's shape", async () => {
    const h = harness([]);
    h.manager.start();
    try {
      const added = await h.manager.add(everything({ env: { SECRET_TOKEN: 'sk-do-not-show' }, timeoutMs: 30_000 }));
      expect(added).toMatchObject({
        name: 'everything',
        transport: 'stdio',
        state: 'connecting',
        envKeys: ['SECRET_TOKEN'],
        enabled: true,
      });
      expect(added.command).toBe(`${bin('mcp-server-everything')} stdio`);
      expect(h.saved.at(-1)).toEqual({
        everything: {
          command: bin('mcp-server-everything'),
          args: ['stdio'],
          env: { SECRET_TOKEN: 'sk-do-not-show' },
          timeout_ms: 30_000,
        },
      });
      const connected = await h.until('everything', (v) => v.state === 'connected');
      expect(h.tools.names()).toContain('everything__get-sum');
      // A local server's descriptions are as trusted as its code, which runs with the user's rights.
      expect(h.tools.get('everything__get-sum')?.remoteServer).toBeUndefined();
      // A view never holds env or header values.
      expect(JSON.stringify(h.manager.list())).not.toContain('sk-do-not-show');
      expect(JSON.stringify(h.changes)).not.toContain('sk-do-not-show');
      expect(connected.since).toMatch(/^\d{4}-\d\d-\d\dT/);

      const off = await h.manager.setEnabled('everything', false);
      expect(off).toMatchObject({ state: 'disabled', enabled: false, tools: [] });
      expect(h.tools.names().filter((n) => n.startsWith('everything__'))).toEqual([]);
      expect(h.saved.at(-1)).toMatchObject({ everything: { enabled: false } });
      const call = await h.call('everything__get-sum', { a: 1, b: 2 });
      expect(call.ok).toBe(false);

      await h.manager.setEnabled('everything', true);
      await h.until('everything', (v) => v.state === 'connected');
      expect((await h.call('everything__get-sum', { a: 1, b: 2 })).output).toMatch(/3/);

      const again = await h.manager.reconnect('everything');
      expect(again).toMatchObject({ state: 'connected' });
      expect(again!.reconnects).toBeGreaterThanOrEqual(1);
      expect((await h.call('everything__get-sum', { a: 2, b: 2 })).output).toMatch(/4/);

      expect(await h.manager.remove('everything')).toBe(true);
      expect(h.manager.get('everything')).toBeUndefined();
      expect(h.tools.names()).toEqual([]);
      expect(h.saved.at(-1)).toEqual({});
      expect(await h.manager.remove('everything')).toBe(false);
      expect(await h.manager.setEnabled('nothing', true)).toBeUndefined();
      expect(await h.manager.reconnect('nothing')).toBeUndefined();
    } finally {
      await h.manager.close();
    }
  });

  it('refuses a bad name or a server without command or URL', async () => {
    const h = harness([]);
    await expect(h.manager.add(stdio('bad name', 'x'))).rejects.toThrow(/not a server name/);
    await expect(h.manager.add({ ...stdio('x', 'x'), command: undefined })).rejects.toThrow(/needs a command/);
    await expect(h.manager.add(http('y', ''))).rejects.toThrow(/needs a URL/);
    expect(h.saved).toEqual([]);
    await h.manager.close();
  });

  it('changes nothing when config.json cannot be written: the list stays as the file is', async () => {
    let broken = false;
    const h = harness([stdio('kept', 'true')], {
      saveServers: () => {
        if (broken) throw new Error('config.json is not a JSON object');
      },
    });
    broken = true;
    await expect(h.manager.add(stdio('new', 'true'))).rejects.toThrow(/not a JSON object/);
    await expect(h.manager.remove('kept')).rejects.toThrow(/not a JSON object/);
    await expect(h.manager.setEnabled('kept', false)).rejects.toThrow(/not a JSON object/);
    expect(h.manager.list().map((v) => [v.name, v.enabled])).toEqual([['kept', true]]);
    await h.manager.close();
  });

  it('does not connect a disabled server, and starts nothing before start()', async () => {
    const h = harness([everything({ enabled: false }), everything({ name: 'later' })]);
    expect(h.manager.list().map((v) => [v.name, v.state])).toEqual([
      ['everything', 'disabled'],
      ['later', 'connecting'],
    ]);
    expect(await h.manager.ready(200)).toEqual(['later']);
    h.manager.start();
    expect(await h.manager.ready(15_000)).toEqual([]);
    expect(h.manager.get('later')!.state).toBe('connected');
    expect(h.manager.get('everything')!.state).toBe('disabled');
    await h.manager.close();
  });
});

describe('MCP over HTTP', () => {
  const stops: Array<() => Promise<void>> = [];
  afterAll(async () => {
    await Promise.all(stops.map((s) => s()));
  });

  it('speaks Streamable HTTP to server-everything, with headers sent and never shown', async () => {
    const server = await everythingOverHttp('streamableHttp');
    stops.push(server.stop);
    const h = harness([
      http('remote', `http://127.0.0.1:${server.port}/mcp?token=abc`, {
        headers: { Authorization: 'Bearer sk-hidden' },
      }),
    ]);
    h.manager.start();
    try {
      const view = await h.until('remote', (v) => v.state === 'connected');
      expect(view).toMatchObject({
        transport: 'http',
        via: 'http',
        headerKeys: ['Authorization'],
        url: `http://127.0.0.1:${server.port}/mcp`,
      });
      expect(JSON.stringify(view)).not.toContain('sk-hidden');
      expect(JSON.stringify(view)).not.toContain('token=abc');
      expect((await h.call('remote__get-sum', { a: 20, b: 22 })).output).toMatch(/42/);
      // A server across the network: its descriptions are outside text for a turn, and it receives every call.
      expect(h.tools.get('remote__get-sum')?.remoteServer).toBe('remote');
      const image = await h.call('remote__get-tiny-image');
      expect(image.attachments).toHaveLength(1);
      expect(image.output).not.toContain('iVBOR');
      const echo = await h.call('remote__echo', { message: 'over http' });
      expect(echo.output).toContain('over http');
    } finally {
      await h.manager.close();
    }
  });

  it('falls back to the older SSE transport when the server does not speak Streamable HTTP', async () => {
    const server = await everythingOverHttp('sse');
    stops.push(server.stop);
    const h = harness([http('old', `http://127.0.0.1:${server.port}/sse`)]);
    h.manager.start();
    try {
      const view = await h.until('old', (v) => v.state === 'connected');
      expect(view).toMatchObject({ transport: 'http', via: 'sse' });
      expect((await h.call('old__get-sum', { a: 1, b: 41 })).output).toMatch(/42/);
      const sse = harness([{ ...http('direct', `http://127.0.0.1:${server.port}/sse`), transport: 'sse' }]);
      sse.manager.start();
      expect((await sse.until('direct', (v) => v.state === 'connected')).via).toBe('sse');
      expect((await sse.call('direct__echo', { message: 'sse' })).output).toContain('sse');
      await sse.manager.close();
    } finally {
      await h.manager.close();
    }
  });

  it("never shows a URL's credentials or query in a reason", async () => {
    const h = harness([
      http('creds', 'http://user:pw-secret@127.0.0.1:9/mcp?token=tok-secret', { headers: { 'X-Key': 'hdr-secret' } }),
    ]);
    h.manager.start();
    try {
      const view = await h.until('creds', (v) => v.state === 'failed');
      expect(view.error).toBeTruthy();
      expect(JSON.stringify(view)).not.toMatch(/pw-secret|tok-secret|hdr-secret/);
    } finally {
      await h.manager.close();
    }
  });

  it('fails with a clear reason when nothing listens at the URL', async () => {
    const h = harness([http('nobody', 'http://127.0.0.1:9/mcp')]);
    h.manager.start();
    try {
      const view = await h.until('nobody', (v) => v.state === 'failed');
      expect(view.error).toMatch(/ECONNREFUSED|fetch failed/);
      expect(view.error).toMatch(/gave up after 3 tries/);
    } finally {
      await h.manager.close();
    }
  });
});
