import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FILE_CONTENT_SECURITY_POLICY } from '../src/server/file-types.js';
import { defineTool } from '../src/tools/tool.js';
import { request, startTestServer, type TestServer } from './support/http.js';
import { createScriptedLlm } from './support/scripted-llm.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const PAGE = '<html><script>fetch("/api/sessions")</script></html>';
const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

/** A session whose one tool call attached five files: three stored whole, two kept in the workspace. */
async function sessionWithAttachments() {
  t = await startTestServer({
    llm: createScriptedLlm([{ calls: [{ id: 'call_1', name: 'shoot', args: {} }] }, { text: 'Done.' }]),
  });
  writeFileSync(join(t.app.workspace, 'chart.svg'), SVG);
  writeFileSync(join(t.app.workspace, 'gone.png'), PNG);
  t.app.tools.register(
    defineTool({
      name: 'shoot',
      description: 'attaches files',
      parameters: z.object({}),
      execute: () => ({
        output: 'attached',
        attachments: [
          { name: 'shot.png', mimeType: 'image/png', data: b64(PNG) },
          { name: 'page.html', mimeType: 'text/html', data: b64(PAGE) },
          { name: 'tool.bin', mimeType: 'application/x-msdownload', data: b64('MZ') },
          { name: 'chart.svg', mimeType: 'image/svg+xml', path: 'chart.svg' },
          { name: 'gone.png', mimeType: 'image/png', path: 'gone.png' },
        ],
      }),
    }),
  );
  const session = (await request(t.port, '/api/sessions', { body: {} })).json().id as string;
  expect((await request(t.port, `/api/sessions/${session}/chat`, { body: { message: 'shoot' } })).status).toBe(200);
  const messages = (await request(t.port, `/api/sessions/${session}/messages`)).json().messages as Array<{
    parts: Array<{ id: string; type: string; attachments?: unknown[] }>;
  }>;
  const part = messages.flatMap((m) => m.parts).find((p) => p.type === 'tool')!;
  expect(part.attachments).toHaveLength(5);
  return {
    session,
    part: part.id,
    url: (i: number | string) => `/api/sessions/${session}/parts/${part.id}/attachments/${i}`,
  };
}

describe('GET /api/sessions/{id}/parts/{partId}/attachments/{index}', () => {
  it("serves each attachment's bytes with the declared type only when it is safe", async () => {
    const { url } = await sessionWithAttachments();
    const cases: Array<[number, string, string, string]> = [
      [0, 'image/png', "inline; filename*=UTF-8''shot.png", PNG.toString('latin1')],
      [1, 'text/plain; charset=utf-8', "inline; filename*=UTF-8''page.html", PAGE],
      [2, 'application/octet-stream', "attachment; filename*=UTF-8''tool.bin", 'MZ'],
      [3, 'image/svg+xml', "inline; filename*=UTF-8''chart.svg", SVG],
    ];
    for (const [i, type, disposition, body] of cases) {
      const r = await request(t!.port, url(i));
      expect(r.status, String(i)).toBe(200);
      expect(r.headers['content-type']).toBe(type);
      expect(r.headers['content-disposition']).toBe(disposition);
      expect(r.headers['content-security-policy']).toBe(FILE_CONTENT_SECURITY_POLICY);
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['content-length']).toBe(String(Buffer.byteLength(body, i === 0 ? 'latin1' : 'utf8')));
      if (i !== 0) expect(r.body).toBe(body);
      const head = await request(t!.port, url(i), { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.body).toBe('');
      expect(head.headers['content-length']).toBe(r.headers['content-length']);
    }
  });

  it('answers 404 for another session, an unknown part or index, and a workspace file since removed', async () => {
    const { session, part, url } = await sessionWithAttachments();
    const other = (await request(t!.port, '/api/sessions', { body: {} })).json().id as string;
    rmSync(join(t!.app.workspace, 'gone.png'));
    for (const path of [
      url(4),
      url(5),
      url(99),
      `/api/sessions/${other}/parts/${part}/attachments/0`,
      `/api/sessions/ses_nope/parts/${part}/attachments/0`,
      `/api/sessions/${session}/parts/prt_nope/attachments/0`,
    ]) {
      const r = await request(t!.port, path);
      expect(r.status, path).toBe(404);
      expect(r.json().error.code).toBe('not_found');
    }
    expect((await request(t!.port, url('-1'))).status).toBe(400);
    expect((await request(t!.port, url('1e2'))).status).toBe(400);
  });

  it('reads a workspace attachment through the sandbox: a file swapped for a link out is refused', async () => {
    const { url } = await sessionWithAttachments();
    rmSync(join(t!.app.workspace, 'chart.svg'));
    symlinkSync('/etc/passwd', join(t!.app.workspace, 'chart.svg'));
    const r = await request(t!.port, url(3));
    expect(r.status).toBe(403);
    expect(r.body).not.toContain('root:');
  });
});
