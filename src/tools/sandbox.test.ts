import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkPath, isInside, locateInSandbox, notFoundMessage, resolveInSandbox, similarNames } from './sandbox.js';
import type { ToolContext } from './tool.js';
import { ToolError } from '../contract/tool-error.js';
import type { PermissionRequest } from '../contract/permission.js';

let base: string;
let ws: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'zhixing-sandbox-')));
  ws = path.join(base, 'workspace');
  await mkdir(ws);
  await mkdir(path.join(base, 'workspace-evil'));
  await writeFile(path.join(base, 'workspace-evil', 'x'), 'evil');
  await writeFile(path.join(base, 'secret.txt'), 'secret');
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function refusal(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ToolError);
  return (err as ToolError).message;
}

describe('isInside', () => {
  it('compares whole path segments, not string prefixes', () => {
    expect(isInside('/a/ws', '/a/ws')).toBe(true);
    expect(isInside('/a/ws', '/a/ws/x/y')).toBe(true);
    expect(isInside('/a/ws', '/a/ws-evil/x')).toBe(false);
    expect(isInside('/a/ws', '/a')).toBe(false);
    expect(isInside('/a/ws', '/a/ws/..foo')).toBe(true);
  });
});

describe('resolveInSandbox', () => {
  it('resolves plain relative paths, including ones that do not exist yet', async () => {
    expect(await resolveInSandbox(ws, 'a.txt', 'en')).toBe(path.join(ws, 'a.txt'));
    expect(await resolveInSandbox(ws, 'notes/deep/a.txt', 'en', { forWrite: true })).toBe(
      path.join(ws, 'notes/deep/a.txt'),
    );
    expect(await resolveInSandbox(ws, 'a/../b.txt', 'en')).toBe(path.join(ws, 'b.txt'));
    expect(await resolveInSandbox(ws, '.', 'en')).toBe(ws);
    // `~` is an ordinary name here, never the home folder.
    expect(await resolveInSandbox(ws, '~/x', 'en')).toBe(path.join(ws, '~', 'x'));
    // On Linux a backslash is part of a file name.
    expect(await resolveInSandbox(ws, 'a\\b.txt', 'en')).toBe(path.join(ws, 'a\\b.txt'));
  });

  it('creates a missing workspace', async () => {
    const fresh = path.join(base, 'new-ws');
    expect(await resolveInSandbox(fresh, 'a.txt', 'en')).toBe(path.join(fresh, 'a.txt'));
  });

  it('refuses empty paths and NUL bytes', async () => {
    expect(await refusal(resolveInSandbox(ws, '', 'zh'))).toBe('路径为空：请给出相对于工作区的文件路径。');
    expect(await refusal(resolveInSandbox(ws, '   ', 'en'))).toBe(
      'The path is empty: give a file path relative to the workspace.',
    );
    expect(await refusal(resolveInSandbox(ws, 'a\0.txt', 'en'))).toBe(
      'The path contains a NUL character and cannot be used.',
    );
  });

  it('refuses a path too deep, too long or with too long a name before touching the disk, not even to make the workspace', async () => {
    const fresh = path.join(base, 'new-ws');
    const deep = (levels: number): string => [...Array.from({ length: levels }, (_, i) => `d${i}`), 'f.txt'].join('/');
    expect(await refusal(resolveInSandbox(fresh, deep(65), 'en', { forWrite: true }))).toBe(
      'The path is 65 folders deep; at most 64 are allowed. Use a shallower path.',
    );
    expect(await refusal(resolveInSandbox(fresh, deep(1000), 'zh'))).toBe(
      '路径有 1,000 层文件夹，最多允许 64 层。请换一个层级少一些的路径。',
    );
    expect(await refusal(resolveInSandbox(fresh, 'a/'.repeat(2048) + 'b', 'en'))).toContain('2,048 folders deep');
    expect(await refusal(resolveInSandbox(fresh, `${'x'.repeat(255)}/`.repeat(17), 'en'))).toBe(
      'The path is 4,352 bytes long; at most 4,096 are allowed. Use a shorter path.',
    );
    expect(await refusal(resolveInSandbox(fresh, `notes/${'汉'.repeat(86)}.md`, 'en'))).toContain(
      'is too long: 261 bytes',
    );
    expect(existsSync(fresh)).toBe(false);
    // The limits themselves are allowed, and `..` and `.` are no levels.
    expect(await resolveInSandbox(fresh, deep(64), 'en', { forWrite: true })).toBe(path.join(fresh, deep(64)));
    expect(await resolveInSandbox(fresh, `./${deep(64)}/../g.txt`, 'en')).toBe(
      path.join(fresh, path.dirname(deep(64)), 'g.txt'),
    );
  });

  it('refuses absolute paths, POSIX and Windows forms', async () => {
    expect(await refusal(resolveInSandbox(ws, '/etc/passwd', 'en'))).toBe(
      'Refused to access /etc/passwd: it is an absolute path, outside the workspace. Only files inside the workspace can be used; give a path relative to the workspace (e.g. notes/a.txt).',
    );
    expect(await refusal(resolveInSandbox(ws, '/etc/passwd', 'zh'))).toBe(
      '拒绝访问 /etc/passwd：这是绝对路径，指向工作区之外。只能访问工作区内的文件，请使用相对于工作区的路径（例如 notes/a.txt）。',
    );
    for (const p of ['C:\\x', 'c:/windows/win.ini', '\\\\server\\share', path.join(ws, 'a.txt')]) {
      expect(await refusal(resolveInSandbox(ws, p, 'en'))).toContain('absolute path, outside the workspace');
    }
  });

  it('refuses .. that escapes, including into a sibling whose name starts like the workspace', async () => {
    for (const p of ['../secret.txt', 'a/../../x', '..', '../workspace-evil/x', 'notes/../../workspace-evil/x']) {
      expect(await refusal(resolveInSandbox(ws, p, 'en'))).toContain('it uses .. to reach outside the workspace');
    }
    expect(await refusal(resolveInSandbox(ws, '../secret.txt', 'zh'))).toBe(
      '拒绝访问 ../secret.txt：它用 .. 跳到了工作区之外。只能访问工作区内的文件，请使用相对于工作区的路径（例如 notes/a.txt）。',
    );
    // Going out and straight back in lands inside, which is fine.
    expect(await resolveInSandbox(ws, '../workspace/a.txt', 'en')).toBe(path.join(ws, 'a.txt'));
  });

  it('refuses symlinks that lead outside, for reads and for writes below them', async () => {
    await symlink(path.join(base, 'secret.txt'), path.join(ws, 'link.txt'));
    await symlink(base, path.join(ws, 'outdir'));
    expect(await refusal(resolveInSandbox(ws, 'link.txt', 'en'))).toContain(
      'symbolic link that leads outside the workspace',
    );
    expect(await refusal(resolveInSandbox(ws, 'outdir/secret.txt', 'en'))).toContain(
      'symbolic link that leads outside',
    );
    expect(await refusal(resolveInSandbox(ws, 'outdir/new/deep.txt', 'en', { forWrite: true }))).toContain(
      'symbolic link that leads outside',
    );
  });

  it('refuses to write through a final symlink, wherever it points', async () => {
    await writeFile(path.join(ws, 'real.txt'), 'inside');
    await symlink(path.join(ws, 'real.txt'), path.join(ws, 'alias.txt'));
    await symlink(path.join(base, 'nowhere.txt'), path.join(ws, 'dangling.txt'));
    expect(await refusal(resolveInSandbox(ws, 'alias.txt', 'en', { forWrite: true }))).toBe(
      'Refused to write to alias.txt: it is a symbolic link, and writes never go through links. Write to the real file instead, or pick another name.',
    );
    expect(await refusal(resolveInSandbox(ws, 'dangling.txt', 'zh', { forWrite: true }))).toContain('它是一个符号链接');
    // Reading through an inside link is fine and yields the real file.
    expect(await resolveInSandbox(ws, 'alias.txt', 'en')).toBe(path.join(ws, 'real.txt'));
  });

  it('reports symlink loops clearly', async () => {
    await symlink(path.join(ws, 'b'), path.join(ws, 'a'));
    await symlink(path.join(ws, 'a'), path.join(ws, 'b'));
    expect(await refusal(resolveInSandbox(ws, 'a/x.txt', 'en'))).toBe(
      'Cannot use the path a/x.txt: its symbolic links form a loop.',
    );
  });
});

