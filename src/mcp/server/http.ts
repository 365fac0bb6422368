import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { buildMcpServer, type BuiltMcpServer, type McpServerApp } from './build-server.js';

/** Open MCP sessions at most: each holds a Server and its transport. Past it a new client gets 503 until one ends or expires. */
const DEFAULT_MAX_SESSIONS = 64;
/** A session with no request and no open stream for this long is ended; its client starts a new one on the 404. */
const DEFAULT_IDLE_MS = 30 * 60_000;
/** How long a closed session's running calls have to stop: a tool gets 10 s after a stop. */
const SETTLE_MS = 12_000;
/** How often idle sessions are looked for. */
const SWEEP_MS = 60_000;

export interface McpHttpOptions {
  app: McpServerApp;
  version: string;
  log: (line: string) => void;
  maxSessions?: number;
  idleMs?: number;
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
  /** Requests and streams open now: a session in use is never idle. */
  open: number;
  lastUsed: number;
}

/** A JSON-RPC error as the Streamable HTTP transport answers one outside any request. */
function rpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

/**
 * MCP over Streamable HTTP, stateful: `initialize` opens a session (its id in `Mcp-Session-Id`), each
 * with a server of its own; DELETE ends it; sessions idle too long are ended, and there are at most
 * `maxSessions`. The caller has run the guards (Host, Origin, token, body size) before this.
 */
export function createMcpHttp(options: McpHttpOptions): McpHttp {
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  const sessions = new Map<string, McpSession>();

  const end = async (id: string) => {
    const s = sessions.get(id);
    if (!s) return;
    sessions.delete(id);
    await s.built.server.close().catch(() => {});
    await s.built.settled(SETTLE_MS);
    s.built.dispose();
  };
  const sweep = () => {
    const now = Date.now();
    for (const [id, s] of sessions) if (s.open === 0 && now - s.lastUsed > idleMs) void end(id);
  };
  const sweeper = setInterval(sweep, Math.min(SWEEP_MS, idleMs));
  sweeper.unref();

  /** Counts the request as the session's while it is answered (an SSE stream stays open for long). */
  const use = (s: McpSession, res: ServerResponse) => {
    s.open++;
    s.lastUsed = Date.now();
    res.once('close', () => {
      s.open--;
      s.lastUsed = Date.now();
    });
  };

  async function open(req: IncomingMessage, res: ServerResponse): Promise<void> {
    sweep();
    if (sessions.size >= maxSessions) {
      return rpcError(res, 503, -32000, `${sessions.size} MCP sessions are open, the most this server keeps. End one (DELETE /mcp with its Mcp-Session-Id) or try again later.`, { 'retry-after': '60' });
    }
    const built = buildMcpServer({ app: options.app, version: options.version, log: options.log });
    let session: McpSession | undefined;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: options.maxBodyBytes,
      onsessioninitialized: (id) => {
        session = { transport, built, open: 0, lastUsed: Date.now() };
        sessions.set(id, session);
        use(session, res);
      },
      onsessionclosed: (id) => void end(id),
    });
    transport.onerror = (err) => options.log(`zhixing: MCP: ${err.message}`);
    await built.server.connect(transport);
    await transport.handleRequest(req, res);
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
        if (req.method === 'GET' || req.method === 'DELETE') return rpcError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
        return rpcError(res, 405, -32000, 'Method not allowed.', { allow: 'GET, POST, DELETE' });
      }
      const s = sessions.get(id);
      if (!s) return rpcError(res, 404, -32001, 'Session not found');
      use(s, res);
      await s.transport.handleRequest(req, res);
    },
    async close() {
      clearInterval(sweeper);
      await Promise.all([...sessions.keys()].map(end));
    },
  };
}
