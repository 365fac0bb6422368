import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BrowserUnavailable, CHROMIUM_FLAGS, findChromium, sandboxChoice } from './launch.js';

const root = mkdtempSync(join(tmpdir(), 'zhixing-find-chromium-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function program(dir: string, name: string, mode = 0o755): string {
  mkdirSync(join(root, dir), { recursive: true });
  const file = join(root, dir, name);
  writeFileSync(file, '#!/bin/sh\n');
  chmodSync(file, mode);
  return file;
}

describe('findChromium', () => {
  it('takes the configured path when it is an executable file', () => {
    const file = program('set', 'my-chrome');
    expect(findChromium({ chromiumPath: file, searchPath: '' }, 'en')).toBe(file);
  });

  it('says what is wrong with a configured path that is not a program', () => {
    const notExecutable = program('set', 'plain', 0o644);
    for (const bad of [notExecutable, join(root, 'missing'), 'chromium', join(root, 'set')]) {
      expect(() => findChromium({ chromiumPath: bad, searchPath: '' }, 'en')).toThrow(
        `ZHIXING_CHROMIUM_PATH points at ${bad}, which is not an executable Chromium`,
      );
    }
  });

  it('finds the first known name along the search path, skipping what is not executable', () => {
    program('a', 'chromium', 0o644);
    const google = program('b', 'google-chrome');
    const debian = program('c', 'chromium');
    expect(findChromium({ searchPath: [join(root, 'a'), join(root, 'b'), join(root, 'c')].join(':') }, 'en')).toBe(
      google,
    );
    expect(findChromium({ searchPath: ['relative/dir', join(root, 'c')].join(':') }, 'en')).toBe(debian);
  });

  it("says how to install or point at one when there is none, in the user's language", () => {
    expect(() => findChromium({ searchPath: join(root, 'a') }, 'en')).toThrow(BrowserUnavailable);
    expect(() => findChromium({ searchPath: join(root, 'a') }, 'en')).toThrow(
      /No Chromium found .*apt-get install chromium.*ZHIXING_CHROMIUM_PATH.*ZHIXING_BROWSER_CDP_URL/,
    );
    expect(() => findChromium({ searchPath: '' }, 'zh')).toThrow(
      /没有找到 Chromium.*apt-get install chromium.*ZHIXING_CHROMIUM_PATH/,
    );
  });
});

describe('sandboxChoice', () => {
  it('runs Chromium in its sandbox when not root, with no --no-sandbox anywhere', () => {
    expect(CHROMIUM_FLAGS).not.toContain('--no-sandbox');
    for (const uid of [1000, 501, undefined]) {
      const choice = sandboxChoice(uid, false);
      expect(choice).toEqual({ chromiumSandbox: true, args: CHROMIUM_FLAGS });
      expect(choice.args).not.toContain('--no-sandbox');
    }
  });

  it('goes without the sandbox only after a sandboxed start failed, and says why', () => {
    expect(sandboxChoice(1000, true)).toEqual({
      chromiumSandbox: false,
      args: [...CHROMIUM_FLAGS, '--no-sandbox'],
      unsandboxed: 'failed',
    });
  });

  it('as root keeps --no-sandbox: Chromium refuses to sandbox itself as root', () => {
    expect(sandboxChoice(0, false)).toEqual({
      chromiumSandbox: false,
      args: [...CHROMIUM_FLAGS, '--no-sandbox'],
      unsandboxed: 'root',
    });
    expect(sandboxChoice(0, true).args).toContain('--no-sandbox');
  });
});
