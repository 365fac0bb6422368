import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundedFetch, MessageTooLongError } from './bounded-fetch.js';

const LIMIT = 1_000;

/** Reads a body to its end; what it read and how it ended. */
async function drain(response: Response): Promise<{ bytes: number; error?: unknown }> {
  const reader = response.body!.getReader();
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { bytes };
      bytes += value.byteLength;
    }
  } catch (error) {
    return { bytes, error };
  }
}

describe('boundedFetch', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': req.url === '/json' ? 'application/json' : 'text/event-stream' });
      if (req.url === '/endless') {
        // One line that never ends, as a hostile server would send it: written until the client leaves.
        const more = () => {
          while (res.write('x'.repeat(256))) continue;
        };
        res.on('drain', more);
        res.write('data: ');
        more();
        return;
      }
      if (req.url === '/events') {
        // Many events, far more than the limit in all, each short; blank lines split between writes too.
        for (let i = 0; i < 200; i++) {
          res.write(`data: {"n":${i}}\r\n\r`);
          res.write('\n');
        }
        for (let i = 0; i < 200; i++) {
          res.write(`data: {"n":${i}}\n`);
          res.write('\n');
        }
        return void res.end();
      }
      res.end(JSON.stringify({ big: 'y'.repeat(req.url === '/json' ? 2 * LIMIT : 10) }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('cuts off a stream whose one event never ends, a little past the limit', async () => {
    const r = await drain(await boundedFetch(LIMIT)(`${url}/endless`));
    expect(r.error).toBeInstanceOf(MessageTooLongError);
    expect(r.bytes).toBeLessThanOrEqual(LIMIT);
  });

  it('passes a long stream of short events whole, however their blank lines are split', async () => {
    const r = await drain(await boundedFetch(LIMIT)(`${url}/events`));
    expect(r.error).toBeUndefined();
    expect(r.bytes).toBeGreaterThan(5 * LIMIT);
  });

  it('bounds a JSON body as one message', async () => {
    await expect((await boundedFetch(LIMIT)(`${url}/json`)).json()).rejects.toThrow(/over 1000 bytes/);
    expect(await (await boundedFetch(LIMIT)(`${url}/small`)).json()).toEqual({ big: 'y'.repeat(10) });
  });
});
