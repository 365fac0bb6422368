import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { MAX_JSON_DEPTH, scanJsonDepth } from '../mcp/json-depth.js';
import { buildMcpServer, type BuiltMcpServer, type McpServerApp } from './build-server.js';

/** Open MCP sessions at most: each holds a Server and its transport. */
const DEFAULT_MAX_SESSIONS = 64;
/** Sessions one client may hold: a client that leaks sessions churns its own, not everybody's. */
const DEFAULT_MAX_PER_CLIENT = 16;
/** A session with no request and no open stream for this long is ended; its client starts a new one on the 404. */
const DEFAULT_IDLE_MS = 5 * 60_000;
/** How long a closed session's running calls have to stop: a tool gets 10 s after a stop. */
const SETTLE_MS = 12_000;
/** How often idle sessions are looked for. */
const SWEEP_MS = 60_000;
/** How much of the name a client gives in `initialize` tells it apart. */
const CLIENT_NAME_CHARS = 100;
/** A client refused for want of room is asked to come back after this many seconds. */
const RETRY_AFTER_S = 5;
/**
 * How long a POST's body has, from its headers, to arrive whole; then it is answered 408. A real
 * client sends a message at once; one that trickles it only holds a socket, never a session.
 */
const DEFAULT_BODY_TIMEOUT_MS = 10_000;

export interface McpHttpOptions {
  app: McpServerApp;
  version: string;
  log: (line: string) => void;
  maxSessions?: number;
  maxPerClient?: number;
  idleMs?: number;
  bodyTimeoutMs?: number;
  /** The clock idleness is measured on (Date.now unless a test moves time on itself). */
  now?: () => number;
  /** The most a POST body may hold, in bytes. */
  maxBodyBytes: number;
}

export interface McpHttp {
  /** Answers one request to `/mcp` that has passed the server's guards. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** The open sessions. */
  readonly size: number;
  /** Ends every session (server shutdown). */
  close(): Promise<void>;
}

interface McpSession {
  transport: StreamableHTTPServerTransport;
  built: BuiltMcpServer;
  /** Who opened it (see `clientOf`). */
  client: string;
  /**
   * POSTs (once their body has arrived whole) and DELETEs being answered: a session with one is never
   * ended to make room. A request still sending its body does not count, or one client trickling a
   * byte now and then on each of 64 sessions would hold them all and lock every other client out.
   */
  busy: number;
  /** Its GET stream, open or not: a quiet client listening is not idle for expiry, but may make room. */
  streams: number;
  lastUsed: number;
}

const LOOPBACK = /^(?:127\.|::1$|::ffff:127\.)/;

/**
 * Who a new session belongs to, for the per-client cap: the address it comes from and the name it
 * gives in `initialize`. On loopback every address is one (all programs on this machine share it,
 * and a program may pick any 127.x source), so the name is what tells Claude Desktop from a
 * leaking script. A name can be lied about; a client that lies only churns sessions, it cannot lock
 * anyone out: making room ends an idle session of whoever holds most, and the client of an ended
 * session is told 404 and starts a new one, as the protocol says.
 */
function clientOf(req: IncomingMessage, name: string): string {
  const address = req.socket.remoteAddress ?? '';
  return `${LOOPBACK.test(address) ? 'loopback' : address} ${name.slice(0, CLIENT_NAME_CHARS)}`;
}

/** A POST's body: its bytes, or why there is none (longer than allowed, too slow, or the client left). */
type Body = { bytes: Buffer } | { refused: 'too-large' | 'too-slow' | 'gone' };

/** The body of a POST, up to `limit` bytes, if it arrives whole within `timeoutMs`. */
function readBody(req: IncomingMessage, limit: number, timeoutMs: number): Promise<Body> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const done = (body: Body) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.off('data', onData);
      if (!('bytes' in body)) req.pause();
      resolve(body);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return done({ refused: 'too-large' });
      chunks.push(chunk);
    };
    const timer = setTimeout(() => done({ refused: 'too-slow' }), timeoutMs);
    req.on('data', onData);
    req.once('end', () => done({ bytes: Buffer.concat(chunks) }));
    req.once('error', () => done({ refused: 'gone' }));
    req.once('close', () => done({ refused: 'gone' }));
  });
}

