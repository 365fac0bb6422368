import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * How deeply a server's message may nest. JSON.parse on this thread takes seconds over millions of
 * `[`, while every session waits; no real tool result comes near this, and parsing it costs nothing.
 */
export const MAX_JSON_DEPTH = 512;
/** An `id` longer than this is not looked at: a real one is a number or a short string. */
const MAX_ID_BYTES = 256;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_SQUARE = 0x5b;
const CLOSE_SQUARE = 0x5d;
const OPEN_CURLY = 0x7b;
const CLOSE_CURLY = 0x7d;
const COLON = 0x3a;
const COMMA = 0x2c;

/** What a scan of a message's text found. */
export interface DepthScan {
  /** It nests deeper than the bound. */
  tooDeep: boolean;
  /** The top-level `id`, when it is a number or a string. */
  id?: string | number;
  /** It has a top-level `method`: a request or a notification, not an answer. */
  method: boolean;
}

const keyIs = (bytes: Uint8Array, start: number, end: number, key: string) => {
  if (end - start !== key.length) return false;
  for (let i = 0; i < key.length; i++) if (bytes[start + i] !== key.charCodeAt(i)) return false;
  return true;
};

const idOf = (text: string): string | number | undefined => {
  try {
    const id: unknown = JSON.parse(text);
    return typeof id === 'number' || typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
};

/**
 * One linear pass over UTF-8 JSON text, without building anything: how deep it nests, and its
 * top-level `id` and `method` keys, so a message too deep to parse can still be answered or dropped.
 * Strings are skipped with their escapes (UTF-8 continuation bytes are never ASCII, so a byte scan
 * cannot mistake one for a quote or a bracket). Malformed text is not judged: JSON.parse says so.
 */
export function scanJsonDepth(bytes: Uint8Array, maxDepth = MAX_JSON_DEPTH): DepthScan {
  let depth = 0;
  let tooDeep = false;
  let method = false;
  // At the top level of the message: whether the next string is a key, and where the `id` value starts.
  let expectKey = false;
  let lastKey: 'id' | 'other' | undefined;
  let idStart = -1;
  let id: string | number | undefined;
  const endId = (at: number) => {
    if (idStart < 0) return;
    if (at - idStart <= MAX_ID_BYTES)
      id = idOf(Buffer.from(bytes.buffer, bytes.byteOffset + idStart, at - idStart).toString('utf8'));
    idStart = -1;
  };
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === QUOTE) {
      const start = i + 1;
      for (i = start; i < bytes.length && bytes[i] !== QUOTE; i++) if (bytes[i] === BACKSLASH) i++;
      if (depth === 1 && expectKey) {
        lastKey = keyIs(bytes, start, i, 'id') ? 'id' : 'other';
        if (keyIs(bytes, start, i, 'method')) method = true;
        expectKey = false;
      }
    } else if (c === OPEN_SQUARE || c === OPEN_CURLY) {
      if (++depth > maxDepth) tooDeep = true;
      if (depth === 1) expectKey = c === OPEN_CURLY;
    } else if (c === CLOSE_SQUARE || c === CLOSE_CURLY) {
      if (depth === 1) endId(i);
      depth--;
    } else if (depth === 1 && c === COLON) {
      if (lastKey === 'id') idStart = i + 1;
      lastKey = undefined;
    } else if (depth === 1 && c === COMMA) {
      endId(i);
      expectKey = true;
    }
  }
  return { tooDeep, ...(id !== undefined ? { id } : {}), method };
}

/** The sentence a call gets when the server's answer nests too deeply to be read. */
export const tooDeepSentence = (maxDepth = MAX_JSON_DEPTH) =>
  `the server's answer nests deeper than ${maxDepth} levels, which Zhixing does not read`;

/**
 * What stands for a message too deep to parse: an error answer to the call it answers (so the call
 * fails at once, with a sentence, instead of waiting out its timeout), or nothing (a notification, a
 * request from the server, or an answer whose id cannot be told), which is dropped.
 */
export function standInFor(scan: DepthScan): JSONRPCMessage | undefined {
  if (scan.method || scan.id === undefined) return undefined;
  return { jsonrpc: '2.0', id: scan.id, error: { code: -32603, message: tooDeepSentence() } };
}
