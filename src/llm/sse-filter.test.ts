import { describe, expect, it } from 'vitest';
import { createSseFilter, sseFilterStream } from './sse-filter.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (parts: Uint8Array[]) => Buffer.concat(parts).toString('utf8');

/** Feeds `body` cut at the given byte offsets; returns what came out. */
function run(body: string, cuts: number[] = []): string {
  const all = bytes(body);
  const filter = createSseFilter();
  const out: Uint8Array[] = [];
  let from = 0;
  for (const cut of [...cuts, all.length]) {
    out.push(...filter.push(all.subarray(from, cut)));
    from = cut;
  }
  out.push(...filter.end());
  return text(out);
}

const KEPT_LF = 'data: {"a":1}\n\n' + 'event: message\ndata: {"b":"你好"}\n\n' + 'data: {"c":\ndata: 3}\n\n' + 'data: [DONE]\n\n';
const ODD_LF = 'event: ping\n\n' + 'data:\n\n' + 'data: null\n\n' + ': keep-alive\n\n' + 'data:   \n\n' + 'id: 7\nretry: 100\n\n' + 'event: ping\ndata:\n\n';

describe('createSseFilter', () => {
  it('drops blocks without data, with blank data or with data: null, and passes the rest byte for byte', () => {
    const body = ODD_LF.slice(0, 13) + KEPT_LF.slice(0, 15) + ODD_LF.slice(13) + KEPT_LF.slice(15);
    expect(run(body)).toBe(KEPT_LF);
  });

  it('gives the same answer however the body is cut, one byte at a time included', () => {
    for (const eol of ['\n', '\r\n', '\r']) {
      const kept = KEPT_LF.replaceAll('\n', eol);
      const body = (ODD_LF.slice(0, 13) + KEPT_LF.slice(0, 15) + ODD_LF.slice(13) + KEPT_LF.slice(15)).replaceAll('\n', eol);
      const size = bytes(body).length;
      for (let cut = 1; cut < size; cut++) expect(run(body, [cut])).toBe(kept);
      expect(run(body, Array.from({ length: size - 1 }, (_, i) => i + 1))).toBe(kept);
    }
  });

  it('keeps a data block the body ends without closing, and drops an empty one', () => {
    expect(run('data: {"a":1}\n\ndata: {"z":0}')).toBe('data: {"a":1}\n\ndata: {"z":0}');
    expect(run('data: {"a":1}\n\nevent: ping\n')).toBe('data: {"a":1}\n\n');
    expect(run('data: {"a":1}\r')).toBe('data: {"a":1}\r');
  });

  it('works as a stream stage on a response body', async () => {
    const body = new Response(bytes('event: ping\n\ndata: {"ok":true}\n\n')).body!.pipeThrough(sseFilterStream());
    expect(await new Response(body).text()).toBe('data: {"ok":true}\n\n');
  });
});
