import { configDefaults, defineConfig } from 'vitest/config';

// Three tiers (TESTING in README): `npm run test:fast` runs only `unit`; `npm test` runs all three.
const e2eTests = '**/*.e2e.test.ts';
const browserTests = 'test/web/**/*.test.ts';
const isolatedTests = 'test/**/*.isolated.test.ts';
// dist/ is built once, by the first tier that needs it (a second finds it current: scripts/build-stamp.mjs).
const buildFirst = ['test/global-setup.ts'];

export default defineConfig({
  test: {
    projects: [
      {
        // Unit tests beside their modules: no build, no spawned CLI, no browser. Mostly CPU: one worker
        // per core, and the files of a worker share their imports (half the work of a fresh module graph
        // per file). A file that replaces a module (`vi.mock`) is named *.isolated.test.ts, and runs alone.
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'web/src/**/*.test.ts'],
          exclude: [...configDefaults.exclude, e2eTests],
          testTimeout: 20_000,
          hookTimeout: 30_000,
          maxWorkers: 2,
          isolate: false,
          // Tiers with their own number of workers run one after the other, the quickest first.
          sequence: { groupOrder: 0 },
        },
      },
      {
        // In-process integration (test/): servers, stores, the agent loop; imports shared per worker too.
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, e2eTests, browserTests, isolatedTests],
          testTimeout: 20_000,
          hookTimeout: 30_000,
          maxWorkers: 2,
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        // Files that replace a module (`vi.mock`): each alone, in a fresh module graph.
        test: {
          name: 'isolated',
          include: [isolatedTests],
          testTimeout: 20_000,
          hookTimeout: 30_000,
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
        },
      },
      {
        // The built program as a user runs it: ./bin/zhixing spawned, MCP peers, a terminal, the real
        // sandbox (bubblewrap, a Debian package the fast tier does not need). These
        // mostly wait on other processes, so more files run at once than there are cores.
        test: {
          name: 'e2e',
          include: [e2eTests],
          exclude: [...configDefaults.exclude, browserTests],
          globalSetup: buildFirst,
          testTimeout: 30_000,
          hookTimeout: 30_000,
          maxWorkers: 3,
          sequence: { groupOrder: 3 },
        },
      },
      {
        // The web UI in Debian's Chromium (test/support/browser.ts).
        test: {
          name: 'browser',
          include: [browserTests],
          // One Chromium for the whole tier, which each file connects to (test/support/browser-server.ts).
          globalSetup: [...buildFirst, 'test/support/browser-server.ts'],
          // Starting Chromium and loading a page take seconds on a busy 2-core machine.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Run beside the end-to-end tier (the same group, so the same number of workers): both mostly
          // wait, on spawned programs and on pages, and together they keep the two cores busy.
          maxWorkers: 3,
          sequence: { groupOrder: 3 },
          // A page's state is awaited, not assumed: on a busy machine a second is not always enough.
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});
