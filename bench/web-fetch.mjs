#!/usr/bin/env node
// web_fetch end to end (from dist/: policy checks, permission ask, fetch, charset, Readability,
// Markdown, the fenced window) against the bare library chain doing the same work in the same run
// (undici fetch, iconv-lite decode, jsdom, Readability, turndown with the GFM plugin), on a ~500 KB
// Chinese news page served as GBK from a local server. Runs are interleaved so both see the same machine.
// Usage: npm run build && node bench/web-fetch.mjs [runs]
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.argv[2] ?? 20);
const WARMUP = 2;
const TARGET_BYTES = 500 * 1024;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const range = (xs) => `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`;

// The page: the Guangming Daily article with its paragraphs repeated, and a table, to ~500 KB as GBK.
const iconv = (await import('iconv-lite')).default;
const source = readFileSync(join(root, 'test', 'fixtures', 'html', 'gmw', 'source.html'), 'utf8').replace(
  /<meta[^>]*charset[^>]*>/gi,
  '',
);
const paragraphs = source.match(/<p>[\s\S]*?<\/p>/g) ?? [];
const table = `<table><thead><tr><th>年份</th><th>任务</th><th>天数</th></tr></thead><tbody>${Array.from({ length: 40 }, (_, i) => `<tr><td>${1990 + i}</td><td>任务 ${i}</td><td>${i * 3}</td></tr>`).join('')}</tbody></table>`;
let html = source;
while (Buffer.byteLength(iconv.encode(html, 'gbk')) < TARGET_BYTES)
  html = html.replace('</p>', `</p>${paragraphs.join('')}${table}`);
const body = iconv.encode(html, 'gbk');

const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=GBK', 'content-length': body.length });
  res.end(body);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${server.address().port}/news.html`;

const { createWebFetchTool } = await import(join(root, 'dist', 'tools', 'web-fetch.js'));
const tool = createWebFetchTool({ policy: { allowPrivate: true } });
const ctx = {
  sessionId: 'b',
  turnId: 't',
  callId: 'c',
  workspace: '/tmp',
  lang: 'zh',
  signal: new AbortController().signal,
  progress() {},
  ask: async () => 'allow',
};

async function viaTool() {
  const r = await tool.execute({ url }, ctx);
  if (!r.output.includes('宇航员')) throw new Error('web_fetch did not read the page');
  return r.output.length;
}

async function bare() {
  const [{ fetch }, { JSDOM, VirtualConsole }, { Readability }, { default: Turndown }, { gfm }] = await Promise.all([
    import('undici'),
    import('jsdom'),
    import('@mozilla/readability'),
    import('turndown'),
    import('@joplin/turndown-plugin-gfm'),
  ]);
  const res = await fetch(url);
  const bytes = Buffer.from(await res.arrayBuffer());
  const text = iconv.decode(bytes, 'gb18030');
  const dom = new JSDOM(text, { url, virtualConsole: new VirtualConsole() });
  const article = new Readability(dom.window.document).parse();
  const td = new Turndown({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
  td.use(gfm);
  const md = td.turndown(article.content);
  dom.window.close();
  if (!md.includes('宇航员') && !article.title.includes('宇航员'))
    throw new Error('the bare chain did not read the page');
  return md.length;
}

const times = { tool: [], bare: [] };
for (let i = 0; i < WARMUP + RUNS; i++) {
  for (const [name, fn] of i % 2
    ? [
        ['bare', bare],
        ['tool', viaTool],
      ]
    : [
        ['tool', viaTool],
        ['bare', bare],
      ]) {
    const t0 = performance.now();
    await fn();
    const ms = performance.now() - t0;
    if (i >= WARMUP) times[name].push(ms);
  }
}
server.close();

const mt = median(times.tool);
const mb = median(times.bare);
console.log(
  `web_fetch of a ${(body.length / 1024).toFixed(0)} KB GBK page, ${RUNS} runs each (interleaved, after ${WARMUP} warm-up):`,
);
console.log(`  web_fetch (dist/)     median ${mt.toFixed(1)} ms  (min–max ${range(times.tool)})`);
console.log(`  bare library chain    median ${mb.toFixed(1)} ms  (min–max ${range(times.bare)})`);
console.log(`  ratio ${(mt / mb).toFixed(2)}× (target ≤ 1.2×)`);
