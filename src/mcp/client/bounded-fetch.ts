import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

const LF = 10;
const CR = 13;
/** Statuses whose response may have no body: a Response with one cannot be made. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** A server's one message (an event, or a JSON body) was longer than the client reads. */
export class MessageTooLongError extends Error {
  override name = 'MessageTooLongError';
}

/**
 * `fetch` for the SDK's HTTP transports, whose event-stream parser and `response.json()` read a
 * message however long it grows: every response body is cut off, with an error, once one message
 * (the bytes since the last blank line, which ends an SSE event; all of a JSON body) passes
 * `limitBytes`. A server sending one endless line, or an endless progress message, then costs at
 * most that much memory, as a local server does over stdio.
 */
export function boundedFetch(limitBytes: number, base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const response = await base(url, init);
    if (!response.body || NULL_BODY.has(response.status)) return response;
    return new Response(response.body.pipeThrough(messageLimit(limitBytes)), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** Passes bytes on while no message is longer than `limitBytes`; a message is ended by a blank line (LF LF or LF CR LF). */
function messageLimit(limitBytes: number): TransformStream<Uint8Array, Uint8Array> {
  let since = 0;
  // The last two bytes seen before this chunk: a blank line may be split between chunks.
  let last1 = -1;
  let last2 = -1;
  const at = (chunk: Uint8Array, i: number) => (i >= 0 ? chunk[i]! : i === -1 ? last1 : last2);
  return new TransformStream({
    transform(chunk, controller) {
      let end = -1;
      for (let i = chunk.lastIndexOf(LF); i >= 0; i = i > 0 ? chunk.lastIndexOf(LF, i - 1) : -1) {
        const before = at(chunk, i - 1);
        if (before === LF || (before === CR && at(chunk, i - 2) === LF)) {
          end = i + 1;
          break;
        }
      }
      since = end >= 0 ? chunk.length - end : since + chunk.length;
      if (chunk.length >= 2) [last2, last1] = [chunk[chunk.length - 2]!, chunk[chunk.length - 1]!];
      else if (chunk.length === 1) [last2, last1] = [last1, chunk[0]!];
      if (since > limitBytes)
        return controller.error(new MessageTooLongError(`one message from the server is over ${limitBytes} bytes`));
      controller.enqueue(chunk);
    },
  });
}
