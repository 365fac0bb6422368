import { createHash } from 'node:crypto';
import { lstat, readFile, realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { ApiError, sendError } from './errors.js';
import { SECURITY_HEADERS } from './guards.js';
import { isInside } from '../tools/sandbox.js';

/**
 * The web app's pages. Stricter than it looks: no inline script or style, no other origin to talk to.
 * `wasm-unsafe-eval` is for WebAssembly the app compiles itself (e.g. a PDF renderer); remote
 * images are allowed by the policy but shown by the app only after the user asks for them.
 */
export const APP_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data: blob: https: http:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "media-src 'self' blob:",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

/** Files under /assets/ carry a hash of their content in their name: a new build is a new name. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else may change with a rebuild: the browser keeps it but asks (ETag) before using it. */
const REVALIDATE = 'no-cache';
const INDEX = 'index.html';
const ASSETS = 'assets';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};
/** Text formats shrink well; images, fonts and WebAssembly are compressed already or barely shrink. */
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.map', '.webmanifest', '.svg']);

const gzipAsync = promisify(gzip);

interface StaticFile {
  type: string;
  body: Buffer;
  /** Set when gzip made it smaller. */
  gzipped?: Buffer;
  etag: string;
}

export interface WebApp {
  /**
   * True for a request the web app answers rather than the API: a GET or HEAD of any path outside
   * /api, /docs and /openapi.json. Decided on the raw path; a claimed request never reaches the API's
   * router, so no spelling of an API path (`/%61pi/…`, `/x/../api/…`) can slip past the token this way.
   */
  claims(req: IncomingMessage): boolean;
  /** Answers a claimed request. Security headers other than the CSP are already set on `res`. */
  serve(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

const exists = (p: string) =>
  lstat(p).then(
    () => true,
    () => false,
  );
const rawPath = (req: IncomingMessage) => (req.url ?? '/').split('?')[0]!;

function isApiPath(p: string): boolean {
  const lower = p.toLowerCase();
  return ['/api', '/docs', '/openapi.json'].some((prefix) => lower === prefix || lower.startsWith(`${prefix}/`));
}

/**
 * The names of a request path, decoded, or undefined for a path that could mean anything but a plain
 * file below the root: `.` and `..` in any encoding, backslashes, NUL and other control characters,
 * an encoded `/`, empty names. A trailing `/` is dropped (`/s/abc/` is still a page).
 */
function pathNames(raw: string): string[] | undefined {
  if (!raw.startsWith('/')) return undefined;
  if (raw === '/') return [];
  const names = raw.slice(1).split('/');
  if (names.length > 1 && names[names.length - 1] === '') names.pop();
  const decoded: string[] = [];
  for (const name of names) {
    let d: string;
    try {
      d = decodeURIComponent(name);
    } catch {
      return undefined;
    }
    if (d === '' || d === '.' || d === '..' || /[/\\\u0000-\u001f\u007f]/.test(d)) return undefined;
    decoded.push(d);
  }
  return decoded;
}

/** True when the client takes gzip: named (or `*`) without `q=0`. */
function acceptsGzip(req: IncomingMessage): boolean {
  const header = req.headers['accept-encoding'];
  if (typeof header !== 'string') return false;
  return header.split(',').some((item) => {
    const [coding, ...params] = item.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

const NOT_BUILT_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Zhixing: web app not built</title></head>
<body><h1>The web app is not built</h1>
<p>The HTTP API works (see <a href="/docs">/docs</a>), but dist/web/index.html is missing. Run <code>npm run build</code>, then reload this page.</p>
<p lang="zh">网页界面还没有构建：请运行 <code>npm run build</code>，然后刷新本页。</p>
</body></html>
`;

/** The Vue app built into `root` (dist/web): its files, and index.html for every page path so client-side routes survive a reload. */
export function createWebApp(options: { root: string }): WebApp {
  const root = path.resolve(options.root);
  // Each file is read and compressed once; a rebuild (new size or time) is picked up on the next request.
  const cache = new Map<string, { version: string; file: Promise<StaticFile | undefined> }>();

  async function read(full: string, ext: string): Promise<StaticFile | undefined> {
    // A link inside dist/web must not hand out a file from elsewhere.
    if (!isInside(await realpath(root), await realpath(full))) return undefined;
    const body = await readFile(full);
    const type = CONTENT_TYPES[ext] ?? 'application/octet-stream';
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    const gzipped = COMPRESSIBLE.has(ext) ? await gzipAsync(body) : undefined;
    return { type, body, etag, ...(gzipped && gzipped.length < body.length ? { gzipped } : {}) };
  }

  async function load(names: string[]): Promise<StaticFile | undefined> {
    if (names.some((n) => n.startsWith('.'))) return undefined;
    const full = path.join(root, ...names);
    const info = await stat(full).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    const key = names.join('/');
    const version = `${info.size}:${info.mtimeMs}`;
    const hit = cache.get(key);
    if (hit?.version === version) return hit.file;
    const file = read(full, path.extname(full).toLowerCase()).catch(() => undefined);
    cache.set(key, { version, file });
    return file;
  }

  function send(req: IncomingMessage, res: ServerResponse, file: StaticFile, cacheControl: string): void {
    const headers: Record<string, string | number> = {
      'content-security-policy': APP_CONTENT_SECURITY_POLICY,
      'cache-control': cacheControl,
      'content-type': file.type,
      etag: file.etag,
    };
    if (file.gzipped) headers.vary = 'accept-encoding';
    if (req.headers['if-none-match']?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === file.etag)) {
      res.writeHead(304, headers).end();
      return;
    }
    const body = file.gzipped && acceptsGzip(req) ? file.gzipped : file.body;
    if (body === file.gzipped) headers['content-encoding'] = 'gzip';
    headers['content-length'] = body.length;
    // Node leaves the body out of an answer to HEAD by itself.
    res.writeHead(200, headers).end(body);
  }

  async function page(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const index = await load([INDEX]);
    if (index) return send(req, res, index, REVALIDATE);
    const body = Buffer.from(NOT_BUILT_PAGE);
    res
      .writeHead(503, {
        'content-security-policy': APP_CONTENT_SECURITY_POLICY,
        'content-type': 'text/html; charset=utf-8',
        'content-length': body.length,
      })
      .end(body);
  }

  const notFound = (req: IncomingMessage, res: ServerResponse) =>
    sendError(
      res,
      new ApiError(404, 'not_found', `There is no file ${rawPath(req).slice(0, 200)} in the web app.`),
      SECURITY_HEADERS,
    );

  return {
    claims: (req) => (req.method === 'GET' || req.method === 'HEAD') && !isApiPath(rawPath(req)),
    async serve(req, res) {
      const names = pathNames(rawPath(req));
      if (!names) return notFound(req, res);
      if (names.length === 0 || (names.length === 1 && names[0] === INDEX)) return page(req, res);
      const asset = names[0] === ASSETS && names.length > 1;
      if (asset || names.length === 1) {
        const file = await load(names);
        if (file) return send(req, res, file, asset ? IMMUTABLE : REVALIDATE);
        // A missing script must fail as a script would, not arrive as a page; so must a file that is
        // there but not served (a link out, a dotfile).
        if (asset || (await exists(path.join(root, ...names)))) return notFound(req, res);
      }
      if (req.headers.accept?.includes('text/html')) return page(req, res);
      return notFound(req, res);
    },
  };
}

/** dist/web beside this module's package: src/server, dist/server and dist/bundle all sit two levels below the root. */
export const defaultWebRoot = (): string => fileURLToPath(new URL('../../dist/web/', import.meta.url));
