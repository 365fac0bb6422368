/**
 * A web site on 127.0.0.1 for web_fetch's tests: routes answer with any headers and bytes, every
 * request is recorded (so a test can say "the server saw nothing"), and a tool context whose asks go
 * through the real permission rules.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Lang } from '../../src/i18n.js';
import { evaluate, withDefaults } from '../../src/permission/rules.js';
import type { PermissionRequest, PermissionRules } from '../../src/contract/permission.js';
import { outputText, type Tool, type ToolContext, type ToolOutput } from '../../src/tools/tool.js';

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

export interface Site {
  port: number;
  url: (path: string) => string;
  /** Paths requested, in order. */
  seen: string[];
  route(path: string, handler: Route): void;
  close(): Promise<void>;
}

export async function startSite(): Promise<Site> {
  const routes = new Map<string, Route>();
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    seen.push(req.url ?? '');
    const handler = routes.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (handler) return handler(req, res);
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (p) => `http://127.0.0.1:${port}${p}`,
    seen,
    route: (p, h) => void routes.set(p, h),
    close: () => {
      // Hanging routes keep their sockets open: end them so the server can close.
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

/** Serves `body` with the given headers. */
export const send =
  (body: string | Buffer, headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8' }): Route =>
  (_req, res) => {
    res.writeHead(200, headers);
    res.end(body);
  };

/** A tool context whose asks are decided by `rules` as config.json would hold them (with the defaults). */
export function webCtx(
  options: { lang?: Lang; rules?: PermissionRules; signal?: AbortSignal } = {},
): ToolContext & { asked: PermissionRequest[] } {
  const asked: PermissionRequest[] = [];
  const rules = withDefaults(options.rules ?? {});
  return {
    asked,
    sessionId: 's1',
    turnId: 't1',
    callId: 'c1',
    workspace: '/nonexistent',
    lang: options.lang ?? 'en',
    signal: options.signal ?? new AbortController().signal,
    progress: () => {},
    ask: async (r) => {
      asked.push(r);
      // An ask with nobody to answer it is a refusal, as in a one-shot run without a terminal.
      return evaluate(rules, 'web_fetch', r).decision === 'allow' ? 'allow' : 'deny';
    },
  };
}

/** Runs a tool as the registry does: check the arguments, then execute; the full result. */
export async function call(tool: Tool, input: unknown, ctx: ToolContext): Promise<ToolOutput> {
  const args = await tool.check(input);
  if (!args.ok) throw new Error(args.message);
  const r = await tool.execute(args.value, ctx);
  return typeof r === 'string' ? { output: r } : r;
}

/** The ToolError message of a call that must fail. */
export async function failure(tool: Tool, input: unknown, ctx: ToolContext): Promise<string> {
  const err = await call(tool, input, ctx).then(
    (r) => new Error(`expected a failure, got: ${outputText(r).slice(0, 300)}`),
    (e: unknown) => e as Error,
  );
  if (err.name !== 'ToolError') throw err;
  return err.message;
}
