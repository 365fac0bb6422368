/**
 * What kind of document a response holds, and its bytes read up to a cap: a page past the cap is
 * cut, never read whole into memory.
 */

export type ContentKind = 'html' | 'text' | 'pdf' | 'binary';

/** Types read as text as they are: plain text, Markdown, JSON, XML feeds, CSV, source code. */
const TEXT_TYPES =
  /^(text\/|application\/(json|ld\+json|xml|rss\+xml|atom\+xml|javascript|ecmascript|x-yaml|yaml|toml|x-ndjson|csv|x-sh)$|application\/[\w.+-]+\+(json|xml)$)/;

/** The kind a Content-Type names, or undefined when it names none (missing, or `application/octet-stream` said by habit). */
export function kindFromType(contentType: string | null | undefined): ContentKind | undefined {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (!type || type === 'application/octet-stream' || type === 'binary/octet-stream') return undefined;
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'application/pdf' || type === 'application/x-pdf') return 'pdf';
  if (TEXT_TYPES.test(type)) return 'text';
  return 'binary';
}

/** The kind the first bytes show, for a response whose type says nothing. */
export function sniffKind(bytes: Uint8Array): ContentKind {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024));
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  // Text has no NUL bytes (UTF-16 pages, rare on the web, start with a BOM and are read as text).
  const bom16 = (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);
  if (!bom16 && head.includes(0)) return 'binary';
  return /<(!doctype\s+html|html|head|body)\b/i.test(head.toString('latin1')) ? 'html' : 'text';
}

export interface CappedBody {
  bytes: Uint8Array;
  /** True when the body went on past the cap and was cut there. */
  cut: boolean;
}

/** Reads a response body up to `maxBytes`, then stops reading and cancels the rest. */
export async function readCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<CappedBody> {
  if (!body) return { bytes: new Uint8Array(0), cut: false };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let cut = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > maxBytes) {
      chunks.push(value.subarray(0, maxBytes - size));
      size = maxBytes;
      cut = true;
      await reader.cancel().catch(() => {});
      break;
    }
    chunks.push(value);
    size += value.byteLength;
  }
  return { bytes: Buffer.concat(chunks, size), cut };
}
