import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FILE_CONTENT_SECURITY_POLICY } from '../src/server/file-types.js';
import { MAX_UPLOAD_BYTES } from '../src/server/workspace-files.js';
import { request, startTestServer, until, type HttpResult, type TestServer } from './support/http.js';
import { canMount } from './support/small-disk.js';

const TOKEN = 'a-long-enough-test-token-0123456789';

let t: TestServer;
let outside: string;
beforeAll(() => {
  outside = mkdtempSync(join(tmpdir(), 'zhixing-outside-'));
  writeFileSync(join(outside, 'secret.txt'), 'the secret outside');
});
afterAll(() => rmSync(outside, { recursive: true, force: true }));
afterEach(async () => {
  await t?.close();
});

const q = (path: string) => `?path=${encodeURIComponent(path)}`;

/** Sends raw bytes, declared or (with `chunks`) without a Content-Length; tolerates the server hanging up mid-body. */
function upload(
  port: number,
  path: string,
  body: Buffer,
  options: { chunks?: number; headers?: Record<string, string> } = {},
): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'content-type': 'application/octet-stream', ...options.headers };
    if (!options.chunks) headers['content-length'] = body.length;
    const req = httpRequest(
      { host: '127.0.0.1', port, path: `/api/files${q(path)}`, method: 'POST', headers, agent: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d) => (text += d));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: text, json: () => JSON.parse(text) }),
        );
      },
    );
    // The server may answer 413 and close before the whole body is written: that is the point.
    req.on('error', (err: NodeJS.ErrnoException) =>
      err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : reject(err),
    );
    const n = options.chunks ?? 1;
    const size = Math.ceil(body.length / n);
    for (let i = 0; i < n; i++) req.write(body.subarray(i * size, (i + 1) * size));
    req.end();
  });
}

const ws = () => t.app.workspace;
/** Every file name under the workspace, temp files included. */
const tree = (dir = ws()): string[] =>
  readdirSync(dir, { withFileTypes: true })
    .flatMap((d) => (d.isDirectory() ? tree(join(dir, d.name)).map((n) => `${d.name}/${n}`) : [d.name]))
    .sort();

