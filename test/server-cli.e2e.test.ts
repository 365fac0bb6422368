import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createStore } from '../src/store/store.js';
import { BIN, REPO_ROOT } from './support/cli.js';
import { openStream, request, until } from './support/http.js';
import { tempHome } from './support/temp-home.js';

interface Served {
  child: ChildProcess;
  url: string;
  port: number;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
}

/** `./bin/zhixing serve --port 0` as a user runs it; resolves once it has printed its address. */
function serve(env: Record<string, string>, args: string[] = []): Promise<Served> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
    cwd: env.ZHIXING_HOME,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env },
  });
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (d) => (err += d));
    child.stdout!.setEncoding('utf8').on('data', (d) => {
      out += d;
      const m = /serving on (http:\/\/127\.0\.0\.1:(\d+))/.exec(out);
      if (m) resolve({ child, url: m[1]!, port: Number(m[2]), stdout: () => out, stderr: () => err, exited });
    });
    void exited.then((code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
}

let cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const f of cleanup.reverse()) await f();
  cleanup = [];
});

describe('zhixing serve', () => {
  it('npm start runs it', () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
    expect(pkg.scripts.start).toBe('node bin/zhixing serve');
  });

  it('prints the address with the real port, serves, and stops on SIGINT with exit 0', async () => {
    const home = tempHome();
    cleanup.push(home.cleanup);
    const s = await serve(home.env);
    cleanup.push(() => s.child.kill('SIGKILL'));
    expect(s.stdout()).toBe(
      `Zhixing is serving on ${s.url} (offline mode)\nAPI docs: ${s.url}/docs · stop with Ctrl-C\n`,
    );
    expect(s.port).toBeGreaterThan(0);
    expect((await request(s.port, '/api/health')).json()).toEqual({ ok: true, version: expect.any(String) });
    s.child.kill('SIGINT');
    expect(await s.exited).toBe(0);
    expect(s.stderr()).toBe('zhixing: SIGINT: stopping…\nzhixing: stopped.\n');
  });

  it('on SIGTERM mid-turn, aborts the running turn, records its end, ends the stream and exits 0', async () => {
    // A weather service that takes the request and never answers: the tool waits until it is stopped.
    const stalled: Server = createServer(() => {});
    await new Promise<void>((r) => stalled.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(stalled.address() as { port: number }).port}`;
    cleanup.push(() => (stalled.closeAllConnections(), new Promise((r) => stalled.close(r))));
    const home = tempHome({ ZHIXING_GEOCODING_URL: `${base}/v1/search`, ZHIXING_WEATHER_URL: `${base}/v1/forecast` });
    cleanup.push(home.cleanup);
    const s = await serve(home.env);
    cleanup.push(() => s.child.kill('SIGKILL'));

    const id = (await request(s.port, '/api/sessions', { body: {} })).json().id;
    const chat = await openStream(s.port, `/api/sessions/${id}/chat`, { body: { message: '北京天气怎么样' } });
    await chat.waitFor('event: tool.start');
    s.child.kill('SIGTERM');
    const text = await chat.ended();
    expect(await s.exited).toBe(0);
    expect(s.stderr()).toBe('zhixing: SIGTERM: stopping, ending 1 running turn…\nzhixing: stopped.\n');

    const end = /event: turn\.end\ndata: (.*)/.exec(text);
    expect(end, text).not.toBeNull();
    const turnEnd = JSON.parse(end![1]!);
    expect(turnEnd.stopReason).toBe('interrupted');
    const store = createStore(home.config.dbPath);
    try {
      expect(store.turns.get(turnEnd.turnId)).toMatchObject({ stopReason: 'interrupted', endedAt: expect.any(Number) });
      const parts = store.messages.list(id).flatMap((m) => m.parts);
      expect(parts).toContainEqual(expect.objectContaining({ type: 'tool', tool: 'weather', state: 'error' }));
      expect(parts.filter((p) => p.type === 'tool' && (p.state === 'pending' || p.state === 'running'))).toEqual([]);
      expect(store.integrityCheck()).toBe('ok');
    } finally {
      store.close();
    }
  });

  it('stops by itself when the process that started it goes away (a supervisor killed npm and its shell)', async () => {
    const home = tempHome();
    cleanup.push(home.cleanup);
    // A parent that starts serve and is then killed, as npm's shell is when a supervisor stops npm.
    const parent = spawn(
      process.execPath,
      [
        '-e',
        `
      const { spawn } = require('node:child_process');
      const child = spawn(process.execPath, [${JSON.stringify(BIN)}, 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
      child.stdout.on('data', (d) => { if (String(d).includes('serving on')) console.log('CHILD ' + child.pid); });
      setInterval(() => {}, 1000);
    `,
      ],
      { cwd: home.home, env: { PATH: process.env.PATH ?? '', ...home.env } },
    );
    let out = '';
    parent.stdout!.setEncoding('utf8').on('data', (d) => (out += d));
    await until(() => /CHILD (\d+)/.test(out));
    const pid = Number(/CHILD (\d+)/.exec(out)![1]);
    parent.kill('SIGKILL');
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    cleanup.push(() => alive() && process.kill(pid, 'SIGKILL'));
    await until(() => !alive(), 8_000);
  });

  it('says plainly when the port is taken', async () => {
    const home = tempHome();
    cleanup.push(home.cleanup);
    const s = await serve(home.env);
    cleanup.push(() => s.child.kill('SIGKILL'));
    const second = spawn(process.execPath, [BIN, 'serve', '--port', String(s.port)], {
      cwd: home.home,
      env: { PATH: process.env.PATH ?? '', ...home.env },
    });
    let err = '';
    second.stderr.setEncoding('utf8').on('data', (d) => (err += d));
    const code = await new Promise((r) => second.on('exit', r));
    expect(code).toBe(1);
    expect(err).toBe(
      `zhixing: Port ${s.port} on 127.0.0.1 is already in use (another Zhixing?). Stop it, or pick another port: zhixing serve --port ${s.port + 1}\n`,
    );
  });
});

describe('zhixing serve with MCP servers', () => {
  it('connects them in the background: /api/mcp shows one connected with its tools, and one that dies is said once on stderr', async () => {
    const home = tempHome(
      {},
      {
        mcpServers: {
          everything: { command: join(REPO_ROOT, 'node_modules/.bin/mcp-server-everything'), args: ['stdio'] },
          broken: { command: 'sh', args: ['-c', 'echo "\\033[31mboom" >&2; exit 3'] },
        },
      },
    );
    const s = await serve({ ZHIXING_HOME: home.home });
    cleanup.push(home.cleanup, async () => {
      s.child.kill('SIGINT');
      await s.exited;
    });
    await until(() => s.stderr().includes('MCP server "broken" failed'), 30_000);
    let servers: Array<{ name: string; state: string; tools: string[] }> = [];
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
      servers = (await request(s.port, '/api/mcp')).json().servers;
      if (servers[0]?.state === 'connected') break;
    }
    expect(servers[0]).toMatchObject({
      name: 'everything',
      state: 'connected',
      tools: expect.arrayContaining(['everything__get-sum']),
    });
    expect(servers[1]).toMatchObject({ name: 'broken', state: 'failed' });
    expect(s.stderr().match(/MCP server "broken" failed/g)).toHaveLength(1);
    expect(s.stderr()).not.toContain('\x1b');
  }, 60_000);
});
