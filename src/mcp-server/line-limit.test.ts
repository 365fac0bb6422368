import { describe, expect, it } from 'vitest';
import { lineLimit } from './line-limit.js';

/** What comes out of the limit for these chunks, and the sizes it cut. */
async function through(chunks: string[], max: number): Promise<{ out: string; cuts: number[] }> {
  const cuts: number[] = [];
  const t = lineLimit(max, (n) => cuts.push(n));
  let out = '';
  t.on('data', (d: Buffer) => (out += d.toString()));
  const ended = new Promise((resolve) => t.on('end', resolve));
  for (const c of chunks) t.write(Buffer.from(c));
  t.end();
  await ended;
  return { out, cuts };
}

describe('lineLimit', () => {
  it('passes lines within the limit unchanged, however the chunks split them', async () => {
    expect(await through(['{"a":1}\n{"b"', ':2}\n', '{"c":3}\n'], 10)).toEqual({
      out: '{"a":1}\n{"b":2}\n{"c":3}\n',
      cuts: [],
    });
  });

  it('cuts a longer line, ended by a newline of its own, and goes on with the next', async () => {
    const { out, cuts } = await through(['ok1\nxxxxx', 'xxxxxxxxxx', 'xxx\nok2\n'], 8);
    expect(out).toBe('ok1\nxxxxx\n' + 'ok2\n');
    expect(cuts).toEqual([19]);
  });

  it('cuts a long line that arrives in one chunk', async () => {
    expect(await through(['a'.repeat(50) + '\nfine\n'], 10)).toEqual({ out: '\nfine\n', cuts: [51] });
  });
});
