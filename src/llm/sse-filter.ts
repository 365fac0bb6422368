/**
 * Drops the SSE event blocks that carry no data before the SDK sees them. The SDK parses
 * every block that has an `event:` line, or any `data:` line, as JSON, so a keep-alive
 * `event: ping` with no data, an empty `data:` line or `data: null` fails a whole answer
 * ("not valid JSON", "Cannot read properties of null"). Providers send all three between
 * chunks; their own SDKs skip them, and so do we. Comment lines (`: …`) are dropped as soon
 * as they end, and never held: the SDK ignores them anyway.
 *
 * Every other block passes through byte for byte. Lines may end in LF, CRLF or CR, and a
 * line or a block may be split across network chunks, even between `\r` and `\n`.
 *
 * The server is not trusted to end what it starts: one event may hold at most
 * `MAX_EVENT_BYTES`, one response at most `MAX_STREAM_BYTES` (pings and comments included),
 * and every byte is looked at a bounded number of times, however the body is cut.
 */
import { LlmError } from './llm-error.js';

/** A 5 MB file write, JSON-escaped twice over (tool arguments inside a chunk), still fits. */
export const MAX_EVENT_BYTES = 24 * 1024 * 1024;
/** Far above any real answer; ends a flood of pings or comments that would never stop on its own. */
export const MAX_STREAM_BYTES = 256 * 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;
const TAB = 0x09;
const [D, A, T, N] = [0x64, 0x61, 0x74, 0x6e];
const ENDS = { lf: Uint8Array.of(LF), cr: Uint8Array.of(CR), crlf: Uint8Array.of(CR, LF), none: new Uint8Array(0) };

/**
 * What a block's data lines, joined by `\n` as the SDK joins them, say so far: nothing yet,
 * blank, the JSON literal `null` among blank lines, or something. Only the last is passed on.
 * Kept as a state, not as the joined text, so many blank lines cost no more than their bytes.
 */
type DataSoFar = 'none' | 'blank' | 'null' | 'some';

function withLine(data: DataSoFar, value: string): DataSoFar {
  const trimmed = value.trim();
  if (trimmed === '') return data === 'none' ? 'blank' : data;
  if (trimmed === 'null') return data === 'null' || data === 'some' ? 'some' : 'null';
  return 'some';
}

export interface SseFilter {
  /** Whole blocks ready to pass on after these bytes (maybe none). Throws `LlmError('bad_response')` past a limit. */
  push(bytes: Uint8Array): Uint8Array[];
  /** What is left when the body ends: a last block without its blank line, if it carries data. */
  end(): Uint8Array[];
}

export interface SseFilterOptions {
  /** Default `MAX_EVENT_BYTES`. */
  maxEventBytes?: number;
  /** Default `MAX_STREAM_BYTES`. */
  maxStreamBytes?: number;
}

