import { chmod, lstat, mkdir, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileListTool } from './file-list.js';
import { fileReadTool } from './file-read.js';
import { fileWriteTool } from './file-write.js';
import type { Tool } from './tool.js';
import { asked, base, ctx, defaultPolicy, fails, run, tree, useWorkspace, ws } from '../../test/support/file-tools.js';

useWorkspace();

describe('tool specs', () => {
  it('expose the documented names and JSON schemas with described parameters', () => {
    expect(fileReadTool.spec.name).toBe('file_read');
    expect(fileReadTool.spec.parameters).toMatchObject({
      type: 'object',
      properties: { path: { type: 'string', description: expect.stringContaining('relative to the workspace') } },
      required: ['path'],
    });
    expect(fileWriteTool.spec.name).toBe('file_write');
    expect(fileWriteTool.spec.parameters).toMatchObject({
      type: 'object',
      properties: {
        path: { type: 'string', description: expect.stringContaining('relative to the workspace') },
        content: { type: 'string', description: expect.any(String) },
      },
      required: ['path', 'content'],
    });
    expect(fileListTool.spec.name).toBe('file_list');
    expect(fileListTool.spec.parameters).toMatchObject({
      type: 'object',
      properties: { path: { type: 'string', description: expect.stringContaining('relative to the workspace') } },
    });
    expect(fileListTool.spec.parameters.required ?? []).toEqual([]);
    for (const t of [fileReadTool, fileWriteTool, fileListTool]) expect(t.spec.description.length).toBeGreaterThan(40);
  });

  it('reject malformed input at parse time', () => {
    expect(fileWriteTool.check({ path: 'a.txt' }).ok).toBe(false);
    expect(fileReadTool.check({}).ok).toBe(false);
  });
});

describe('file_write and file_read', () => {
  it('round-trip English and Chinese text with the documented messages', async () => {
    expect(await run(fileWriteTool, { path: 'notes/a.txt', content: 'hello' })).toBe('Wrote 5 bytes to notes/a.txt');
    expect(await run(fileReadTool, { path: 'notes/a.txt' })).toBe('hello');

    const zh = '知行合一\n第二行：你好，世界！';
    expect(await run(fileWriteTool, { path: '笔记/日记.md', content: zh }, ctx('zh'))).toBe(
      `已写入 笔记/日记.md（${Buffer.byteLength(zh)} 字节）`,
    );
    expect(await run(fileReadTool, { path: '笔记/日记.md' }, ctx('zh'))).toBe(zh);
    expect(await readFile(path.join(ws, '笔记', '日记.md'), 'utf8')).toBe(zh);
    // Rules match the path as the user writes it, relative to the workspace.
    expect(asked).toContainEqual({
      action: 'file.write',
      target: path.join(ws, 'notes', 'a.txt'),
      insideSandbox: true,
      aliases: ['notes/a.txt'],
    });
    expect(asked).toContainEqual({
      action: 'file.read',
      target: path.join(ws, 'notes', 'a.txt'),
      insideSandbox: true,
      aliases: ['notes/a.txt'],
    });
  });

  it('creates nested folders, overwrites, keeps permissions and leaves no temp files', async () => {
    await run(fileWriteTool, { path: 'a/b/c/d.txt', content: 'one' });
    // An overwrite says so: what was there is gone.
    expect(await run(fileWriteTool, { path: 'a/b/c/d.txt', content: 'two!' })).toBe(
      'Wrote 4 bytes to a/b/c/d.txt, replacing its old content',
    );
    expect(await run(fileWriteTool, { path: 'a/b/c/d.txt', content: '三' }, ctx('zh'))).toBe(
      '已写入 a/b/c/d.txt（3 字节），覆盖了原有内容',
    );
    expect(await readFile(path.join(ws, 'a/b/c/d.txt'), 'utf8')).toBe('三');

    await writeFile(path.join(ws, 'run.sh'), 'echo 1');
    await chmod(path.join(ws, 'run.sh'), 0o755);
    await run(fileWriteTool, { path: 'run.sh', content: 'echo 2' });
    expect((await stat(path.join(ws, 'run.sh'))).mode & 0o777).toBe(0o755);

    // Many writers at once: one whole version wins, nothing half-written, no leftovers.
    const versions = Array.from({ length: 20 }, (_, i) => `version ${i} `.repeat(5_000));
    await Promise.all(versions.map((content) => run(fileWriteTool, { path: 'a/b/c/d.txt', content })));
    expect(versions).toContain(await readFile(path.join(ws, 'a/b/c/d.txt'), 'utf8'));
    expect(await tree(ws)).toEqual(['a', 'a/b', 'a/b/c', 'a/b/c/d.txt', 'run.sh']);
  });

  it('writes an empty file and says so when reading it', async () => {
    expect(await run(fileWriteTool, { path: 'empty.txt', content: '' }, ctx('zh'))).toBe('已写入 empty.txt（0 字节）');
    expect(await run(fileReadTool, { path: 'empty.txt' }, ctx('zh'))).toBe('empty.txt 是空文件。');
    expect(await run(fileReadTool, { path: 'empty.txt' })).toBe('empty.txt is empty.');
  });

  it('refuses to write over a folder or below a file', async () => {
    await mkdir(path.join(ws, 'notes'));
    await writeFile(path.join(ws, 'plain.txt'), 'x');
    expect(await fails(fileWriteTool, { path: 'notes', content: 'x' })).toBe(
      'notes is a folder and cannot be written as a file. Pick a file name, e.g. notes/note.txt.',
    );
    expect(await fails(fileWriteTool, { path: 'plain.txt/inner.txt', content: 'x' })).toBe(
      'Cannot write plain.txt/inner.txt: part of the path is a file, not a folder. Nothing was written.',
    );
    expect(await tree(ws)).toEqual(['notes', 'plain.txt']);
  });
});

