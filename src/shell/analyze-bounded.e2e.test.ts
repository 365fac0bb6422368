import { existsSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzeCommand } from './analyze.js';
import { createBoundedAnalyzer } from './analyze-bounded.js';

// The worker runs the built program (a worker thread cannot load TypeScript): the test setup builds dist/.
const workerFile = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../dist/shell/analyze-worker.js');
const options = { cwd: '/tmp', path: process.env.PATH ?? '/usr/bin:/bin' };
/** Lines built to be slow to read, each within the shell tool's 20,000 characters. */
const crafted = [
  `echo ${'>a '.repeat(6_600)}`,
  'eval '.repeat(4_000),
  `a${'|a'.repeat(9_999)}`,
  `echo ${'a '.repeat(9_990)}`,
];
/**
 * Read on the main thread, these lines keep it busy for 0.3 to 2 s each (eight of them: over ten
 * seconds of a loop that never idles). Off it, the loop only passes messages.
 */
const MAX_LOOP_BUSY_MS = 1_000;
const MAX_LOOP_DELAY_MS = 500;

describe.runIf(existsSync(workerFile))('reading command lines off the main thread', () => {
  it('reads a step of crafted lines while the event loop keeps ticking', async () => {
    const analyze = createBoundedAnalyzer({ workerFile });
    expect(await analyze('git status && ls -la', options)).toEqual(
      await analyzeCommand('git status && ls -la', options),
    );
    const histogram = monitorEventLoopDelay({ resolution: 10 });
    histogram.enable();
    const before = performance.eventLoopUtilization();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => analyze(crafted[i % crafted.length]!, options)),
    );
    const busy = performance.eventLoopUtilization(before);
    histogram.disable();
    expect(busy.active).toBeLessThan(MAX_LOOP_BUSY_MS);
    expect(histogram.max / 1e6).toBeLessThan(MAX_LOOP_DELAY_MS);
    // Each line was read, or counts as unreadable: never a thrown error, never an approval by default.
    for (const r of results) expect(r.ok ? r.parts.length : r.reason.length).toBeGreaterThan(0);
  }, 120_000);

  it('counts a line not read in time as unreadable', async () => {
    const analyze = createBoundedAnalyzer({ workerFile, timeoutMs: 20 });
    expect(await analyze(crafted[0]!, options)).toEqual({
      ok: false,
      reason: 'the command line took more than 0.02 s to read',
    });
    // The next line gets a fresh reader.
    const again = createBoundedAnalyzer({ workerFile });
    expect(await again('ls', options)).toMatchObject({ ok: true, parts: [{ text: 'ls' }] });
  });
});
