/** A server that dies or forgets its session is reconnected, and the call that hit it retried once: no restart. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  bin,
  eventually,
  everything,
  everythingOverHttp,
  fixture,
  harness,
  http,
  marker,
  processesWith,
  stdio,
} from '../support/mcp.js';

// Real servers start as processes: on a busy machine a test's few connects take more than the default 20 s.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

describe('healing', () => {
  it('reconnects a stdio server killed mid-session; the next call succeeds', async () => {
    const mark = marker('kill');
    const h = harness([everything({ args: ['stdio', mark] })]);
    h.manager.start();
    try {
      await h.until('everything', (v) => v.state === 'connected');
      expect((await h.call('everything__get-sum', { a: 1, b: 2 })).output).toMatch(/3/);
      const [pid] = processesWith(mark);
      expect(pid).toBeGreaterThan(0);
      process.kill(pid!, 'SIGKILL');
      const r = await h.call('everything__get-sum', { a: 20, b: 22 });
      expect(r).toMatchObject({ ok: true });
      expect(r.output).toMatch(/42/);
      const view = await h.until('everything', (v) => v.state === 'connected' && v.reconnects >= 1);
      expect(view.reconnects).toBe(1);
      // The drop showed: connecting (with why), then connected again.
      const states = h.changes.filter((v) => v.name === 'everything').map((v) => v.state);
      expect(states.lastIndexOf('connecting')).toBeGreaterThan(states.indexOf('connected'));
      expect(h.changes.some((v) => v.state === 'connecting' && /closed the connection/.test(v.error ?? ''))).toBe(true);
      expect(processesWith(mark)).toHaveLength(1);
      expect(processesWith(mark)[0]).not.toBe(pid);
      // Killed again and again: each time it comes back.
      for (let i = 0; i < 2; i++) {
        process.kill(processesWith(mark)[0]!, 'SIGKILL');
        expect((await h.call('everything__echo', { message: `again ${i}` })).output).toContain(`again ${i}`);
      }
      expect(h.manager.get('everything')!.reconnects).toBe(3);
    } finally {
      await h.manager.close();
    }
    await eventually(() => processesWith(mark).length === 0, 3_000, 'the server to be stopped');
  });

  it('reconnects when an HTTP server forgot the session (restarted), retrying the call once', async () => {
    const first = await everythingOverHttp('streamableHttp');
    const h = harness([http('remote', `http://127.0.0.1:${first.port}/mcp`)]);
    h.manager.start();
    let second: Awaited<ReturnType<typeof everythingOverHttp>> | undefined;
    try {
      await h.until('remote', (v) => v.state === 'connected');
      expect((await h.call('remote__get-sum', { a: 1, b: 1 })).output).toMatch(/2/);
      await first.stop();
      second = await everythingOverHttp('streamableHttp', first.port);
      // The old session id means nothing to the new server: 404, then a new session, then the call.
      const r = await h.call('remote__get-sum', { a: 40, b: 2 });
      expect(r.output).toMatch(/42/);
      expect(r.ok).toBe(true);
      expect(h.manager.get('remote')).toMatchObject({ state: 'connected', reconnects: 1 });
    } finally {
      await h.manager.close();
      await first.stop();
      await second?.stop();
    }
  });

  it('stops trying after its tries and stays failed until reconnect()', async () => {
    const server = await everythingOverHttp('streamableHttp');
    const h = harness([http('remote', `http://127.0.0.1:${server.port}/mcp`)], {
      retry: { baseMs: 30, maxMs: 60, attempts: 2 },
    });
    h.manager.start();
    let again: Awaited<ReturnType<typeof everythingOverHttp>> | undefined;
    try {
      await h.until('remote', (v) => v.state === 'connected');
      await server.stop();
      const r = await h.call('remote__get-sum', { a: 1, b: 1 });
      expect(r.ok).toBe(false);
      expect(r.output).toMatch(/The MCP server "remote" is not available .*ECONNREFUSED|fetch failed/);
      const failed = await h.until('remote', (v) => v.state === 'failed');
      expect(failed.error).toMatch(/gave up after 2 tries/);
      expect(h.tools.names()).toEqual([]);
      again = await everythingOverHttp('streamableHttp', server.port);
      const back = await h.manager.reconnect('remote');
      expect(back).toMatchObject({ state: 'connected' });
      expect((await h.call('remote__get-sum', { a: 2, b: 2 })).output).toMatch(/4/);
    } finally {
      await h.manager.close();
      await again?.stop();
    }
  });

  it('close() stops what a server started through a wrapper (as npx does), not only the wrapper', async () => {
    const mark = marker('tree');
    // `sh -c '…; true'` forks: the server is the shell's child, as npx's server is npm's.
    const h = harness([stdio('wrapped', '/bin/sh', ['-c', `"${bin('mcp-server-everything')}" stdio ${mark}; true`])]);
    h.manager.start();
    await h.until('wrapped', (v) => v.state === 'connected');
    expect((await h.call('wrapped__get-sum', { a: 1, b: 1 })).output).toMatch(/2/);
    expect(processesWith(mark).length).toBeGreaterThanOrEqual(2);
    const started = performance.now();
    await h.manager.close();
    expect(performance.now() - started).toBeLessThan(3_500);
    await eventually(() => processesWith(mark).length === 0, 3_000, 'the wrapped server to be stopped');
  });

  it("stops a hanging server's process on close()", async () => {
    const mark = marker('hang');
    const h = harness([stdio('hang', process.execPath, [fixture('hang.mjs'), mark])]);
    h.manager.start();
    await eventually(() => processesWith(mark).length === 1, 5_000, 'the server to start');
    await h.manager.close();
    await eventually(() => processesWith(mark).length === 0, 3_000, 'the hanging server to be stopped');
  });
});

afterAll(() => undefined);

describe('a call while the server is connecting', () => {
  it('waits for a server coming back, and succeeds', async () => {
    const mark = marker('slowback');
    const h = harness([
      stdio('slow', process.execPath, [fixture('slow-init.mjs'), mark], {
        env: { SLOW_INIT_MS: '1500' },
        timeoutMs: 10_000,
      }),
    ]);
    h.manager.start();
    try {
      await h.until('slow', (v) => v.state === 'connected');
      const [pid] = processesWith(mark);
      process.kill(pid!, 'SIGKILL');
      await h.until('slow', (v) => v.state === 'connecting');
      const started = performance.now();
      const r = await h.call('slow__get-sum', { a: 3, b: 4 });
      expect(r.output).toMatch(/7/);
      // It waited for the new process's 1.5 s start rather than failing at once.
      expect(performance.now() - started).toBeGreaterThan(1_000);
      expect(h.manager.get('slow')).toMatchObject({ state: 'connected', reconnects: 1 });
    } finally {
      await h.manager.close();
    }
  });

  it("waits no longer than the server's timeout, and says why", async () => {
    const server = await everythingOverHttp('streamableHttp');
    // 2 s: the first handshake must also fit in it, on a busy machine.
    const h = harness([http('remote', `http://127.0.0.1:${server.port}/mcp`, { timeoutMs: 2_000 })], {
      retry: { baseMs: 400, maxMs: 400, attempts: 20 },
    });
    h.manager.start();
    try {
      await h.until('remote', (v) => v.state === 'connected');
      await server.stop();
      const started = performance.now();
      const r = await h.call('remote__get-sum', { a: 1, b: 1 });
      const took = performance.now() - started;
      expect(r.ok).toBe(false);
      expect(r.output).toMatch(
        /The MCP server "remote" is not available \(the server was still connecting after 2 s \(.*trying again\)\); remote__get-sum was not called\./,
      );
      expect(took).toBeGreaterThanOrEqual(1_900);
      expect(took).toBeLessThan(6_000);
      expect(h.manager.get('remote')!.state).toBe('connecting');
    } finally {
      await h.manager.close();
    }
  });
});

describe('a server that crashes right after each connect', () => {
  it('is tried with backoff a bounded number of times, then left failed with its last words', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'zhixing-crashy-'));
    const log = path.join(dir, 'starts.log');
    const h = harness(
      [stdio('crashy', process.execPath, [fixture('crashy.mjs')], { env: { CRASH_LOG: log, CRASH_AFTER_MS: '100' } })],
      { retry: { baseMs: 100, maxMs: 200, attempts: 3 } },
    );
    h.manager.start();
    try {
      const failed = await h.until('crashy', (v) => v.state === 'failed', 15_000);
      expect(failed.error).toMatch(/3 times in a row soon after connecting \(gave up\)/);
      expect(failed.stderr.at(-1)).toMatch(/^crashy: segfault \(simulated\)( \(×\d+\))?$/);
      expect(failed.tools).toEqual([]);
      const starts = readFileSync(log, 'utf8').trim().split('\n').map(Number);
      expect(starts.length).toBe(3);
      // Each restart came after a wait, not in a tight loop.
      for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(100);
    } finally {
      await h.manager.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
