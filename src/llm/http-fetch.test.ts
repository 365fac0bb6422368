import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpFetch } from './http-fetch.js';

let server: Server;
let base: string;
const sockets = new Set<unknown>();
const routes: Record<string, (req: IncomingMessage, res: ServerResponse, body: string) => void> = {
  '/echo': (req, res, body) => {
    res.writeHead(201, 'Made', { 'content-type': 'application/json', 'x-a': '1' });
    res.end(
      JSON.stringify({
        method: req.method,
        body,
        auth: req.headers.authorization ?? null,
        length: req.headers['content-length'] ?? null,
      }),
    );
  },
  '/gzip': (_req, res) => {
    res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/plain' });
    res.end(gzipSync('squeezed'));
  },
  '/moved': (_req, res) => {
    res.writeHead(307, { location: '/echo' });
    res.end();
  },
  '/cut': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'content-length': '1000' });
    res.write('data: {}\n\n');
    setTimeout(() => res.socket?.destroy(), 20);
  },
  '/slow': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: {}\n\n');
  },
  '/nothing': (_req, res) => {
    res.writeHead(204);
    res.end();
  },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d) => (body += d));
    req.on('end', () => routes[req.url ?? '']!(req, res, body));
  });
  server.on('connection', (s) => sockets.add(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('httpFetch (node:http under the model client)', () => {
  it('sends the method, headers and body, and gives back status, status text, headers and body', async () => {
    const r = await httpFetch(`${base}/echo`, {
      method: 'POST',
      headers: new Headers({ authorization: 'Bearer k' }),
      body: '{"a":"é"}',
    });
    expect(r.status).toBe(201);
    expect(r.statusText).toBe('Made');
    expect(r.headers.get('x-a')).toBe('1');
    expect(await r.json()).toEqual({ method: 'POST', body: '{"a":"é"}', auth: 'Bearer k', length: '10' });
  });

  it('reuses one kept-alive connection for requests one after another', async () => {
    const before = sockets.size;
    for (let i = 0; i < 3; i++) await (await httpFetch(`${base}/echo`, { method: 'POST', body: '{}' })).text();
    expect(sockets.size - before).toBeLessThanOrEqual(1);
  });

  it('decompresses a body the server compressed, follows a redirect, and has no body for 204', async () => {
    expect(await (await httpFetch(`${base}/gzip`)).text()).toBe('squeezed');
    const moved = await httpFetch(`${base}/moved`, { method: 'POST', body: 'again' });
    expect(await moved.json()).toMatchObject({ method: 'POST', body: 'again' });
    const nothing = await httpFetch(`${base}/nothing`);
    expect(nothing.status).toBe(204);
    expect(nothing.body).toBeNull();
  });

  it('fails like the built-in fetch: unreachable, cut short, aborted', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as { port: number }).port;
    await new Promise((r) => closed.close(r));
    const refused = await httpFetch(`http://127.0.0.1:${port}/`).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TypeError);
    expect(refused).toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNREFUSED' } });

    const cut = await httpFetch(`${base}/cut`);
    const cutError = await cut.text().catch((e: unknown) => e);
    expect(cutError).toBeInstanceOf(TypeError);
    expect(cutError).toMatchObject({ message: 'terminated' });

    const controller = new AbortController();
    const slow = await httpFetch(`${base}/slow`, { signal: controller.signal });
    const reading = slow.text().catch((e: unknown) => e);
    controller.abort();
    expect(await reading).toMatchObject({ name: 'AbortError' });
    await expect(httpFetch(`${base}/slow`, { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});
