/**
 * Files as people talk about them, through the real file tools in a temp workspace: appending,
 * creating in a folder, overwriting said out loud, where files are kept, reading and listing.
 * Each turn runs the planner step by step, as the agent does.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileListTool } from '../../tools/file-list.js';
import { fileReadTool } from '../../tools/file-read.js';
import { fileWriteTool } from '../../tools/file-write.js';
import { createToolRegistry } from '../../tools/registry.js';
import type { ToolContext } from '../../tools/tool.js';
import type { ChatMessage } from '../types.js';
import { appended } from './file-append.js';
import { createOfflinePlanner, detectLang } from './planner.js';
import { agentTurn, memoryPrefs, replyOf } from './testing.js';

let root: string;
let workspace: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'zhixing-file-words-'));
  workspace = join(root, 'workspace');
  mkdirSync(workspace);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const registry = createToolRegistry([fileReadTool, fileWriteTool, fileListTool]);

/** One turn as the agent loop runs it, through the real file tools. */
async function say(text: string, history: ChatMessage[] = []) {
  const llm = createOfflinePlanner({ prefs: memoryPrefs(), workspace });
  const ctx: ToolContext = {
    sessionId: 's',
    turnId: 't',
    callId: 'c',
    workspace,
    signal: new AbortController().signal,
    lang: detectLang(text),
    ask: async (r) => (r.insideSandbox ? 'allow' : 'deny'),
    progress: () => {},
  };
  return agentTurn(llm, history, text, async (c) => replyOf(await registry.run(c, ctx)), registry.specs());
}

const put = (files: Record<string, string>) => {
  for (const [p, content] of Object.entries(files)) {
    mkdirSync(dirname(join(workspace, p)), { recursive: true });
    writeFileSync(join(workspace, p), content);
  }
};
const disk = (p: string) => readFileSync(join(workspace, p), 'utf8');

/** [what the user says, the file, the line added] — to a file that holds "first line\n". */
const APPENDS: Array<[string, string, string]> = [
  ['把今天学了向量空间追加到 notes.txt', 'notes.txt', '今天学了向量空间'],
  ['在 a.txt 末尾加一行：明天交作业', 'a.txt', '明天交作业'],
  ['往日记.md 里再添一句 今天很开心', '日记.md', '今天很开心'],
  ['帮我在笔记.txt后面补一句：记得复习', '笔记.txt', '记得复习'],
  ['给 log.txt 追加 跑步5公里', 'log.txt', '跑步5公里'],
  ['notes.txt 末尾加上 周五带伞', 'notes.txt', '周五带伞'],
  ['追加「买电池」到 todo.md', 'todo.md', '买电池'],
  ['追加到 notes/idea.md：做个记账小程序', 'notes/idea.md', '做个记账小程序'],
  ['把“三点开会”加到 plan.txt 最后面', 'plan.txt', '三点开会'],
  ['在 a.txt 最后写上 完', 'a.txt', '完'],
  ['往a.txt里再写一句谢谢', 'a.txt', '谢谢'],
  ['记到 notes.txt 里：周五带伞', 'notes.txt', '周五带伞'],
  ['append buy bread to notes.txt', 'notes.txt', 'buy bread'],
  ['add a line to todo.md: call the bank', 'todo.md', 'call the bank'],
  ['append to journal.md: slept well', 'journal.md', 'slept well'],
  ["add 'meeting at 3' to the end of notes.txt", 'notes.txt', 'meeting at 3'],
  ['Add a line saying "water the plants" to chores.txt', 'chores.txt', 'water the plants'],
  ['write thanks at the bottom of letter.txt', 'letter.txt', 'thanks'],
  ['add milk to shopping.md', 'shopping.md', 'milk'],
  ['please append "v2 shipped" to notes/log.md', 'notes/log.md', 'v2 shipped'],
];

