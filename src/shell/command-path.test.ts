import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commandPath } from './command-path.js';
import { DEFAULT_PATH } from './env.js';

let base: string;
let ws: string;
let user: string;
let sys: string;
let tmp: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(existsSync('/var/tmp') ? '/var/tmp' : os.tmpdir(), 'zhixing-path-')));
  ws = path.join(base, 'user', '.zhixing', 'workspace');
  user = path.join(base, 'user');
  sys = path.join(base, 'sys');
  tmp = path.join(base, 'tmp');
  for (const d of [path.join(ws, 'bin'), path.join(user, '.cargo', 'bin'), path.join(sys, 'bin'), path.join(tmp, 'x')])
    mkdirSync(d, { recursive: true });
  // A link outside the workspace that leads into it, and one in the home that leads out of it.
  symlinkSync(path.join(ws, 'bin'), path.join(base, 'ws-bin'));
  symlinkSync(path.join(sys, 'bin'), path.join(user, 'linked'));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** Folders of the result, with the test's base folder as `$B`. */
const folders = (p: string) => p.split(':').map((d) => d.replaceAll(base, '$B'));

describe('the PATH a command gets', () => {
  const odd = () =>
    [
      '.',
      '',
      'bin',
      'relative/bin',
      `${user}/.local/bin`,
      `${user}/bin`,
      `${sys}/bin`,
      `${sys}/bin`,
      `${sys}/bin/`,
      ws,
      `${ws}/bin`,
      `${base}/ws-bin`,
      `${tmp}/x`,
      `${tmp}/missing`,
      `${user}/.cargo/bin`,
      `${user}/linked`,
      user,
    ].join(':');

  it('under bubblewrap keeps only folders that exist, outside what the command writes, shown in the home at their own path', () => {
    const got = commandPath({
      searchPath: odd(),
      writable: [ws, tmp],
      emptyHome: { path: user, hidden: [path.join(user, '.zhixing')] },
    });
    expect(folders(got)).toEqual(['$B/sys/bin', '$B/user/.cargo/bin']);
  });

  it('without an empty home keeps the home folders that exist, and drops the rest all the same', () => {
    const got = commandPath({ searchPath: odd(), writable: [ws, tmp] });
    expect(folders(got)).toEqual(['$B/sys/bin', '$B/user/.cargo/bin', '$B/user/linked', '$B/user']);
  });

  it('never keeps a home folder that holds a hidden one, nor a workspace reached through a link', () => {
    const hiddenInside = path.join(user, '.cargo', 'bin', 'secret');
    mkdirSync(hiddenInside);
    symlinkSync(ws, path.join(base, 'ws-link'));
    const got = commandPath({
      searchPath: `${user}/.cargo/bin:${base}/ws-link:${sys}/bin`,
      writable: [path.join(base, 'ws-link'), tmp],
      emptyHome: { path: user, hidden: [hiddenInside] },
    });
    expect(folders(got)).toEqual(['$B/sys/bin']);
  });

  it('is never empty, which bash would read as the current folder', () => {
    const got = commandPath({ searchPath: `.:${ws}/bin::`, writable: [ws] });
    expect(got).not.toBe('');
    expect(got.split(':').every((d) => path.isAbsolute(d) && DEFAULT_PATH.split(':').includes(d))).toBe(true);
  });
});
