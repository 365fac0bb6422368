import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the browser tier's one Chromium listens; unset when there is none (useBrowser says why). */
    chromiumWsEndpoint?: string;
  }
}

/**
 * The browser tier's global setup: one Chromium for all its files (they run one at a time), each
 * file connecting to it rather than starting its own. Each page still gets a context of its own.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (!existsSync(CHROMIUM_PATH)) return undefined;
  const server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
  project.provide('chromiumWsEndpoint', server.wsEndpoint());
  return () => server.close();
}
