import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bwrapArgs, type ContainOptions } from './bwrap.js';

let base: string;
let o: ContainOptions;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(existsSync('/var/tmp') ? '/var/tmp' : os.tmpdir(), 'zhixing-bwrap-')));
  const home = path.join(base, 'user', '.zhixing');
  mkdirSync(path.join(home, 'workspace'), { recursive: true });
  mkdirSync(path.join(base, 'user', '.ssh'), { recursive: true });
  writeFileSync(path.join(base, 'user', '.bashrc'), 'export OPENAI_API_KEY=sk-x\n');
  writeFileSync(path.join(home, 'config.json'), '{}');
  o = {
    workspace: path.join(home, 'workspace'),
    home,
    protectedFiles: [path.join(home, 'config.json')],
    userHome: path.join(base, 'user'),
    network: false,
    maskPrograms: [],
    searchPath: '/usr/bin:/bin',
    shell: '/bin/bash',
  };
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** The option pairs in order, as `--flag value…` strings, for reading the policy off. */
function steps(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const flag = args[i]!;
    const arity = ['--ro-bind', '--bind', '--symlink'].includes(flag)
      ? 2
      : ['--tmpfs', '--remount-ro', '--chdir', '--dev', '--proc', '--cap-drop', '--info-fd', '--block-fd'].includes(
            flag,
          )
        ? 1
        : 0;
    out.push([flag, ...args.slice(i + 1, i + 1 + arity)].join(' ').replaceAll(base, '$B'));
    i += arity;
  }
  return out;
}

