import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startTestServer, type TestServer } from './support/http.js';

/** Every route of the API: the contract's table, plus GET one session and following a session's events. */
const ROUTES = [
  'GET /api/health',
  'GET /api/status',
  'GET /api/sessions',
  'POST /api/sessions',
  'GET /api/sessions/{id}',
  'PATCH /api/sessions/{id}',
  'DELETE /api/sessions/{id}',
  'GET /api/sessions/{id}/messages',
  'POST /api/sessions/{id}/chat',
  'GET /api/sessions/{id}/events',
  'POST /api/sessions/{id}/abort',
  'POST /api/sessions/{id}/undo',
  'POST /api/permissions/{id}',
  'GET /api/permissions',
  'PUT /api/permissions',
  'DELETE /api/permissions/remembered',
  'GET /api/memories',
  'GET /api/memories/{id}',
  'PATCH /api/memories/{id}',
  'DELETE /api/memories/{id}',
  'GET /api/preferences',
  'PUT /api/preferences',
  'GET /api/mcp',
  'POST /api/mcp',
  'DELETE /api/mcp/{name}',
  'PATCH /api/mcp/{name}',
  'POST /api/mcp/{name}/reconnect',
  'GET /api/events',
  'GET /openapi.json',
  'GET /docs',
  'GET /',
  'POST /api/files',
  'GET /api/files',
  'GET /api/files/raw',
  'GET /api/sessions/{id}/parts/{partId}/attachments/{index}',
  'GET /api/models',
  'PUT /api/model',
  'POST /mcp',
  'GET /mcp',
  'DELETE /mcp',
];

let t: TestServer;
let doc: {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, unknown>; requestBody?: unknown }>>;
};
beforeAll(async () => {
  t = await startTestServer();
  doc = (await request(t.port, '/openapi.json')).json();
});
afterAll(() => t.close());

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
  );

describe('GET /openapi.json', () => {
  it('lists every route, generated from the same schemas the routes validate with', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(operations().sort()).toEqual([...ROUTES].sort());
    const chat = doc.paths['/api/sessions/{id}/chat']!.post!;
    expect(Object.keys(chat.responses).sort()).toEqual(['200', '400', '404', '409', '413', '429']);
    expect(JSON.stringify(chat.requestBody)).toContain('#/components/schemas/ChatRequest');
    expect(Object.keys((chat.responses['200'] as { content: object }).content).sort()).toEqual([
      'application/json',
      'text/event-stream',
    ]);
  });

  it('documents the memory routes with their schemas and error statuses', () => {
    const patch = doc.paths['/api/memories/{id}']!.patch!;
    expect(Object.keys(patch.responses).sort()).toEqual(['200', '400', '404', '413']);
    expect(JSON.stringify(patch.requestBody)).toContain('#/components/schemas/MemoryPatch');
    expect(JSON.stringify(doc.paths['/api/memories']!.get!.responses['200'])).toContain(
      '#/components/schemas/MemoryList',
    );
  });

  it('documents nothing that is not there: every route answers something other than "no route"', async () => {
    for (const route of ROUTES) {
      const [method, path] = route.split(' ') as [string, string];
      if (path.endsWith('/events') || path.endsWith('/chat')) continue; // streams and turns: tested elsewhere
      const r = await request(t.port, path.replace(/\{\w+\}/, 'ses_none'), {
        method,
        body: method === 'GET' || method === 'DELETE' ? undefined : {},
      });
      expect(r.body, route).not.toContain('There is no route');
    }
  });
});

describe('GET /docs', () => {
  it('is a self-contained HTML page naming every route, that works under the CSP', async () => {
    const r = await request(t.port, '/docs');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/html/);
    for (const route of ROUTES) {
      const [method, path] = route.split(' ') as [string, string];
      expect(r.body, route).toContain(
        `<span class="method ${method.toLowerCase()}">${method}</span> <code>${path}</code>`,
      );
    }
    // Nothing inline for the CSP to block, nothing from another origin (this machine is offline).
    expect(r.body).not.toMatch(/<script|<style|\sstyle=|\son[a-z]+=/i);
    expect(r.body).not.toMatch(/(src|href)="(https?:)?\/\//i);
    expect(r.body).toContain('<link rel="stylesheet" href="/docs/docs.css">');
    const css = await request(t.port, '/docs/docs.css');
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.body).not.toMatch(/url\(|@import/);
  });
});
