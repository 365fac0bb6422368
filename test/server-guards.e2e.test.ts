import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { createServer } from '../src/server/create-server.js';
import { CONTENT_SECURITY_POLICY, MAX_BODY_BYTES, ServeConfigError } from '../src/server/guards.js';
import { openStream, request, startTestServer, type HttpResult, type TestServer } from './support/http.js';
import { runCli } from './support/cli.js';
import { tempHome } from './support/temp-home.js';

const TOKEN = 'a-long-enough-test-token-0123456789';

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const refused = (r: HttpResult, status: number, code: string) => {
  expect(r.status).toBe(status);
  expect(r.headers['content-type']).toMatch(/^application\/json/);
  expect(r.json().error.code).toBe(code);
};

describe('Origin and Host checks', () => {
  it('refuses a page on another origin, reads or writes, and sends no CORS headers', async () => {
    t = await startTestServer();
    for (const origin of [
      'https://evil.example',
      'null',
      `http://127.0.0.1:${t.port + 1}`,
      `http://localhost.evil.example:${t.port}`,
    ]) {
      const write = await request(t.port, '/api/sessions', {
        body: {},
        headers: { origin, 'content-type': 'text/plain' },
      });
      refused(write, 403, 'forbidden');
      refused(await request(t.port, '/api/sessions', { headers: { origin } }), 403, 'forbidden');
      expect(write.headers['access-control-allow-origin']).toBeUndefined();
    }
    const preflight = await request(t.port, '/api/sessions', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    refused(preflight, 403, 'forbidden');
    expect(t.app.sessions.list()).toEqual([]);
  });

  it("lets the server's own pages in, by any of its loopback names", async () => {
    t = await startTestServer();
    for (const name of [`127.0.0.1:${t.port}`, `localhost:${t.port}`, `LOCALHOST:${t.port}`, `[::1]:${t.port}`]) {
      const r = await request(t.port, '/api/sessions', { body: {}, headers: { host: name, origin: `http://${name}` } });
      expect(r.status).toBe(201);
      expect(r.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('refuses a foreign Host (DNS rebinding) and a missing one', async () => {
    t = await startTestServer();
    for (const host of [
      `evil.example:${t.port}`,
      `127.0.0.1:${t.port + 1}`,
      '127.0.0.1',
      `attacker.localhost.example:${t.port}`,
    ]) {
      refused(await request(t.port, '/api/health', { headers: { host } }), 403, 'forbidden');
      refused(await request(t.port, '/api/sessions', { headers: { host } }), 403, 'forbidden');
    }
    const noHost = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port: t!.port, path: '/api/health', setHost: false, agent: false },
        (res) => (res.resume(), resolve(res.statusCode!)),
      );
      req.on('error', reject).end();
    });
    // Node itself refuses an HTTP/1.1 request without Host (400) before it reaches the guards.
    expect([400, 403]).toContain(noHost);
  });

  it('refuses no-cors loads from other sites, but not a link followed to the docs', async () => {
    t = await startTestServer();
    refused(
      await request(t.port, '/api/sessions', {
        headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' },
      }),
      403,
      'forbidden',
    );
    refused(
      await request(t.port, '/api/events', { headers: { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'no-cors' } }),
      403,
      'forbidden',
    );
    expect(
      (await request(t.port, '/docs', { headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' } }))
        .status,
    ).toBe(200);
    expect(
      (
        await request(t.port, '/api/sessions', {
          headers: { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' },
        })
      ).status,
    ).toBe(200);
  });
});

describe('the bearer token', () => {
  it('is required to serve on a non-loopback address: without ZHIXING_TOKEN the server refuses to start', async () => {
    const home = tempHome();
    const app = await createApp(home.config);
    try {
      await expect(createServer({ app, host: '0.0.0.0', port: 0 })).rejects.toThrow(ServeConfigError);
      await expect(createServer({ app, host: '0.0.0.0', port: 0 })).rejects.toThrow(/ZHIXING_TOKEN/);
      await expect(createServer({ app, host: '127.0.0.1', port: 0, token: 'short' })).rejects.toThrow(/too short/);
      const cli = await runCli(['serve', '--host', '0.0.0.0', '--port', '0'], { ZHIXING_HOME: home.home });
      expect(cli.code).toBe(2);
      expect(cli.stdout).toBe('');
      expect(cli.stderr).toMatch(/^zhixing: Refusing to serve on 0\.0\.0\.0 without a token.*ZHIXING_TOKEN/);
    } finally {
      app.close();
      home.cleanup();
    }
  });

  it('with a token, a missing or wrong bearer is a 401 and the right one passes, on every route', async () => {
    t = await startTestServer({ host: '0.0.0.0', token: TOKEN });
    for (const path of ['/api/health', '/api/sessions', '/api/events', '/docs', '/openapi.json']) {
      const missing = await request(t.port, path);
      refused(missing, 401, 'unauthorized');
      expect(missing.headers['www-authenticate']).toBe('Bearer realm="zhixing"');
      refused(await request(t.port, path, { headers: { authorization: `Bearer ${TOKEN}x` } }), 401, 'unauthorized');
      refused(await request(t.port, path, { headers: { authorization: `Basic ${TOKEN}` } }), 401, 'unauthorized');
    }
    expect((await request(t.port, '/api/health', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    // Off loopback the client may use the machine's name; Origin must then be that same server.
    const named = await request(t.port, '/api/sessions', {
      body: {},
      headers: {
        authorization: `Bearer ${TOKEN}`,
        host: `zhixing.lan:${t.port}`,
        origin: `http://zhixing.lan:${t.port}`,
      },
    });
    expect(named.status).toBe(201);
    const foreign = await request(t.port, '/api/sessions', {
      body: {},
      headers: { authorization: `Bearer ${TOKEN}`, host: `zhixing.lan:${t.port}`, origin: 'https://evil.example' },
    });
    refused(foreign, 403, 'forbidden');
    const stream = await openStream(t.port, '/api/events', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(stream.status).toBe(200);
    stream.leave();
  });

  it('set on loopback, it is required there too', async () => {
    t = await startTestServer({ token: TOKEN });
    refused(await request(t.port, '/api/sessions'), 401, 'unauthorized');
    expect((await request(t.port, '/api/sessions', { headers: { authorization: `bearer ${TOKEN}` } })).status).toBe(
      200,
    );
  });
});

describe('bodies and headers', () => {
  it('refuses a body over the limit with 413, declared or sent in chunks', async () => {
    t = await startTestServer();
    const id = (await request(t.port, '/api/sessions', { body: {} })).json().id;
    const big = JSON.stringify({ message: 'x'.repeat(MAX_BODY_BYTES) });
    const declared = await request(t.port, `/api/sessions/${id}/chat`, { body: big });
    refused(declared, 413, 'too_large');
    expect(declared.headers.connection).toBe('close');
    const chunked = await new Promise<HttpResult>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port: t!.port, path: `/api/sessions/${id}/chat`, method: 'POST', agent: false },
        (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (d) => (text += d));
          res.on('end', () =>
            resolve({ status: res.statusCode!, headers: res.headers, body: text, json: () => JSON.parse(text) }),
          );
        },
      );
      req.on('error', reject);
      // No Content-Length: node sends the body chunked.
      for (let i = 0; i < 4; i++) req.write(big.slice((i * big.length) / 4, ((i + 1) * big.length) / 4));
      req.end();
    });
    refused(chunked, 413, 'too_large');
    expect(t.app.sessions.history(id)).toEqual([]);
  });

  it('sends the strict CSP and the other security headers on every response', async () => {
    t = await startTestServer();
    const id = (await request(t.port, '/api/sessions', { body: {} })).json().id;
    const stream = await openStream(t.port, '/api/events');
    stream.leave();
    const responses = [
      await request(t.port, '/api/health'),
      await request(t.port, '/api/status'),
      await request(t.port, `/api/sessions/${id}/messages`),
      await request(t.port, '/api/nowhere'),
      await request(t.port, '/api/memories'),
      await request(t.port, '/docs'),
      await request(t.port, '/docs/docs.css'),
      await request(t.port, '/openapi.json'),
      await request(t.port, '/api/health', { headers: { origin: 'https://evil.example' } }),
      stream,
    ];
    for (const r of responses) {
      expect(r.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['x-frame-options']).toBe('DENY');
      expect(r.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(r.headers['access-control-allow-origin']).toBeUndefined();
    }
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-|\*/);
  });

  it('answers unknown routes and wrong methods with a JSON 404', async () => {
    t = await startTestServer();
    const r = await request(t.port, '/api/sessions', { method: 'PUT', body: {} });
    refused(r, 404, 'not_found');
    expect(r.json().error.message).toBe('There is no route PUT /api/sessions. See /docs.');
  });

  it('caps open event streams: the oldest follower of /api/events makes room, so a flood of them locks nobody out', async () => {
    t = await startTestServer({ maxStreams: 3 });
    const open = await Promise.all([1, 2, 3].map(() => openStream(t!.port, '/api/events')));
    const newcomer = await openStream(t.port, '/api/events');
    expect(newcomer.status).toBe(200);
    // The stream open longest was ended by the server to make room; the others stay.
    await open[0]!.ended();
    expect((await request(t.port, '/api/health')).status).toBe(200);
    open.forEach((s) => s.leave());
    newcomer.leave();
    await t.close();
    // With no follower to end, a stream past the cap is refused with a plain 503, and other requests still go.
    t = await startTestServer({ maxStreams: 0 });
    const refused = await request(t.port, '/api/events');
    expect(refused.status).toBe(503);
    expect(refused.json().error.code).toBe('too_many_streams');
    expect((await request(t.port, '/api/health')).status).toBe(200);
  });
});
