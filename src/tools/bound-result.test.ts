import { mkdtempSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Lang } from '../i18n.js';
import { MAX_ATTACHMENT_BYTES, MAX_METADATA_BYTES } from './bound-result.js';
import { createToolRegistry, TOOL_OUTPUT_LIMIT } from './registry.js';
import { untrusted } from '../contract/untrusted-fence.js';
import { defineTool, type ToolContext } from './tool.js';

let base: string;
let ws: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'zhixing-results-')));
  ws = join(base, 'workspace');
  mkdirSync(ws);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const ctx = (lang: Lang = 'en'): ToolContext => ({
  sessionId: 's1',
  turnId: 't1',
  callId: 'c1',
  workspace: ws,
  signal: new AbortController().signal,
  lang,
  ask: async () => 'allow',
  progress: () => {},
});

/** Runs one call of a tool that returns `result`, through the registry. */
function run(result: unknown, lang: Lang = 'en', options: { timeoutMs?: number } = {}) {
  const tool = defineTool({
    name: 'card',
    description: 'returns what the test gives it',
    parameters: z.object({}),
    timeoutMs: options.timeoutMs,
    execute: () => result as string,
  });
  return createToolRegistry([tool], { settleGraceMs: 200 }).run({ id: 'c1', name: 'card', arguments: '{}' }, ctx(lang));
}

const base64 = (bytes: number) => Buffer.alloc(bytes, 1).toString('base64');

