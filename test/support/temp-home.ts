import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../src/config/config.js';

/** A fresh ZHIXING_HOME for one test, with `configFile` as its config.json when given; `cleanup` removes it. */
export function tempHome(env: Record<string, string> = {}, configFile?: object): { home: string; config: Config; env: Record<string, string>; cleanup: () => void } {
  const home = mkdtempSync(join(tmpdir(), 'zhixing-test-'));
  if (configFile) writeFileSync(join(home, 'config.json'), JSON.stringify(configFile), { mode: 0o600 });
  const fullEnv = { ZHIXING_HOME: home, ...env };
  const config = loadConfig({ env: fullEnv, cwd: home });
  return { home, config, env: fullEnv, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}
