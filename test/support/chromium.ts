/** Debian's Chromium and the flags TESTING.md names: shared by the browser tier's setup and its files. */

/** Debian's Chromium: Playwright's own browser downloads cannot be fetched here. */
export const CHROMIUM_PATH = process.env.ZHIXING_TEST_CHROMIUM || '/usr/bin/chromium';

// Playwright adds its own defaults too (--headless and --no-sandbox among them, so some appear
// twice, which Chromium takes as once); these keep a run off the network and the GPU whatever
// Playwright's defaults become.
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