describe('sandbox escapes', () => {
  const escapes = ['../secret.txt', 'a/../../x', '../workspace-evil/x', '/etc/passwd', 'C:\\x', '\\\\server\\share\\x'];

  it('refuse every write and write nothing, inside or outside', async () => {
    const before = await tree(base);
    for (const p of escapes) {
      const msg = await fails(fileWriteTool, { path: p, content: 'pwned' });
      expect(msg).toMatch(/^Refused to (write to|access) /);
      expect(msg).toContain('outside the workspace');
    }
    expect(await tree(base)).toEqual(before);
    expect(await readFile(path.join(base, 'workspace-evil', 'x'), 'utf8')).toBe('evil');
    expect(await readFile(path.join(base, 'secret.txt'), 'utf8')).toBe('secret');
  });

  it('refuse reads and listings with the reason', async () => {
    expect(await fails(fileReadTool, { path: '../workspace-evil/x' }, ctx('zh'))).toBe(
      '拒绝读取 ../workspace-evil/x：它用 .. 跳到了工作区之外。只能访问工作区内的文件，请使用相对于工作区的路径（例如 notes/a.txt）。',
    );
    expect(await fails(fileReadTool, { path: '/etc/passwd' })).toBe(
      'Refused to read /etc/passwd: it is an absolute path, outside the workspace. Only files inside the workspace can be used; give a path relative to the workspace (e.g. notes/a.txt).',
    );
    expect(await fails(fileListTool, { path: '..' })).toContain(
      'Refused to list ..: it uses .. to reach outside the workspace.',
    );
    expect(asked.every((r) => !r.insideSandbox)).toBe(true);
  });

  it('refuse a symlink inside that leads outside, for reading and writing', async () => {
    await symlink(path.join(base, 'secret.txt'), path.join(ws, 'leak.txt'));
    await symlink(path.join(base, 'workspace-evil'), path.join(ws, 'evil-dir'));
    expect(await fails(fileReadTool, { path: 'leak.txt' })).toContain(
      'Refused to read leak.txt: it goes through a symbolic link that leads outside the workspace.',
    );
    expect(await fails(fileReadTool, { path: 'evil-dir/x' })).toContain(
      'symbolic link that leads outside the workspace',
    );
    expect(await fails(fileListTool, { path: 'evil-dir' })).toContain('symbolic link that leads outside the workspace');
    expect(await fails(fileWriteTool, { path: 'leak.txt', content: 'pwned' })).toContain('it is a symbolic link');
    expect(await fails(fileWriteTool, { path: 'evil-dir/new/y.txt', content: 'pwned' })).toContain(
      'symbolic link that leads outside the workspace',
    );
    expect(await readFile(path.join(base, 'secret.txt'), 'utf8')).toBe('secret');
    expect(await tree(path.join(base, 'workspace-evil'))).toEqual(['x']);
  });

  it('refuse writing through a final symlink even when it points inside, and leave both untouched', async () => {
    await writeFile(path.join(ws, 'real.txt'), 'original');
    await symlink(path.join(ws, 'real.txt'), path.join(ws, 'alias.txt'));
    expect(await fails(fileWriteTool, { path: 'alias.txt', content: 'changed' }, ctx('zh'))).toBe(
      '拒绝写入 alias.txt：它是一个符号链接，出于安全考虑不会通过链接写入。请写入链接指向的实际文件，或换一个文件名。',
    );
    expect(await readlink(path.join(ws, 'alias.txt'))).toBe(path.join(ws, 'real.txt'));
    expect(await readFile(path.join(ws, 'real.txt'), 'utf8')).toBe('original');
  });

  it('allow reading through a symlink that stays inside', async () => {
    await mkdir(path.join(ws, 'docs'));
    await writeFile(path.join(ws, 'docs', 'real.md'), '# inside');
    await symlink(path.join(ws, 'docs', 'real.md'), path.join(ws, 'alias.md'));
    await symlink(path.join(ws, 'docs'), path.join(ws, 'docs-link'));
    expect(await run(fileReadTool, { path: 'alias.md' })).toBe('# inside');
    expect(await run(fileReadTool, { path: 'docs-link/real.md' })).toBe('# inside');
    expect(await run(fileListTool, { path: 'docs-link' })).toBe('docs-link/ has 1 entry:\nreal.md (8 B)');
  });

  it('obey a deny from the permission layer even for an inside path', async () => {
    const denyAll = ctx('en', () => 'deny');
    await writeFile(path.join(ws, 'a.txt'), 'hi');
    expect(await fails(fileWriteTool, { path: 'new/b.txt', content: 'x' }, denyAll)).toBe(
      'Writing to new/b.txt was refused by the permission settings; nothing was changed.',
    );
    expect(
      await fails(
        fileReadTool,
        { path: 'a.txt' },
        ctx('zh', () => 'deny'),
      ),
    ).toBe('读取 a.txt 的请求被权限设置拒绝了，没有做任何改动。');
    expect(await fails(fileListTool, {}, denyAll)).toBe(
      'Listing . was refused by the permission settings; nothing was changed.',
    );
    expect(await tree(ws)).toEqual(['a.txt']);
    expect(asked.map((r) => r.insideSandbox)).toEqual([true, true, true]);
  });

  it('work outside when a future policy allows it', async () => {
    const allowAll = ctx('en', () => 'allow');
    expect(await run(fileReadTool, { path: '../secret.txt' }, allowAll)).toBe('secret');
    expect(await run(fileWriteTool, { path: '../outside/new.txt', content: 'ok' }, allowAll)).toBe(
      'Wrote 2 bytes to ../outside/new.txt',
    );
    expect(await readFile(path.join(base, 'outside', 'new.txt'), 'utf8')).toBe('ok');
    expect(asked).toContainEqual({
      action: 'file.write',
      target: path.join(base, 'outside', 'new.txt'),
      insideSandbox: false,
    });
  });
});

