/** A server whose progress never ends must not hold a call past the call's total limit. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fixture, harness, stdio, type Harness } from '../support/mcp.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

/** Small limits, so the test is quick: 400 ms without progress, 1.5 s in all. */
const TIMEOUT_MS = 400;
const MAX_TOTAL_MS = 1_500;

describe('a server that reports progress forever', () => {
  let h: Harness;
  beforeAll(async () => {
    h = harness([stdio('endless', process.execPath, [fixture('endless.mjs')], { timeoutMs: TIMEOUT_MS, maxTotalMs: MAX_TOTAL_MS })]);
    h.manager.start();
    await h.until('endless', (v) => v.state === 'connected');
  });
  afterAll(async () => {
    await h.manager.close();
  });

  it('ends the call at its total limit with a clear sentence, tells the server to cancel, and the server goes on', async () => {
    h.progress.length = 0;
    const started = performance.now();
    const r = await h.call('endless__endless');
    const took = performance.now() - started;
    expect(r.ok).toBe(false);
    expect(r.output).toBe(
      'Error: The call to endless__endless on the MCP server "endless" went past its total limit of 1.5 s (progress notifications do not extend it) and was cancelled. Its max_total_ms in config.json sets the limit.',
    );
    // Progress kept the per-answer clock from firing: only the total limit ended it.
    expect(took).toBeGreaterThanOrEqual(MAX_TOTAL_MS - 50);
    expect(took).toBeLessThan(MAX_TOTAL_MS + 5_000);
    expect(h.progress.length).toBeGreaterThan(1);
    // Each line is the count and the start of the server's 100 KB message, not all of it.
    for (const line of h.progress) expect(line.length).toBeLessThanOrEqual(210);
    const view = await h.until('endless', (v) => v.stderr.some((l) => l.startsWith('endless: cancelled')));
    expect(view.state).toBe('connected');
    expect((await h.call('endless__echo')).output).toBe('still here');
  });

  it('says it in Chinese to a Chinese user', async () => {
    const r = await h.tools.run({ id: 'c2', name: 'endless__endless', arguments: '{}' }, {
      sessionId: 's1', turnId: 't1', callId: 'c2', workspace: process.cwd(), lang: 'zh',
      signal: new AbortController().signal, progress: () => {}, ask: async () => 'allow', refusal: () => undefined,
    });
    expect(r.output).toBe('Error: MCP 服务器 endless 的 endless__endless 调用超过了总时限 1.5 秒（进度通知不会延长总时限），已取消。可以在 config.json 里为它设置 max_total_ms。');
  });
});
