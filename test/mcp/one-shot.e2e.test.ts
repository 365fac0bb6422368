/**
 * A one-shot (./bin/zhixing) with MCP servers configured: a server slow to start never holds up a
 * turn that does not name it; one the message names is waited for, at most 5 s, and said so.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiServer, textReply, type OpenAiServer } from '../support/openai-server.js';
import { runCli } from '../support/cli.js';
import { tempHome } from '../support/temp-home.js';
import { bin, eventually, fixture, marker, processesWith } from '../support/mcp.js';

let server: OpenAiServer;
let home: ReturnType<typeof tempHome>;
let env: Record<string, string>;
const mark = marker('slow');

beforeAll(async () => {
  server = await startOpenAiServer();
  home = tempHome();
  writeFileSync(
    join(home.home, 'config.json'),
    JSON.stringify({
      mcpServers: {
        // 20 s to answer initialize: any wait for it would show.
        slow: { command: process.execPath, args: [fixture('slow-init.mjs'), mark], env: { SLOW_INIT_MS: '20000' } },
        everything: { command: bin('mcp-server-everything'), args: ['stdio'] },
      },
    }),
  );
  env = {
    ZHIXING_HOME: home.home,
    ZHIXING_BASE_URL: server.url,
    ZHIXING_API_KEY: 'sk-test-abcdefghijklmnop1234',
    ZHIXING_MODEL: 'test-model',
    ZHIXING_LANG: 'en',
  };
});
afterAll(async () => {
  await server.close();
  home.cleanup();
});

const firstToolsOf = (n: number) =>
  (server.requests.filter((r) => r.body?.stream === true)[n]!.body.tools as Array<{ function: { name: string } }>).map(
    (t) => t.function.name,
  );

describe('a one-shot with MCP servers configured', () => {
  it('does not wait for a slow server the message does not name, and waits (bounded) for one it does', async () => {
    server.enqueue(textReply('Four.'), textReply('Slow is not ready.'));
    let started = performance.now();
    const quick = await runCli(['what is 2+2?'], env, { timeoutMs: 30_000 });
    const quickMs = performance.now() - started;
    expect(quick.code).toBe(0);
    expect(quick.stdout).toContain('Four.');
    // Had it waited, it would say so: the slow server takes 20 s.
    expect(quick.stderr).not.toMatch(/not ready/);

    started = performance.now();
    const named = await runCli(['ask slow for the weather'], env, { timeoutMs: 30_000 });
    const namedMs = performance.now() - started;
    expect(named.code).toBe(0);
    expect(named.stdout).toContain('Slow is not ready.');
    expect(named.stderr).toMatch(/MCP server slow was not ready after 5 s; this turn goes on without its tools\./);
    expect(namedMs).toBeGreaterThanOrEqual(5_000);
    // The bounded wait is the whole difference: the run that did not name it did not pay it.
    expect(quickMs).toBeLessThan(namedMs - 3_000);
    // Neither run left the slow server behind.
    await eventually(() => processesWith(mark).length === 0, 5_000, 'the slow server to be stopped');
    // Two CLI runs, one of them waiting 5 s: more than the default test time on a busy machine.
  }, 60_000);

  it('gives a turn that names a quick server its tools from the first request', async () => {
    server.enqueue(textReply('Ready.'));
    const before = server.requests.filter((r) => r.body?.stream === true).length;
    const r = await runCli(['use everything to add 2 and 3'], env, { timeoutMs: 30_000 });
    expect(r.code).toBe(0);
    expect(firstToolsOf(before)).toEqual(expect.arrayContaining(['everything__get-sum', 'calculator']));
    expect(r.stderr).not.toMatch(/everything was not ready/);
  }, 30_000);
});