describe('dangling links and races', () => {
  const outside = (): string => path.join(base, 'outside');
  const outsideRefusal = (p: string): string =>
    `Refused to write to ${p}: it goes through a symbolic link that leads outside the workspace. Only files inside the workspace can be used; give a path relative to the workspace (e.g. notes/a.txt).`;

  it('refuse a dangling link to a missing outside folder as outside, even once that folder appears', async () => {
    await mkdir(outside());
    await symlink(path.join(outside(), 'missing-dir'), path.join(ws, 'd'));
    expect(await fails(fileWriteTool, { path: 'd/x.txt', content: 'pwned' })).toBe(outsideRefusal('d/x.txt'));
    expect(asked).toEqual([
      { action: 'file.write', target: path.join(outside(), 'missing-dir', 'x.txt'), insideSandbox: false },
    ]);
    expect(await tree(outside())).toEqual([]);

    // The folder appears while permission is being asked, between the check and the write.
    const racing = ctx();
    racing.ask = async (r) => {
      asked.push(r);
      await mkdir(path.join(outside(), 'missing-dir'), { recursive: true });
      return defaultPolicy(r);
    };
    expect(await fails(fileWriteTool, { path: 'd/x.txt', content: 'pwned' }, racing)).toBe(outsideRefusal('d/x.txt'));
    // …and when it was already there before the call.
    expect(await fails(fileWriteTool, { path: 'd/y.txt', content: 'pwned' })).toBe(outsideRefusal('d/y.txt'));
    expect(await tree(outside())).toEqual(['missing-dir']);
    expect(asked.every((r) => !r.insideSandbox)).toBe(true);
  });

  it('refuse writing to a dangling final link and create nothing where it points', async () => {
    await mkdir(outside());
    await symlink(path.join(outside(), 'new.txt'), path.join(ws, 'out.txt'));
    await symlink(path.join(ws, 'missing.txt'), path.join(ws, 'in.txt'));
    for (const p of ['out.txt', 'in.txt']) {
      expect(
        await fails(
          fileWriteTool,
          { path: p, content: 'x' },
          ctx('en', () => 'allow'),
        ),
      ).toBe(
        `Refused to write to ${p}: it is a symbolic link, and writes never go through links. Write to the real file instead, or pick another name.`,
      );
    }
    expect(await tree(outside())).toEqual([]);
    expect(await tree(ws)).toEqual(['in.txt', 'out.txt']);
    expect((await lstat(path.join(ws, 'in.txt'))).isSymbolicLink()).toBe(true);
  });

  it('never claim a dangling link is inside when reading or listing it', async () => {
    await symlink(path.join(base, 'nowhere.txt'), path.join(ws, 'gone.txt'));
    await symlink(path.join(base, 'nowhere'), path.join(ws, 'gone-dir'));
    expect(await fails(fileReadTool, { path: 'gone.txt' })).toContain(
      'Refused to read gone.txt: it goes through a symbolic link that leads outside the workspace.',
    );
    expect(await fails(fileListTool, { path: 'gone-dir' })).toContain(
      'Refused to list gone-dir: it goes through a symbolic link',
    );
    expect(await fails(fileReadTool, { path: 'gone-dir/a.txt' })).toContain('symbolic link that leads outside');
    expect(asked.map((r) => r.insideSandbox)).toEqual([false, false, false]);
    // A policy that allows outside learns the link is dangling, not that the link's own name is missing.
    expect(
      await fails(
        fileReadTool,
        { path: 'gone.txt' },
        ctx('en', () => 'allow'),
      ),
    ).toBe('gone.txt was not found: it is a symbolic link whose target does not exist.');
  });

  it('say a dangling link inside is dangling, without suggesting its own name', async () => {
    await symlink(path.join(ws, 'g'), path.join(ws, 'f'));
    expect(await fails(fileReadTool, { path: 'f' })).toBe(
      'f was not found: it is a symbolic link whose target does not exist.',
    );
    expect(await fails(fileListTool, { path: 'f' }, ctx('zh'))).toBe(
      '找不到 f：它是一个符号链接，但它指向的目标不存在。',
    );
    expect(asked.every((r) => r.insideSandbox)).toBe(true);
  });

  it('follow a chain of links to the outside and refuse it; refuse loops', async () => {
    await mkdir(outside());
    await symlink('l2', path.join(ws, 'l1'));
    await symlink('l3', path.join(ws, 'l2'));
    await symlink(outside(), path.join(ws, 'l3'));
    expect(await fails(fileWriteTool, { path: 'l1/x.txt', content: 'pwned' })).toBe(outsideRefusal('l1/x.txt'));
    expect(await fails(fileReadTool, { path: 'l1/x.txt' })).toContain('symbolic link that leads outside');
    await symlink('loop-b', path.join(ws, 'loop-a'));
    await symlink('loop-a', path.join(ws, 'loop-b'));
    expect(await fails(fileWriteTool, { path: 'loop-a/x.txt', content: 'x' })).toBe(
      'Cannot use the path loop-a/x.txt: its symbolic links form a loop.',
    );
    expect(await fails(fileReadTool, { path: 'loop-a' })).toBe(
      'Cannot use the path loop-a: its symbolic links form a loop.',
    );
    expect(await tree(outside())).toEqual([]);
  });

  it('re-check the folder just before writing, so a link swapped in after the check is not followed', async () => {
    await mkdir(outside());
    await mkdir(path.join(ws, 'sub'));
    // While permission is asked, an inside folder (existing or not yet made) is replaced by a link to the outside.
    const swapping = ctx();
    swapping.ask = async (r) => {
      asked.push(r);
      const dir = path.dirname(r.target);
      await rm(dir, { recursive: true, force: true });
      await symlink(outside(), dir);
      return defaultPolicy(r);
    };
    for (const p of ['sub/x.txt', 'fresh/x.txt']) {
      expect(await fails(fileWriteTool, { path: p, content: 'pwned' }, swapping)).toBe(outsideRefusal(p));
    }
    expect(asked.map((r) => r.insideSandbox)).toEqual([true, true]);
    expect(await tree(outside())).toEqual([]);
  });
});

