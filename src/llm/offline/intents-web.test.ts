import { describe, expect, it } from 'vitest';
import { unfenced, untrusted } from '../../contract/untrusted-fence.js';
import { createOfflinePlanner } from './planner.js';
import { BUILTIN_TOOL_NAMES, memoryPrefs, specsFor, step, turn } from './testing.js';
import { pagesIn, urlsIn } from './intents-web.js';

const WEB_TOOLS = [
  ...BUILTIN_TOOL_NAMES,
  'shell',
  'memory_save',
  'memory_search',
  'web_fetch',
  'web_search',
  'pdf_read',
];
const planner = () => createOfflinePlanner({ prefs: memoryPrefs() });
const first = (text: string, tools = WEB_TOOLS) => step(planner(), [{ role: 'user', content: text }], specsFor(tools));

describe('the offline planner and the open-web tools', () => {
  it.each<[string, string, Record<string, unknown>]>([
    ['打开 https://example.com/news', 'web_fetch', { url: 'https://example.com/news' }],
    ['https://www.gmw.cn/a/b.html', 'web_fetch', { url: 'https://www.gmw.cn/a/b.html' }],
    ['帮我看看这个网页 https://example.com/a?x=1&y=2，讲了什么', 'web_fetch', { url: 'https://example.com/a?x=1&y=2' }],
    ['summarize https://example.org/post.', 'web_fetch', { url: 'https://example.org/post' }],
    ['what does (https://example.org/x) say?', 'web_fetch', { url: 'https://example.org/x' }],
    ['读一下 report.pdf', 'pdf_read', { path: 'report.pdf' }],
    ['读一下 docs/年报.pdf 第 2 页', 'pdf_read', { path: 'docs/年报.pdf', pages: '2' }],
    ['总结一下 paper.pdf 的第1到3页', 'pdf_read', { path: 'paper.pdf', pages: '1-3' }],
    ['read report.pdf pages 2-4', 'pdf_read', { path: 'report.pdf', pages: '2-4' }],
    ['what is in slides.PDF', 'pdf_read', { path: 'slides.PDF' }],
    ['report.pdf', 'pdf_read', { path: 'report.pdf' }],
    ['搜索 知行合一', 'web_search', { query: '知行合一' }],
    ['帮我在网上搜一下 上海迪士尼门票价格', 'web_search', { query: '上海迪士尼门票价格' }],
    ['百度一下：王阳明', 'web_search', { query: '王阳明' }],
    ['search the web for unity of knowledge and action', 'web_search', { query: 'unity of knowledge and action' }],
    ['google best hiking trails near Hangzhou', 'web_search', { query: 'best hiking trails near Hangzhou' }],
    ['look up Node 20 end of life online', 'web_search', { query: 'Node 20 end of life' }],
  ])('%s → %s', async (text, tool, args) => {
    const r = await first(text);
    expect(r.parsed).toEqual([{ name: tool, args }]);
  });

  it('fetches each address a message names, up to three', async () => {
    const r = await first(
      '对比一下 https://a.example/1 https://b.example/2 https://a.example/1 https://c.example/3 https://d.example/4',
    );
    expect(r.parsed.map((c) => c.args.url)).toEqual([
      'https://a.example/1',
      'https://b.example/2',
      'https://c.example/3',
    ]);
  });

  it.each<[string, string]>([
    ['搜索我的待办', 'todo_list'],
    ['记一下 周五前看完 https://example.com/paper', 'todo_add'],
    ['把 report.pdf 删掉', ''],
    ['运行 `curl https://example.com`', 'shell'],
    ['把 https://example.com 写到 links.txt', 'file_write'],
    ['summarize this youtube video for me https://youtu.be/dQw4w9WgXcQ', ''],
    ['帮我总结这个视频 https://www.bilibili.com/video/BV1xx', ''],
  ])('leaves %s to other rules', async (text, tool) => {
    const r = await first(text);
    expect(r.parsed.some((c) => ['web_fetch', 'web_search', 'pdf_read'].includes(c.name))).toBe(false);
    if (tool) expect(r.parsed[0]?.name).toBe(tool);
  });

  it('says plainly when a web tool is not there, instead of reading a file named https', async () => {
    const r = await first('打开 https://example.com', [...BUILTIN_TOOL_NAMES]);
    expect(r.parsed).toEqual([]);
    expect(r.text).toMatch(/网页读取/);
  });

  it("relays what a page said without the fence, cut to a readable length, in the user's language", async () => {
    const page = `# 标题\n\n${'正文。'.repeat(2000)}`;
    const r = await turn(
      planner(),
      [],
      '打开 https://example.com/long',
      () => untrusted('https://example.com/long', page),
      specsFor(WEB_TOOLS),
    );
    expect(r.reply).toContain('https://example.com/long 的内容：');
    expect(r.reply).toContain('# 标题');
    expect(r.reply).not.toContain('untrusted-content');
    expect(r.reply).toMatch(/只显示了前 3000 个字符/);
    expect(r.reply.length).toBeLessThan(3300);
  });

  it('says why a fetch failed', async () => {
    const r = await turn(
      planner(),
      [],
      'open http://127.0.0.1/admin',
      () => 'Error: 127.0.0.1 is a loopback address: set ZHIXING_ALLOW_PRIVATE_NETWORK=1 to allow it.',
      specsFor(WEB_TOOLS),
    );
    expect(r.reply).toMatch(/^Could not open http:\/\/127\.0\.0\.1\/admin: .*ZHIXING_ALLOW_PRIVATE_NETWORK/);
  });
});

describe('addresses and pages in a message', () => {
  it('takes addresses up to CJK punctuation and without the sentence end', () => {
    expect(urlsIn('看看https://例子.cn/路径。然后 http://x.org/a),')).toEqual([
      'https://例子.cn/路径',
      'http://x.org/a',
    ]);
    expect(urlsIn('ftp://x.org file:///etc/passwd javascript:alert(1)')).toEqual([]);
  });
  it('reads page ranges in both languages', () => {
    expect(pagesIn('第 5 页')).toBe('5');
    expect(pagesIn('第2-4页')).toBe('2-4');
    expect(pagesIn('第 1 到第 3 页')).toBe('1-3');
    expect(pagesIn('前 3 页')).toBe('1-3');
    expect(pagesIn('pages 2 to 5')).toBe('2-5');
    expect(pagesIn('the first 2 pages')).toBe('1-2');
    expect(pagesIn('page 7')).toBe('7');
    expect(pagesIn('no pages here')).toBeUndefined();
  });
  it('unfences outside text for a person to read', () => {
    expect(unfenced(untrusted('https://x', 'hello'))).toBe('hello');
  });
});
