import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/mcp.js';

/**
 * `@modelcontextprotocol/conformance`'s client scenarios against our client
 * (scripts/mcp-conformance-client.mjs drives the manager, from dist/). Its runner needs Node 22, in a
 * folder of its own named by ZHIXING_CONFORMANCE_DIR (layout in conformance-server.e2e.test.ts); CI makes it.
 */
const DIR = process.env.ZHIXING_CONFORMANCE_DIR;
const SCENARIOS = ['initialize', 'tools_call', 'sse-retry'];

describe('MCP conformance, client scenarios', () => {
  it.runIf(process.env.CI && !DIR)('runs in CI, where .ci/run provides the Node 22 runner', () => {
    expect(
      DIR,
      'ZHIXING_CONFORMANCE_DIR is not set: .ci/run should have installed the conformance runner',
    ).toBeDefined();
  });

  describe.skipIf(!DIR)('(skipped: set ZHIXING_CONFORMANCE_DIR)', () => {
    const node = join(DIR ?? '', 'node_modules', '.bin', 'node');
    const cli = join(DIR ?? '', 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
    const client = `${process.execPath} ${join(ROOT, 'scripts', 'mcp-conformance-client.mjs')}`;

    for (const scenario of SCENARIOS) {
      it(`passes ${scenario}`, async () => {
        expect(existsSync(join(ROOT, 'dist', 'mcp', 'manager.js')), 'run npm run build first').toBe(true);
        const { code, out } = await new Promise<{ code: number; out: string }>((resolve) => {
          execFile(
            node,
            [cli, 'client', '--command', client, '--scenario', scenario],
            { cwd: DIR, timeout: 60_000, env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' } },
            (err, stdout, stderr) =>
              resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: `${stdout}\n${stderr}` }),
          );
        });
        const summary = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(out);
        expect(summary, out).not.toBeNull();
        expect(Number(summary![1]), out).toBeGreaterThan(0);
        expect(summary![3], out).toBe('0');
        expect(out).toContain('OVERALL: PASSED');
        expect(code, out).toBe(0);
      }, 90_000);
    }
  });
});
