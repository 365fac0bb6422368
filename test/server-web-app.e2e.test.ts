import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../src/server/guards.js';
import { APP_CONTENT_SECURITY_POLICY } from '../src/server/web-app.js';
import { request, startTestServer, type TestServer } from './support/http.js';

const TOKEN = 'a-long-enough-test-token-0123456789';
const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/app-3f9a1c.js"></script></head><body><div id="app"></div></body></html>\n';
const SCRIPT = `console.log(${JSON.stringify('知行 '.repeat(2_000))});\n`;
const SECRET = 'the secret beside dist/web';
const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

/** A built web app in a temp folder, with a secret next to it and a link pointing at it. */
let outer: string;
let root: string;
beforeAll(() => {
  outer = mkdtempSync(join(tmpdir(), 'zhixing-web-'));
  root = join(outer, 'web');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), INDEX);
  writeFileSync(join(root, 'assets', 'app-3f9a1c.js'), SCRIPT);
  writeFileSync(join(root, 'assets', 'logo-77aa.png'), Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
  writeFileSync(join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(outer, 'secret.txt'), SECRET);
  symlinkSync(join(outer, 'secret.txt'), join(root, 'assets', 'leak.js'));
  symlinkSync(join(outer, 'secret.txt'), join(root, 'leak.txt'));
});
afterAll(() => rmSync(outer, { recursive: true, force: true }));

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** The raw bytes of a response (the helper decodes as UTF-8, which gzip is not). */
function fetchBytes(
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject).end();
  });
}

