import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bwrapArgs, type ContainOptions } from './bwrap.js';

let base: string;
let o: ContainOptions;
beforeEach(() => {
  // Not under /tmp: the sandbox covers /tmp whole, so nothing in it would need covering on its own.
  base = realpathSync(mkdtempSync(path.join(existsSync('/var/tmp') ? '/var/tmp' : os.tmpdir(), 'zhixing-bwrap-')));
  const home = path.join(base, 'home');
  mkdirSync(path.join(home, 'workspace'), { recursive: true });
  mkdirSync(path.join(base, 'user', '.ssh'), { recursive: true });
  writeFileSync(path.join(base, 'user', '.netrc'), 'x');
  writeFileSync(path.join(home, 'config.json'), '{}');
  o = {
    workspace: path.join(home, 'workspace'), home, protectedFiles: [path.join(home, 'config.json')], userHome: path.join(base, 'user'),
    network: true, maskPrograms: [], searchPath: '/usr/bin:/bin', shell: '/bin/bash',
  };
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** The option pairs in order, as `--flag value…` strings, for reading the policy off. */
function steps(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const flag = args[i]!;
    const arity = ['--ro-bind', '--bind'].includes(flag) ? 2 : ['--tmpfs', '--remount-ro', '--chdir', '--dev', '--proc', '--cap-drop'].includes(flag) ? 1 : 0;
    out.push([flag, ...args.slice(i + 1, i + 1 + arity)].join(' ').replaceAll(base, '$B'));
    i += arity;
  }
  return out;
}

describe('the bubblewrap policy', () => {
  it('is the system read-only, private /dev /proc /tmp, the home hidden, the workspace writable, secrets covered last', () => {
    // The daemons' sockets that exist on this machine (/run/dbus…) are covered too; left out here.
    expect(steps(bwrapArgs(o)).filter((x) => !/ \/(var\/)?run\//.test(x))).toEqual([
      '--ro-bind / /', '--dev /dev', '--proc /proc', '--tmpfs /tmp',
      '--tmpfs $B/home',
      '--bind $B/home/workspace $B/home/workspace',
      '--tmpfs $B/user/.ssh', '--ro-bind /dev/null $B/user/.netrc',
      '--remount-ro $B/home', '--remount-ro $B/user/.ssh',
      '--chdir $B/home/workspace',
      '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try', '--die-with-parent', '--new-session', '--cap-drop ALL',
    ]);
  });

  it('shows skills read-only, through a link too, and cuts the network when asked', () => {
    mkdirSync(path.join(base, 'my-skills'));
    symlinkSync(path.join(base, 'my-skills'), path.join(o.home, 'skills'));
    const s = steps(bwrapArgs({ ...o, network: false }));
    expect(s).toContain('--ro-bind $B/my-skills $B/home/skills');
    expect(s.indexOf('--ro-bind $B/my-skills $B/home/skills')).toBeLessThan(s.indexOf('--bind $B/home/workspace $B/home/workspace'));
    expect(s.at(-1)).toBe('--unshare-net');
  });

  it('shows an installation or project folder that lies in /tmp read-only, but nothing of the home that way', () => {
    const inTmp = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'zhixing-install-')));
    try {
      const s = steps(bwrapArgs({ ...o, shown: [inTmp, path.join(o.home, 'skills'), path.join(base, 'elsewhere'), '/usr'] }));
      expect(s).toContain(`--ro-bind ${inTmp} ${inTmp}`);
      // After the private /tmp it would be hidden by, before the home is covered.
      expect(s.indexOf(`--ro-bind ${inTmp} ${inTmp}`)).toBeGreaterThan(s.indexOf('--tmpfs /tmp'));
      expect(s.indexOf(`--ro-bind ${inTmp} ${inTmp}`)).toBeLessThan(s.indexOf('--tmpfs $B/home'));
      // Folders outside /tmp are seen through the read-only root already; nothing missing is bound.
      expect(s.filter((x) => x.startsWith('--ro-bind') && x !== '--ro-bind / /' && !x.includes('/dev/null'))).toEqual([`--ro-bind ${inTmp} ${inTmp}`]);
    } finally {
      rmSync(inTmp, { recursive: true, force: true });
    }
  });

  it('covers the agent\'s files one by one when the home cannot be covered whole', () => {
    const s = steps(bwrapArgs({ ...o, home: '/' }));
    expect(s).not.toContain('--tmpfs /');
    expect(s).toContain('--ro-bind /dev/null $B/home/config.json');
  });

  it('lets a workspace inside a secret folder show through it, and hides a secret inside the workspace', () => {
    const inSsh = path.join(base, 'user', '.ssh', 'ws');
    mkdirSync(inSsh);
    const s = steps(bwrapArgs({ ...o, workspace: inSsh }));
    expect(s.indexOf('--tmpfs $B/user/.ssh')).toBeLessThan(s.indexOf('--bind $B/user/.ssh/ws $B/user/.ssh/ws'));
    const s2 = steps(bwrapArgs({ ...o, workspace: path.join(base, 'user') }));
    expect(s2.indexOf('--bind $B/user $B/user')).toBeLessThan(s2.indexOf('--tmpfs $B/user/.ssh'));
  });

  it('covers the daemons\' sockets and the user\'s runtime folder', () => {
    const s = steps(bwrapArgs(o));
    if (existsSync('/run/user')) expect(s).toContain('--tmpfs /run/user');
    if (existsSync('/run/dbus')) expect(s).toContain('--tmpfs /run/dbus');
  });

  it('masks every copy of a denied program, at its real path, but never the shell itself', () => {
    mkdirSync(path.join(base, 'bin'));
    writeFileSync(path.join(base, 'bin', 'fetch'), '#!/bin/sh\n', { mode: 0o755 });
    symlinkSync(path.join(base, 'bin', 'fetch'), path.join(base, 'bin', 'fetch-link'));
    const s = steps(bwrapArgs({ ...o, maskPrograms: ['fetch', 'fetch-link', 'bash'], searchPath: `${base}/bin:/usr/bin:/bin` }));
    expect(s.filter((x) => x.includes('/dev/null') && x.includes('fetch'))).toEqual(['--ro-bind /dev/null $B/bin/fetch']);
    expect(s.some((x) => x.endsWith('/bash'))).toBe(false);
  });
});
