import { STDIO_DEFAULT_MAX_BUFFER_SIZE, deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MAX_JSON_DEPTH, scanJsonDepth, standInFor } from '../json-depth.js';

const LF = 0x0a;
const CR = 0x0d;
const DATA = Buffer.from('data');
const NEWLINE = Buffer.from('\n');
const encoder = new TextEncoder();

/** Told, one line, each time a message too deep to parse is dropped or answered in its place. */
export type OnTooDeep = (line: string) => void;

/** What a message too deep to parse becomes: its stand-in, if any, after saying so. */
function judged(bytes: Uint8Array, onTooDeep: OnTooDeep): { ok: true } | { ok: false; standIn?: JSONRPCMessage } {
  const scan = scanJsonDepth(bytes);
  if (!scan.tooDeep) return { ok: true };
  const standIn = standInFor(scan);
  onTooDeep(
    standIn
      ? `zhixing: the server's answer to request ${JSON.stringify(scan.id)} nests deeper than ${MAX_JSON_DEPTH} levels; it was not read and the call failed`
      : `zhixing: a message from the server nests deeper than ${MAX_JSON_DEPTH} levels; it was dropped unread`,
  );
  return { ok: false, standIn };
}

/** The SDK's stdio read buffer's shape: whole lines in, parsed messages out. */
export interface ReadBufferLike {
  append(chunk: Buffer): void;
  readMessage(): JSONRPCMessage | null;
  clear(): void;
}

/**
 * The SDK's stdio read buffer, with each line's depth checked before it is parsed: a line too deep
 * is answered by its stand-in or skipped, and the next line read. Bounded at 10 MB, as the SDK's.
 */
export function createDepthCheckedReadBuffer(
  onTooDeep: OnTooDeep,
  maxBufferSize = STDIO_DEFAULT_MAX_BUFFER_SIZE,
): ReadBufferLike {
  let buffer: Buffer | undefined;
  return {
    append(chunk) {
      if ((buffer?.length ?? 0) + chunk.length > maxBufferSize) {
        buffer = undefined;
        throw new Error(`ReadBuffer exceeded maximum size of ${maxBufferSize} bytes`);
      }
      buffer = buffer ? Buffer.concat([buffer, chunk]) : chunk;
    },
    readMessage() {
      for (;;) {
        const index = buffer?.indexOf(LF) ?? -1;
        if (!buffer || index === -1) return null;
        const line = buffer.subarray(0, index > 0 && buffer[index - 1] === CR ? index - 1 : index);
        buffer = buffer.subarray(index + 1);
        const verdict = judged(line, onTooDeep);
        if (verdict.ok) return deserializeMessage(line.toString('utf8'));
        if (verdict.standIn) return verdict.standIn;
      }
    },
    clear() {
      buffer = undefined;
    },
  };
}

/**
 * Puts `createDepthCheckedReadBuffer` in place of the stdio transport's own, which parses each line
 * as it comes. The SDK keeps it in a private field: if a release moves it, this throws at once
 * (and every stdio test with it) rather than leaving the check silently undone.
 */
export function guardStdioReads(transport: object, onTooDeep: OnTooDeep): void {
  const fields = transport as { _readBuffer?: unknown };
  if (!fields._readBuffer)
    throw new Error(
      'the MCP SDK no longer keeps StdioClientTransport._readBuffer: the depth check on stdio needs a new place',
    );
  fields._readBuffer = createDepthCheckedReadBuffer(onTooDeep);
}

/** Byte order marks: UTF-8's, which the SDK's TextDecoder drops, and the same read as Latin-1 (ï»¿), which the parser drops. */
const MARKS = [Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('\u00ef\u00bb\u00bf', 'utf8')];

/**
 * A stream's first bytes without the marks that open them, however many: what the parser would drop
 * from its first line is dropped here, so the line this guard reads is the line the parser reads.
 * Undecided while they could still be the start of a mark.
 */
function unmarked(bytes: Buffer): { bytes: Buffer; undecided: boolean } {
  for (;;) {
    const mark = MARKS.find((m) => bytes.length >= m.length && bytes.subarray(0, m.length).equals(m));
    if (mark) {
      bytes = bytes.subarray(mark.length);
      continue;
    }
    const partly = MARKS.some((m) => bytes.length < m.length && m.subarray(0, bytes.length).equals(bytes));
    return { bytes, undecided: partly };
  }
}