describe('the web app', () => {
  it('serves index.html at / and for every page path, with its own CSP and no caching without asking', async () => {
    t = await startTestServer({ webRoot: root });
    for (const path of ['/', '/index.html', '/s/ses_01abc', '/s/ses_01abc/', '/settings?tab=model']) {
      const r = await request(t.port, path, { headers: HTML });
      expect(r.status, path).toBe(200);
      expect(r.body).toBe(INDEX);
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(r.headers['cache-control']).toBe('no-cache');
      expect(r.headers['content-security-policy']).toBe(APP_CONTENT_SECURITY_POLICY);
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['x-frame-options']).toBe('DENY');
      expect(r.headers['cross-origin-resource-policy']).toBe('same-origin');
    }
    // `/` is the app whatever the client accepts; another path only for a page load.
    expect((await request(t.port, '/')).body).toBe(INDEX);
    const data = await request(t.port, '/s/ses_01abc', { headers: { accept: 'application/json' } });
    expect(data.status).toBe(404);
    expect(data.json().error.code).toBe('not_found');
    // The API keeps its strict policy.
    expect((await request(t.port, '/api/status')).headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(APP_CONTENT_SECURITY_POLICY).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(APP_CONTENT_SECURITY_POLICY).not.toContain('unsafe-inline');
  });

  it('serves hashed assets for a year, other files plainly, and a missing asset as 404 even to a page load', async () => {
    t = await startTestServer({ webRoot: root });
    const js = await fetchBytes(t.port, '/assets/app-3f9a1c.js');
    expect(js.status).toBe(200);
    expect(js.body.toString()).toBe(SCRIPT);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.headers['content-length']).toBe(String(Buffer.byteLength(SCRIPT)));
    expect(js.headers['content-encoding']).toBeUndefined();
    const png = await fetchBytes(t.port, '/assets/logo-77aa.png', { 'accept-encoding': 'gzip' });
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['content-encoding']).toBeUndefined();
    const icon = await request(t.port, '/favicon.svg');
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.headers['cache-control']).toBe('no-cache');
    const missing = await request(t.port, '/assets/gone-123.js', { headers: HTML });
    expect(missing.status).toBe(404);
    expect(missing.json().error.code).toBe('not_found');
  });

  it('gzips text when the client takes it, from bytes compressed once', async () => {
    t = await startTestServer({ webRoot: root });
    for (let i = 0; i < 2; i++) {
      const r = await fetchBytes(t.port, '/assets/app-3f9a1c.js', { 'accept-encoding': 'br, gzip, deflate' });
      expect(r.headers['content-encoding']).toBe('gzip');
      expect(r.headers.vary).toBe('accept-encoding');
      expect(Number(r.headers['content-length'])).toBe(r.body.length);
      expect(r.body.length).toBeLessThan(Buffer.byteLength(SCRIPT) / 10);
      expect(gunzipSync(r.body).toString()).toBe(SCRIPT);
    }
    const refused = await fetchBytes(t.port, '/assets/app-3f9a1c.js', { 'accept-encoding': 'gzip;q=0, identity' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body.toString()).toBe(SCRIPT);
  });

  it('answers HEAD with the headers alone, and a known ETag with 304', async () => {
    t = await startTestServer({ webRoot: root });
    for (const path of ['/', '/assets/app-3f9a1c.js', '/s/ses_1']) {
      const head = await request(t.port, path, { method: 'HEAD', headers: HTML });
      expect(head.status, path).toBe(200);
      expect(head.body).toBe('');
      expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
    }
    const first = await request(t.port, '/');
    const again = await request(t.port, '/', { headers: { 'if-none-match': first.headers.etag! } });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
  });

  it('never serves a file from outside dist/web, however the path is spelled', async () => {
    t = await startTestServer({ webRoot: root });
    const attempts = [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/%2E%2E/secret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/.%2e/secret.txt',
      '/..%2fsecret.txt',
      '/assets/..%2F..%2Fsecret.txt',
      '/%2e%2e%2fsecret.txt',
      '/..\\secret.txt',
      '/assets\\..\\..\\secret.txt',
      '/%5c..%5csecret.txt',
      '/favicon.svg%00.txt',
      '/%00',
      '/%c0%ae%c0%ae/secret.txt',
      '//secret.txt',
      '/assets/leak.js',
      '/leak.txt',
      '/%zz',
    ];
    for (const path of attempts) {
      for (const headers of [{}, HTML]) {
        const r = await request(t.port, path, { headers });
        expect(r.body, path).not.toContain(SECRET);
        expect([400, 404], path).toContain(r.status);
      }
    }
    // Encoded twice, it decodes once to a plain (odd) name: a page path like any other.
    const twice = await request(t.port, '/%252e%252e/secret.txt', { headers: HTML });
    expect(twice.body).toBe(INDEX);
    expect((await request(t.port, '/%252e%252e/secret.txt')).status).toBe(404);
  });

  it('says plainly how to build the app when it is not built, and the API still works', async () => {
    t = await startTestServer({ webRoot: join(outer, 'not-built') });
    for (const path of ['/', '/s/ses_1']) {
      const r = await request(t.port, path, { headers: HTML });
      expect(r.status).toBe(503);
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(r.body).toContain('npm run build');
    }
    expect((await request(t.port, '/assets/app-3f9a1c.js')).status).toBe(404);
    expect((await request(t.port, '/api/health')).status).toBe(200);
  });

  it('still refuses foreign Hosts, Origins and cross-site loads of its files', async () => {
    t = await startTestServer({ webRoot: root });
    for (const path of ['/', '/assets/app-3f9a1c.js', '/s/ses_1']) {
      expect((await request(t.port, path, { headers: { host: `evil.example:${t.port}` } })).status).toBe(403);
      expect((await request(t.port, path, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
    }
    expect(
      (
        await request(t.port, '/assets/app-3f9a1c.js', {
          headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' },
        })
      ).status,
    ).toBe(403);
    // A link followed from another site opens the app (it then needs the token for anything).
    expect(
      (await request(t.port, '/', { headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' } }))
        .status,
    ).toBe(200);
  });
});

describe('the web app in token mode', () => {
  it('serves its files without the token, and everything under /api still needs it', async () => {
    t = await startTestServer({ webRoot: root, host: '0.0.0.0', token: TOKEN });
    for (const path of ['/', '/s/ses_1', '/assets/app-3f9a1c.js', '/favicon.svg']) {
      const r = await request(t.port, path, { headers: HTML });
      expect(r.status, path).toBe(200);
      expect(r.headers['www-authenticate']).toBeUndefined();
    }
    for (const path of [
      '/api/health',
      '/api/sessions',
      '/api/status',
      '/api/models',
      '/api/files',
      '/api/files/raw?path=a.txt',
      '/api/events',
      '/docs',
      '/openapi.json',
    ]) {
      const r = await request(t.port, path, { headers: HTML });
      expect(r.status, path).toBe(401);
    }
    expect((await request(t.port, '/api/sessions', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(
      200,
    );
    // Writes are not pages: POST / goes to the API, which wants the token.
    expect((await request(t.port, '/', { method: 'POST', body: {} })).status).toBe(401);
    expect((await request(t.port, '/api/files?path=x.txt', { method: 'POST', body: 'x' })).status).toBe(401);
    // Another spelling of an API path is answered as a page path, never by the API.
    for (const path of [
      '/%61pi/sessions',
      '/x/../api/sessions',
      '/x/%2e%2e/api/sessions',
      '//api/sessions',
      '/./api/sessions',
      '/api%2fsessions',
    ]) {
      const r = await request(t.port, path);
      expect(r.status, path).toBe(404);
      expect(r.body, path).not.toContain('"sessions"');
    }
    // Any case of /api counts as the API, so it needs the token too.
    expect((await request(t.port, '/API/sessions')).status).toBe(401);
    // A foreign Origin is still refused, token or not.
    expect((await request(t.port, '/', { headers: { origin: 'https://evil.example' } })).status).toBe(403);
  });
});
