import { describe, expect, it } from 'vitest';
import { LlmError } from './llm-error.js';
import {
  createSseFilter,
  MAX_EVENT_BYTES,
  MAX_STREAM_BYTES,
  sseFilterStream,
  type SseFilterOptions,
} from './sse-filter.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (parts: Uint8Array[]) => Buffer.concat(parts).toString('utf8');

/** Feeds `body` cut at the given byte offsets; returns what came out. */
function run(body: string, cuts: number[] = [], options: SseFilterOptions = {}): string {
  const all = bytes(body);
  const filter = createSseFilter(options);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const cut of [...cuts, all.length]) {
    out.push(...filter.push(all.subarray(from, cut)));
    from = cut;
  }
  out.push(...filter.end());
  return text(out);
}

const KEPT_LF =
  'data: {"a":1}\n\n' + 'event: message\ndata: {"b":"你好"}\n\n' + 'data: {"c":\ndata: 3}\n\n' + 'data: [DONE]\n\n';
const ODD_LF =
  'event: ping\n\n' +
  'data:\n\n' +
  'data: null\n\n' +
  ': keep-alive\n\n' +
  'data:   \n\n' +
  'id: 7\nretry: 100\n\n' +
  'event: ping\ndata:\n\n';

describe('createSseFilter', () => {
  it('drops blocks without data, with blank data or with data: null, and passes the rest byte for byte', () => {
    const body = ODD_LF.slice(0, 13) + KEPT_LF.slice(0, 15) + ODD_LF.slice(13) + KEPT_LF.slice(15);
    expect(run(body)).toBe(KEPT_LF);
  });

  it('gives the same answer however the body is cut, one byte at a time included', () => {
    for (const eol of ['\n', '\r\n', '\r']) {
      const kept = KEPT_LF.replaceAll('\n', eol);
      const body = (ODD_LF.slice(0, 13) + KEPT_LF.slice(0, 15) + ODD_LF.slice(13) + KEPT_LF.slice(15)).replaceAll(
        '\n',
        eol,
      );
      const size = bytes(body).length;
      for (let cut = 1; cut < size; cut++) expect(run(body, [cut])).toBe(kept);
      expect(
        run(
          body,
          Array.from({ length: size - 1 }, (_, i) => i + 1),
        ),
      ).toBe(kept);
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

  it('drops comment lines inside a block and keeps the block', () => {
    const body = 'data: {"a":\n: a note\ndata: 1}\n\n';
    const kept = 'data: {"a":\ndata: 1}\n\n';
    for (let cut = 1; cut < body.length; cut++) expect(run(body, [cut])).toBe(kept);
  });

  it('as a stream stage, fails the body with its error, so the reader sees a rejection', async () => {
    const body = new Response(bytes(`data: ${'x'.repeat(100)}\n\n`)).body!.pipeThrough(
      sseFilterStream({ maxEventBytes: 50 }),
    );
    const reader = body.getReader();
    await expect(reader.read()).rejects.toMatchObject({ name: 'LlmError', code: 'bad_response' });
  });
});

/** The error `fn` throws, which must be the filter's own. */
function thrown(fn: () => unknown): LlmError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(LlmError);
    return error as LlmError;
  }
  throw new Error('expected a throw');
}

describe('createSseFilter limits', () => {
  const MB = 1024 * 1024;

  it('are 24 MB an event and 256 MB a response', () => {
    expect(MAX_EVENT_BYTES).toBe(24 * MB);
    expect(MAX_STREAM_BYTES).toBe(256 * MB);
  });

  it('lets an event of exactly the limit through and stops one a byte longer, however it is cut', () => {
    const event = (size: number) => `data: ${'x'.repeat(size - 'data: \n\n'.length)}\n\n`;
    expect(run(event(64), [], { maxEventBytes: 64 })).toBe(event(64));
    for (let cut = 1; cut < 65; cut++) {
      const error = thrown(() => run(event(65), [cut], { maxEventBytes: 64 }));
      expect(error.code).toBe('bad_response');
      expect(error.message).toMatch(/^The model service sent an event larger than \d+ MB; it was stopped\. /);
    }
  });

  it('stops a line that never ends as soon as it passes the limit, without waiting for its end', () => {
    const filter = createSseFilter({ maxEventBytes: 1000 });
    filter.push(bytes('data: '));
    let fed = 6;
    const error = thrown(() => {
      for (; fed < 10_000; fed += 100) filter.push(bytes('x'.repeat(100)));
    });
    expect(error.code).toBe('bad_response');
    expect(fed).toBeLessThan(1_100);
  });

  it('holds no comment lines: endless comments never reach the event limit, only the response limit', () => {
    const filter = createSseFilter({ maxEventBytes: 100, maxStreamBytes: 999_999 });
    const comments = bytes(`: ${'x'.repeat(97)}\n`.repeat(100));
    for (let i = 0; i < 99; i++) expect(filter.push(comments)).toEqual([]);
    const error = thrown(() => filter.push(comments));
    expect(error.message).toMatch(/^The model service sent more than \d+ MB in one answer; it was stopped\. /);
  });

  it('counts pings and dropped blocks against the response limit', () => {
    const filter = createSseFilter({ maxStreamBytes: 1_000 });
    const ping = bytes('event: ping\n\n');
    let sent = 0;
    const error = thrown(() => {
      for (; sent < 10_000; sent += ping.length) filter.push(ping);
    });
    expect(error.code).toBe('bad_response');
    expect(sent).toBeLessThanOrEqual(1_000);
  });

  // The bounds tell linear from quadratic (33 s before) with room for a busy machine; bench/ measures speed.
  it('reads 50 MB in 64 KB chunks in linear time, as one line or as many', () => {
    const CHUNK = 64 * 1024;
    const feed = (head: string, fill: Uint8Array, total: number, tail: string, options: SseFilterOptions) => {
      const filter = createSseFilter(options);
      let out = filter.push(bytes(head)).length;
      for (let sent = 0; sent < total; sent += fill.length) out += filter.push(fill).length;
      out += filter.push(bytes(tail)).length + filter.end().length;
      return out;
    };
    let started = Date.now();
    // One 50 MB line: the old filter copied everything held on every chunk, 33 s for this.
    expect(feed('data: "', new Uint8Array(CHUNK).fill(0x78), 50 * MB, '"\n\n', { maxEventBytes: 64 * MB })).toBe(1);
    expect(Date.now() - started).toBeLessThan(12_000);
    // Short events, many to a chunk, under the default limits.
    const line = 'data: {"choices":[{"index":0,"delta":{"content":"abc"}}]}\n\n';
    const many = bytes(line.repeat(Math.floor(CHUNK / line.length)));
    started = Date.now();
    expect(feed('', many, 50 * MB, '', {})).toBeGreaterThan(800_000);
    expect(Date.now() - started).toBeLessThan(12_000);
  }, 40_000);

  it('reads a block of 10 MB of blank data lines in linear time, and drops it', () => {
    const filter = createSseFilter();
    const blank = bytes('data:  \t\ndata: null\n'.slice(0, 9).repeat(7_000));
    const started = Date.now();
    let out = 0;
    for (let sent = 0; sent < 10 * MB; sent += blank.length) out += filter.push(blank).length;
    out += filter.push(bytes('data: null\n\n')).length;
    expect(out).toBe(0);
    expect(Date.now() - started).toBeLessThan(12_000);
  });
});
