/**
 * A local server speaking the OpenAI Chat Completions wire format, for tests.
 * Real `node:http` on 127.0.0.1, port 0; each request to `POST /v1/chat/completions`
 * takes the next scripted response. Streams are written chunk by chunk (one TCP write
 * each, with a pause between) so the client under test really parses a stream.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Recorded provider responses, copied into the repository with their licence. */
export const LLM_FIXTURES_DIR = path.resolve(REPO_ROOT, 'test', 'fixtures', 'llm');
const CHAT_PATH = '/v1/chat/completions';
const MODELS_PATH = '/v1/models';
/** The answer to a title request nobody scripted. */
export const DEFAULT_TITLE = 'Scripted chat';

/** One request as the server saw it. `body` is the parsed JSON (undefined if it was not JSON). */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

/**
 * Streamed as `data: <json>\n\n` lines then `data: [DONE]\n\n`. `delayMs` pauses between
 * chunks; `end: 'hang'` keeps the connection open after the chunks (abort and silence tests),
 * `end: 'close'` cuts the connection after them, without `[DONE]`.
 */
export interface StreamedResponse {
  chunks: object[];
  delayMs?: number;
  /** A pause before the response headers: a model service slow to start answering. */
  headersAfterMs?: number;
  end?: 'done' | 'hang' | 'close';
}

/** What to answer to one request. */
export type ScriptedResponse =
  | StreamedResponse
  /** A raw SSE body, sent one event (blank-line separated block) per write. */
  | { sse: string; delayMs?: number }
  /** Raw SSE text sent exactly as given, one write per string: CRLF, and lines split across packets. */
  | { writes: Array<string | Uint8Array>; delayMs?: number }
  /** A non-streamed JSON body (status 200 unless given). */
  | { json: object; status?: number }
  /** An error reply; `body` defaults to an OpenAI-style error object. */
  | { status: number; headers?: Record<string, string>; body?: object }
  /** Never answers (timeouts, aborts). */
  | { hang: true }
  /** Drops the connection without answering (a network error). */
  | { reset: true }
  /** A hostile or broken stream, bounded: see `Flood`. What happened lands in `server.floods`. */
  | { flood: Flood };

/**
 * `head`, then `repeat` again and again until `totalBytes` are sent, then `tail`; stops early
 * when the client hangs up. Each write waits for the client to drain the last, so neither side
 * holds more than a write or two.
 */
export interface Flood {
  head?: string;
  repeat: string;
  totalBytes: number;
  tail?: string;
}

/** How a flood ended: the client hung up before the end (`hungUp`), or it was all sent. */
export interface FloodOutcome {
  /** Bytes written so far (all of them once `ended` settles). */
  readonly sent: number;
  ended: Promise<'hungUp' | 'sentAll'>;
}

export interface OpenAiServer {
  /** Base URL ending in `/v1`, e.g. `http://127.0.0.1:40123/v1`. */
  url: string;
  requests: RecordedRequest[];
  /** One entry per flood served, in order. */
  floods: FloodOutcome[];
  enqueue(...responses: ScriptedResponse[]): void;
  /** What `GET /v1/models` answers from now on: these model names, or a scripted response (an error, a hang). Default: `test-model`. */
  setModels(answer: string[] | ScriptedResponse): void;
  /** Responses not yet used (a test can assert its script was consumed). */
  pending(): number;
  close(): Promise<void>;
}

