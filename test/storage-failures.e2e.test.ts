import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config/config.js';
import { defineTool } from '../src/tools/tool.js';
import { runCli } from './support/cli.js';
import { createScriptedLlm } from './support/scripted-llm.js';
import { canMount, mountSmallDisk, type SmallDisk } from './support/small-disk.js';

/**
 * A full disk or a read-only home: every storage error is a clear message, the --json contract holds,
 * the turn ends, and what the turn reports matches the disk.
 */
const cleanups: Array<() => void> = [];
afterEach(() =>
  cleanups
    .splice(0)
    .reverse()
    .forEach((c) => c()),
);

function disk(sizeKb: number): SmallDisk {
  const d = mountSmallDisk(sizeKb);
  cleanups.push(() => d.unmount());
  return d;
}

describe.skipIf(!canMount)('storage failures (on a real small tmpfs)', () => {
  it('a disk that fills mid-turn: the turn ends with a clear error and reports the file it wrote as done', async () => {
    const d = disk(4096);
    const home = join(d.path, 'home');
    // The workspace lives on another disk, so its file write succeeds while the database cannot grow.
    const workspace = mkdtempSync(join(tmpdir(), 'zhixing-ws-'));
    cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
    const config = loadConfig({ env: { ZHIXING_HOME: home, ZHIXING_LANG: 'en' }, cwd: tmpdir() });
    config.workspace = workspace;
    const llm = createScriptedLlm([
      {
        calls: [
          { name: 'file_write', args: { path: 'notes.txt', content: 'kept' } },
          { name: 'fill_disk', args: {} },
        ],
      },
      // A real model takes a moment to answer, during which the step's writes are committed (and fail).
      { calls: [{ name: 'todo_add', args: { content: 'never added' } }], delayMs: 20 },
      { text: 'All saved.' },
    ]);
    const app = await createApp(config, { llm });
    cleanups.push(() => {
      try {
        app.close();
      } catch {
        /* the disk is still full */
      }
    });
    app.tools.register(
      defineTool({
        name: 'fill_disk',
        description: 'fills the disk',
        parameters: z.object({}),
        execute: () => (d.fill(), 'filled'),
      }),
    );
    const session = app.sessions.create();
    const r = await app.sessions.send(session.id, 'write notes');
    expect(r.stopReason).toBe('error');
    expect(r.error).toMatchObject({ code: 'disk_full' });
    expect(r.error!.message).toMatch(/the disk is full\. Free some space and try again\.$/);
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('kept');
    expect(r.actions[0]).toMatchObject({ tool: 'file_write', ok: true });
    expect(r.reply).toMatch(/Done:\n- file_write: Wrote 4 bytes to notes\.txt/);
    // Nothing more was done once nothing more could be recorded.
    expect(r.actions).toHaveLength(2);
    expect(llm.requests.length).toBeLessThanOrEqual(2);
  });

  it('./bin/zhixing on a full disk: one clear line, a --json object, exit 1, no internal error', async () => {
    const d = disk(2048);
    const env = { ZHIXING_HOME: join(d.path, 'home'), ZHIXING_LANG: 'en' };
    expect((await runCli(['记一下 买牛奶'], env, { cwd: d.path })).code).toBe(0);
    d.fill();
    const r = await runCli(['--json', '记一下 买面包'], env, { cwd: d.path });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ reply: '', actions: [], error: { code: 'disk_full' } });
    expect(r.stderr).toMatch(/^zhixing: Could not save to .*: the disk is full\. Free some space and try again\.\n$/);
    expect(r.stderr).not.toContain('internal error');
    d.free();
    const list = await runCli(['--json', '看看待办'], env, { cwd: d.path });
    expect(JSON.parse(list.stdout).reply).toContain('买牛奶');
    expect(JSON.parse(list.stdout).reply).not.toContain('买面包');
  });

  it('a read-only home is said plainly, with a --json object', async () => {
    const d = disk(2048);
    const env = { ZHIXING_HOME: join(d.path, 'home'), ZHIXING_LANG: 'en' };
    expect((await runCli(['记一下 买牛奶'], env, { cwd: d.path })).code).toBe(0);
    d.readOnly();
    const r = await runCli(['--json', '看看待办'], env, { cwd: d.path });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error.code).toBe('read_only');
    expect(r.stderr).toMatch(
      /^zhixing: Could not save to .*home: it is read-only\. Make it writable, or set ZHIXING_HOME to a folder Zhixing can write\.\n$/,
    );
  });
});

describe('the home and the database are private', () => {
  it('creates the database 0600 (and its journal files with it), and tightens an old world-readable one', async () => {
    const root = mkdtempSync(join(tmpdir(), 'zhixing-perm-'));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    const home = join(root, 'home');
    const r = await runCli(['1+1'], { ZHIXING_HOME: home }, { cwd: root });
    expect(r.code).toBe(0);
    const { statSync, chmodSync } = await import('node:fs');
    expect(statSync(join(home, 'zhixing.db')).mode & 0o777).toBe(0o600);
    for (const f of ['zhixing.db-wal', 'zhixing.db-shm'])
      if (existsSync(join(home, f))) expect(statSync(join(home, f)).mode & 0o077).toBe(0);
    chmodSync(join(home, 'zhixing.db'), 0o644);
    await runCli(['1+1'], { ZHIXING_HOME: home }, { cwd: root });
    expect(statSync(join(home, 'zhixing.db')).mode & 0o777).toBe(0o600);
  });
});
