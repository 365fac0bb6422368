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
 * Read on the main thread, these lines keep it busy for 0.3 to 2 s each. Off it, the loop only passes
 * messages: it is measured against what reading them here costs on this machine, now, so a busy
 * machine slows both alike.
 */
async function mainThreadCosts(): Promise<number[]> {
  const costs: number[] = [];
  for (const line of crafted) {
    const started = performance.now();
    await analyzeCommand(line, options);
    costs.push(performance.now() - started);
  }
  return costs;
}

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
    const costs = await mainThreadCosts();
    // Eight lines read here would keep the loop busy for twice the four's cost, and block it for the
    // slowest one's at a time: off the main thread, a small part of either.
    const total = costs.reduce((a, b) => a + b, 0);
    expect(busy.active).toBeLessThan((2 * total) / 4);
    expect(histogram.max / 1e6).toBeLessThan(Math.max(...costs) / 2);
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
