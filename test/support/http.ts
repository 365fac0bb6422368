import { request as httpRequest, type IncomingHttpHeaders, type ClientRequest } from 'node:http';
import { createApp, type App } from '../../src/app.js';
import type { Llm } from '../../src/llm/types.js';
import type { RetryPolicy } from '../../src/mcp/client/backoff.js';
import { createServer, type ZhixingServer } from '../../src/server/create-server.js';
import { tempHome } from './temp-home.js';

export interface TestServer {
  app: App;
  server: ZhixingServer;
  url: string;
  port: number;
  home: string;
  /** Closes the server (aborting running turns), the app and removes the home. */
  close(): Promise<void>;
}

/** Zhixing's HTTP API on 127.0.0.1, port 0, over a fresh home (`config` is its config.json): offline unless a model is given. */
export async function startTestServer(
  options: {
    llm?: Llm;
    host?: string;
    token?: string;
    env?: Record<string, string>;
    config?: object;
    maxStreams?: number;
    webRoot?: string;
    log?: (line: string) => void;
    mcpBodyTimeoutMs?: number;
    modelListTimeoutMs?: number;
    mcpRetry?: RetryPolicy;
  } = {},
): Promise<TestServer> {
  const home = tempHome(options.env, options.config);
  const app = await createApp(home.config, { llm: options.llm, mcpRetry: options.mcpRetry });
  const server = await createServer({
    app,
    host: options.host,
    port: 0,
    token: options.token,
    log: options.log ?? (() => {}),
    maxStreams: options.maxStreams,
    webRoot: options.webRoot,
    mcpBodyTimeoutMs: options.mcpBodyTimeoutMs,
    modelListTimeoutMs: options.modelListTimeoutMs,
  });
  return {
    app,
    server,
    url: server.url,
    port: server.port,
    home: home.home,
    async close() {
      await server.close();
      app.close();
      home.cleanup();
    },
  };
}

export interface HttpResult {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  json<T = any>(): T;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string | number>;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
}

/** A raw HTTP request to 127.0.0.1:port, so every header (Host, Origin) is exactly what the test says. */
export function request(port: number, path: string, options: RequestOptions = {}): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const body =
      options.body === undefined
        ? undefined
        : typeof options.body === 'string'
          ? options.body
          : JSON.stringify(options.body);
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? (body === undefined ? 'GET' : 'POST'),
        headers: options.headers,
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d) => (text += d));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, json: () => JSON.parse(text) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** An event stream being read: its text so far, and a way to wait for more. */
export interface OpenStream {
  status: number;
  headers: IncomingHttpHeaders;
  text(): string;
  /** Resolves with the whole text once it contains `needle`. */
  waitFor(needle: string, timeoutMs?: number): Promise<string>;
  /** Resolves with the whole text when the server ends the stream. */
  ended(): Promise<string>;
  /** Leaves: destroys the connection from the client side. */
  leave(): void;
}

export function openStream(port: number, path: string, options: RequestOptions = {}): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const body =
      options.body === undefined
        ? undefined
        : typeof options.body === 'string'
          ? options.body
          : JSON.stringify(options.body);
    const req: ClientRequest = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? (body === undefined ? 'GET' : 'POST'),
        headers: { accept: 'text/event-stream', ...options.headers },
        agent: false,
      },
      (res) => {
        let text = '';
        const waiters = new Set<() => void>();
        let done = false;
        const ended = new Promise<string>((r) => res.on('end', () => ((done = true), r(text))));
        res.on('close', () => ((done = true), waiters.forEach((w) => w())));
        res.setEncoding('utf8').on('data', (d) => {
          text += d;
          waiters.forEach((w) => w());
        });
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: () => text,
          ended: () => ended,
          leave: () => req.destroy(),
          waitFor(needle, timeoutMs = 10_000) {
            return new Promise((ok, fail) => {
              const check = () => {
                if (text.includes(needle)) return finish(() => ok(text));
                if (done) return finish(() => fail(new Error(`stream ended without "${needle}":\n${text}`)));
              };
              const timer = setTimeout(
                () => finish(() => fail(new Error(`timed out waiting for "${needle}":\n${text}`))),
                timeoutMs,
              );
              const finish = (f: () => void) => {
                clearTimeout(timer);
                waiters.delete(check);
                f();
              };
              waiters.add(check);
              check();
            });
          },
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Ids and timings vary from run to run; the wire text otherwise must not. */
export const normalise = (text: string): string =>
  text.replace(/\b(ses|trn|msg|prt)_[0-9a-z]+/g, '$1_ID').replace(/"ms":[0-9.e-]+/g, '"ms":0');

/** Waits until `check` is true, polling. */
export async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}
