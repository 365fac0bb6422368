import { Transform, type TransformCallback } from 'node:stream';

/**
 * Passes stdin's lines on to the MCP transport, but cuts a line longer than `maxBytes`: the SDK's
 * stdio reader gives up on the whole connection when its buffer passes 10 MB, and one oversized
 * message must not end every other call. What was let through of the cut line is ended with a
 * newline, so the reader sees one unreadable line, says so and goes on with the next.
 */
export function lineLimit(maxBytes: number, onCut: (bytes: number) => void): Transform {
  let lineBytes = 0;
  let cutting = false;
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      let start = 0;
      while (start < chunk.length) {
        const newline = chunk.indexOf(0x0a, start);
        const end = newline === -1 ? chunk.length : newline + 1;
        const piece = chunk.subarray(start, end);
        if (!cutting && lineBytes + piece.length > maxBytes) {
          cutting = true;
          this.push('\n');
        }
        lineBytes += piece.length;
        if (!cutting) this.push(piece);
        if (newline !== -1) {
          if (cutting) onCut(lineBytes);
          cutting = false;
          lineBytes = 0;
        }
        start = end;
      }
      done();
    },
  });
}
