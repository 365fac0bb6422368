/**
 * A hostile MCP server sends a schema, the model sends an argument, and the server that serves
 * every session keeps answering while the argument is checked.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openStream, request, startTestServer, type TestServer } from '../support/http.js';
import { fixture } from '../support/mcp.js';
import { createScriptedLlm } from '../support/scripted-llm.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

/** Checked by a backtracking engine, 28 characters then `!` against `^(a+)+$` hold a thread for one to ten seconds. */
const HOSTILE_ARGUMENT = `${'a'.repeat(28)}!`;
/** Far below that; above what a busy two-core machine's scheduler adds. */
const MAX_LOOP_DELAY_MS = 500;

let t: TestServer | undefined;
afterEach(async () => {
  await t?.app.mcp.close();
  await t?.close();
  t = undefined;
});

describe("a hostile MCP server's schema", () => {
  it('does not freeze the server: the argument is refused, and /api/health answers meanwhile', async () => {
    const llm = createScriptedLlm([
      { calls: [{ id: 'call_1', name: 'redos__lookup', args: { q: HOSTILE_ARGUMENT } }] },
      { text: 'The lookup was refused.' },
    ]);
    t = await startTestServer({
      llm,
      config: { mcpServers: { redos: { command: process.execPath, args: [fixture('redos.mjs')] } } },
    });
    t.app.mcp.start();
    expect(await t.app.mcp.ready(30_000)).toEqual([]);
    const id = (await request(t.port, '/api/sessions', { body: {} })).json().id as string;

    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const stream = await openStream(t.port, `/api/sessions/${id}/chat`, { body: { message: 'look it up' } });
    const health = await request(t.port, '/api/health');
    const text = await stream.ended();
    delay.disable();

    expect(health.status).toBe(200);
    expect(delay.max / 1e6).toBeLessThan(MAX_LOOP_DELAY_MS);
    const end = text.split('\n\n').find((f) => f.includes('event: tool.end'))!;
    const data = JSON.parse(/data: (.*)/.exec(end)![1]!);
    expect(data).toMatchObject({ tool: 'redos__lookup', ok: false });
    expect(data.output).toMatch(/invalid arguments for redos__lookup: q: must match pattern "\^\(a\+\)\+\$"/);
    expect(data.output).not.toContain('looked up');
  });
});
