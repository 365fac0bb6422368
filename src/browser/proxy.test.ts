import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkPolicy } from '../net/policy.js';
import { REFUSED_HEADER, startPolicyProxy, type PolicyProxy, type Refusal } from './proxy.js';

let allowed: Server;
let forbidden: Server;
let allowedPort: number;
let forbiddenPort: number;
const forbiddenHits: string[] = [];
let proxy: PolicyProxy;
const refusals: Refusal[] = [];

const listen = (s: Server) =>
  new Promise<number>((r) => s.listen(0, '127.0.0.1', () => r((s.address() as AddressInfo).port)));

beforeAll(async () => {
  allowed = createServer((req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/plain', 'x-seen-host': req.headers.host ?? '' })
      .end(`hello from ${req.url}`),
  );
  forbidden = createServer((req, res) => (forbiddenHits.push(req.url ?? ''), res.end('secret')));
  allowedPort = await listen(allowed);
  forbiddenPort = await listen(forbidden);
  const policy: NetworkPolicy = {
    allowPrivate: false,
    lookup: async (name) => {
      if (name === 'site.test' || name === 'evil.test') return [{ address: '127.0.0.1', family: 4 }];
      throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
    },
    allowAddress: (address, port) => address === '127.0.0.1' && port === allowedPort,
  };
  proxy = await startPolicyProxy({ policy, onRefused: (r) => refusals.push(r) });
});
afterAll(async () => {
  await proxy?.close();
  allowed?.close();
  forbidden?.close();
});

/** A plain-http request through the proxy, as a browser sends it: the absolute URL as the path. */
function viaProxy(url: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const { port } = new URL(proxy.server);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: url, headers: { host: new URL(url).host } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A CONNECT tunnel's answer line, and a request sent through it when it opened. */
function tunnel(target: string): Promise<string> {
  const { port } = new URL(proxy.server);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () =>
      socket.write(`CONNECT ${target} HTTP/1.1\r\nhost: ${target}\r\n\r\n`),
    );
    let text = '';
    let sent = false;
    socket.setEncoding('utf8').on('data', (d: string) => {
      text += d;
      if (!sent && text.startsWith('HTTP/1.1 200')) {
        sent = true;
        socket.write(`GET /through HTTP/1.1\r\nhost: ${target}\r\nconnection: close\r\n\r\n`);
      }
    });
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

describe('the policy proxy', () => {
  it('forwards plain http to an allowed address, by name or by address', async () => {
    const byName = await viaProxy(`http://site.test:${allowedPort}/page?q=1`);
    expect([byName.status, byName.body, byName.headers['x-seen-host']]).toEqual([
      200,
      'hello from /page?q=1',
      `site.test:${allowedPort}`,
    ]);
    expect((await viaProxy(`http://127.0.0.1:${allowedPort}/x`)).body).toBe('hello from /x');
  });

  it('refuses plain http to a private address, whatever name leads there, with a page that says so', async () => {
    for (const url of [
      `http://127.0.0.1:${forbiddenPort}/a`,
      `http://evil.test:${forbiddenPort}/b`,
      `http://[::1]:${forbiddenPort}/c`,
    ]) {
      const r = await viaProxy(url);
      expect(r.status, url).toBe(403);
      expect(r.headers[REFUSED_HEADER]).toBe('1');
      expect(r.body).toMatch(/^Refused to connect to .*ZHIXING_ALLOW_PRIVATE_NETWORK=1/);
    }
    expect(refusals.map((r) => r.url)).toEqual([
      `http://127.0.0.1:${forbiddenPort}/a`,
      `http://evil.test:${forbiddenPort}/b`,
      `http://[::1]:${forbiddenPort}/c`,
    ]);
    expect(forbiddenHits).toEqual([]);
  });

  it('opens CONNECT tunnels only to allowed addresses', async () => {
    const opened = await tunnel(`site.test:${allowedPort}`);
    expect(opened).toMatch(
      /^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.1 200 OK[\s\S]*\r\nhello from \/through\r\n/,
    );
    for (const target of [
      `127.0.0.1:${forbiddenPort}`,
      `evil.test:${forbiddenPort}`,
      `[::ffff:127.0.0.1]:${forbiddenPort}`,
    ]) {
      expect(await tunnel(target), target).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    }
    expect(await tunnel(`nowhere.test:443`)).toMatch(/^HTTP\/1\.1 502 Bad Gateway\r\n/);
    expect(forbiddenHits).toEqual([]);
  });
});