describe('the bubblewrap policy', () => {
  it("starts from an empty root: the system read-only, an empty home, the workspace writable, nothing else of the user's", () => {
    const s = steps(bwrapArgs(o));
    expect(s).not.toContain('--ro-bind / /');
    expect(s).toContain('--ro-bind /usr /usr');
    expect(s).toContain('--ro-bind /etc /etc');
    expect(s.indexOf('--tmpfs $B/user')).toBeGreaterThan(s.indexOf('--tmpfs /tmp'));
    expect(s.indexOf('--bind $B/user/.zhixing/workspace $B/user/.zhixing/workspace')).toBeGreaterThan(
      s.indexOf('--tmpfs $B/user'),
    );
    // Nothing of the user's home or Zhixing's is bound: not the folder, not a file in it.
    expect(s.filter((x) => /^--(ro-)?bind \$B/.test(x))).toEqual([
      '--bind $B/user/.zhixing/workspace $B/user/.zhixing/workspace',
    ]);
    expect(s).toContain('--remount-ro /');
    expect(s.slice(-8)).toEqual([
      '--unshare-pid',
      '--unshare-ipc',
      '--unshare-uts',
      '--unshare-cgroup-try',
      '--unshare-net',
      '--die-with-parent',
      '--new-session',
      '--cap-drop ALL',
    ]);
  });

  it('covers what /etc holds of secrets', () => {
    const s = steps(bwrapArgs(o));
    if (existsSync('/etc/shadow')) expect(s).toContain('--ro-bind /dev/null /etc/shadow');
    if (existsSync('/etc/ssh')) expect(s).toContain('--tmpfs /etc/ssh');
    if (existsSync('/etc/npmrc')) expect(s).toContain('--ro-bind /dev/null /etc/npmrc');
    // Shells' startup files in the empty home: empty and unwritable.
    for (const file of ['.profile', '.bashrc', '.bash_profile'])
      expect(s).toContain(`--ro-bind /dev/null $B/user/${file}`);
    if (existsSync('/etc/apt/auth.conf.d')) expect(s).toContain('--tmpfs /etc/apt/auth.conf.d');
  });

  it('shows skills read-only, through a link too; with user-mode network, a resolv.conf and the hand-over descriptors', () => {
    mkdirSync(path.join(base, 'my-skills'));
    symlinkSync(path.join(base, 'my-skills'), path.join(o.home, 'skills'));
    writeFileSync(path.join(base, 'resolv.conf'), 'nameserver 203.0.113.53\n');
    const s = steps(bwrapArgs({ ...o, network: true }, { resolvConf: path.join(base, 'resolv.conf') }));
    expect(s).toContain('--ro-bind $B/my-skills $B/user/.zhixing/skills');
    expect(s).toContain('--ro-bind $B/resolv.conf /etc/resolv.conf');
    expect(s.slice(-2)).toEqual(['--info-fd 3', '--block-fd 4']);
  });

  it('shows a given folder at its path and its real one, but never one that holds the home or a private folder', () => {
    mkdirSync(path.join(base, 'install', 'node_modules'), { recursive: true });
    symlinkSync(path.join(base, 'install', 'node_modules'), path.join(base, 'nm-link'));
    mkdirSync(path.join(base, 'start'));
    const s = steps(
      bwrapArgs({
        ...o,
        shown: [path.join(base, 'nm-link'), base, path.join(base, 'start', '..')],
        private: [path.join(base, 'start')],
      }),
    );
    expect(s).toContain('--ro-bind $B/install/node_modules $B/install/node_modules');
    expect(s).toContain('--ro-bind $B/install/node_modules $B/nm-link');
    expect(s).not.toContain('--ro-bind $B $B');
  });

  it('shows the installation of a program on PATH outside the system, never the home holding it, and covers keys inside', () => {
    const cargo = path.join(base, 'user', '.cargo');
    mkdirSync(path.join(cargo, 'bin'), { recursive: true });
    writeFileSync(path.join(cargo, 'credentials.toml'), 'token = "x"\n');
    mkdirSync(path.join(base, 'user', 'bin'));
    const s = steps(bwrapArgs({ ...o, searchPath: `${cargo}/bin:${base}/user/bin:/usr/bin` }));
    expect(s).toContain('--ro-bind $B/user/.cargo $B/user/.cargo');
    expect(s).toContain('--ro-bind /dev/null $B/user/.cargo/credentials.toml');
    // ~/bin's folder above is the home itself: ~/bin alone is shown, never the home.
    expect(s).toContain('--ro-bind $B/user/bin $B/user/bin');
    expect(s).not.toContain('--ro-bind $B/user $B/user');
  });

  it('holds a PATH folder shown deep in the home: each folder above it is a mount of its own, made before it', () => {
    const local = path.join(base, 'user', '.local', 'bin');
    const node = path.join(base, 'user', '.nvm', 'versions', 'node', 'v22', 'bin');
    for (const d of [local, node, path.join(o.home, 'skills')]) mkdirSync(d, { recursive: true });
    const s = steps(bwrapArgs({ ...o, searchPath: `${local}:${node}:/usr/bin` }));
    const at = (step: string) => {
      expect(s).toContain(step);
      return s.indexOf(step);
    };
    // `mv ~/.local ~/x` would otherwise take the read-only ~/.local/bin away and leave room for a writable one.
    expect(at('--tmpfs $B/user/.local')).toBeLessThan(at('--ro-bind $B/user/.local/bin $B/user/.local/bin'));
    expect(at('--tmpfs $B/user')).toBeLessThan(at('--tmpfs $B/user/.nvm'));
    expect(at('--tmpfs $B/user/.nvm')).toBeLessThan(at('--tmpfs $B/user/.nvm/versions'));
    expect(at('--tmpfs $B/user/.nvm/versions/node')).toBeLessThan(
      at('--ro-bind $B/user/.nvm/versions/node/v22 $B/user/.nvm/versions/node/v22'),
    );
    // The folder holding the skills and the workspace too, and the workspace bound into it after, or it would be hidden.
    expect(at('--tmpfs $B/user/.zhixing')).toBeLessThan(
      at('--bind $B/user/.zhixing/workspace $B/user/.zhixing/workspace'),
    );
    expect(s.filter((x) => x.startsWith('--tmpfs $B/user/.zhixing/'))).toEqual([]);
  });

  it('masks every copy of a denied program, at its real path, but never the shell itself', () => {
    mkdirSync(path.join(base, 'tools', 'bin'), { recursive: true });
    writeFileSync(path.join(base, 'tools', 'bin', 'fetch'), '#!/bin/sh\n', { mode: 0o755 });
    symlinkSync(path.join(base, 'tools', 'bin', 'fetch'), path.join(base, 'tools', 'bin', 'fetch-link'));
    const s = steps(
      bwrapArgs({ ...o, maskPrograms: ['fetch', 'fetch-link', 'bash'], searchPath: `${base}/tools/bin:/usr/bin:/bin` }),
    );
    expect(s.filter((x) => x.includes('/dev/null') && x.includes('fetch'))).toEqual([
      '--ro-bind /dev/null $B/tools/bin/fetch',
    ]);
    expect(s.some((x) => x.startsWith('--ro-bind /dev/null') && x.endsWith('/bash'))).toBe(false);
  });
});
