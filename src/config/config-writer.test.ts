import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setConfigKey, updateConfigKey } from './config-writer.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const home = () => {
  const d = mkdtempSync(join(tmpdir(), 'zhixing-config-writer-'));
  dirs.push(d);
  return d;
};

describe('setConfigKey', () => {
  it('sets one key and keeps every other as it was, leaving no temporary file', () => {
    const dir = home();
    const path = join(dir, 'config.json');
    writeFileSync(
      path,
      JSON.stringify({ model: 'm', mcpServers: { a: { command: 'x' } }, permissions: { shell: 'deny' } }),
      { mode: 0o640 },
    );
    setConfigKey(path, 'permissions', { shell: { 'git *': 'allow' } });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      model: 'm',
      mcpServers: { a: { command: 'x' } },
      permissions: { shell: { 'git *': 'allow' } },
    });
    expect(statSync(path).mode & 0o777).toBe(0o640);
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  it('makes a missing file, readable by its owner alone', () => {
    const path = join(home(), 'config.json');
    setConfigKey(path, 'permissions', {});
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ permissions: {} });
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('leaves a file that is not a JSON object alone, and says so in both languages', () => {
    const path = join(home(), 'config.json');
    writeFileSync(path, '{ "model": ');
    expect(() => setConfigKey(path, 'permissions', {})).toThrow(/is not a JSON object, so it was not changed/);
    expect(readFileSync(path, 'utf8')).toBe('{ "model": ');
  });
});

describe('updateConfigKey', () => {
  it('takes over the lock of a writer that died holding it', () => {
    const dir = home();
    const path = join(dir, 'config.json');
    // A pid no process has: the writer that made this lock is gone.
    writeFileSync(`${path}.lock`, '999999999');
    updateConfigKey(path, 'mcpServers', () => ({ a: { command: 'x' } }));
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ mcpServers: { a: { command: 'x' } } });
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  it('waits for a live writer and gives up with a sentence naming the lock', () => {
    const dir = home();
    const path = join(dir, 'config.json');
    writeFileSync(path, '{}');
    writeFileSync(`${path}.lock`, String(process.pid));
    const started = Date.now();
    expect(() => updateConfigKey(path, 'x', () => 1, { lockWaitMs: 300 })).toThrow(
      /is being changed by another process/,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(readFileSync(path, 'utf8')).toBe('{}');
  });

  it('waits 10 s for a live writer by default (on a clock that runs a second a reading)', () => {
    const dir = home();
    const path = join(dir, 'config.json');
    writeFileSync(path, '{}');
    writeFileSync(`${path}.lock`, String(process.pid));
    let now = Date.now();
    const started = now;
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => (now += 1_000));
    try {
      expect(() => updateConfigKey(path, 'x', () => 1)).toThrow(/is being changed by another process/);
      expect(now - started).toBeGreaterThanOrEqual(10_000);
      expect(now - started).toBeLessThan(20_000);
    } finally {
      clock.mockRestore();
    }
    expect(readFileSync(path, 'utf8')).toBe('{}');
  });
});
