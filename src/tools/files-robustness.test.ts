import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, watch } from 'node:fs';
import { mkdir, readFile, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileListTool } from './file-list.js';
import { fileReadTool } from './file-read.js';
import { fileWriteTool } from './file-write.js';
import type { Lang } from '../i18n.js';
import type { ToolContext } from './tool.js';
import { asked, ctx, fails, run, tree, useWorkspace, ws } from '../../test/support/file-tools.js';

/** file_write when stopped, after a crash, and at the edges of names and depth. */

useWorkspace();

describe('file_write stopped by its signal', () => {
  const withSignal = (signal: AbortSignal, lang: Lang = 'en'): ToolContext => ({ ...ctx(lang), signal });
  // Just under the 5 MB limit, so the write takes many chunks and a stop can land inside it.
  const big = '知'.repeat(1_666_666);
  const bigBytes = '4,999,998';

  /** Runs a write, never throwing: what the tool said, and whether it said it as a success. */
  const attempt = (p: string, c: ToolContext) =>
    run(fileWriteTool, { path: p, content: big }, c).then(
      (out) => ({ ok: true, out }),
      (err: Error) => ({ ok: false, out: err.message }),
    );

  it('says it cannot be stopped only at the rename: before it no file, after it the whole file', async () => {
    const states: Array<{ target: boolean; temps: string[] }> = [];
    const c: ToolContext = {
      ...ctx(),
      unstoppable: () => {
        const names = readdirSync(ws);
        states.push({ target: names.includes('late.txt'), temps: names.filter((n) => n.endsWith('.tmp')) });
      },
    };
    await run(fileWriteTool, { path: 'late.txt', content: 'all of it' }, c);
    expect(states).toEqual([{ target: false, temps: [expect.stringMatching(/^\.zhixing-\d+-[0-9a-f]{12}\.tmp$/)] }]);
    expect(await readFile(path.join(ws, 'late.txt'), 'utf8')).toBe('all of it');
  });

  it('writes nothing when stopped before it starts, and says so', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await fails(fileWriteTool, { path: 'notes/a.txt', content: 'x' }, withSignal(controller.signal))).toBe(
      'Writing notes/a.txt was cancelled; nothing was written.',
    );
    expect(await fails(fileWriteTool, { path: 'notes/a.txt', content: 'x' }, withSignal(controller.signal, 'zh'))).toBe(
      '写入 notes/a.txt 已取消，没有写入任何内容。',
    );
    expect(await tree(ws)).toEqual([]);
  });

  it('stopped once its temp file exists, leaves no file and no temp file, and says nothing was written', async () => {
    await mkdir(path.join(ws, 'out'));
    const controller = new AbortController();
    const watcher = watch(path.join(ws, 'out'), (_event, name) => {
      if (String(name).endsWith('.tmp')) controller.abort();
    });
    try {
      expect(await attempt('out/big.txt', withSignal(controller.signal))).toEqual({
        ok: false,
        out: 'Writing out/big.txt was cancelled; nothing was written.',
      });
    } finally {
      watcher.close();
    }
    expect(await tree(ws)).toEqual(['out']);
  });

  it('stopped at any moment, either wrote the whole file and said so, or wrote nothing and said that', async () => {
    for (const delayMs of [0, 1, 2, 5, 10, 20, 50]) {
      const controller = new AbortController();
      const p = `out/after-${delayMs}ms.txt`;
      const pending = attempt(p, withSignal(controller.signal));
      setTimeout(() => controller.abort(), delayMs);
      const result = await pending;
      const onDisk = await readFile(path.join(ws, p), 'utf8').catch(() => undefined);
      if (result.ok) {
        expect(result.out).toBe(`Wrote ${bigBytes} bytes to ${p}`);
        expect(onDisk === big).toBe(true);
      } else {
        expect(result.out).toBe(`Writing ${p} was cancelled; nothing was written.`);
        expect(onDisk).toBeUndefined();
      }
    }
    expect((await tree(ws)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});

describe('temp files left by a crash', () => {
  const HOUR_MS = 60 * 60 * 1000;

  it("a later write to the folder removes those whose writer is gone or that are over an hour old, never a live writer's", async () => {
    // A writer that was killed: its process has exited, so its pid is gone.
    const dead = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await once(dead, 'exit');
    // A writer still at work in another process.
    const live = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      const temps = {
        dead: `.zhixing-${dead.pid}-0123456789ab.tmp`,
        live: `.zhixing-${live.pid}-0123456789ab.tmp`,
        // A live pid on a temp over an hour old: the pid was reused after the writer died.
        reused: `.zhixing-${live.pid}-ba9876543210.tmp`,
      };
      const twoHoursAgo = new Date(Date.now() - 2 * HOUR_MS);
      for (const dir of ['notes', 'logs']) {
        await mkdir(path.join(ws, dir));
        for (const name of Object.values(temps)) await writeFile(path.join(ws, dir, name), 'partial');
        await utimes(path.join(ws, dir, temps.reused), twoHoursAgo, twoHoursAgo);
      }

      expect(await run(fileWriteTool, { path: 'notes/a.txt', content: 'hello' })).toBe('Wrote 5 bytes to notes/a.txt');
      expect((await readdir(path.join(ws, 'notes'))).sort()).toEqual([temps.live, 'a.txt'].sort());
      // Only the folder written to is swept.
      expect(await readdir(path.join(ws, 'logs'))).toHaveLength(3);
      expect(await run(fileListTool, { path: 'notes' })).toBe('notes/ has 1 entry:\na.txt (5 B)');

      // A listing hides Zhixing's own temps, and deletes nothing: it only reads.
      expect(await run(fileListTool, { path: 'logs' })).toBe('logs/ is an empty folder.');
      expect(await readdir(path.join(ws, 'logs'))).toHaveLength(3);
      expect(await run(fileListTool, {})).toBe('The workspace root has 2 entries:\nlogs/\nnotes/');
    } finally {
      live.kill('SIGKILL');
    }
  });

  it("a user's file named like an old temp file survives listings and writes, and is listed", async () => {
    // The earlier temp form `.<name>.<hex>.tmp` is a name a user may choose: a dated report, a backup.
    const users = [
      '.report.20250101.tmp',
      '.a.txt.0123456789ab.tmp',
      '.zhixing-notes.tmp',
      '.zhixing-1-0123456789ab.tmp.bak',
    ];
    const twoHoursAgo = new Date(Date.now() - 2 * HOUR_MS);
    await mkdir(path.join(ws, 'notes'));
    for (const name of users) {
      await writeFile(path.join(ws, 'notes', name), 'mine');
      await utimes(path.join(ws, 'notes', name), twoHoursAgo, twoHoursAgo);
    }

    expect(await run(fileListTool, { path: 'notes' })).toBe(
      `notes/ has 4 entries:\n${[...users]
        .sort()
        .map((n) => `${n} (4 B)`)
        .join('\n')}`,
    );
    expect(await run(fileWriteTool, { path: 'notes/a.txt', content: 'hello' })).toBe('Wrote 5 bytes to notes/a.txt');
    expect(await run(fileListTool, { path: 'notes' })).toContain('.report.20250101.tmp (4 B)');
    for (const name of users) expect(await readFile(path.join(ws, 'notes', name), 'utf8')).toBe('mine');
  });

  it("file_write refuses a name in the form of Zhixing's own temps, which would be hidden and swept", async () => {
    expect(await fails(fileWriteTool, { path: 'notes/.zhixing-1-0123456789ab.tmp', content: 'x' })).toBe(
      '".zhixing-1-0123456789ab.tmp" is the form of Zhixing\'s own temp files, which are hidden and cleaned away. Pick another name. Nothing was written.',
    );
    expect(await tree(ws)).toEqual([]);
  });
});

describe('long names', () => {
  // 85 CJK characters are 255 bytes in UTF-8: the longest name Linux file systems take.
  const longest = '知'.repeat(85);

  it('write, overwrite and read back a file whose name is 85 CJK characters (255 bytes)', async () => {
    expect(Buffer.byteLength(longest)).toBe(255);
    expect(await run(fileWriteTool, { path: `长名/${longest}`, content: 'one' })).toBe(
      `Wrote 3 bytes to 长名/${longest}`,
    );
    expect(await run(fileWriteTool, { path: `长名/${longest}`, content: '第二版' }, ctx('zh'))).toBe(
      `已写入 长名/${longest}（9 字节），覆盖了原有内容`,
    );
    expect(await run(fileReadTool, { path: `长名/${longest}` })).toBe('第二版');
    expect(await run(fileListTool, { path: '长名' })).toBe(`长名/ has 1 entry:\n${longest} (9 B)`);
    expect(await tree(ws)).toEqual(['长名', `长名/${longest}`]);
  });

  it('refuse a 256-byte name as too long, for every tool, and write nothing', async () => {
    const tooLong = `${longest}a`;
    expect(await fails(fileWriteTool, { path: `长名/${tooLong}`, content: 'x' })).toBe(
      'The name "知知知知知知知知知知…" is too long: 256 bytes, where a file or folder name can have at most 255 (about 85 Chinese characters). Use a shorter name.',
    );
    expect(await fails(fileWriteTool, { path: `${tooLong}/a.txt`, content: 'x' }, ctx('zh'))).toBe(
      '名称“知知知知知知知知知知…”太长：有 256 字节，而文件或文件夹的名称最多 255 字节（约 85 个汉字）。请换一个短一些的名称。',
    );
    expect(await fails(fileReadTool, { path: tooLong })).toContain('is too long: 256 bytes');
    expect(await fails(fileListTool, { path: tooLong })).toContain('is too long: 256 bytes');
    expect(await tree(ws)).toEqual([]);
    expect(asked).toEqual([]);
  });
});

describe('deep paths', () => {
  /** `d1/d2/…/d<levels>/<last>`: a file (or folder) that many folders below the workspace. */
  const deep = (levels: number, last = 'f.txt'): string =>
    [...Array.from({ length: levels }, (_, i) => `d${i + 1}`), last].join('/');

  it('write, overwrite, read and list a file 64 folders deep', async () => {
    const p = deep(64);
    expect(await run(fileWriteTool, { path: p, content: 'deep' })).toBe(`Wrote 4 bytes to ${p}`);
    expect(await run(fileWriteTool, { path: p, content: 'deeper' })).toBe(
      `Wrote 6 bytes to ${p}, replacing its old content`,
    );
    expect(await run(fileReadTool, { path: p })).toBe('deeper');
    expect(await run(fileListTool, { path: deep(63, 'd64') })).toBe(`${deep(63, 'd64')}/ has 1 entry:\nf.txt (6 B)`);
    expect(await readFile(path.join(ws, ...p.split('/')), 'utf8')).toBe('deeper');
    expect(await tree(ws)).toHaveLength(65);
  });

  it('refuse 65 folders deep, or a path over 4,096 bytes, for every tool, before anything is made or asked', async () => {
    expect(await fails(fileWriteTool, { path: deep(65), content: 'x' })).toBe(
      'The path is 65 folders deep; at most 64 are allowed. Use a shallower path.',
    );
    expect(await fails(fileWriteTool, { path: deep(1000), content: 'x' }, ctx('zh'))).toBe(
      '路径有 1,000 层文件夹，最多允许 64 层。请换一个层级少一些的路径。',
    );
    expect(await fails(fileReadTool, { path: deep(65) })).toContain('65 folders deep');
    expect(await fails(fileListTool, { path: deep(65, 'd66') })).toContain('65 folders deep');
    // `..` takes a level back off, as the system would.
    expect(await run(fileWriteTool, { path: `${deep(64, '..')}/f.txt`, content: 'x' })).toBe(
      `Wrote 1 byte to ${deep(63)}`,
    );
    await rm(path.join(ws, 'd1'), { recursive: true });

    const long = Array.from({ length: 20 }, () => 'x'.repeat(250)).join('/');
    expect(await fails(fileWriteTool, { path: long, content: 'x' })).toBe(
      'The path is 5,019 bytes long; at most 4,096 are allowed. Use a shorter path.',
    );
    expect(await fails(fileReadTool, { path: long }, ctx('zh'))).toBe(
      '路径有 5,019 字节，最多允许 4,096 字节。请换一个短一些的路径。',
    );
    expect(await tree(ws)).toEqual([]);
    expect(asked.map((r) => r.action)).toEqual(['file.write']);
  });
});
