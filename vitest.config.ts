import { configDefaults, defineConfig } from 'vitest/config';

const browserTests = 'test/web/**/*.test.ts';

export default defineConfig({
  test: {
    // Builds dist/ once per run: the projects below do not inherit it, the root runs it.
    globalSetup: ['test/global-setup.ts'],
    projects: [
      {
        test: {
          name: 'node',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/src/**/*.test.ts'],
          exclude: [...configDefaults.exclude, browserTests],
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        // The web UI in Debian's Chromium (test/support/browser.ts).
        test: {
          name: 'browser',
          include: [browserTests],
          // Starting Chromium and loading a page take seconds on a busy 2-core machine.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // A Chromium is several processes: one browser file at a time, after the other tests, so
          // pages are not starved into flaky timings and do not slow the rest.
          maxWorkers: 1,
          // A page's state is awaited, not assumed: on a busy machine a second is not always enough.
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});
