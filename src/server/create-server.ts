import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { OpenAPIHono } from '@hono/zod-openapi';
import type { App } from '../app.js';
import { createTurnTracker, type ServerDeps } from './deps.js';
import { docsRoutes } from './docs.js';
import { ApiError, isUnexpected, sendError, toApiError } from './errors.js';
import { createEventFeed, eventRoutes } from './events.js';
import { attachmentRoutes } from './attachments.js';
import { fileRoutes, isUpload } from './files.js';
import { checkServeConfig, createGuards, MAX_BODY_BYTES, SECURITY_HEADERS } from './guards.js';
import { createHealthResponder, healthRoutes } from './health.js';
import { mcpRoutes, publicView } from './mcp.js';
import { createMcpHttp } from '../mcp-server/http.js';
import { mcpDocs } from './mcp-docs.js';
import { modelRoutes } from './models.js';
import { documentOnly, newSubApp, openApiDocument, type OpenApiDocument, type ServerEnv } from './openapi.js';
import { permissionRoutes } from './permissions.js';
import { memoryRoutes } from './memories.js';
import { preferenceRoutes } from './preferences.js';
import { sessionRoutes } from './sessions.js';
import { createSseRegistry } from './sse.js';
import { statusRoutes } from './status.js';
import { createWebApp, defaultWebRoot } from './web-app.js';
import { MAX_UPLOAD_BYTES } from './workspace-files.js';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 4317;
/** Open event streams at most: each costs about 12 KB; past this a new one gets 503 (other requests still go). */
const MAX_STREAMS = 5_000;
/** Open connections at most, streams included; a little above MAX_STREAMS so ordinary requests still fit. */
const MAX_CONNECTIONS = 6_000;
/** A client has this long to send its headers, and this long for its whole request (not the response). */
const HEADERS_TIMEOUT_MS = 20_000;
const REQUEST_TIMEOUT_MS = 60_000;

/** `/mcp`, with or without a query: the MCP endpoint, answered by the SDK's transport. */
const isMcpPath = (url: string | undefined) => url === '/mcp' || url?.startsWith('/mcp?') === true;

const wantsStream = (req: IncomingMessage) =>
  req.headers.accept?.includes('text/event-stream') === true || req.url === '/api/events';

/** How long shutdown waits for aborted turns to settle: a stopped tool gets 10 s to stop or finish. */
const SHUTDOWN_TURNS_MS = 15_000;
/** How long shutdown then waits for answers already being written (a JSON chat reply) before cutting connections. */
const SHUTDOWN_RESPONSES_MS = 2_000;
const SECURITY_ENTRIES = Object.entries(SECURITY_HEADERS);

export interface ServerOptions {
  app: App;
  host?: string;
  port?: number;
  /** ZHIXING_TOKEN: required when `host` is not a loopback address. */
  token?: string;
  version?: string;
  log?: (line: string) => void;
  heartbeatMs?: number;
  /** Open event streams at most (default 5,000). */
  maxStreams?: number;
  /** The built web app (default: dist/web of this package). */
  webRoot?: string;
  /** How long an /mcp POST's body has to arrive whole before a 408 (default 10 s). */
  mcpBodyTimeoutMs?: number;
  /** How long the provider has to list its models for /api/models (default 5 s). */
  modelListTimeoutMs?: number;
}

export interface ZhixingServer {
  /** With the real port, also when 0 was asked for. */
  url: string;
  port: number;
  /** Stops taking requests, aborts running turns and waits for them to be recorded, ends every stream. */
  close(): Promise<void>;
}

