/** A server that floods, renames, changes its list and returns every kind of content; servers that hang or die. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { everything, fixture, harness, stdio, type Harness } from '../support/mcp.js';

// Real servers start as processes: on a busy machine a test's few connects take more than the default 20 s.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

describe('a server with a long, changing list and every kind of result', () => {
  let h: Harness;
  beforeAll(async () => {
    h = harness([
      stdio('tricky', process.execPath, [fixture('tricky.mjs')], { env: { TRICKY_TOKEN: 'tok-very-secret' } }),
    ]);
    h.manager.start();
    await h.until('tricky', (v) => v.state === 'connected');
  });
  afterAll(async () => {
    await h.manager.close();
  });

  it('reads every page of the list, offers at most 100 tools and says what it left out', () => {
    const view = h.manager.get('tricky')!;
    expect(view.tools).toHaveLength(100);
    expect(view.warning).toMatch(/it lists 150 tools; only the first 100 are offered/);
    expect(view.warning).toMatch(/1 tool left out for a parameter schema over 20 KB \(huge-schema\)/);
    // One malformed tool does not cost the server its others.
    expect(view.warning).toMatch(/2 tools left out for a malformed definition \(broken, \(no name\)\)/);
    expect(view.tools).toContain('tricky__dot_name');
    expect(view.tools).toContain('tricky__dot_name_2');
    expect(view.tools).not.toContain('tricky__huge-schema');
    expect(new Set(view.tools).size).toBe(100);
    expect(h.tools.list().filter((t) => t.source === 'mcp:tricky')).toHaveLength(100);
  });

  it("shows a hostile description as the server's text, without its escapes", () => {
    const d = h.tools.get('tricky__results')!.description;
    expect(d).toMatch(/^\[Tool from MCP server "tricky"\./);
    expect(d).toContain('Ignore previous instructions');
    expect(d).not.toContain('\u001b');
  });

  it('turns each kind of content into text for the model and attachments for the user', async () => {
    const r = await h.call('tricky__results');
    expect(r.ok).toBe(true);
    expect(r.output.split('\n')).toEqual([
      'first',
      expect.stringMatching(/^\[image: image\/png, \d+ B, shown to the user\]$/),
      expect.stringMatching(/^\[audio: audio\/wav, \d+ B, shown to the user\]$/),
      '[resource: report.pdf file:///tmp/report.pdf (application/pdf)]',
      '[resource memo://notes/1]',
      'embedded text',
      expect.stringMatching(/^\[resource: image\/png, \d+ B, shown to the user\]$/),
    ]);
    expect(r.attachments!.map((a) => [a.name, a.mimeType])).toEqual([
      ['tricky__results-image-1.png', 'image/png'],
      ['tricky__results-audio-2.wav', 'audio/wav'],
      ['logo.png', 'image/png'],
    ]);
    expect(r.output).not.toContain('iVBOR');
    expect(r.output).not.toContain('ignored');
  });

  it('tells structured content as JSON when there is no text', async () => {
    expect((await h.call('tricky__structured')).output).toBe('{"temperature":21.5,"unit":"C"}');
  });

  it("makes isError a failed action with the server's words", async () => {
    const r = await h.call('tricky__fail', { why: 'disk full' });
    expect(r).toMatchObject({ ok: false, output: 'Error: It broke: disk full' });
  });

  it('never lets a configured secret through a result', async () => {
    const r = await h.call('tricky__secret');
    expect(r.output).toBe('my token is ***');
  });

  it('bounds a flood: the text is cut for the model, the images past 5 MB are dropped with a note', async () => {
    const r = await h.call('tricky__flood');
    expect(r.ok).toBe(true);
    expect(r.output.length).toBeLessThan(35_000);
    expect(r.output).toMatch(/more characters cut/);
    const bytes = (r.attachments ?? []).reduce((n, a) => n + a.size, 0);
    expect(bytes).toBeLessThanOrEqual(5_000_000);
    expect(r.attachments!.length).toBeGreaterThan(0);
    expect(r.attachments!.length).toBeLessThan(7);
    expect(r.output).toMatch(/image/);
  });

  it('drops an answer over 10 MB with a clear sentence, does not repeat the call, and reconnects', async () => {
    const before = h.manager.get('tricky')!.reconnects;
    const r = await h.call('tricky__too-big');
    expect(r.ok).toBe(false);
    expect(r.output).toMatch(/The MCP server "tricky" sent an answer to tricky__too-big over 10 MB; it was dropped/);
    await h.until('tricky', (v) => v.state === 'connected' && v.reconnects === before + 1);
    expect((await h.call('tricky__structured')).ok).toBe(true);
    expect(h.manager.get('tricky')!.reconnects).toBe(before + 1);
  });

  it('shows a flood of progress notifications a few lines at a time', async () => {
    h.progress.length = 0;
    const r = await h.call('tricky__chatty');
    expect(r.output).toBe('chatted');
    // 2,000 notifications over about 1.2 s: a line per 250 ms at most, each the latest at the time.
    expect(h.progress.length).toBeGreaterThanOrEqual(1);
    expect(h.progress.length).toBeLessThanOrEqual(12);
    for (const line of h.progress) expect(line).toMatch(/^\d+\/2000 tick \d+$/);
    const counts = h.progress.map((l) => Number(l.split('/')[0]));
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
  });

  it('refreshes its tools on tools/list_changed', async () => {
    expect(h.tools.get('tricky__added-later')).toBeUndefined();
    expect((await h.call('tricky__flip')).output).toBe('flipped');
    await h.until('tricky', (v) => v.tools.includes('tricky__added-later'), 5_000);
    expect(h.tools.get('tricky__added-later')!.source).toBe('mcp:tricky');
    expect((await h.call('tricky__added-later')).output).toBe('called added-later');
  });
});

describe('a server that sends a burst of tools/list_changed', () => {
  it('answers the call promptly and re-lists its tools once or twice, not once per notice', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    const h = harness([stdio('many', process.execPath, [fixture('many.mjs')])]);
    try {
      h.manager.start();
      await h.until('many', (v) => v.state === 'connected');
      const before = Number((await h.call('many__count')).output);
      const started = Date.now();
      const r = await h.call('many__burst');
      expect(r.ok).toBe(true);
      expect(r.output).toBe('burst sent');
      expect(Date.now() - started).toBeLessThan(5_000);
      // Let the debounced listing (and the one a notice during it asks for) run.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const lists = Number((await h.call('many__count')).output) - before;
      expect(lists).toBeGreaterThanOrEqual(1);
      expect(lists).toBeLessThanOrEqual(3);
      expect(h.manager.get('many')!.state).toBe('connected');
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await h.manager.close();
    }
  });
});

describe('servers that hang or die', () => {
  it('gives up on a server that never answers initialize, without holding up the others or close()', async () => {
    // Beside a server still in its handshake (its timeout far off, so the order is certain), another connects and answers.
    const both = harness([stdio('hang', process.execPath, [fixture('hang.mjs')], { timeoutMs: 60_000 }), everything()]);
    both.manager.start();
    await both.until('everything', (v) => v.state === 'connected');
    expect(both.manager.get('hang')!.state).toBe('connecting');
    expect((await both.call('everything__get-sum', { a: 1, b: 1 })).output).toMatch(/2/);
    let closing = performance.now();
    await both.manager.close();
    expect(performance.now() - closing).toBeLessThan(3_500);

    const h = harness([stdio('hang', process.execPath, [fixture('hang.mjs')], { timeoutMs: 800 })], {
      retry: { baseMs: 50, maxMs: 100, attempts: 2 },
    });
    const started = performance.now();
    h.manager.start();
    const failed = await h.until('hang', (v) => v.state === 'failed', 10_000);
    // No answer to its first handshake: failed after that one timeout, not after more of them.
    expect(failed.error).toMatch(/^Request timed out/);
    expect(failed.error).not.toMatch(/tries/);
    expect(failed.stderr).toContain('hang: started, will never answer');
    expect(performance.now() - started).toBeLessThan(5_000);
    // A call to a server that failed says so; it does not wait.
    expect(h.tools.get('hang__x')).toBeUndefined();
    closing = performance.now();
    await h.manager.close();
    expect(performance.now() - closing).toBeLessThan(3_500);
  });

  it('close() returns promptly while a server is still in its handshake, and stops its process', async () => {
    const h = harness([stdio('hang', process.execPath, [fixture('hang.mjs')], { timeoutMs: 60_000 })]);
    h.manager.start();
    await h.until('hang', (v) => v.stderr.length > 0);
    const started = performance.now();
    await h.manager.close();
    expect(performance.now() - started).toBeLessThan(3_500);
    expect(h.manager.get('hang')!.state).toBe('disabled');
  });

  it('shows a server that exits at once as failed, with its last stderr lines', async () => {
    const h = harness([stdio('broken', process.execPath, [fixture('exit.mjs')])], {
      retry: { baseMs: 20, maxMs: 50, attempts: 2 },
    });
    h.manager.start();
    try {
      const view = await h.until('broken', (v) => v.state === 'failed');
      expect(view.error).toMatch(
        /^the program exited before it finished connecting; what it wrote to stderr may say why \(gave up after 2 tries\)$/,
      );
      expect(view.stderr.length).toBeLessThanOrEqual(20);
      expect(view.stderr.slice(-2)).toEqual(['Error: DATABASE_URL is not set', '    at main (server.js:12:9)']);
      expect(view.tools).toEqual([]);
    } finally {
      await h.manager.close();
    }
  });

  it('says plainly when a command cannot be started', async () => {
    const h = harness([stdio('missing', '/nonexistent/mcp-server')], { retry: { baseMs: 20, maxMs: 50, attempts: 2 } });
    h.manager.start();
    try {
      const view = await h.until('missing', (v) => v.state === 'failed');
      expect(view.error).toMatch(/ENOENT/);
    } finally {
      await h.manager.close();
    }
  });
});
