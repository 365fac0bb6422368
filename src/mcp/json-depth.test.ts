import { describe, expect, it } from 'vitest';
import { depthCheckedFetch, sseDepthGuard } from './client/depth-guard.js';
import { scanJsonDepth } from './json-depth.js';

const scan = (text: string, max = 3) => scanJsonDepth(Buffer.from(text), max);
const nest = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

describe('scanJsonDepth', () => {
  it('counts nesting up to the bound, and past it', () => {
    expect(scan(`{"a":${nest(2)}}`).tooDeep).toBe(false);
    expect(scan(`{"a":${nest(3)}}`).tooDeep).toBe(true);
  });

  it('skips brackets inside strings, with escaped quotes and backslashes', () => {
    expect(scan(`{"a":"[[[[[\\"[[[[\\\\","b":1}`).tooDeep).toBe(false);
    // An escaped quote does not end the string: the brackets after it are still inside.
    expect(scan(`{"a":"\\"[[[[[["}`).tooDeep).toBe(false);
    // A string ended by a backslash-escaped backslash does end: what follows is counted.
    expect(scan(`{"a":"\\\\",  "b":${nest(3)}}`).tooDeep).toBe(true);
    expect(scan(`{"a":"é[[[[","b":"日本"}`).tooDeep).toBe(false);
  });

  it('finds the top-level id and method, not those nested or inside strings', () => {
    expect(scan(`{"jsonrpc":"2.0","id":7,"result":${nest(5)}}`)).toEqual({ tooDeep: true, id: 7, method: false });
    expect(scan(`{"result":{"id":9,"method":"x"},"id":"a-1"}`, 9)).toEqual({
      tooDeep: false,
      id: 'a-1',
      method: false,
    });
    expect(scan(`{"method":"notifications/message","params":${nest(5)}}`)).toEqual({ tooDeep: true, method: true });
    expect(scan(`{"x":"\\"id\\":3","id" : 4 }`, 9)).toEqual({ tooDeep: false, id: 4, method: false });
  });
});

async function through(parts: string[]): Promise<{ out: string; told: string[] }> {
  const told: string[] = [];
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      for (const p of parts) c.enqueue(Buffer.from(p));
      c.close();
    },
  }).pipeThrough(sseDepthGuard((line) => told.push(line)));
  return { out: await new Response(stream).text(), told };
}

describe('sseDepthGuard', () => {
  it('passes shallow events on as they are, whatever their line endings', async () => {
    const { out, told } = await through(['id: 1\r', '\nevent: message\rdata: {"a":\r\n', 'data: 1}\n', '\n: ping\n\n']);
    expect(out).toBe('id: 1\nevent: message\ndata: {"a":\ndata: 1}\n\n: ping\n\n');
    expect(told).toEqual([]);
  });

  it('replaces a deep answer by an error for its id, and strips a deep notification to its id', async () => {
    const deep = nest(600);
    const { out, told } = await through([
      `id: 4\ndata: {"jsonrpc":"2.0","id":3,"result":${deep}}\n\n`,
      `id: 5\rdata: {"method":"x","params":${deep.slice(0, 700)}`,
      `${deep.slice(700)}}\r\r`,
    ]);
    expect(out).toBe(
      `id: 4\ndata: {"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"the server's answer nests deeper than 512 levels, which Zhixing does not read"}}\n\nid: 5\n\n`,
    );
    expect(told).toHaveLength(2);
  });

  it('checks an event the stream ends inside', async () => {
    const { out } = await through([`data: {"method":"x","params":${nest(600)}}`]);
    expect(out).toBe('');
  });

  it('reads the first line as the parser does, whatever byte order marks open the stream', async () => {
    const deep = `data: {"method":"x","params":${nest(600)}}\n\n`;
    for (const mark of [Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('\u00ef\u00bb\u00bf\ufeff')]) {
      const told2: string[] = [];
      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(mark.subarray(0, 2));
          c.enqueue(Buffer.concat([mark.subarray(2), Buffer.from(deep)]));
          c.close();
        },
      }).pipeThrough(sseDepthGuard((line) => told2.push(line)));
      expect(await new Response(stream).text()).toBe('\n');
      expect(told2).toHaveLength(1);
    }
  });
});

describe('depthCheckedFetch', () => {
  it('reads an answer of any type but JSON as an event stream, as the SDK does with a GET', async () => {
    const told: string[] = [];
    const base = async () =>
      new Response(`data: {"method":"x","params":${nest(600)}}\n\n`, { headers: { 'content-type': 'text/plain' } });
    const response = await depthCheckedFetch(base, (line) => told.push(line))('http://127.0.0.1/mcp');
    expect(await response.text()).toBe('\n');
    expect(told).toHaveLength(1);
  });
});