describe('file_read problems', () => {
  it('refuses a file over 1 MB, giving the size and the limit', async () => {
    await writeFile(path.join(ws, 'big.txt'), 'a'.repeat(1_000_001));
    await writeFile(path.join(ws, 'max.txt'), 'a'.repeat(1_000_000));
    expect(await fails(fileReadTool, { path: 'big.txt' })).toBe(
      'big.txt is 1,000,001 bytes, over the 1,000,000-byte read limit; it was not read.',
    );
    expect(await fails(fileReadTool, { path: 'big.txt' }, ctx('zh'))).toBe(
      'big.txt 有 1,000,001 字节，超过了 1,000,000 字节的读取上限，未读取。',
    );
    expect((await run(fileReadTool, { path: 'max.txt' })).length).toBe(1_000_000);
  });

  it('names a missing file and suggests similar names from its folder', async () => {
    await mkdir(path.join(ws, 'notes'));
    await writeFile(path.join(ws, 'notes', 'todo.md'), '');
    await writeFile(path.join(ws, 'notes', 'Todo.txt'), '');
    await writeFile(path.join(ws, 'notes', 'budget.csv'), '');
    expect(await fails(fileReadTool, { path: 'notes/todo.txt' })).toBe(
      'notes/todo.txt was not found: there is no such file or folder. Did you mean: notes/Todo.txt, notes/todo.md?',
    );
  });

  it('says a folder is a folder, a binary file is binary, and non-UTF-8 text is not UTF-8', async () => {
    await mkdir(path.join(ws, 'notes'));
    await writeFile(
      path.join(ws, 'image.png'),
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
    );
    await writeFile(path.join(ws, 'doc.pdf'), '%PDF-1.7\n%\xE2\xE3\xCF\xD3\n', 'latin1');
    await writeFile(path.join(ws, 'gbk.txt'), Buffer.from([0xc4, 0xe3, 0xba, 0xc3]));
    expect(await fails(fileReadTool, { path: 'notes' })).toBe(
      'notes is a folder, not a file. Use file_list to see what is in it.',
    );
    expect(await fails(fileReadTool, { path: 'notes' }, ctx('zh'))).toBe(
      'notes 是一个文件夹，不是文件。要查看其中的内容，请用 file_list。',
    );
    expect(await fails(fileReadTool, { path: 'image.png' })).toBe(
      'image.png is a binary file, not text, so it cannot be read as text.',
    );
    expect(await fails(fileReadTool, { path: 'image.png' }, ctx('zh'))).toBe(
      'image.png 是二进制文件，不是文本，无法作为文本读取。',
    );
    expect(await fails(fileReadTool, { path: 'doc.pdf' })).toBe(
      'doc.pdf is a binary file, not text, so it cannot be read as text. It is a PDF: use pdf_read.',
    );
    expect(await fails(fileReadTool, { path: 'gbk.txt' })).toContain('is not valid UTF-8 text');
  });
});

