import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from './support/cli.js';
import { tempHome } from './support/temp-home.js';

/**
 * ./bin/zhixing keeps V8's compiled code of dist/bundle/ between runs (bin/compile-cache.js): the
 * answers are the same with and without it, a damaged entry is only a slower start, and a folder
 * someone else could write to is never used, since what is in it runs.
 */
const { cacheDir } = createRequire(import.meta.url)('../bin/compile-cache.js') as {
  cacheDir: (env: Record<string, string | undefined>) => string | undefined;
};
const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function setup() {
  const t = tempHome({ ZHIXING_OFFLINE: '1', ZHIXING_LANG: 'en' });
  const cache = mkdtempSync(join(tmpdir(), 'zhixing-cache-'));
  cleanups.push(t.cleanup, () => rmSync(cache, { recursive: true, force: true }));
  return { env: { ...t.env, ZHIXING_CACHE_DIR: cache }, cache };
}

/** Every entry of the cache, by file name, with its bytes. */
function entries(cache: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const own of readdirSync(cache)) {
    for (const name of readdirSync(join(cache, own))) out.set(join(own, name), readFileSync(join(cache, own, name)));
  }
  return out;
}

describe('the compile cache of ./bin/zhixing', () => {
  it('is written on the first run, used as it is on the next, and the answers are the same', async () => {
    const { env, cache } = setup();
    const first = await runCli(['(3+5)*2'], env);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    const written = entries(cache);
    const bundle = readdirSync(join(REPO_ROOT, 'dist', 'bundle'));
    expect(written.size).toBeGreaterThan(3);
    for (const name of written.keys()) {
      expect(name).toMatch(/\.code$/);
      expect(bundle).toContain(name.split('/')[1]!.replace(/\.[0-9a-f]{32}\.code$/, ''));
    }
    expect(statSync(join(cache, [...written.keys()][0]!)).mode & 0o777).toBe(0o600);

    const second = await runCli(['(3+5)*2'], env);
    expect(second).toEqual(first);
    expect(entries(cache)).toEqual(written);
  });

  it('starts without complaint from damaged entries and writes them anew', async () => {
    const { env, cache } = setup();
    await runCli(['(3+5)*2'], env);
    const written = entries(cache);
    for (const name of written.keys()) writeFileSync(join(cache, name), 'not compiled code');
    const r = await runCli(['(3+5)*2'], env);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toContain('16');
    const again = entries(cache);
    expect([...again.keys()]).toEqual([...written.keys()]);
    for (const bytes of again.values()) expect(bytes.toString()).not.toBe('not compiled code');
  });

  it('drops the entries of files the bundle no longer has', async () => {
    const { env, cache } = setup();
    await runCli(['(3+5)*2'], env);
    const own = readdirSync(cache)[0]!;
    const gone = join(cache, own, 'old-chunk-AbCdEf12.cjs.0123456789abcdef0123456789abcdef.code');
    writeFileSync(gone, 'x');
    // Something new to write: the entry of a file whose text changed since.
    const main = readdirSync(join(cache, own)).find((n) => n.startsWith('main.cjs.'))!;
    rmSync(join(cache, own, main));
    await runCli(['(3+5)*2'], env);
    expect(existsSync(gone)).toBe(false);
    expect(existsSync(join(cache, own, main))).toBe(true);
  });

  it('is not used in a folder that others can write to, nor when turned off', async () => {
    const { env, cache } = setup();
    const shared = join(cache, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    const r = await runCli(['(3+5)*2'], { ...env, ZHIXING_CACHE_DIR: shared });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(readdirSync(shared)).toEqual([]);

    const xdg = join(cache, 'xdg');
    await runCli(['(3+5)*2'], { ...env, ZHIXING_CACHE_DIR: 'off', XDG_CACHE_HOME: xdg });
    expect(existsSync(xdg)).toBe(false);
  });

  it('lives in the home, with everything else Zhixing writes, unless ZHIXING_CACHE_DIR says where', () => {
    expect(cacheDir({ ZHIXING_HOME: '/h/zx' })).toBe('/h/zx/cache');
    expect(cacheDir({ ZHIXING_HOME: '', XDG_CACHE_HOME: '/x/cache' })).toBe(join(homedir(), '.zhixing', 'cache'));
    expect(cacheDir({ ZHIXING_HOME: '/h/zx', ZHIXING_CACHE_DIR: '/y' })).toBe('/y');
    expect(cacheDir({ ZHIXING_CACHE_DIR: 'off' })).toBeUndefined();
  });
});
