/**
 * Drops the SSE event blocks that carry no data before the SDK sees them. The SDK parses
 * every block that has an `event:` line, or any `data:` line, as JSON, so a keep-alive
 * `event: ping` with no data, an empty `data:` line or `data: null` fails a whole answer
 * ("not valid JSON", "Cannot read properties of null"). Providers send all three between
 * chunks; their own SDKs skip them, and so do we.
 *
 * Every other block passes through byte for byte. Lines may end in LF, CRLF or CR, and a
 * line or a block may be split across network chunks, even between `\r` and `\n`.
 */

const LF = 0x0a;
const CR = 0x0d;

/** A block's data says nothing: missing, blank, or the JSON literal `null`. */
function carriesNoData(data: string | undefined): boolean {
  if (data === undefined) return true;
  const trimmed = data.trim();
  return trimmed === '' || trimmed === 'null';
}

export interface SseFilter {
  /** Whole blocks ready to pass on after these bytes (maybe none). */
  push(bytes: Uint8Array): Uint8Array[];
  /** What is left when the body ends: a last block without its blank line, if it carries data. */
  end(): Uint8Array[];
}

export function createSseFilter(): SseFilter {
  const decoder = new TextDecoder();
  /** Bytes of the line not yet ended. */
  let partial: Uint8Array = new Uint8Array(0);
  /** Where in `partial` to look for a line end next: bytes before it hold none. */
  let scanFrom = 0;
  /** The raw lines (terminators included) of the block being read. */
  let lines: Uint8Array[] = [];
  /** The block's data lines joined by `\n`, as the SDK joins them; undefined while there are none. */
  let data: string | undefined;

  function closeBlock(out: Uint8Array[]): void {
    if (lines.length > 0 && !carriesNoData(data)) out.push(concat(lines));
    lines = [];
    data = undefined;
  }

  /** One whole line: `content` without its terminator, `raw` with it. */
  function takeLine(content: Uint8Array, raw: Uint8Array, out: Uint8Array[]): void {
    // Copied: the network's buffer is not ours to hold on to.
    lines.push(raw.slice());
    if (content.length === 0) {
      // A blank line ends the block; it travels with the block it ends.
      closeBlock(out);
      return;
    }
    const text = decoder.decode(content);
    if (text.startsWith(':')) return; // a comment
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    if (field !== 'data') return;
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    data = data === undefined ? value : `${data}\n${value}`;
  }

  /** Splits `partial` into whole lines; keeps the unfinished rest. A final `\r` waits for a possible `\n` unless the body ended. */
  function drain(out: Uint8Array[], ended: boolean): void {
    let start = 0;
    let i = scanFrom;
    for (; i < partial.length; i++) {
      const byte = partial[i];
      if (byte !== LF && byte !== CR) continue;
      let next = i + 1;
      if (byte === CR) {
        if (next === partial.length && !ended) break;
        if (partial[next] === LF) next++;
      }
      takeLine(partial.subarray(start, i), partial.subarray(start, next), out);
      start = next;
      i = next - 1;
    }
    partial = partial.slice(start);
    scanFrom = i - start;
  }

  return {
    push(bytes) {
      const out: Uint8Array[] = [];
      partial = partial.length === 0 ? bytes : concat([partial, bytes]);
      drain(out, false);
      return out;
    },
    end() {
      const out: Uint8Array[] = [];
      drain(out, true);
      if (partial.length > 0) takeLine(partial, partial, out);
      partial = new Uint8Array(0);
      scanFrom = 0;
      // The SDK ignores a block the body ended without closing; passing it on costs nothing.
      closeBlock(out);
      return out;
    },
  };
}

/** The filter as a stream stage for a response body. */
export function sseFilterStream(): TransformStream<Uint8Array, Uint8Array> {
  const filter = createSseFilter();
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(bytes, controller) {
      for (const block of filter.push(bytes)) controller.enqueue(block);
    },
    flush(controller) {
      for (const block of filter.end()) controller.enqueue(block);
    },
  });
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!.slice();
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