describe('file_write limits', () => {
  it('refuses content over 5 MB and writes nothing', async () => {
    expect(await fails(fileWriteTool, { path: 'huge.txt', content: 'a'.repeat(5_000_001) })).toBe(
      'The content is 5,000,001 bytes, over the 5,000,000-byte write limit; nothing was written.',
    );
    expect(await fails(fileWriteTool, { path: 'huge.txt', content: '字'.repeat(1_666_667) }, ctx('zh'))).toBe(
      '内容有 5,000,001 字节，超过了 5,000,000 字节的写入上限，没有写入任何内容。',
    );
    expect(await tree(ws)).toEqual([]);
  });
});

describe('file_list', () => {
  it('lists folders first with "/", then files with sizes, hiding only Zhixing\'s own temp files', async () => {
    await mkdir(path.join(ws, 'notes'));
    await mkdir(path.join(ws, 'archive'));
    await writeFile(path.join(ws, 'b.txt'), 'hello');
    await writeFile(path.join(ws, 'a.csv'), 'x'.repeat(1536));
    await writeFile(path.join(ws, `.zhixing-${process.pid}-0123456789ab.tmp`), 'partial');
    await symlink(path.join(ws, 'b.txt'), path.join(ws, 'c-link'));
    expect(await run(fileListTool, {})).toBe(
      'The workspace root has 5 entries:\narchive/\nnotes/\na.csv (1.5 KB)\nb.txt (5 B)\nc-link (link)',
    );
    expect(await run(fileListTool, { path: '' }, ctx('zh'))).toBe(
      '工作区根目录中有 5 项：\narchive/\nnotes/\na.csv（1.5 KB）\nb.txt（5 B）\nc-link（链接）',
    );
    expect(await run(fileListTool, { path: 'notes' })).toBe('notes/ is an empty folder.');
    expect(await run(fileListTool, { path: 'notes/' }, ctx('zh'))).toBe('notes/ 是空文件夹。');
    expect(asked).toContainEqual({ action: 'file.list', target: ws, insideSandbox: true, aliases: ['.'] });
  });

  it('says when the workspace is empty, creating it if missing', async () => {
    await rm(ws, { recursive: true });
    expect(await run(fileListTool, {})).toBe('The workspace is empty.');
    expect(await run(fileListTool, {}, ctx('zh'))).toBe('工作区是空的。');
  });

  it('caps long listings at 500 entries', async () => {
    await mkdir(path.join(ws, 'many'));
    await Promise.all(
      Array.from({ length: 512 }, (_, i) => writeFile(path.join(ws, 'many', `f${String(i).padStart(3, '0')}.txt`), '')),
    );
    const lines = (await run(fileListTool, { path: 'many' })).split('\n');
    expect(lines[0]).toBe('many/ has 512 entries:');
    expect(lines[1]).toBe('f000.txt (0 B)');
    expect(lines[500]).toBe('f499.txt (0 B)');
    expect(lines.at(-1)).toBe('… and 12 more');
    expect(lines).toHaveLength(502);
    expect((await run(fileListTool, { path: 'many' }, ctx('zh'))).split('\n').at(-1)).toBe('… 还有 12 项未列出');
  });

  it('explains a file or a missing folder', async () => {
    await writeFile(path.join(ws, 'a.txt'), 'x');
    await mkdir(path.join(ws, 'notes'));
    expect(await fails(fileListTool, { path: 'a.txt' })).toBe(
      'a.txt is a file, not a folder. Use file_read to see its content.',
    );
    expect(await fails(fileListTool, { path: 'note' })).toBe(
      'note was not found: there is no such file or folder. Did you mean: notes?',
    );
    expect(await fails(fileListTool, { path: 'note' }, ctx('zh'))).toBe(
      '找不到 note：没有这个文件或文件夹。你是不是想找：notes？',
    );
  });

  it('gives each call a card: the path as the title, the path and size as metadata', async () => {
    const card = async (tool: Tool, input: unknown) => {
      const args = await tool.check(input);
      if (!args.ok) throw new Error(args.message);
      const r = await tool.execute(args.value, ctx());
      return typeof r === 'string' ? r : { title: r.title, metadata: r.metadata };
    };
    expect(await card(fileWriteTool, { path: 'notes/a.txt', content: 'hello' })).toEqual({
      title: 'notes/a.txt',
      metadata: { path: 'notes/a.txt', bytes: 5, created: true },
    });
    expect(await card(fileWriteTool, { path: 'notes/a.txt', content: '你好' })).toEqual({
      title: 'notes/a.txt',
      metadata: { path: 'notes/a.txt', bytes: 6, created: false },
    });
    expect(await card(fileReadTool, { path: 'notes/a.txt' })).toEqual({
      title: 'notes/a.txt',
      metadata: { path: 'notes/a.txt', bytes: 6 },
    });
    await mkdir(path.join(ws, 'notes', 'old'));
    expect(await card(fileListTool, { path: 'notes' })).toEqual({
      title: 'notes/',
      metadata: { path: 'notes', entries: 2, folders: 1, truncated: false },
    });
    expect(await card(fileListTool, {})).toEqual({
      title: 'workspace',
      metadata: { path: '.', entries: 1, folders: 1, truncated: false },
    });
  });
});
