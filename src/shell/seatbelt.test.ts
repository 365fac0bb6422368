import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seatbeltArgs, seatbeltProfile } from './seatbelt.js';

// sandbox-exec runs only on macOS: here the profile's text is what is checked.
let base: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'zhixing-seatbelt-')));
  mkdirSync(path.join(base, 'home', 'workspace'), { recursive: true });
  mkdirSync(path.join(base, 'user', '.ssh'), { recursive: true });
  mkdirSync(path.join(base, 'bin'));
  writeFileSync(path.join(base, 'bin', 'zhixing-fetch'), '', { mode: 0o755 });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const options = (network: boolean) => ({
  workspace: path.join(base, 'home', 'workspace'),
  home: path.join(base, 'home'),
  tmpdir: path.join(base, 'tmp'),
  protectedFiles: [path.join(base, 'home', 'config.json')],
  userHome: path.join(base, 'user'),
  network,
  maskPrograms: ['zhixing-fetch'],
  searchPath: path.join(base, 'bin'),
  shell: '/bin/bash',
});

describe('the macOS sandbox profile', () => {
  it('denies writes but to the workspace and its temp folder, hides the home, secrets and masked programs, and can cut the network', () => {
    const full = seatbeltProfile(options(false));
    // The daemons' sockets that exist on this machine (/run/dbus…) are covered too; left out here.
    const system = Object.keys(full.params).filter((k) => /^\/(var\/)?run\//.test(full.params[k]!));
    const profile = full.profile
      .split('\n')
      .filter((l) => !system.some((k) => l.includes(`"${k}"`)))
      .join('\n');
    const params = Object.fromEntries(Object.entries(full.params).filter(([k]) => !system.includes(k)));
    expect(profile).toBe(
      [
        '(version 1)',
        '(allow default)',
        '(deny file-write*)',
        '(allow file-write* (subpath (param "WORKSPACE")) (subpath (param "TMP")) (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (regex #"^/dev/fd/") (regex #"^/dev/ttys[0-9]+$"))',
        '(deny file-read* file-write* (subpath (param "ZHIXING_HOME")))',
        '(deny file-read* file-write* (literal (param "PROTECTED_0")))',
        '(allow file-read* file-write* (subpath (param "WORKSPACE_AGAIN")))',
        '(allow file-read* (subpath (param "SKILLS")))',
        '(deny file-read* file-write* (subpath (param "SECRET_0")))',
        '(deny process-exec file-read* (literal (param "MASKED_0")))',
        '(deny network*)',
        '',
      ].join('\n'),
    );
    expect(params).toEqual({
      WORKSPACE: path.join(base, 'home', 'workspace'),
      TMP: path.join(base, 'tmp'),
      ZHIXING_HOME: path.join(base, 'home'),
      PROTECTED_0: path.join(base, 'home', 'config.json'),
      WORKSPACE_AGAIN: path.join(base, 'home', 'workspace'),
      SKILLS: path.join(base, 'home', 'skills'),
      SECRET_0: path.join(base, 'user', '.ssh'),
      MASKED_0: path.join(base, 'bin', 'zhixing-fetch'),
    });
  });

  it('leaves the network alone when it is on, and passes paths only as parameters', () => {
    const p = seatbeltProfile({ ...options(true), workspace: path.join(base, 'home', 'we"ird)') });
    expect(p.profile).not.toContain('network');
    expect(p.profile).not.toContain('we"ird');
    const args = seatbeltArgs(p);
    expect(args.slice(0, 2)).toEqual(['-p', p.profile]);
    expect(args).toContain(`WORKSPACE=${path.join(base, 'home', 'we"ird)')}`);
  });
});