describe('locateInSandbox', () => {
  it('shows relative paths with / and never the absolute workspace', async () => {
    const inside = await locateInSandbox(ws, 'notes/./a.txt', 'en');
    expect(inside).toEqual({ target: path.join(ws, 'notes', 'a.txt'), display: 'notes/a.txt', inside: true });
    const outside = await locateInSandbox(ws, '../secret.txt', 'en');
    expect(outside).toMatchObject({
      display: '../secret.txt',
      inside: false,
      reason: 'escape',
      target: path.join(base, 'secret.txt'),
    });
  });

  it('classifies a dangling link that points outside as outside, used as a folder or as the file', async () => {
    await symlink(path.join(base, 'outside', 'missing-dir'), path.join(ws, 'd'));
    await symlink(path.join(base, 'nowhere.txt'), path.join(ws, 'gone.txt'));
    for (const forWrite of [false, true]) {
      expect(await locateInSandbox(ws, 'd/x.txt', 'en', { forWrite })).toEqual({
        target: path.join(base, 'outside', 'missing-dir', 'x.txt'),
        display: 'd/x.txt',
        inside: false,
        reason: 'symlink',
      });
      expect(await refusal(resolveInSandbox(ws, 'd/new/deep.txt', 'en', { forWrite }))).toContain(
        'symbolic link that leads outside',
      );
    }
    expect(await locateInSandbox(ws, 'gone.txt', 'en')).toEqual({
      target: path.join(base, 'nowhere.txt'),
      display: 'gone.txt',
      inside: false,
      reason: 'symlink',
      finalLink: true,
    });
    expect(await locateInSandbox(ws, 'd', 'en')).toMatchObject({ inside: false, reason: 'symlink' });
  });

  it('follows relative links, chains of links and .. inside link targets the way the system does', async () => {
    await mkdir(path.join(ws, 'sub'));
    // inside -> inside -> outside, written relative to each link's own folder.
    await symlink('sub/hop2', path.join(ws, 'hop1'));
    await symlink('../../secret.txt', path.join(ws, 'sub', 'hop2'));
    expect(await locateInSandbox(ws, 'hop1', 'en')).toMatchObject({
      target: path.join(base, 'secret.txt'),
      inside: false,
      reason: 'symlink',
    });
    // A chain that stays inside is fine, and its dangling end inside stays inside.
    await symlink('sub', path.join(ws, 'in1'));
    await symlink('in1', path.join(ws, 'in2'));
    expect(await locateInSandbox(ws, 'in2/a.txt', 'en', { forWrite: true })).toEqual({
      target: path.join(ws, 'sub', 'a.txt'),
      display: 'in2/a.txt',
      inside: true,
    });
    await symlink('sub/missing', path.join(ws, 'in3'));
    expect(await locateInSandbox(ws, 'in3/deep/a.txt', 'en', { forWrite: true })).toMatchObject({
      target: path.join(ws, 'sub', 'missing', 'deep', 'a.txt'),
      inside: true,
    });
    // `..` in a link target climbs from the link's real folder, not from the name the user typed.
    await symlink(path.join(ws, 'sub'), path.join(ws, 'sublink'));
    await symlink('../..', path.join(ws, 'sub', 'up'));
    expect(await locateInSandbox(ws, 'sublink/up/secret.txt', 'en')).toMatchObject({
      target: path.join(base, 'secret.txt'),
      inside: false,
      reason: 'symlink',
    });
  });

  it('reports loops of any length', async () => {
    await symlink('self', path.join(ws, 'self'));
    await symlink(path.join(ws, 'c2'), path.join(ws, 'c1'));
    await symlink('c3/x', path.join(ws, 'c2'));
    await symlink('c1', path.join(ws, 'c3'));
    expect(await refusal(resolveInSandbox(ws, 'self', 'en'))).toBe(
      'Cannot use the path self: its symbolic links form a loop.',
    );
    expect(await refusal(resolveInSandbox(ws, 'c1/y.txt', 'zh', { forWrite: true }))).toBe(
      '无法使用路径 c1/y.txt：符号链接形成了循环。',
    );
  });
});