describe('POST /api/files', () => {
  it('saves the bytes under the name asked for, making folders, and never replaces a file', async () => {
    t = await startTestServer();
    const png = Buffer.from('89504e470d0a1a0a', 'hex');
    const first = await upload(t.port, 'photos/2024/cat.png', png);
    expect(first.status).toBe(201);
    expect(first.json()).toEqual({ path: 'photos/2024/cat.png', size: 8, mimeType: 'image/png' });
    expect(readFileSync(join(ws(), 'photos/2024/cat.png'))).toEqual(png);
    const second = await upload(t.port, 'photos/2024/cat.png', Buffer.from('another cat'));
    expect(second.json()).toEqual({ path: 'photos/2024/cat (2).png', size: 11, mimeType: 'image/png' });
    expect((await upload(t.port, 'photos/2024/cat.png', Buffer.from('x'))).json().path).toBe('photos/2024/cat (3).png');
    expect(readFileSync(join(ws(), 'photos/2024/cat.png'))).toEqual(png);
    // No extension, a dotfile, Chinese; an empty file is a file too.
    expect((await upload(t.port, 'README', Buffer.from('a'))).json().path).toBe('README');
    expect((await upload(t.port, 'README', Buffer.from('b'))).json().path).toBe('README (2)');
    expect((await upload(t.port, '.bashrc', Buffer.from('a'))).json().path).toBe('.bashrc');
    expect((await upload(t.port, '.bashrc', Buffer.from('b'))).json().path).toBe('.bashrc (2)');
    expect((await upload(t.port, '笔记/周报.md', Buffer.alloc(0))).json()).toEqual({
      path: '笔记/周报.md',
      size: 0,
      mimeType: 'text/markdown',
    });
    expect(tree().filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('gives uploads of one name at the same moment different names, each with its own bytes', async () => {
    t = await startTestServer();
    const bodies = Array.from({ length: 8 }, (_, i) => Buffer.alloc(200_000 + i, String(i)));
    const results = await Promise.all(bodies.map((b) => upload(t.port, 'same.bin', b, { chunks: 4 })));
    const paths = results.map((r) => (expect(r.status).toBe(201), r.json().path as string));
    expect(new Set(paths).size).toBe(8);
    // Buffer.equals: a deep toEqual over 200,000 bytes takes seconds.
    for (const [i, r] of results.entries())
      expect(readFileSync(join(ws(), r.json().path)).equals(bodies[i]!)).toBe(true);
    expect(tree()).toEqual([
      'same (2).bin',
      'same (3).bin',
      'same (4).bin',
      'same (5).bin',
      'same (6).bin',
      'same (7).bin',
      'same (8).bin',
      'same.bin',
    ]);
  });

  it('takes exactly 25 MiB, declared or not, and refuses one byte more with 413, leaving nothing behind', async () => {
    t = await startTestServer();
    const limit = Buffer.alloc(MAX_UPLOAD_BYTES, 7);
    const declared = await upload(t.port, 'big.bin', limit);
    expect(declared.status).toBe(201);
    expect(declared.json().size).toBe(MAX_UPLOAD_BYTES);
    const chunked = await upload(t.port, 'big.bin', limit, { chunks: 16 });
    expect(chunked.json()).toMatchObject({ path: 'big (2).bin', size: MAX_UPLOAD_BYTES });
    const over = Buffer.alloc(MAX_UPLOAD_BYTES + 1, 7);
    for (const options of [{}, { chunks: 16 }]) {
      const r = await upload(t.port, 'over.bin', over, options);
      expect(r.status).toBe(413);
      expect(r.json().error).toEqual({
        code: 'too_large',
        message: `The request body is larger than ${MAX_UPLOAD_BYTES} bytes.`,
      });
    }
    expect(tree()).toEqual(['big (2).bin', 'big.bin']);
    // Other routes keep their 1 MiB.
    const chat = await request(t.port, '/api/sessions', { body: 'x'.repeat(2 * 1024 * 1024) });
    expect(chat.status).toBe(413);
  });

  it('refuses malformed names with 400', async () => {
    t = await startTestServer();
    const bad = [
      '',
      'notes/',
      '.',
      '..',
      'a/.',
      'a/..',
      'tab\there.txt',
      'bell\u0007.txt',
      'nul\u0000.txt',
      'c1\u009b.txt',
      'win\\dows.txt',
      `${'长'.repeat(86)}.txt`,
      '.zhixing-123-0123456789ab.tmp',
      '\u202egnp.exe',
      'a\u2066b.txt',
      'rtl\u200f.txt',
    ];
    for (const name of bad) {
      const r = await upload(t.port, name, Buffer.from('x'));
      expect(r.status, JSON.stringify(name)).toBe(400);
      expect(['bad_path', 'bad_request']).toContain(r.json().error.code);
    }
    // A file where a folder should be.
    writeFileSync(join(ws(), 'plain.txt'), 'x');
    const under = await upload(t.port, 'plain.txt/inner.txt', Buffer.from('x'));
    expect(under.status).toBe(400);
    expect(under.json().error.message).toBe(
      'Cannot save plain.txt/inner.txt: part of the path is a file, not a folder.',
    );
    rmSync(join(ws(), 'plain.txt'));
    // 85 Chinese characters plus `.txt` is 259 bytes; 84 is within NAME_MAX.
    expect((await upload(t.port, `${'长'.repeat(83)}.txt`, Buffer.from('x'))).status).toBe(201);
    expect(tree()).toEqual([`${'长'.repeat(83)}.txt`]);
  });

  it('refuses paths out of the workspace with 403, in every spelling, and writes nothing outside', async () => {
    t = await startTestServer();
    symlinkSync(outside, join(ws(), 'out'));
    symlinkSync(join(outside, 'secret.txt'), join(ws(), 'secret-link.txt'));
    const refused = [
      '../escape.txt',
      'a/../../escape.txt',
      '/tmp/escape.txt',
      `${outside}/escape.txt`,
      'out/escape.txt',
      'out/../../escape.txt',
      'secret-link.txt',
      'C:escape.txt',
    ];
    for (const path of refused) {
      const r = await upload(t.port, path, Buffer.from('escaped'));
      expect(r.status, path).toBe(403);
      expect(r.json().error.code).toBe('forbidden');
      expect(r.body).not.toContain(ws());
    }
    expect(readdirSync(outside)).toEqual(['secret.txt']);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('the secret outside');
    expect(existsSync('/tmp/escape.txt')).toBe(false);
    // `..` that stays inside is a path like any other.
    expect((await upload(t.port, 'a/../inside.txt', Buffer.from('ok'))).json().path).toBe('inside.txt');
  });

  it('leaves nothing behind when the client goes away mid-upload', async () => {
    t = await startTestServer();
    await new Promise<void>((resolve) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port: t.port,
        path: `/api/files${q('half.bin')}`,
        method: 'POST',
        headers: { 'content-length': 1_000_000 },
        agent: false,
      });
      req.on('error', () => resolve());
      req.write(Buffer.alloc(300_000));
      setTimeout(() => req.destroy(), 100);
    });
    await until(() => tree().length === 0, 5_000).catch(() => {});
    expect(tree()).toEqual([]);
  });

  it.skipIf(!canMount)('says the disk is full with 507 and leaves no temp file', async () => {
    t = await startTestServer();
    const small = join(ws(), 'small');
    mkdirSync(small);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', small]);
    try {
      const r = await upload(t.port, 'small/big.bin', Buffer.alloc(256 * 1024, 1));
      expect(r.status).toBe(507);
      expect(r.json().error).toEqual({
        code: 'disk_full',
        message: 'Could not save to small/big.bin: the disk is full. Free some space and try again.',
      });
      expect(readdirSync(small)).toEqual([]);
    } finally {
      execFileSync('umount', ['-l', small]);
    }
  });

  it('needs the token off loopback', async () => {
    t = await startTestServer({ host: '0.0.0.0', token: TOKEN });
    expect((await upload(t.port, 'a.txt', Buffer.from('x'))).status).toBe(401);
    const ok = await upload(t.port, 'a.txt', Buffer.from('x'), { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(201);
    expect((await request(t.port, `/api/files/raw${q('a.txt')}`)).status).toBe(401);
    expect(
      (await request(t.port, `/api/files/raw${q('a.txt')}`, { headers: { authorization: `Bearer ${TOKEN}` } })).body,
    ).toBe('x');
  });
});

describe('GET /api/files/raw', () => {
  const raw = (path: string, method = 'GET') => request(t.port, `/api/files/raw${q(path)}`, { method });

  it('serves what was uploaded with types that can never run script on this origin', async () => {
    t = await startTestServer();
    const page = '<html><script>fetch("/api/sessions")</script></html>';
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    await upload(t.port, 'evil.html', Buffer.from(page));
    await upload(t.port, 'evil.svg', Buffer.from(svg));
    await upload(t.port, 'run.js', Buffer.from('alert(1)'));
    await upload(t.port, 'photo.JPG', Buffer.from('jpeg'));
    await upload(t.port, 'report.pdf', Buffer.from('%PDF-1.7'));
    await upload(t.port, 'tool.exe', Buffer.from('MZ'));
    await upload(t.port, "周报 (final)'s.md", Buffer.from('# 周报'));
    const expected: Array<[string, string, string, string]> = [
      ['evil.html', 'text/plain; charset=utf-8', "inline; filename*=UTF-8''evil.html", page],
      ['evil.svg', 'image/svg+xml', "inline; filename*=UTF-8''evil.svg", svg],
      ['run.js', 'text/plain; charset=utf-8', "inline; filename*=UTF-8''run.js", 'alert(1)'],
      ['photo.JPG', 'image/jpeg', "inline; filename*=UTF-8''photo.JPG", 'jpeg'],
      ['report.pdf', 'application/pdf', "inline; filename*=UTF-8''report.pdf", '%PDF-1.7'],
      ['tool.exe', 'application/octet-stream', "attachment; filename*=UTF-8''tool.exe", 'MZ'],
      [
        "周报 (final)'s.md",
        'text/plain; charset=utf-8',
        "inline; filename*=UTF-8''%E5%91%A8%E6%8A%A5%20%28final%29%27s.md",
        '# 周报',
      ],
    ];
    for (const [path, type, disposition, body] of expected) {
      const r = await raw(path);
      expect(r.status, path).toBe(200);
      expect(r.body).toBe(body);
      expect(r.headers['content-type']).toBe(type);
      expect(r.headers['content-disposition']).toBe(disposition);
      expect(r.headers['content-security-policy']).toBe(FILE_CONTENT_SECURITY_POLICY);
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    }
    expect(FILE_CONTENT_SECURITY_POLICY).toMatch(/^sandbox; default-src 'none'/);
    const head = await raw('evil.html', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(String(page.length));
    expect(head.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('answers 404 for a missing file, 400 for a folder, 403 for anything out of the workspace', async () => {
    t = await startTestServer();
    mkdirSync(join(ws(), 'notes'));
    writeFileSync(join(ws(), 'notes', 'a.txt'), 'a');
    symlinkSync(join(outside, 'secret.txt'), join(ws(), 'secret-link.txt'));
    symlinkSync(outside, join(ws(), 'out'));
    symlinkSync(join(ws(), 'notes', 'a.txt'), join(ws(), 'inside-link.txt'));
    execFileSync('mkfifo', [join(ws(), 'pipe')]);
    expect((await raw('notes/missing.txt')).status).toBe(404);
    expect((await raw('notes')).status).toBe(400);
    expect((await raw('notes/')).status).toBe(400);
    expect((await raw('pipe')).status).toBe(400);
    for (const path of [
      '../secret.txt',
      'notes/../../secret.txt',
      '%2e%2e/secret.txt',
      `${outside}/secret.txt`,
      'secret-link.txt',
      'out/secret.txt',
    ]) {
      const r = await request(t.port, `/api/files/raw?path=${path.startsWith('%') ? path : encodeURIComponent(path)}`);
      expect(r.status, path).toBe(403);
      expect(r.body).not.toContain('the secret outside');
    }
    // A link that stays inside is followed.
    expect((await raw('inside-link.txt')).body).toBe('a');
    expect((await request(t.port, '/api/files/raw')).status).toBe(400);
  });
});

describe('GET /api/files', () => {
  it('lists a folder, folders first, without temp files', async () => {
    t = await startTestServer();
    await upload(t.port, 'b.txt', Buffer.from('bb'));
    await upload(t.port, 'a/x.txt', Buffer.from('x'));
    writeFileSync(join(ws(), '.zhixing-1-0123456789ab.tmp'), '');
    const root = (await request(t.port, '/api/files')).json();
    expect(root).toEqual({
      path: '.',
      entries: [
        { name: 'a', path: 'a', type: 'folder', size: 0, modifiedAt: expect.any(Number) },
        { name: 'b.txt', path: 'b.txt', type: 'file', size: 2, modifiedAt: expect.any(Number) },
      ],
      truncated: false,
    });
    expect((await request(t.port, `/api/files${q('a')}`)).json().entries.map((e: { path: string }) => e.path)).toEqual([
      'a/x.txt',
    ]);
    expect((await request(t.port, `/api/files${q('missing')}`)).status).toBe(404);
    expect((await request(t.port, `/api/files${q('b.txt')}`)).status).toBe(400);
    expect((await request(t.port, `/api/files${q('..')}`)).status).toBe(403);
  });

  it("lists and keeps a user's file named like an old temp file, through uploads to its folder", async () => {
    t = await startTestServer();
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    writeFileSync(join(ws(), '.report.20250101.tmp'), 'mine');
    utimesSync(join(ws(), '.report.20250101.tmp'), old, old);
    expect((await upload(t.port, 'b.txt', Buffer.from('bb'))).status).toBe(201);
    const names = (await request(t.port, '/api/files')).json().entries.map((e: { name: string }) => e.name);
    expect(names).toEqual(['.report.20250101.tmp', 'b.txt']);
    expect(readFileSync(join(ws(), '.report.20250101.tmp'), 'utf8')).toBe('mine');
  });
});
