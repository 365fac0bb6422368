/**
 * Keeps a command's output within bounds while it streams: the beginning (what the command was
 * about, the first error) and the end (the summary, the last error) survive; the middle goes.
 */

/** Bytes kept from the start and from the end: together with the note, under the registry's 30,000-character cut. */
const HEAD_BYTES = 14_000;
const TAIL_BYTES = 14_000;

export interface KeptOutput {
  /** The text kept, with a note where the middle was cut. */
  text: string;
  /** Bytes the command wrote in all. */
  totalBytes: number;
  /** Bytes left out of `text` (0 when nothing was cut). */
  cutBytes: number;
}

export interface OutputBuffer {
  push(chunk: Buffer): void;
  /** The last non-empty line seen so far, for a progress line. */
  lastLine(): string;
  result(note: (cutBytes: number) => string): KeptOutput;
}

/** Where the whole characters of a UTF-8 buffer end: a character cut off at the end is left out. */
function completeEnd(buf: Buffer): number {
  // Look back over at most three continuation bytes (10xxxxxx) to the last character's first byte.
  let start = buf.length;
  while (start > 0 && buf.length - start < 4 && (buf[start - 1]! & 0xc0) === 0x80) start--;
  if (start === 0) return buf.length;
  const lead = buf[start - 1]!;
  const size = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return buf.length - (start - 1) >= size ? buf.length : start - 1;
}

export function createOutputBuffer(headBytes = HEAD_BYTES, tailBytes = TAIL_BYTES): OutputBuffer {
  let head = Buffer.alloc(0);
  // The tail as a list of chunks, folded into one only when it has grown well past its size.
  let tail: Buffer[] = [];
  let tailSize = 0;
  let total = 0;
  let recent = '';

  const fold = () => {
    const joined = Buffer.concat(tail);
    const keep = joined.subarray(Math.max(0, joined.length - tailBytes));
    tail = [keep];
    tailSize = keep.length;
  };

  return {
    push(chunk) {
      total += chunk.length;
      let rest = chunk;
      if (head.length < headBytes) {
        const room = headBytes - head.length;
        head = Buffer.concat([head, rest.subarray(0, room)]);
        rest = rest.subarray(room);
      }
      if (rest.length) {
        tail.push(rest);
        tailSize += rest.length;
        if (tailSize > tailBytes * 2) fold();
      }
      // Only the end of the chunk matters for the progress line; a whole megabyte need not be decoded.
      const lines = chunk
        .subarray(Math.max(0, chunk.length - 2_000))
        .toString('utf8')
        .split(/\r?\n|\r/);
      const last = lines.reverse().find((l) => l.trim() !== '');
      if (last !== undefined) recent = last.trim();
    },
    lastLine: () => recent,
    result(note) {
      fold();
      const tailBuf = tail[0] ?? Buffer.alloc(0);
      const cutBytes = total - head.length - tailBuf.length;
      if (cutBytes <= 0)
        return { text: Buffer.concat([head, tailBuf]).toString('utf8'), totalBytes: total, cutBytes: 0 };
      const headEnd = completeEnd(head);
      const tailStart = skipContinuation(tailBuf);
      const kept = headEnd + (tailBuf.length - tailStart);
      const cut = total - kept;
      return {
        text: `${head.subarray(0, headEnd).toString('utf8')}\n${note(cut)}\n${tailBuf.subarray(tailStart).toString('utf8')}`,
        totalBytes: total,
        cutBytes: cut,
      };
    },
  };
}

/** The first byte of `buf` that starts a character: a tail cut mid-character starts after the broken part. */
function skipContinuation(buf: Buffer): number {
  let i = 0;
  while (i < 3 && i < buf.length && (buf[i]! & 0xc0) === 0x80) i++;
  return i;
}