describe('checkPath', () => {
  function ctx(decide: (r: PermissionRequest) => 'allow' | 'deny', asked: PermissionRequest[]): ToolContext {
    return {
      sessionId: 's1',
      workspace: ws,
      signal: new AbortController().signal,
      lang: 'en',
      progress: () => {},
      turnId: 't1',
      callId: 'c1',
      ask: async (r) => {
        asked.push(r);
        return decide(r);
      },
    };
  }

  it('asks with the resolved target and a truthful insideSandbox', async () => {
    const asked: PermissionRequest[] = [];
    const allowAll = ctx(() => 'allow', asked);
    await checkPath(allowAll, 'file.read', 'a.txt');
    const out = await checkPath(allowAll, 'file.read', '../secret.txt');
    expect(asked).toEqual([
      { action: 'file.read', target: path.join(ws, 'a.txt'), insideSandbox: true, aliases: ['a.txt'] },
      { action: 'file.read', target: path.join(base, 'secret.txt'), insideSandbox: false },
    ]);
    // A policy that allows outside gets a working target.
    expect(out.target).toBe(path.join(base, 'secret.txt'));
  });

  it('turns a deny into a refusal that says why', async () => {
    const asked: PermissionRequest[] = [];
    const defaultPolicy = ctx((r) => (r.insideSandbox ? 'allow' : 'deny'), asked);
    expect(await refusal(checkPath(defaultPolicy, 'file.write', '../workspace-evil/x'))).toBe(
      'Refused to write to ../workspace-evil/x: it uses .. to reach outside the workspace. Only files inside the workspace can be used; give a path relative to the workspace (e.g. notes/a.txt).',
    );
    const denyAll = ctx(() => 'deny', asked);
    expect(await refusal(checkPath(denyAll, 'file.list', 'notes'))).toBe(
      'Listing notes was refused by the permission settings; nothing was changed.',
    );
    expect(asked.map((r) => r.insideSandbox)).toEqual([false, true]);
  });
});