/** Whether a line of an event stream is a `data` field (`data`, `data:…`); its value's start when it is. */
function dataValueStart(line: Buffer): number {
  if (line.length < DATA.length || !line.subarray(0, DATA.length).equals(DATA)) return -1;
  if (line.length === DATA.length) return DATA.length;
  if (line[DATA.length] !== 0x3a) return -1;
  return line[DATA.length + 1] === 0x20 ? DATA.length + 2 : DATA.length + 1;
}

/**
 * Passes an event stream on event by event, each event's `data` checked for depth before the SDK's
 * parser sees it: a too-deep event is replaced by its stand-in or loses its data (its `id` and other
 * fields go on, so resuming still works). Lines end at CR LF, LF or CR, as the SSE spec says, so no
 * line ending the parser would see can be hidden from this one. Linear: each byte is looked at once.
 */
export function sseDepthGuard(onTooDeep: OnTooDeep): TransformStream<Uint8Array, Uint8Array> {
  let partial: Buffer[] = [];
  let lines: Buffer[] = [];
  let afterCr = false;
  // The stream's first bytes, until no mark opens them (see `unmarked`).
  let head: Buffer | undefined = Buffer.alloc(0);
  const endLine = () => {
    lines.push(partial.length === 1 ? partial[0]! : Buffer.concat(partial));
    partial = [];
  };
  const emit = (controller: TransformStreamDefaultController<Uint8Array>, ended: boolean) => {
    const data: Buffer[] = [];
    for (const line of lines) {
      const start = dataValueStart(line);
      if (start >= 0) data.push(line.subarray(start));
    }
    let out = lines;
    if (data.length) {
      const verdict = judged(Buffer.concat(data.flatMap((d, i) => (i ? [NEWLINE, d] : [d]))), onTooDeep);
      if (!verdict.ok) {
        out = lines.filter((line) => dataValueStart(line) < 0);
        if (verdict.standIn) out.push(Buffer.from(`data: ${JSON.stringify(verdict.standIn)}`));
      }
    }
    lines = [];
    if (out.length || ended)
      controller.enqueue(Buffer.concat([...out.flatMap((l) => [l, NEWLINE]), ...(ended ? [NEWLINE] : [])]));
  };
  const readLines = (bytes: Buffer, controller: TransformStreamDefaultController<Uint8Array>) => {
    let start = 0;
    for (let i = 0; i < bytes.length; i++) {
      const c = bytes[i];
      if (c !== LF && c !== CR) continue;
      const wasCr = afterCr;
      afterCr = c === CR;
      // The LF of a CR LF split between chunks (or not): the line already ended at the CR.
      if (c === LF && wasCr && i === start && !partial.length) {
        start = i + 1;
        continue;
      }
      if (i > start) partial.push(bytes.subarray(start, i));
      start = i + 1;
      const blank = !partial.length;
      if (blank) emit(controller, true);
      else endLine();
    }
    if (start < bytes.length) {
      partial.push(Buffer.from(bytes.subarray(start)));
      afterCr = false;
    }
  };
  return new TransformStream({
    transform(chunk, controller) {
      const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
      if (!head) return readLines(bytes, controller);
      const left = unmarked(Buffer.concat([head, bytes]));
      head = left.undecided ? left.bytes : undefined;
      if (!head) readLines(left.bytes, controller);
    },
    flush(controller) {
      if (head?.length) readLines(head, controller);
      if (partial.length) endLine();
      // An event the stream ended inside is not dispatched by the parser; its data is checked all the same.
      if (lines.length) emit(controller, false);
    },
  });
}

/** A JSON body, whole, with a too-deep message replaced by its stand-in (or by an empty batch). */
async function checkedJson(response: Response, onTooDeep: OnTooDeep): Promise<Response> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const verdict = judged(bytes, onTooDeep);
  const body = verdict.ok ? bytes : encoder.encode(JSON.stringify(verdict.standIn ?? []));
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/**
 * `fetch` for the SDK's HTTP transports, which parse each event and JSON body on this thread as it
 * comes: every message a server sends is checked for depth first (see `scanJsonDepth`). Wraps a
 * `boundedFetch`, so what it holds of one message is bounded too.
 */
export function depthCheckedFetch(base: FetchLike, onTooDeep: OnTooDeep): FetchLike {
  return async (url, init) => {
    const response = await base(url, init);
    if (!response.ok || !response.body) return response;
    // As the SDK reads the type (its essence); anything but JSON is read as an event stream, which
    // the SDK does with a GET's answer whatever its type says.
    const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type === 'application/json') return checkedJson(response, onTooDeep);
    return new Response(response.body.pipeThrough(sseDepthGuard(onTooDeep)), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
