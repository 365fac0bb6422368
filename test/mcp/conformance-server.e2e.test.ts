import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/http.js';

/**
 * `@modelcontextprotocol/conformance` against our `/mcp`. Its runner needs Node 22, which this project
 * does not (Node 20 is its floor), so it lives in a folder of its own, named by ZHIXING_CONFORMANCE_DIR:
 *   $ZHIXING_CONFORMANCE_DIR/node_modules/.bin/node                                   (the `node@22` package)
 *   $ZHIXING_CONFORMANCE_DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js
 * made by `npm install node@22 @modelcontextprotocol/conformance` in an empty folder.
 * The scenarios here are those a product passes with its own tools; the README says why the rest,
 * written for the suite's own test server, do not apply.
 */
const DIR = process.env.ZHIXING_CONFORMANCE_DIR;
const MUST_PASS = [
  'server-initialize',
  'ping',
  'tools-list',
  'dns-rebinding-protection',
  'tools-call-error',
  'server-sse-multiple-streams',
];

describe('MCP conformance in CI', () => {
  it.runIf(process.env.CI && !DIR)('runs in CI, where .ci/run provides the Node 22 runner', () => {
    expect(
      DIR,
      'ZHIXING_CONFORMANCE_DIR is not set: .ci/run should have installed the conformance runner',
    ).toBeDefined();
  });
});

describe.skipIf(!DIR)(
  'MCP conformance, server scenarios against /mcp (skipped: set ZHIXING_CONFORMANCE_DIR, see this file)',
  () => {
    const node = join(DIR ?? '', 'node_modules', '.bin', 'node');
    const cli = join(DIR ?? '', 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer();
    });
    afterAll(() => t?.close());

    it('finds Node 22 and the conformance runner where ZHIXING_CONFORMANCE_DIR says', () => {
      expect(existsSync(node), node).toBe(true);
      expect(existsSync(cli), cli).toBe(true);
    });

    for (const scenario of MUST_PASS) {
      it(`passes ${scenario}`, async () => {
        const { code, out } = await new Promise<{ code: number; out: string }>((resolve) => {
          execFile(
            node,
            [cli, 'server', '--url', `${t.url}/mcp`, '--scenario', scenario],
            { cwd: DIR, timeout: 60_000, env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' } },
            (err, stdout, stderr) =>
              resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: `${stdout}\n${stderr}` }),
          );
        });
        const summary = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(out);
        expect(summary, out).not.toBeNull();
        expect(Number(summary![1]), out).toBeGreaterThan(0);
        expect(summary![3], out).toBe('0');
        expect(code, out).toBe(0);
      }, 90_000);
    }
  },
);