describe('what a tool returns', () => {
  it('may be a plain string, which is the output alone', async () => {
    const r = await run('just text');
    expect(r).toMatchObject({ ok: true, output: 'just text' });
    expect(Object.keys(r).sort()).toEqual(['input', 'ms', 'ok', 'output']);
  });

  it('keeps the title, metadata and attachments beside the output', async () => {
    const r = await run({
      output: '16',
      title: '(3+5)*2 = 16',
      metadata: { expression: '(3+5)*2', result: '16' },
      attachments: [{ name: 'a.png', mimeType: 'image/png', data: base64(10) }],
    });
    expect(r).toMatchObject({
      ok: true,
      output: '16',
      title: '(3+5)*2 = 16',
      metadata: { expression: '(3+5)*2', result: '16' },
      attachments: [{ name: 'a.png', mimeType: 'image/png', size: 10, data: base64(10) }],
    });
  });

  it('makes the title one short line', async () => {
    expect((await run({ output: 'x', title: '  two\n lines\t here ' })).title).toBe('two lines here');
    const long = (await run({ output: 'x', title: '字'.repeat(500) })).title!;
    expect([...long]).toHaveLength(200);
    expect(long.endsWith('…')).toBe(true);
    expect((await run({ output: 'x', title: '   ' })).title).toBeUndefined();
  });

  it('drops metadata over 10 KB, and metadata that is not a JSON object, with a note after the output', async () => {
    const big = await run({ output: 'done', metadata: { blob: 'x'.repeat(MAX_METADATA_BYTES) } });
    expect(big.ok).toBe(true);
    expect(big.metadata).toBeUndefined();
    expect(big.output).toBe('done\n(The metadata was dropped: 10,011 bytes of JSON, over the 10,000-byte limit.)');

    const zh = await run({ output: '好了', metadata: { blob: 'x'.repeat(MAX_METADATA_BYTES) } }, 'zh');
    expect(zh.output).toBe('好了\n（元数据有 10,011 字节，超过了 10,000 字节的上限，已丢弃。）');

    const list = await run({ output: 'done', metadata: [1, 2] });
    expect(list.metadata).toBeUndefined();
    expect(list.output).toBe('done\n(The metadata was not a JSON object and was dropped.)');

    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect((await run({ output: 'done', metadata: cyclic })).output).toContain('not a JSON object');
  });

  it('keeps metadata as JSON says it', async () => {
    const r = await run({ output: 'ok', metadata: { at: new Date(0), gone: undefined, n: 1 } });
    expect(r.metadata).toEqual({ at: '1970-01-01T00:00:00.000Z', n: 1 });
  });

  it('keeps attachments in order until a call holds 5 MB, and drops the rest with a note', async () => {
    const half = MAX_ATTACHMENT_BYTES / 2;
    const r = await run({
      output: 'three charts',
      attachments: [
        { name: 'one.png', mimeType: 'image/png', data: base64(half) },
        { name: 'two.png', mimeType: 'image/png', data: base64(half) },
        { name: 'three.png', mimeType: 'image/png', data: base64(1) },
      ],
    });
    expect(r.attachments!.map((a) => [a.name, a.size])).toEqual([
      ['one.png', half],
      ['two.png', half],
    ]);
    expect(r.output).toBe(
      "three charts\n(Not attached: three.png: one call's attachments may hold at most 5,000,000 bytes in total.)",
    );

    const huge = await run(
      {
        output: 'one',
        attachments: [
          { name: 'huge.bin', mimeType: 'application/octet-stream', data: base64(MAX_ATTACHMENT_BYTES + 1) },
        ],
      },
      'zh',
    );
    expect(huge.attachments).toBeUndefined();
    expect(huge.output).toBe('one\n（未附上 huge.bin：一次调用的附件合计最多 5,000,000 字节。）');
  });

  it('drops malformed attachments with a note', async () => {
    const r = await run({
      output: 'ok',
      attachments: [
        { name: 'no-type.png', data: base64(3) },
        { name: 'bad.png', mimeType: 'image/png', data: 'not base64!' },
        { mimeType: 'image/png', data: base64(3) },
        { name: 'fine.png', mimeType: 'image/png', data: base64(3) },
      ],
    });
    expect(r.attachments!.map((a) => a.name)).toEqual(['fine.png']);
    expect(r.output).toBe(
      'ok\n(Not attached: no-type.png, bad.png, #3: an attachment needs a name, a MIME type, and base64 data or a workspace path.)',
    );
    expect((await run({ output: 'ok', attachments: 'a.png' })).output).toBe(
      'ok\n(The attachments were not a list and were dropped.)',
    );
  });

  it('attaches a workspace file by its path, sized, and refuses one outside the workspace', async () => {
    mkdirSync(join(ws, 'charts'));
    writeFileSync(join(ws, 'charts', 'week.png'), Buffer.alloc(1234));
    writeFileSync(join(base, 'secret.txt'), 'secret');
    const r = await run({
      output: 'ok',
      attachments: [
        { name: 'week.png', mimeType: 'image/png', path: './charts//week.png' },
        { name: 'secret.txt', mimeType: 'text/plain', path: '../secret.txt' },
        { name: 'charts', mimeType: 'inode/directory', path: 'charts' },
      ],
    });
    expect(r.attachments).toEqual([{ name: 'week.png', mimeType: 'image/png', size: 1234, path: 'charts/week.png' }]);
    const notes = r.output.split('\n').slice(1);
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(/^\(Not attached: secret\.txt: .*outside/);
    expect(notes[1]).toBe('(Not attached: charts: it is not a file in the workspace.)');
  });

  it('cuts a long output, keeping the closing fence of outside content and the note after it', async () => {
    const fenced = `${untrusted('https://example.com/', 'x'.repeat(50_000))}\n(Read on with start: 50000.)`;
    const r = await run(fenced);
    expect(r.output.length).toBeLessThan(TOOL_OUTPUT_LIMIT + 100);
    expect(r.output).toMatch(
      /^<untrusted-content kind="web page" source="https:\/\/example.com\/">\nx+\n… \[\d+ more characters cut\]\n<\/untrusted-content>\n\(Read on with start: 50000\.\)$/,
    );
    const cut = Number(/\[(\d+) more/.exec(r.output)![1]);
    expect(r.output.length - `\n… [${cut} more characters cut]\n`.length + cut).toBe(fenced.length);
    // Unfenced text is cut at the limit as before, and fences already closed before the cut stay as they are.
    const plain = await run('y'.repeat(40_000));
    expect(plain.output).toBe(`${'y'.repeat(TOOL_OUTPUT_LIMIT)}\n… [10000 more characters cut]`);
    const closedEarly = `${untrusted('a', 'short')}\n${'z'.repeat(40_000)}`;
    expect((await run(closedEarly)).output).toBe(
      `${closedEarly.slice(0, TOOL_OUTPUT_LIMIT)}\n… [${closedEarly.length - TOOL_OUTPUT_LIMIT} more characters cut]`,
    );
  });

  it('fails a call whose result has no output text', async () => {
    const r = await run({ title: 'only a title' });
    expect(r).toMatchObject({ ok: false, output: 'Error: card failed: its result had no output text.' });
  });

  it('keeps the card of a call that finished as it was being stopped', async () => {
    const tool = defineTool({
      name: 'slowcard',
      description: 'finishes after its timeout',
      parameters: z.object({}),
      timeoutMs: 200,
      execute: () =>
        new Promise((resolve) =>
          setTimeout(() => resolve({ output: 'saved', title: 'notes/a.txt', metadata: { bytes: 5 } }), 300),
        ),
    });
    const r = await createToolRegistry([tool], { settleGraceMs: 500 }).run(
      { id: 'c1', name: 'slowcard', arguments: '{}' },
      ctx(),
    );
    expect(r).toMatchObject({
      ok: true,
      output: 'saved\n(It finished before the stop could take effect.)',
      title: 'notes/a.txt',
      metadata: { bytes: 5 },
    });
  });
});
