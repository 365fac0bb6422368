import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { ConfigError } from './config-error.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function folders(settings?: object) {
  const root = mkdtempSync(join(tmpdir(), 'zhixing-shell-config-'));
  dirs.push(root);
  const home = join(root, 'home');
  const cwd = join(root, 'cwd');
  mkdirSync(home);
  mkdirSync(cwd);
  if (settings) writeFileSync(join(home, 'config.json'), JSON.stringify(settings), { mode: 0o600 });
  return { home, cwd };
}

describe('the shell settings', () => {
  it('keep commands off the network by default, and start from the environment the assistant was given', () => {
    const { home, cwd } = folders();
    const env = { ZHIXING_HOME: home, PATH: '/usr/bin', SOME: 'thing' };
    const c = loadConfig({ env, cwd });
    expect(c.shell).toEqual({ network: false, env });
    expect(c.origins.ZHIXING_SHELL_NETWORK).toEqual({ from: 'default' });
    expect(c.warnings).toEqual([]);
  });

  it('read "shell": {"network": false} from config.json, with ZHIXING_SHELL_NETWORK over it', () => {
    const { home, cwd } = folders({ shell: { network: false } });
    const off = loadConfig({ env: { ZHIXING_HOME: home }, cwd });
    expect(off.shell.network).toBe(false);
    expect(off.origins.ZHIXING_SHELL_NETWORK).toEqual({
      from: 'config-file',
      key: 'shell.network',
      path: join(home, 'config.json'),
    });
    expect(off.warnings).toEqual([]);
    expect(loadConfig({ env: { ZHIXING_HOME: home, ZHIXING_SHELL_NETWORK: '1' }, cwd }).shell.network).toBe(true);
    const { home: h2, cwd: c2 } = folders();
    expect(loadConfig({ env: { ZHIXING_HOME: h2, ZHIXING_SHELL_NETWORK: 'off' }, cwd: c2 }).shell.network).toBe(false);
  });

  it("let a project's ./.env turn the network off but not on", () => {
    for (const settings of [{ shell: { network: false } }, undefined]) {
      const { home, cwd } = folders(settings);
      writeFileSync(join(cwd, '.env'), 'ZHIXING_SHELL_NETWORK=1\n');
      const c = loadConfig({ env: { ZHIXING_HOME: home }, cwd });
      expect(c.shell.network).toBe(false);
      expect(c.warnings).toEqual([
        `Ignored ZHIXING_SHELL_NETWORK=1 in ./.env: a project's .env may keep shell commands off the network, not let them on it (set it in ${join(home, 'config.json')} or the environment).`,
      ]);
    }
    const { home: h2, cwd: c2 } = folders({ shell: { network: true } });
    writeFileSync(join(c2, '.env'), 'ZHIXING_SHELL_NETWORK=0\n');
    expect(loadConfig({ env: { ZHIXING_HOME: h2 }, cwd: c2 }).shell.network).toBe(false);
  });

  it('refuse a value that is neither on nor off, saying which', () => {
    const { home, cwd } = folders();
    const err = (() => {
      try {
        loadConfig({ env: { ZHIXING_HOME: home, ZHIXING_SHELL_NETWORK: 'maybe' }, cwd });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).message).toMatch(/ZHIXING_SHELL_NETWORK must be 1 .* or 0 .*, not "maybe"/);
    expect((err as ConfigError).zh).toMatch(/ZHIXING_SHELL_NETWORK 必须是 1/);
  });

  it('refuse a config.json whose shell.network is not true or false', () => {
    const { home, cwd } = folders({ shell: { network: 'no' } });
    expect(() => loadConfig({ env: { ZHIXING_HOME: home }, cwd })).toThrow(/shell\.network/);
  });
});