function packageVersion(): string {
  // dist/server/, dist/bundle/ and src/server/ all sit two levels below the package root.
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** The Hono app: one sub-app per resource, errors in the API's shape. */
export function buildApi(deps: ServerDeps, feed: ReturnType<typeof createEventFeed>): OpenAPIHono<ServerEnv> {
  const root = new OpenAPIHono<ServerEnv>();
  let document: OpenApiDocument | undefined;
  root.route('/', healthRoutes(deps.version));
  root.route('/', statusRoutes(deps));
  root.route('/', sessionRoutes(deps));
  root.route('/', eventRoutes(feed));
  root.route('/', permissionRoutes(deps));
  root.route('/', mcpRoutes(deps, feed));
  root.route('/', preferenceRoutes(deps));
  root.route('/', fileRoutes(deps));
  root.route('/', attachmentRoutes(deps));
  root.route('/', modelRoutes(deps));
  root.route('/', memoryRoutes(deps));
  root.route('/', webAppDocs());
  root.route('/', mcpDocs());
  root.route(
    '/',
    docsRoutes(() => (document ??= openApiDocument(root, deps.version))),
  );
  root.notFound((c) =>
    c.json(
      { error: { code: 'not_found', message: `There is no route ${c.req.method} ${c.req.path}. See /docs.` } },
      404,
    ),
  );
  root.onError((err, c) => {
    if (isUnexpected(err))
      deps.log(
        `zhixing: ${c.req.method} ${c.req.path} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
      );
    const api = toApiError(err);
    return c.json({ error: { code: api.code, message: api.message } }, api.status, api.headers);
  });
  return root;
}

/** The web app is answered before the router; the document lists it all the same. */
function webAppDocs() {
  const api = newSubApp();
  documentOnly(api, {
    path: '/',
    tag: 'web',
    summary: 'The web app',
    description:
      "index.html; so is any other GET of a page (Accept: text/html) outside /api, /docs and /openapi.json, so the app's own routes survive a reload. " +
      'Its files are served from /assets/ (cached for a year: their names change with their content) and the top level. ' +
      'They are public code: off loopback they need no token, everything under /api does. 503 when the app is not built.',
    responses: {
      200: { description: 'The page.' },
      503: { description: 'The web app is not built: run `npm run build`.' },
    },
  });
  return api;
}

/**
 * The HTTP host: a node http server whose listener runs the guards on every request, answers the
 * hot paths (health, the server-wide event stream) itself, and hands the rest to Hono.
 */
export async function createServer(options: ServerOptions): Promise<ZhixingServer> {
  const { app } = options;
  const host = options.host ?? DEFAULT_HOST;
  checkServeConfig(host, options.token);
  const version = options.version ?? packageVersion();
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const sse = createSseRegistry({ heartbeatMs: options.heartbeatMs });
  const maxStreams = options.maxStreams ?? MAX_STREAMS;
  const turns = createTurnTracker();
  const feed = createEventFeed({
    bus: app.bus,
    sse,
    pending: () => app.permission.pending(),
    mcp: app.mcp,
    mcpView: publicView,
  });
  const api = buildApi({ app, sse, turns, version, log, modelListTimeoutMs: options.modelListTimeoutMs }, feed);
  // The node-server adapter can swap in its own global Request/Response; the rest of the process
  // (the model client's fetch) keeps the platform's.
  const honoListener = getRequestListener(api.fetch, { overrideGlobalObjects: false });
  const health = createHealthResponder(version);
  const web = createWebApp({ root: options.webRoot ?? defaultWebRoot() });
  // Zhixing's own tools for other agents, behind the same guards as the API.
  const mcp = createMcpHttp({
    app,
    version,
    log,
    maxBodyBytes: MAX_BODY_BYTES,
    bodyTimeoutMs: options.mcpBodyTimeoutMs,
  });

  const server = createHttpServer({ headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS });
  // Past this many open connections new ones are dropped at once, before they cost anything more:
  // a flood of idle streams must not lock everyone out (or run the process out of file descriptors).
  server.maxConnections = MAX_CONNECTIONS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_PORT, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const guards = createGuards({ host, port, token: options.token });
  let closing = false;
  let inFlight = 0;

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (closing)
      return sendError(
        res,
        new ApiError(503, 'shutting_down', 'The server is shutting down.', { connection: 'close' }),
        SECURITY_HEADERS,
      );
    const toMcp = isMcpPath(req.url);
    const page = !toMcp && web.claims(req);
    const refused = guards.check(req, { public: page, maxBodyBytes: isUpload(req) ? MAX_UPLOAD_BYTES : undefined });
    if (refused) return sendError(res, refused, SECURITY_HEADERS);
    if (req.method === 'GET' && req.url === '/api/health') return health(res);
    for (const [name, value] of SECURITY_ENTRIES) res.setHeader(name, value);
    // A full house makes room by ending the oldest follower of /api/events, never a chat's stream: a
    // follower only listens, and a browser's EventSource comes back on its own. A flood of idle
    // followers then costs churn among them, not a web app locked out.
    if (!page && sse.size >= maxStreams && wantsStream(req) && !feed.dropOldest()) {
      return sendError(
        res,
        new ApiError(
          503,
          'too_many_streams',
          `${sse.size} event streams are open, the most this server keeps. Close some and try again.`,
        ),
        SECURITY_HEADERS,
      );
    }
    if (req.method === 'GET' && req.url === '/api/events') return feed.open(res);
    if (toMcp) {
      return void mcp.handle(req, res).catch((err: unknown) => {
        log(`zhixing: ${req.method} /mcp failed: ${String(err)}`);
        if (!res.headersSent) sendError(res, toApiError(err), SECURITY_HEADERS);
        else res.destroy();
      });
    }
    inFlight++;
    res.once('close', () => inFlight--);
    // A page of the web app never reaches the router: it was let through without the token.
    (page ? web.serve(req, res) : honoListener(req, res)).catch((err: unknown) => {
      log(`zhixing: ${req.method} ${req.url} failed: ${String(err)}`);
      if (!res.headersSent) sendError(res, toApiError(err), SECURITY_HEADERS);
      else res.destroy();
    });
  });

  const hostInUrl = host.includes(':') ? `[${host}]` : host;
  let closed: Promise<void> | undefined;
  return {
    url: `http://${hostInUrl}:${port}`,
    port,
    close: () => (closed ??= shutdown()),
  };

  async function shutdown(): Promise<void> {
    closing = true;
    const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const id of app.sessions.running().ids) app.sessions.abort(id, 'interrupted');
    await turns.settled(SHUTDOWN_TURNS_MS);
    // Chat streams have had their turn.end; the server-wide ones end here.
    sse.closeAll();
    sse.stop();
    await mcp.close();
    feed.stop();
    const deadline = Date.now() + SHUTDOWN_RESPONSES_MS;
    while (inFlight > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    server.closeAllConnections();
    await stopped;
  }
}
