import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectSandbox, sandboxProbe } from './sandbox.js';

let bin: string;
beforeEach(() => {
  bin = mkdtempSync(path.join(os.tmpdir(), 'zhixing-probe-'));
});
afterEach(() => rmSync(bin, { recursive: true, force: true }));

describe('finding out what containment works', () => {
  it('says bubblewrap is missing when it is not on the PATH', async () => {
    expect(await detectSandbox({ searchPath: bin, network: true, platform: 'linux' })).toEqual({
      kind: 'none',
      ok: false,
      reason: 'bubblewrap (bwrap) is not installed',
      network: 'host',
    });
  });

  it('tries bubblewrap, and says why when it is installed but cannot run (no user namespaces)', async () => {
    writeFileSync(
      path.join(bin, 'bwrap'),
      '#!/bin/sh\necho "bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces." >&2\nexit 1\n',
      { mode: 0o755 },
    );
    expect(await detectSandbox({ searchPath: bin, network: false, platform: 'linux' })).toEqual({
      kind: 'bwrap',
      ok: false,
      program: path.join(bin, 'bwrap'),
      network: 'host',
      reason:
        'bwrap does not work here: bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces.',
    });
  });

  it('tries it with the namespaces a command gets, the network one too when the network is off', async () => {
    const log = path.join(bin, 'args');
    writeFileSync(path.join(bin, 'bwrap'), `#!/bin/sh\necho "$@" > ${log}\n`, { mode: 0o755 });
    expect(await detectSandbox({ searchPath: bin, network: false, platform: 'linux' })).toMatchObject({
      kind: 'bwrap',
      ok: true,
    });
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(log, 'utf8')).toMatch(/--unshare-pid .*--cap-drop ALL --unshare-net -- true\n$/);
  });

  it('never gives the host network with bubblewrap: user-mode with pasta, off (and why) without it', async () => {
    writeFileSync(path.join(bin, 'bwrap'), '#!/bin/sh\n', { mode: 0o755 });
    // Only this folder is searched, then the system folders: pasta is missing where those lack it too.
    const found = await detectSandbox({ searchPath: bin, network: true, platform: 'linux' });
    expect(
      found.network === 'user-mode' || (found.network === 'off' && /pasta|ip|nsenter/.test(found.networkReason ?? '')),
    ).toBe(true);
    expect(await detectSandbox({ searchPath: bin, network: false, platform: 'linux' })).toMatchObject({
      kind: 'bwrap',
      ok: true,
      network: 'off',
    });
  });

  it('says there is none on a platform without one, and asks only once per holder', async () => {
    expect(await detectSandbox({ searchPath: bin, network: true, platform: 'win32' })).toEqual({
      kind: 'none',
      ok: false,
      reason: 'no sandbox is supported on win32',
      network: 'host',
    });
    const probe = sandboxProbe({ searchPath: bin, network: true, platform: 'linux' });
    expect(probe()).toBe(probe());
  });
});