/** A JSON-RPC error as the Streamable HTTP transport answers one outside any request. */
function rpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

/** Reads a POST's JSON body; answers the request itself (413, 408, 400) and gives undefined when it cannot. */
async function bodyOf(
  req: IncomingMessage,
  res: ServerResponse,
  limit: number,
  timeoutMs: number,
): Promise<{ json: unknown } | undefined> {
  const body = await readBody(req, limit, timeoutMs);
  if (!('bytes' in body)) {
    if (body.refused === 'too-large')
      rpcError(res, 413, -32000, `Payload too large: the body is over ${limit} bytes.`, { connection: 'close' });
    if (body.refused === 'too-slow')
      rpcError(res, 408, -32000, `Request timeout: the body did not arrive whole within ${timeoutMs / 1000} s.`, {
        connection: 'close',
      });
    return undefined;
  }
  // Parsing a megabyte of `[` takes this thread, which serves everyone, a noticeable while; a count takes none.
  if (scanJsonDepth(body.bytes).tooDeep) {
    rpcError(res, 400, -32700, `Parse error: the message nests deeper than ${MAX_JSON_DEPTH} levels.`);
    return undefined;
  }
  try {
    return { json: JSON.parse(body.bytes.toString('utf8')) };
  } catch {
    rpcError(res, 400, -32700, 'Parse error: Invalid JSON');
    return undefined;
  }
}

/**
 * MCP over Streamable HTTP, stateful: `initialize` opens a session (its id in `Mcp-Session-Id`), each
 * with a server of its own; DELETE ends it. Sessions are bounded two ways, and neither locks a client
 * out for long: at most `maxPerClient` for one client (past it, that client's least recently used
 * idle session is ended) and `maxSessions` in all (past it, the least recently used idle session of
 * the client holding most is ended). Idle means no request being answered, and a request is only
 * answered once its body has arrived whole (within `bodyTimeoutMs`, or 408): a session whose every
 * slot is busy is never ended, and only then is a new one refused (429 for the client, 503 in all).
 * A session with no request and no stream for `idleMs` expires. An ended session's id gets 404, so
 * its client initializes again. The caller has run the guards (Host, Origin, token, body size).
 */