describe('notFoundMessage', () => {
  it('never offers the very name that was asked for', async () => {
    await symlink(path.join(ws, 'g'), path.join(ws, 'f'));
    await writeFile(path.join(ws, 'fa'), '');
    const msg = await notFoundMessage('en', { target: path.join(ws, 'f'), display: 'f', inside: true });
    expect(msg).toBe('f was not found: there is no such file or folder. Did you mean: fa?');
  });

  it('says when the name is a link whose target is missing', async () => {
    await symlink(path.join(ws, 'g'), path.join(ws, 'f'));
    const located = await locateInSandbox(ws, 'f', 'en');
    expect(located).toEqual({ target: path.join(ws, 'g'), display: 'f', inside: true, finalLink: true });
    expect(await notFoundMessage('en', located)).toBe(
      'f was not found: it is a symbolic link whose target does not exist.',
    );
    expect(await notFoundMessage('zh', located)).toBe('找不到 f：它是一个符号链接，但它指向的目标不存在。');
  });
});

describe('similarNames', () => {
  it('finds typos, case differences and other extensions, and skips temp files', async () => {
    for (const n of ['notes.txt', 'README.md', 'report.csv', 'zzz.bin', `.zhixing-${process.pid}-0123456789ab.tmp`])
      await writeFile(path.join(ws, n), '');
    expect(await similarNames(ws, 'note.txt')).toEqual(['notes.txt']);
    expect(await similarNames(ws, 'readme.md')).toEqual(['README.md']);
    expect(await similarNames(ws, 'report.xlsx')).toEqual(['report.csv']);
    expect(await similarNames(ws, 'completely-different.doc')).toEqual([]);
  });
});
