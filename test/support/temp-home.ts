import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { loadConfig, type Config } from '../../src/config/config.js';

/** A fresh ZHIXING_HOME for one test, with `configFile` as its config.json when given; `cleanup` removes it. */
export function tempHome(
  env: Record<string, string> = {},
  configFile?: object,
): { home: string; config: Config; env: Record<string, string>; cleanup: () => void } {
  const home = mkdtempSync(join(tmpdir(), 'zhixing-test-'));
  if (configFile) writeFileSync(join(home, 'config.json'), JSON.stringify(configFile), { mode: 0o600 });
  const fullEnv = { ZHIXING_HOME: home, ...env };
  const config = loadConfig({ env: fullEnv, cwd: home });
  return { home, config, env: fullEnv, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

/** For a test file: `home()` makes a fresh home each call; all are removed after the file's tests. */
export function useTempHomes(): () => ReturnType<typeof tempHome> {
  const homes: Array<ReturnType<typeof tempHome>> = [];
  afterAll(() => homes.forEach((h) => h.cleanup()));
  return () => {
    const h = tempHome();
    homes.push(h);
    return h;
  };
}