export function createMcpHttp(options: McpHttpOptions): McpHttp {
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const maxPerClient = options.maxPerClient ?? DEFAULT_MAX_PER_CLIENT;
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  const clock = options.now ?? Date.now;
  const sessions = new Map<string, McpSession>();
  /** Sessions being opened (room made, not yet registered), in all and by client: a burst cannot overshoot the caps. */
  const opening = new Map<string, number>();
  let openingAll = 0;

  const end = async (id: string) => {
    const s = sessions.get(id);
    if (!s) return;
    sessions.delete(id);
    await s.built.server.close().catch(() => {});
    await s.built.settled(SETTLE_MS);
    s.built.dispose();
  };
  const sweep = () => {
    const now = clock();
    for (const [id, s] of sessions) if (s.busy === 0 && s.streams === 0 && now - s.lastUsed > idleMs) void end(id);
  };
  const sweeper = setInterval(sweep, Math.min(SWEEP_MS, idleMs));
  sweeper.unref();

  /** Counts the request as the session's while it is answered (a call's SSE answer stays open for long). */
  const use = (s: McpSession, req: IncomingMessage, res: ServerResponse) => {
    const kind = req.method === 'GET' ? 'streams' : 'busy';
    s[kind]++;
    s.lastUsed = clock();
    res.once('close', () => {
      s[kind]--;
      s.lastUsed = clock();
    });
  };

  const held = (client: string) => {
    let n = opening.get(client) ?? 0;
    for (const s of sessions.values()) if (s.client === client) n++;
    return n;
  };
  /** Of `entries`, the idle session of the client holding most, the least recently used among its. */
  const victim = (entries: Array<[string, McpSession]>): string | undefined => {
    const counts = new Map<string, number>();
    for (const [, s] of sessions) counts.set(s.client, (counts.get(s.client) ?? 0) + 1);
    let best: [string, McpSession] | undefined;
    for (const entry of entries) {
      const s = entry[1];
      if (s.busy > 0) continue;
      if (!best) best = entry;
      else {
        const more = (counts.get(s.client) ?? 0) - (counts.get(best[1].client) ?? 0);
        if (more > 0 || (more === 0 && s.lastUsed < best[1].lastUsed)) best = entry;
      }
    }
    return best?.[0];
  };
  /** Makes room for one more session of `client`, ending idle ones; a refusal's status and sentence when it cannot. */
  const makeRoom = (client: string): [number, string] | undefined => {
    if (held(client) >= maxPerClient) {
      const id = victim([...sessions].filter(([, s]) => s.client === client));
      if (!id)
        return [
          429,
          `This client has ${maxPerClient} MCP sessions, all answering a request now, the most one client keeps. End one (DELETE /mcp with its Mcp-Session-Id) or wait for a call to finish.`,
        ];
      void end(id);
    }
    if (sessions.size + openingAll >= maxSessions) {
      const id = victim([...sessions]);
      if (!id)
        return [
          503,
          `${sessions.size} MCP sessions are open and all answering a request now, the most this server keeps. Try again when a call has finished.`,
        ];
      void end(id);
    }
    return undefined;
  };

  async function open(req: IncomingMessage, res: ServerResponse): Promise<void> {
    sweep();
    // Read here, not by the transport: who the client says it is decides whose session makes room.
    const read = await bodyOf(req, res, options.maxBodyBytes, bodyTimeoutMs);
    if (!read) return;
    const body = read.json;
    const name = isInitializeRequest(body) ? String(body.params.clientInfo.name) : undefined;
    const initialize = name !== undefined;
    const client = initialize ? clientOf(req, name) : '';
    if (initialize) {
      const refused = makeRoom(client);
      if (refused) return rpcError(res, refused[0], -32000, refused[1], { 'retry-after': String(RETRY_AFTER_S) });
      opening.set(client, (opening.get(client) ?? 0) + 1);
      openingAll++;
    }
    let reserved = initialize;
    const release = () => {
      if (!reserved) return;
      reserved = false;
      openingAll--;
      const n = (opening.get(client) ?? 1) - 1;
      if (n > 0) opening.set(client, n);
      else opening.delete(client);
    };
    const built = buildMcpServer({ app: options.app, version: options.version, log: options.log });
    let session: McpSession | undefined;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: options.maxBodyBytes,
      onsessioninitialized: (id) => {
        release();
        session = { transport, built, client, busy: 0, streams: 0, lastUsed: clock() };
        sessions.set(id, session);
        use(session, req, res);
      },
      onsessionclosed: (id) => void end(id),
    });
    transport.onerror = (err) => options.log(`zhixing: MCP: ${err.message}`);
    try {
      await built.server.connect(transport);
      await transport.handleRequest(req, res, body);
    } finally {
      release();
    }
    // Not an initialize (or a broken one): the transport said so, and nothing is kept.
    if (!session) {
      built.dispose();
      await built.server.close().catch(() => {});
    }
  }

  return {
    get size() {
      return sessions.size;
    },
    async handle(req, res) {
      const header = req.headers['mcp-session-id'];
      const id = Array.isArray(header) ? header[0] : header;
      if (id === undefined) {
        if (req.method === 'POST') return open(req, res);
        if (req.method === 'GET' || req.method === 'DELETE')
          return rpcError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
        return rpcError(res, 405, -32000, 'Method not allowed.', { allow: 'GET, POST, DELETE' });
      }
      if (!sessions.has(id)) return rpcError(res, 404, -32001, 'Session not found');
      // A POST's body is read first, here: its session is busy only once there is a whole message to answer.
      const read =
        req.method === 'POST' ? await bodyOf(req, res, options.maxBodyBytes, bodyTimeoutMs) : { json: undefined };
      if (!read) return;
      // Ended (to make room, or by expiry) while its body was still arriving: the protocol's 404 says start again.
      const s = sessions.get(id);
      if (!s) return rpcError(res, 404, -32001, 'Session not found');
      use(s, req, res);
      await s.transport.handleRequest(req, res, read.json);
    },
    async close() {
      clearInterval(sweeper);
      await Promise.all([...sessions.keys()].map(end));
    },
  };
}
