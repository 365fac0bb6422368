/**
 * A small HTTP proxy in this process that every connection of a browser context goes through, so
 * the network policy judges the address actually connected, not the URL: Playwright's route
 * interception sees a request before DNS and never sees the hops of a redirect, so a public name
 * that resolves (or re-resolves) to 127.0.0.1, or a redirect to the metadata service, would pass it.
 * Here names are resolved through the policy's lookup, which refuses private answers before any
 * connection is tried, and each socket's remote address is checked once connected.
 *
 * Plain http comes as absolute-URI requests, https and WebSockets as CONNECT tunnels (TLS stays
 * end to end: Chromium still checks certificates). One connection per request, so every request is
 * checked on its own.
 */
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { checkSocket, checkUrl, NetworkPolicyError, policyLookup, type NetworkPolicy } from '../net/policy.js';

const CONNECT_TIMEOUT_MS = 10_000;
/** Marks the proxy's own refusal page, so a navigation that landed on it is reported as refused. */
export const REFUSED_HEADER = 'x-zhixing-refused';
/** Request headers meant for the proxy, or for one hop only. */
const HOP_HEADERS = new Set([
  'proxy-connection',
  'proxy-authorization',
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'upgrade',
]);
const HOP_RESPONSE_HEADERS = new Set(['connection', 'keep-alive', 'proxy-connection', 'trailer', 'upgrade']);

/** A connection the policy refused: where to, and why, in words for the user. */
export interface Refusal {
  url: string;
  message: string;
  /** Known to be a page's own request (an image, a fetch), not a navigation: the route can tell, the proxy cannot. */
  subresource?: boolean;
}

export interface PolicyProxy {
  /** `http://127.0.0.1:PORT`, for the context's `proxy.server`. */
  server: string;
  /** Stops listening and cuts every connection still open. */
  close(): Promise<void>;
}

export interface PolicyProxyOptions {
  policy: NetworkPolicy;
  /** Told each refusal, for the tool to report. */
  onRefused(refusal: Refusal): void;
}

/** Connects to host:port only where the policy allows; rejects with the policy's error otherwise. */
function policyConnect(host: string, port: number, policy: NetworkPolicy): Promise<Socket> {
  return new Promise((resolve, reject) => {
    // IP literals in any spelling never reach a lookup: checked here first, and by address below.
    const bare = host.startsWith('[') ? host : host.includes(':') ? `[${host}]` : host;
    try {
      checkUrl(`http://${bare}:${port}/`, policy);
    } catch (err) {
      reject(err);
      return;
    }
    const socket = connect({
      host: host.replace(/^\[|\]$/g, ''),
      port,
      lookup: policyLookup(policy, () => port) as never,
      timeout: CONNECT_TIMEOUT_MS,
    });
    const fail = (err: Error) => {
      socket.destroy();
      const cause = (err as { cause?: unknown }).cause;
      reject(err instanceof NetworkPolicyError ? err : cause instanceof NetworkPolicyError ? cause : err);
    };
    socket.once('error', fail);
    socket.once('timeout', () => fail(new Error(`connecting to ${host}:${port} timed out`)));
    socket.once('connect', () => {
      socket.setTimeout(0);
      socket.off('error', fail);
      try {
        checkSocket(socket, policy, host);
      } catch (err) {
        reject(err);
        return;
      }
      resolve(socket);
    });
  });
}

export async function startPolicyProxy(options: PolicyProxyOptions): Promise<PolicyProxy> {
  const open = new Set<Duplex>();
  const track = (s: Duplex) => {
    open.add(s);
    s.once('close', () => open.delete(s));
  };
  const refused = (url: string, err: unknown): string => {
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof NetworkPolicyError && (err.reason === 'address' || err.reason === 'scheme'))
      options.onRefused({ url, message });
    return message;
  };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    track(req.socket);
    let url: URL;
    try {
      url = new URL(req.url ?? '');
      if (url.protocol !== 'http:') throw new Error('not an absolute http URL');
    } catch {
      res
        .writeHead(400, { 'content-type': 'text/plain; charset=utf-8' })
        .end('This is a proxy: absolute http URLs only.');
      return;
    }
    const port = url.port ? Number(url.port) : 80;
    policyConnect(url.hostname, port, options.policy).then(
      (socket) => {
        track(socket);
        const headers: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(req.headers))
          if (value !== undefined && !HOP_HEADERS.has(name)) headers[name] = value;
        headers.connection = 'close';
        const upstream = httpRequest(
          { method: req.method, path: `${url.pathname}${url.search}`, headers, createConnection: () => socket },
          (answer) => {
            const out: Record<string, string | string[]> = {};
            for (const [name, value] of Object.entries(answer.headers))
              if (value !== undefined && !HOP_RESPONSE_HEADERS.has(name)) out[name] = value;
            res.writeHead(answer.statusCode ?? 502, answer.statusMessage, out);
            answer.pipe(res);
          },
        );
        upstream.on('error', () => res.destroy());
        req.pipe(upstream);
      },
      (err: unknown) => {
        const message = refused(url.href, err);
        const policyRefusal = err instanceof NetworkPolicyError && err.reason !== 'resolve';
        res.writeHead(policyRefusal ? 403 : 502, {
          'content-type': 'text/plain; charset=utf-8',
          ...(policyRefusal ? { [REFUSED_HEADER]: '1' } : {}),
        });
        res.end(message);
      },
    );
  });

  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    client.on('error', () => {});
    const target = req.url ?? '';
    const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(target);
    if (!match) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const [, host, portText] = match;
    const port = Number(portText);
    policyConnect(host!, port, options.policy).then(
      (socket) => {
        track(socket);
        socket.on('error', () => client.destroy());
        client.on('error', () => socket.destroy());
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length) socket.write(head);
        socket.pipe(client);
        client.pipe(socket);
      },
      (err: unknown) => {
        const message = refused(`https://${target}/`, err);
        client.end(
          `HTTP/1.1 ${err instanceof NetworkPolicyError && err.reason !== 'resolve' ? '403 Forbidden' : '502 Bad Gateway'}\r\ncontent-length: 0\r\n\r\n`,
        );
        void message;
      },
    );
  });
  server.on('clientError', (_err, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  // Never what keeps the process alive: the browser it serves does that while it runs.
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    server: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}
