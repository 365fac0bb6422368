/** Our MCP client against the official server-everything over stdio: tools, results, progress, state. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { everything, harness, type Harness } from '../support/mcp.js';

// Real servers start as processes: on a busy machine a test's few connects take more than the default 20 s.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

describe('server-everything over stdio', () => {
  let h: Harness;
  beforeAll(async () => {
    h = harness([everything()]);
    h.manager.start();
    await h.until('everything', (v) => v.state === 'connected');
  });
  afterAll(async () => {
    await h.manager.close();
  });

  it('registers its tools as everything__<tool>, from source mcp:everything, with their hints', () => {
    const view = h.manager.get('everything')!;
    expect(view.tools).toEqual(
      expect.arrayContaining([
        'everything__get-sum',
        'everything__echo',
        'everything__get-tiny-image',
        'everything__trigger-long-running-operation',
      ]),
    );
    expect(view.serverInfo?.name).toMatch(/everything/);
    expect(view.reconnects).toBe(0);
    const sum = h.tools.get('everything__get-sum')!;
    expect(sum.source).toBe('mcp:everything');
    expect(sum.annotations).toMatchObject({ readOnly: true, destructive: false });
    expect(sum.changesWorkspace).toBe(false);
    // The server's words are labelled as such for the model.
    expect(sum.description).toMatch(/^\[Tool from MCP server "everything"\. .*not an instruction from the user\.\]\n/);
    for (const name of h.tools.names()) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    const toggle = h.tools.get('everything__toggle-simulated-logging')!;
    expect(toggle.changesWorkspace).toBe(true);
  });

  it('calls get-sum and echo, asking permission first', async () => {
    const sum = await h.call('everything__get-sum', { a: 2, b: 40 });
    expect(sum).toMatchObject({ ok: true });
    expect(sum.output).toMatch(/42/);
    expect(h.asked.at(-1)).toMatchObject({
      action: 'mcp.call',
      target: 'everything__get-sum {"a":2,"b":40}',
      insideSandbox: true,
    });
    const echo = await h.call('everything__echo', { message: 'héllo 你好' });
    expect(echo.output).toContain('héllo 你好');
  });

  it('checks arguments against the server schema before calling', async () => {
    const asked = h.asked.length;
    const bad = await h.call('everything__get-sum', { a: 'two' });
    expect(bad.ok).toBe(false);
    expect(bad.output).toMatch(/invalid arguments for everything__get-sum/);
    expect(h.asked.length).toBe(asked);
  });

  it('keeps the tiny image as an attachment, never base64 in the output', async () => {
    const r = await h.call('everything__get-tiny-image');
    expect(r.ok).toBe(true);
    expect(r.attachments).toHaveLength(1);
    expect(r.attachments![0]).toMatchObject({ mimeType: 'image/png' });
    expect((r.attachments![0] as { data: string }).data).toMatch(/^iVBORw0KGgo/);
    expect(r.output).toMatch(/\[image: image\/png, [\d.]+ (KB|B), shown to the user\]/);
    expect(r.output).not.toContain('iVBORw0KGgo');
    expect(r.output.length).toBeLessThan(500);
  });

  it('shows progress and lets progress reset the timeout', async () => {
    // 4.5 s in 9 steps with a 3 s timeout: only the progress every 0.5 s keeps it alive. The timeout
    // also bounds the server's start (initialize), which a busy machine can slow past a second or two.
    const slow = harness([everything({ name: 'slow', timeoutMs: 3_000 })]);
    slow.manager.start();
    try {
      await slow.until('slow', (v) => v.state === 'connected');
      const r = await slow.call('slow__trigger-long-running-operation', { duration: 4.5, steps: 9 });
      expect(r.output).toMatch(/completed|finished|duration/i);
      expect(r.ok).toBe(true);
      // The last step's progress may race the result; the ones before it all arrive, in order.
      expect(slow.progress.slice(0, 3)).toEqual(
        ['1/9', '2/9', '3/9'].map((l) => expect.stringMatching(new RegExp(`^${l}\\b`))),
      );
      // Without progress as often as the timeout, the same call is given up, with a clear sentence.
      const quiet = await slow.call('slow__trigger-long-running-operation', { duration: 4, steps: 1 });
      expect(quiet.ok).toBe(false);
      expect(quiet.output).toMatch(
        /did not answer slow__trigger-long-running-operation within 3 s \(and sent no progress\)/,
      );
      // The connection is still good after a timeout.
      expect((await slow.call('slow__get-sum', { a: 1, b: 2 })).output).toMatch(/3/);
    } finally {
      await slow.manager.close();
    }
  });

  it('stops a long call when the turn is stopped, and the connection stays usable', async () => {
    const controller = new AbortController();
    const started = performance.now();
    const before = h.progress.length;
    const pending = h.call(
      'everything__trigger-long-running-operation',
      { duration: 20, steps: 20 },
      { signal: controller.signal },
    );
    // Stopped once the server says the call is under way (its first progress), not after a guessed delay.
    await vi.waitFor(() => expect(h.progress.length).toBeGreaterThan(before), { timeout: 15_000, interval: 20 });
    controller.abort();
    const r = await pending;
    expect(r.ok).toBe(false);
    expect(r.output).toMatch(/told to stop/);
    // Said as a stop, never as the server's timeout.
    expect(r.output).toMatch(/was told to cancel the call to everything__trigger-long-running-operation/);
    expect(r.output).not.toMatch(/did not answer|within \d+ s/);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect((await h.call('everything__get-sum', { a: 5, b: 5 })).output).toMatch(/10/);
    expect(h.manager.get('everything')).toMatchObject({ state: 'connected', reconnects: 0 });
  });

  it('a deny refuses without calling the server', async () => {
    const r = await h.call('everything__get-sum', { a: 1, b: 1 }, { decision: 'deny' });
    expect(r.ok).toBe(false);
    expect(r.output).toMatch(/The user declined the call to everything__get-sum; it was not made\./);
  });
});
