import path from 'node:path';

/**
 * How the API hands out files it did not write itself (uploads, what tools made, attachments):
 * a file on our origin that the browser renders as HTML or runs as script could act as the user.
 * So the type comes from a fixed list, never from sniffing or from what the file claims: images and
 * PDFs as themselves, anything textual as plain text, the rest as a download. And every such answer
 * is sandboxed by its own CSP (no script, no origin) in case a browser renders it anyway.
 */

const TEXT = 'text/plain; charset=utf-8';
const DOWNLOAD = 'application/octet-stream';

/** Shown in the page, under the sandbox CSP. */
const INLINE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  bmp: 'image/bmp',
  ico: 'image/x-icon',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
};

/** What a text file really is, for the upload's answer; all of them are served as plain text. */
const TEXT_TYPES: Record<string, string> = {
  txt: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  json: 'application/json',
  log: 'text/plain',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  toml: 'application/toml',
  ini: 'text/plain',
  xml: 'application/xml',
  html: 'text/html',
  htm: 'text/html',
  js: 'text/javascript',
  mjs: 'text/javascript',
  ts: 'text/x-typescript',
  py: 'text/x-python',
  sh: 'application/x-sh',
  c: 'text/x-c',
  h: 'text/x-c',
  cpp: 'text/x-c++',
  java: 'text/x-java',
  go: 'text/x-go',
  rs: 'text/x-rust',
  rb: 'text/x-ruby',
  php: 'application/x-php',
  sql: 'application/sql',
  css: 'text/css',
};

const IMAGE_AND_PDF_TYPES = new Set([...Object.values(INLINE_TYPES), 'image/vnd.microsoft.icon']);
const TEXTUAL_TYPES = new Set(Object.values(TEXT_TYPES));

/** Sent with every file the API hands out, whatever its type. */
export const FILE_CONTENT_SECURITY_POLICY = "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'";

const extension = (name: string) => path.extname(name).slice(1).toLowerCase();

/** The MIME type a file name says it has, for display (`text/html` for page.html); octet-stream when unknown. */
export function mimeTypeOf(name: string): string {
  const ext = extension(name);
  return INLINE_TYPES[ext] ?? TEXT_TYPES[ext] ?? DOWNLOAD;
}

/** RFC 8187 encoding for `filename*`: what encodeURIComponent leaves alone minus the characters the header grammar reserves. */
const encodeFilename = (name: string) =>
  encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The served type for a declared MIME type: itself when it is an image or PDF, plain text for text, else a download. */
function servedType(mimeType: string): string {
  const type = mimeType.split(';')[0]!.trim().toLowerCase();
  if (IMAGE_AND_PDF_TYPES.has(type)) return type;
  if (type.startsWith('text/') || TEXTUAL_TYPES.has(type)) return TEXT;
  return DOWNLOAD;
}

/** The response headers for a file named `name`, typed by its extension. */
export function fileHeaders(name: string, size: number): Record<string, string> {
  return headersFor(servedType(mimeTypeOf(name)), name, size);
}

/** The response headers for an attachment: its declared type counts only when it is on the allow-list. */
export function attachmentHeaders(name: string, declaredType: string, size: number): Record<string, string> {
  return headersFor(servedType(declaredType), name, size);
}

function headersFor(type: string, name: string, size: number): Record<string, string> {
  const disposition = type === DOWNLOAD ? 'attachment' : 'inline';
  return {
    'content-type': type,
    'content-length': String(size),
    'content-disposition': `${disposition}; filename*=UTF-8''${encodeFilename(name)}`,
    'content-security-policy': FILE_CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
  };
}
