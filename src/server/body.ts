import { ApiError } from './errors.js';
import { MAX_BODY_BYTES, tooLarge } from './guards.js';

/**
 * The request body as JSON, read with a byte limit (a body sent in chunks has no Content-Length
 * to refuse up front). The body is JSON whatever its Content-Type says, so
 * `curl -d '{"message":"…"}'` works without `-H 'content-type: application/json'`: browsers are kept
 * out by the Origin check, not by the content type. An empty body reads as undefined.
 */
export async function readJsonBody(req: Request, limit = MAX_BODY_BYTES): Promise<unknown> {
  if (!req.body) return undefined;
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  if (size === 0) return undefined;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new ApiError(400, 'bad_json', 'The request body is not valid UTF-8 text.');
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ApiError(400, 'bad_json', `The request body is not valid JSON (${(err as Error).message}).`);
  }
}