export async function startOpenAiServer(): Promise<OpenAiServer> {
  const queue: ScriptedResponse[] = [];
  const requests: RecordedRequest[] = [];
  const floods: FloodOutcome[] = [];
  const sockets = new Set<Socket>();
  let models: ScriptedResponse = modelList(['test-model']);

  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const raw = Buffer.concat(parts).toString('utf8');
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      const urlPath = (req.url ?? '/').split('?')[0];
      requests.push({ method: req.method ?? 'GET', path: urlPath, headers: req.headers, body });
      if (req.method === 'GET' && urlPath === MODELS_PATH && !('flood' in models)) {
        void respond(res, models);
        return;
      }
      if (req.method !== 'POST' || urlPath !== CHAT_PATH) {
        sendJson(
          res,
          404,
          errorBody(
            `No route for ${req.method} ${urlPath}; this test server only answers POST ${CHAT_PATH} and GET ${MODELS_PATH}.`,
          ),
        );
        return;
      }
      // A non-streamed request (a session title) arriving while the script waits with a stream
      // is answered on the side, so titles written alongside a turn never take the turn's reply.
      const head = queue[0];
      const isStreamed = (r?: ScriptedResponse) =>
        r !== undefined && ('chunks' in r || 'sse' in r || 'writes' in r || 'flood' in r);
      if ((body as { stream?: boolean } | undefined)?.stream === false && (head === undefined || isStreamed(head))) {
        void respond(res, textCompletion(DEFAULT_TITLE));
        return;
      }
      const next = queue.shift();
      if (!next) {
        sendJson(
          res,
          500,
          errorBody('The test script ran out: no scripted response left for this request.', 'script_exhausted'),
        );
        return;
      }
      if ('flood' in next) floods.push(flood(res, next.flood));
      else void respond(res, next);
    });
  });
  server.on('connection', (socket) => {
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('test server has no port');

  return {
    url: `http://127.0.0.1:${address.port}/v1`,
    requests,
    floods,
    enqueue: (...responses) => void queue.push(...responses),
    setModels: (answer) => void (models = Array.isArray(answer) ? modelList(answer) : answer),
    pending: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

async function respond(res: ServerResponse, scripted: Exclude<ScriptedResponse, { flood: Flood }>): Promise<void> {
  if ('hang' in scripted) return;
  if ('reset' in scripted) {
    res.socket?.destroy();
    return;
  }
  if ('json' in scripted) {
    sendJson(res, scripted.status ?? 200, scripted.json);
    return;
  }
  if ('chunks' in scripted) {
    const events = scripted.chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`);
    const end = scripted.end ?? 'done';
    if (end === 'done') events.push('data: [DONE]\n\n');
    if (scripted.headersAfterMs) await new Promise((resolve) => setTimeout(resolve, scripted.headersAfterMs));
    await writeStream(res, events, scripted.delayMs ?? 0);
    if (end === 'close') res.socket?.destroy();
    else if (end === 'done') res.end();
    return;
  }
  if ('sse' in scripted) {
    await writeStream(res, splitSse(scripted.sse), scripted.delayMs ?? 0);
    res.end();
    return;
  }
  if ('writes' in scripted) {
    await writeStream(res, scripted.writes, scripted.delayMs ?? 1);
    res.end();
    return;
  }
  const body = scripted.body ?? errorBody(`Scripted error ${scripted.status}.`);
  sendJson(res, scripted.status, body, scripted.headers);
}

async function writeStream(res: ServerResponse, events: Array<string | Uint8Array>, delayMs: number): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.flushHeaders();
  for (const event of events) {
    if (res.destroyed) return;
    res.write(event);
    // A pause between writes makes each one its own TCP segment.
    await new Promise((resolve) => (delayMs > 0 ? setTimeout(resolve, delayMs) : setImmediate(resolve)));
  }
}

function flood(res: ServerResponse, spec: Flood): FloodOutcome {
  const outcome = { sent: 0, ended: Promise.resolve<'hungUp' | 'sentAll'>('sentAll') };
  outcome.ended = (async () => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const closed = new Promise<void>((resolve) => res.once('close', resolve));
    const write = async (bytes: Buffer): Promise<boolean> => {
      if (res.destroyed) return false;
      outcome.sent += bytes.length;
      if (!res.write(bytes)) await Promise.race([new Promise((resolve) => res.once('drain', resolve)), closed]);
      return !res.destroyed;
    };
    const repeat = Buffer.from(spec.repeat);
    if (spec.head && !(await write(Buffer.from(spec.head)))) return 'hungUp';
    while (outcome.sent + repeat.length <= spec.totalBytes) if (!(await write(repeat))) return 'hungUp';
    if (spec.tail && !(await write(Buffer.from(spec.tail)))) return 'hungUp';
    res.end();
    return 'sentAll';
  })();
  return outcome;
}

/** Splits a raw SSE body into its events, keeping each one's trailing blank line. */
function splitSse(raw: string): string[] {
  const normalized = raw.replace(/\r\n/g, '\n');
  const blocks = normalized.split(/\n\n+/).filter((block) => block.trim() !== '');
  return blocks.map((block) => `${block}\n\n`);
}

/** The OpenAI `GET /models` answer. */
function modelList(ids: string[]): ScriptedResponse {
  return { json: { object: 'list', data: ids.map((id) => ({ id, object: 'model', created: 0, owned_by: 'test' })) } };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function errorBody(message: string, code: string | null = null): object {
  return { error: { message, type: 'test_server_error', param: null, code } };
}

// ---------- builders for scripted responses ----------

const BASE_CHUNK = { id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 0, model: 'test-model' };
const TEXT_PIECE_CHARS = 4;
const ARG_PIECES = 3;

interface UsageOption {
  usage?: { prompt_tokens: number; completion_tokens: number };
}

function chunk(delta: object, finishReason: string | null = null): object {
  return { ...BASE_CHUNK, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] };
}

function usageChunk(usage: { prompt_tokens: number; completion_tokens: number }): object {
  return {
    ...BASE_CHUNK,
    choices: [],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

function pieces(text: string, size: number): string[] {
  const chars = [...text];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

/** A streamed plain answer, a few characters per chunk, then usage in a `choices: []` chunk. */
export function textReply(text: string, options: UsageOption = {}): StreamedResponse {
  const usage = options.usage ?? {
    prompt_tokens: 10,
    completion_tokens: Math.max(1, pieces(text, TEXT_PIECE_CHARS).length),
  };
  return {
    chunks: [
      chunk({ role: 'assistant', content: '' }),
      ...pieces(text, TEXT_PIECE_CHARS).map((piece) => chunk({ content: piece })),
      chunk({}, 'stop'),
      usageChunk(usage),
    ],
  };
}

export interface ScriptedCall {
  id: string;
  name: string;
  /** An object (serialized) or the raw argument text, which may be invalid JSON on purpose. */
  args: object | string;
}

/**
 * A streamed answer with tool calls, shaped like OpenAI's: the first delta of each call
 * carries index, id, type and name with empty arguments; the arguments follow in later
 * deltas (split in pieces with `splitArgs`, else whole).
 */
export function toolCallsReply(
  calls: ScriptedCall[],
  options: { splitArgs?: boolean; text?: string } & UsageOption = {},
): StreamedResponse {
  const chunks: object[] = [chunk({ role: 'assistant', content: options.text ? '' : null })];
  if (options.text) chunks.push(...pieces(options.text, TEXT_PIECE_CHARS).map((piece) => chunk({ content: piece })));
  calls.forEach((call, index) => {
    const args = typeof call.args === 'string' ? call.args : JSON.stringify(call.args);
    chunks.push(
      chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }),
    );
    const parts = options.splitArgs ? pieces(args, Math.max(1, Math.ceil(args.length / ARG_PIECES))) : [args];
    for (const part of parts) chunks.push(chunk({ tool_calls: [{ index, function: { arguments: part } }] }));
  });
  chunks.push(chunk({}, 'tool_calls'));
  chunks.push(usageChunk(options.usage ?? { prompt_tokens: 20, completion_tokens: 10 }));
  return { chunks };
}

/** A non-streamed `chat.completion` with a text answer (what `title()` asks for). */
export function textCompletion(text: string, options: UsageOption = {}): { json: object } {
  const usage = options.usage ?? { prompt_tokens: 10, completion_tokens: 5 };
  return {
    json: {
      id: 'chatcmpl-test',
      object: 'chat.completion',
      created: 0,
      model: 'test-model',
      choices: [{ index: 0, message: { role: 'assistant', content: text }, logprobs: null, finish_reason: 'stop' }],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    },
  };
}

/**
 * A recorded provider response from `test/fixtures/llm/`: `.chunks.txt` (one chunk JSON
 * per line) is streamed with `data: ` prefixes and a final `[DONE]`; `.sse` is sent as is;
 * `.json` is a non-streamed body.
 */
export function fixture(name: string): ScriptedResponse {
  const text = readFileSync(path.join(LLM_FIXTURES_DIR, name), 'utf8');
  if (name.endsWith('.chunks.txt')) {
    // Sent byte for byte as recorded, not re-serialized.
    const lines = text.split('\n').filter((line) => line.trim() !== '');
    return { sse: lines.map((line) => `data: ${line}\n\n`).join('') + 'data: [DONE]\n\n' };
  }
  if (name.endsWith('.sse')) return { sse: text };
  if (name.endsWith('.json')) return { json: JSON.parse(text) as object };
  throw new Error(`Unknown fixture kind: ${name} (expected .chunks.txt, .sse or .json)`);
}
