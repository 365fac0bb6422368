import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPdfReader, PdfError } from './extract.js';
import type { PageText } from './layout.js';

const fixture = (name: string) =>
  new Uint8Array(readFileSync(path.resolve(__dirname, '..', '..', 'test', 'fixtures', 'pdf', name)));

describe('the PDF reader worker', () => {
  it('reads document after document on one worker, and each gets its own pages', async () => {
    const reader = createPdfReader();
    try {
      for (const name of ['XiaoBiaoSong.pdf', 'issue14297.pdf', 'XiaoBiaoSong.pdf']) {
        const pages: PageText[] = [];
        const info = await reader.read({
          data: fixture(name),
          choosePages: (i) => [i.pageCount],
          onPage: (_, p) => pages.push(p) > 0,
        });
        expect(info.pageCount).toBe(1);
        expect(pages).toHaveLength(1);
        expect(pages[0]!.items.map((i) => i.str).join('')).toContain(
          name === 'XiaoBiaoSong.pdf' ? '关于红军作战的原则' : 'Balance at beginning of year',
        );
      }
    } finally {
      await reader.close();
    }
  });

  it('stops a document that overruns its time, and the next one still reads', async () => {
    const slow = createPdfReader({ timeoutMs: 1 });
    const err = await slow
      .read({ data: fixture('tracemonkey_a11y.pdf'), choosePages: () => [1], onPage: () => true })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PdfError);
    expect((err as PdfError).reason).toBe('timeout');
    await slow.close();
    const reader = createPdfReader();
    const info = await reader.read({
      data: fixture('tracemonkey_a11y.pdf'),
      choosePages: () => [1],
      onPage: () => true,
    });
    expect(info.pageCount).toBe(1);
    await reader.close();
  });

  it("passes a refusal from choosePages through and leaves the caller's buffer intact", async () => {
    const reader = createPdfReader();
    const data = fixture('XiaoBiaoSong.pdf');
    const err = await reader
      .read({
        data,
        choosePages: () => {
          throw new Error('no such page');
        },
        onPage: () => true,
      })
      .catch((e: unknown) => e);
    expect((err as Error).message).toBe('no such page');
    expect(data.byteLength).toBe(5652);
    await reader.close();
  });
});

describe('the PDF reader worker, stopped', () => {
  it('ends the read when the signal fires between pages', async () => {
    const reader = createPdfReader();
    const abort = new AbortController();
    const seen: number[] = [];
    const data = fixture('tracemonkey_a11y.pdf');
    const err = await reader
      .read({
        data,
        signal: abort.signal,
        choosePages: () => [1, 1, 1, 1, 1, 1, 1, 1],
        onPage: (n) => {
          seen.push(n);
          abort.abort();
          return true;
        },
      })
      .catch((e: unknown) => e);
    expect((err as PdfError).reason).toBe('aborted');
    expect(seen).toEqual([1]);
    // The stopped worker is gone; the reader starts a fresh one for the next document.
    const info = await reader.read({ data, choosePages: () => [1], onPage: () => true });
    expect(info.pageCount).toBe(1);
    await reader.close();
  });
});

describe('the PDF reader worker under a memory limit', () => {
  it('reports a document that needs more memory than allowed, and the process carries on', async () => {
    const tight = createPdfReader({ heapLimitMb: 2 });
    const err = await tight
      .read({ data: fixture('issue14297.pdf'), choosePages: (i) => [i.pageCount], onPage: () => true })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PdfError);
    expect((err as PdfError).reason).toBe('memory');
    await tight.close();
  });
});