export function createSseFilter(options: SseFilterOptions = {}): SseFilter {
  const maxEventBytes = options.maxEventBytes ?? MAX_EVENT_BYTES;
  const maxStreamBytes = options.maxStreamBytes ?? MAX_STREAM_BYTES;
  const decoder = new TextDecoder();
  let streamBytes = 0;
  /** Pieces of the line not yet ended, each copied once: joined only when the line ends. */
  let lineParts: Uint8Array[] = [];
  let lineBytes = 0;
  /** The line being read is a comment: its bytes are not kept. */
  let inComment = false;
  /** The last chunk ended in `\r`: the line is over, but a `\n` may still belong to its end. */
  let pendingCr = false;
  /** The kept lines (and their line ends) of the block being read. */
  let blockParts: Uint8Array[] = [];
  let blockBytes = 0;
  let data: DataSoFar = 'none';

  const tooBig = (what: string) =>
    new LlmError(
      'bad_response',
      `The model service sent ${what}; it was stopped. Try again, or try another model.`,
      undefined,
      `模型服务发来的数据超出了上限（${what}），已停止。请再试一次，或换一个模型。`,
    );
  const checkEvent = () => {
    if (blockBytes + lineBytes > maxEventBytes) throw tooBig(`an event larger than ${asMb(maxEventBytes)}`);
  };

  function closeBlock(out: Uint8Array[]): void {
    if (data === 'some') out.push(concat(blockParts));
    blockParts = [];
    blockBytes = 0;
    data = 'none';
  }

  function hold(piece: Uint8Array): void {
    if (inComment || piece.length === 0) return;
    // Copied: the network's buffer is not ours to hold on to.
    lineParts.push(piece.slice());
    lineBytes += piece.length;
    checkEvent();
  }

  /** The line in `lineParts` is over, ended by `end`. */
  function endLine(end: Uint8Array, out: Uint8Array[]): void {
    if (inComment) {
      inComment = false;
      return;
    }
    const content = lineParts.length === 1 ? lineParts[0]! : concat(lineParts);
    lineParts = [];
    lineBytes = 0;
    blockParts.push(content, end);
    blockBytes += content.length + end.length;
    checkEvent();
    // A blank line ends the block; it travels with the block it ends.
    if (content.length === 0) return closeBlock(out);
    // Once the data says something, more lines cannot change that.
    if (data !== 'some') readData(content);
  }

  function readData(content: Uint8Array): void {
    if (content.length < 4 || content[0] !== D || content[1] !== A || content[2] !== T || content[3] !== A) return;
    if (content.length > 4 && content[4] !== COLON) return;
    let from = Math.min(content.length, 5);
    if (content[from] === SPACE) from++;
    // Most data starts with `{`: said at once, without decoding what may be megabytes.
    let first = from;
    while (first < content.length && (content[first] === SPACE || content[first] === TAB)) first++;
    if (first === content.length) data = withLine(data, '');
    else if (content[first]! < 0x80 && content[first] !== N && content[first]! > SPACE) data = 'some';
    else data = withLine(data, decoder.decode(content.subarray(from)));
  }

  return {
    push(bytes) {
      streamBytes += bytes.length;
      if (streamBytes > maxStreamBytes) throw tooBig(`more than ${asMb(maxStreamBytes)} in one answer`);
      const out: Uint8Array[] = [];
      let at = 0;
      if (pendingCr && bytes.length > 0) {
        pendingCr = false;
        const crlf = bytes[0] === LF;
        endLine(crlf ? ENDS.crlf : ENDS.cr, out);
        if (crlf) at = 1;
      }
      const nextEnd = lineEndFinder(bytes);
      while (at < bytes.length) {
        if (lineBytes === 0 && !inComment && bytes[at] === COLON) inComment = true;
        const end = nextEnd(at);
        if (end === -1) {
          hold(bytes.subarray(at));
          break;
        }
        hold(bytes.subarray(at, end));
        at = end + 1;
        if (bytes[end] === LF) endLine(ENDS.lf, out);
        else if (at === bytes.length) pendingCr = true;
        else if (bytes[at] === LF) {
          at++;
          endLine(ENDS.crlf, out);
        } else endLine(ENDS.cr, out);
      }
      return out;
    },
    end() {
      const out: Uint8Array[] = [];
      if (pendingCr) {
        pendingCr = false;
        endLine(ENDS.cr, out);
      } else if (lineBytes > 0 || inComment) endLine(ENDS.none, out);
      // The SDK ignores a block the body ended without closing; passing it on costs nothing.
      closeBlock(out);
      return out;
    },
  };
}

/**
 * The next `\n` or `\r` at or after a position, for positions that only grow. Each kind is
 * searched for again only once passed, so a chunk is scanned about twice, not once per line.
 */
function lineEndFinder(bytes: Uint8Array): (from: number) => number {
  let lf = -2;
  let cr = -2;
  return (from) => {
    if (lf !== -1 && lf < from) lf = bytes.indexOf(LF, from);
    if (cr !== -1 && cr < from) cr = bytes.indexOf(CR, from);
    if (lf === -1) return cr;
    if (cr === -1) return lf;
    return Math.min(lf, cr);
  };
}

/** The filter as a stream stage for a response body. Past a limit the body fails with the filter's error. */
export function sseFilterStream(options: SseFilterOptions = {}): TransformStream<Uint8Array, Uint8Array> {
  const filter = createSseFilter(options);
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(bytes, controller) {
      for (const block of filter.push(bytes)) controller.enqueue(block);
    },
    flush(controller) {
      for (const block of filter.end()) controller.enqueue(block);
    },
  });
}

function asMb(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}

function concat(parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