describe('appending to a file: read, then write old + new', () => {
  it.each(APPENDS)('%s', async (text, file, line) => {
    put({ [file]: 'first line\n' });
    const r = await say(text);
    expect(r.calls.map((c) => c.name)).toEqual(['file_read', 'file_write']);
    expect(disk(file)).toBe(`first line\n${line}\n`);
    expect(r.reply).toContain(line);
    expect(r.reply).toMatch(/追加|Appended/);
    expect(r.reply).toContain(join(workspace, file));
  });

  it('creates a missing file, and says it did', async () => {
    const r = await say('在 diary.txt 末尾加一行：第一天');
    expect(disk('diary.txt')).toBe('第一天\n');
    expect(r.reply).toContain('原来不存在');
    const en = await say('append hello to fresh/new.md');
    expect(disk('fresh/new.md')).toBe('hello\n');
    expect(en.reply).toContain('did not exist');
  });

  it('keeps the file’s own line endings, and adds a line break when the last line has none', async () => {
    put({ 'a.txt': 'one', 'b.txt': 'one\r\ntwo\r\n', 'empty.txt': '' });
    await say('append two to a.txt');
    expect(disk('a.txt')).toBe('one\ntwo');
    await say('append three to b.txt');
    expect(disk('b.txt')).toBe('one\r\ntwo\r\nthree\r\n');
    await say('append first to empty.txt');
    expect(disk('empty.txt')).toBe('first\n');
    expect(appended('x\n', 'y')).toBe('x\ny\n');
  });

  it('writes nothing when the file cannot be read, or is a folder', async () => {
    put({ 'bin.dat': 'a\u0000b', 'docs/a.md': 'x' });
    const r = await say('append hello to bin.dat');
    expect(r.calls.map((c) => c.name)).toEqual(['file_read']);
    expect(r.reply).toMatch(/couldn't append to bin\.dat: .*binary.*Nothing was written/);
    expect(disk('bin.dat')).toBe('a\u0000b');
    const zh = await say('在 ../outside.txt 末尾加一行 hi');
    expect(zh.calls.map((c) => c.name)).toEqual(['file_read']);
    expect(zh.reply).toMatch(/没能追加到 \.\.\/outside\.txt/);
  });

  it('keeps both lines when one message appends twice to one file', async () => {
    put({ 'log.txt': 'start\n' });
    await say('在 log.txt 末尾加一行：早上跑步，然后在 log.txt 末尾加一行：晚上读书');
    expect(disk('log.txt')).toBe('start\n早上跑步\n晚上读书\n');
  });

  it('still replaces a file when asked to write it', async () => {
    put({ 'a.txt': 'old' });
    const r = await say('往 a.txt 写入 new');
    expect(disk('a.txt')).toBe('new');
    expect(r.reply).toContain('覆盖了原有内容');
    const en = await say('write fresh to a.txt');
    expect(en.reply).toContain('replacing its old content');
    const created = await say('write hi to b.txt');
    expect(created.reply).not.toContain('replacing');
    expect(created.reply).toContain(join(workspace, 'b.txt'));
  });
});

/** [what the user says, the path written, its content]. */
const CREATES: Array<[string, string, string]> = [
  ['在 docs 文件夹里建一个 plan.md，内容是 第一周：复习线代', 'docs/plan.md', '第一周：复习线代'],
  ['新建 notes/todo.txt 写上 买电池', 'notes/todo.txt', '买电池'],
  ['在reports目录下新建一个文件 周报.md，内容：本周完成登录页', 'reports/周报.md', '本周完成登录页'],
  ['到 work 文件夹下创建 a.txt 内容为 hello', 'work/a.txt', 'hello'],
  ['create notes/todo.txt with the content finish the slides', 'notes/todo.txt', 'finish the slides'],
  ['make a file called summary.md in the reports folder containing Q1 went well', 'reports/summary.md', 'Q1 went well'],
  ['create a file named ideas.txt in folder drafts with the text more sleep', 'drafts/ideas.txt', 'more sleep'],
  ['create hello.py containing print(1)', 'hello.py', 'print(1)'],
  ["save 'hello world' as greeting.txt", 'greeting.txt', 'hello world'],
  ['帮我建个文件夹 notes 然后在里面建 a.txt 写 hi', 'notes/a.txt', 'hi'],
  ['make a folder called drafts and create plan.md inside it with the text v1', 'drafts/plan.md', 'v1'],
  ['in notes.txt write remember the milk', 'notes.txt', 'remember the milk'],
  ['create an empty file called log.txt', 'log.txt', ''],
  ['新建一个空文件 empty.md', 'empty.md', ''],
  ['把 hello 存进 a.txt 里', 'a.txt', 'hello'],
  ["write 'hello' into hello.txt", 'hello.txt', 'hello'],
  ['把这句话存到 quotes.txt：知行合一', 'quotes.txt', '知行合一'],
  ["保存 '你好世界' 到 hello.txt", 'hello.txt', '你好世界'],
  ['写入文件 a.txt 内容 hello', 'a.txt', 'hello'],
];

describe('creating a file, in a folder, with its content', () => {
  it.each(CREATES)('%s', async (text, file, content) => {
    const r = await say(text);
    expect(r.calls).toEqual([{ name: 'file_write', args: { path: file, content } }]);
    expect(disk(file)).toBe(content);
    expect(r.reply).toContain(join(workspace, file));
  });

  it('takes no plain word for a file name', async () => {
    expect((await say('新建一个计划')).calls).toEqual([]);
    expect((await say('create a plan for next week')).calls).toEqual([]);
  });
});

describe('replacing and adding to the top, said out loud', () => {
  it.each([
    ['replace the contents of a.txt with new stuff', 'new stuff'],
    ['update a.txt to say meeting moved', 'meeting moved'],
    ['overwrite a.txt with v2', 'v2'],
    ['把 a.txt 的内容换成 新的', '新的'],
    ['把a.txt改成 第二版', '第二版'],
    ['覆盖 a.txt 内容为 新内容', '新内容'],
  ])('%s', async (text, content) => {
    put({ 'a.txt': 'old' });
    const r = await say(text);
    expect(r.calls).toEqual([{ name: 'file_write', args: { path: 'a.txt', content } }]);
    expect(disk('a.txt')).toBe(content);
    expect(r.reply).toMatch(/覆盖了原有内容|replacing its old content/);
  });

  it('does not write a new name into a file asked to be renamed', async () => {
    put({ 'a.txt': 'old' });
    const r = await say('把 a.txt 改成 b.txt');
    expect(r.calls).toEqual([]);
    expect(disk('a.txt')).toBe('old');
  });

  it.each([
    ['在 a.txt 开头加一行 标题', '标题'],
    ['把“目录”加到 a.txt 最前面', '目录'],
    ["add 'TITLE' at the top of a.txt", 'TITLE'],
    ['prepend Draft to a.txt', 'Draft'],
  ])('%s', async (text, line) => {
    put({ 'a.txt': 'body\n' });
    const r = await say(text);
    expect(disk('a.txt')).toBe(`${line}\nbody\n`);
    expect(r.reply).toMatch(/开头|top of/);
  });
});

describe('where files are kept', () => {
  it.each([
    '文件存在哪',
    '工作区在哪',
    '我的文件都在哪个目录',
    '你把文件保存到哪里了',
    '工作区路径是什么',
    'where are my files kept?',
    'where do you store files',
    "what's the workspace path",
    'files are saved where?',
    'where is the workspace folder',
  ])('%s', async (text) => {
    const r = await say(text);
    expect(r.calls).toEqual([]);
    expect(r.reply).toContain(workspace);
  });

  it('names the file just written', async () => {
    const w = await say('write hi to notes/a.txt');
    const r = await say('where did you save it', w.messages);
    expect(r.reply).toContain(join(workspace, 'notes/a.txt'));
    const zh = await say('notes.txt 存在哪了');
    expect(zh.reply).toContain(join(workspace, 'notes.txt'));
  });

  it('says where the workspace is when listing its top, above all when it is empty', async () => {
    const empty = await say('文件夹里有啥');
    expect(empty.reply).toContain('工作区是空的');
    expect(empty.reply).toContain(workspace);
    put({ 'a.txt': 'x', 'notes/b.md': 'y' });
    for (const text of [
      'show me my files',
      '看看我都存了哪些文件',
      '工作区里现在有东西吗',
      'what files do I have',
      'any files?',
      'file list pls',
      'workspace里都有什么文件',
    ]) {
      const r = await say(text);
      expect(r.calls, text).toEqual([{ name: 'file_list', args: {} }]);
      expect(r.reply, text).toContain('a.txt');
      expect(r.reply, text).toContain(workspace);
    }
    expect((await say('list everything in my workspace')).reply).toContain(workspace);
    expect((await say('notes 下面有什么')).calls).toEqual([{ name: 'file_list', args: { path: 'notes' } }]);
    // An empty folder, or a file not there: where to look.
    mkdirSync(join(workspace, 'empty'));
    expect((await say('list files in empty')).reply).toContain(workspace);
    expect((await say('读一下 nope.txt')).reply).toMatch(
      new RegExp(`找不到 nope\\.txt[\\s\\S]*${workspace.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    );
    const sub = await say('notes 目录里有什么');
    expect(sub.reply).toContain('b.md');
    expect(sub.reply).not.toContain(workspace);
  });
});

describe('a file named without its extension', () => {
  it.each([
    ['读一下 readme', 'README.md'],
    ['打开日记文件', '日记.md'],
    ['can you open my notes file', 'notes.txt'],
    ['read budget', 'budget.csv'],
  ])('%s', async (text, file) => {
    put({ 'README.md': 'hello', '日记.md': '今天', 'notes.txt': 'n', 'budget.csv': 'a,b', 'docs/x.md': 'x' });
    const r = await say(text);
    expect(r.calls).toEqual([
      { name: 'file_list', args: {} },
      { name: 'file_read', args: { path: file } },
    ]);
    expect(r.reply).toContain(`${file}`);
    expect(r.reply).not.toMatch(/根目录|root has/); // the listing was only for finding it
  });

  it('lists a folder named that way, and says which names there are when none fits', async () => {
    put({ 'docs/x.md': 'x', 'a.txt': 'a' });
    expect((await say('open docs')).calls.at(-1)).toEqual({ name: 'file_list', args: { path: 'docs' } });
    const none = await say('读一下 budget');
    expect(none.calls).toEqual([{ name: 'file_list', args: {} }]);
    expect(none.reply).toMatch(/没有叫「budget」的文件。现有：docs\/、a\.txt/);
  });

  it('takes no number, pointer or question for a name', async () => {
    for (const text of ['读一下这个文件', '看看我都存了哪些文件', 'read 20 pages a day']) {
      expect(
        (await say(text)).calls.map((c) => c.name),
        text,
      ).not.toContain('file_read');
    }
  });
});

describe('text to keep with no file named', () => {
  it.each([
    ['帮我把今天的会议记录保存一下：1. 预算通过 2. 下周上线', '1. 预算通过 2. 下周上线'],
    ['记录到文件：今天跑了5公里', '今天跑了5公里'],
    ['save this note: call the landlord on Monday', 'call the landlord on Monday'],
    ['write a file with my shopping list: eggs, milk, bread', 'eggs, milk, bread'],
  ])('%s', async (text, kept) => {
    put({ 'notes.md': '# 笔记\n' });
    const r = await say(text);
    expect(disk('notes.md')).toBe(`# 笔记\n${kept}\n`);
    expect(r.reply).toContain(join(workspace, 'notes.md'));
  });
});

describe('reading as people ask', () => {
  it.each([
    '打开看看 a.txt',
    'a.txt 里写了啥',
    "what's in a.txt",
    '把 a.txt 的内容发我看看',
    'show me a.txt',
    'a.txt写的什么',
    'a.txt 里面是什么',
    'what does a.txt say',
  ])('%s', async (text) => {
    put({ 'a.txt': '内容 content' });
    const r = await say(text);
    expect(r.calls).toEqual([{ name: 'file_read', args: { path: 'a.txt' } }]);
    expect(r.reply).toContain('内容 content');
  });
});
