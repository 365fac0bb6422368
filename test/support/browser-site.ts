/**
 * Two local sites for the browser tools' tests: a "public" one (a form, its result page, redirects,
 * a page that tries to reach the private one) that the injected policy lets through, and a
 * "private" one that must never see a request without the opt-in.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LookupAddress } from 'node:dns';
import type { NetworkPolicy } from '../../src/net/policy.js';

export const FORM_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-up</title></head><body>
<h1>Sign up</h1><form method="post" action="/submit"><label>Name <input id="name" name="name"></label>
<label>City <input id="city" name="city"></label><button type="submit">Send</button></form>
<p><a href="/second">Second page</a> <a href="/second" target="_blank">In a new tab</a></p></body></html>`;

export interface Hit {
  method: string;
  path: string;
  body: string;
}

export interface Sites {
  /** The allowed site's port; reached as http://public.test:PORT through the policy's lookup. */
  publicPort: number;
  privatePort: number;
  publicHits: Hit[];
  privateHits: Hit[];
  /** Refuses private addresses, except the public site's port on 127.0.0.1; resolves the test names. */
  policy: NetworkPolicy;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    req.on('data', (p: Buffer) => parts.push(p));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
  });
}

const listen = (server: Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );

/** The page that tries to reach the private site: fetch() to each URL, an image from the first, and a WebSocket. */
function probePage(targets: string[], socket: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Probe</title></head><body><h1>Probe</h1><ul id="out"></ul>
<img src="${targets[0]}" alt="private image">
<script>
const targets = ${JSON.stringify(targets)};
Promise.all(targets.map((t) => fetch(t).then((r) => r.text().then((x) => 'read ' + t + ': ' + x), () => 'blocked ' + t))).then((lines) => {
  for (const line of lines) { const li = document.createElement('li'); li.textContent = line; document.getElementById('out').append(li); }
  const ws = new WebSocket(${JSON.stringify(socket)});
  const said = (what) => () => { if (document.title === 'Probe done') return; const li = document.createElement('li'); li.textContent = 'socket ' + what; document.getElementById('out').append(li); document.title = 'Probe done'; };
  ws.onopen = said('open');
  ws.onerror = said('failed');
});
</script></body></html>`;
}

export async function startSites(): Promise<Sites> {
  const publicHits: Hit[] = [];
  const privateHits: Hit[] = [];
  let privatePort = 0;
  const lookups = new Map<string, number>();
  const pub = createServer(async (req, res) => {
    const body = await readBody(req);
    publicHits.push({ method: req.method ?? '', path: req.url ?? '', body });
    const url = new URL(req.url ?? '/', 'http://x');
    const html = (status: number, text: string) =>
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(text);
    if (url.pathname === '/form') return html(200, FORM_PAGE);
    if (url.pathname === '/submit' && req.method === 'POST') {
      const form = new URLSearchParams(body);
      return html(
        200,
        `<!doctype html><title>Thanks</title><p id="done">Thanks, ${form.get('name')} from ${form.get('city')}</p>`,
      );
    }
    if (url.pathname === '/second') return html(200, '<!doctype html><title>Second</title><h1>The second page</h1>');
    if (url.pathname === '/redirect') return res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
    if (url.pathname === '/probe') {
      const spellings = (url.searchParams.get('hosts') ?? '127.0.0.1').split(',');
      const secret = `http://127.0.0.1:${privatePort}/secret`;
      // Past the first URL check, a redirect of the public site's own: only the connection shows where it goes.
      const redirected = `http://public.test:${publicPort}/redirect?to=${encodeURIComponent(secret)}`;
      return html(
        200,
        probePage(
          [...spellings.map((h) => `http://${h}:${privatePort}/secret`), redirected],
          `ws://${spellings[0]}:${privatePort}/socket`,
        ),
      );
    }
    html(404, 'not found');
  });
  const priv = createServer(async (req, res) => {
    privateHits.push({ method: req.method ?? '', path: req.url ?? '', body: await readBody(req) });
    res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' }).end('private data');
  });
  // A WebSocket passes no route: only the proxy stands between a page and this.
  priv.on('upgrade', (req, socket) => {
    privateHits.push({ method: 'UPGRADE', path: req.url ?? '', body: '' });
    socket.destroy();
  });
  const publicPort = await listen(pub);
  privatePort = await listen(priv);
  const answer = (address: string): LookupAddress[] => [{ address, family: address.includes(':') ? 6 : 4 }];
  const policy: NetworkPolicy = {
    allowPrivate: false,
    lookup: async (hostname) => {
      if (hostname === 'public.test' || hostname === 'private.test' || hostname === 'localhost')
        return answer('127.0.0.1');
      // rebind-N.test answers a public address to its first N lookups (the checks), then this machine's (the connection).
      const rebind = /^rebind-(\d)\.test$/.exec(hostname);
      if (rebind) {
        const n = (lookups.get(hostname) ?? 0) + 1;
        lookups.set(hostname, n);
        return answer(n <= Number(rebind[1]) ? '93.184.215.14' : '127.0.0.1');
      }
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    },
    allowAddress: (address, port) => address === '127.0.0.1' && port === publicPort,
  };
  return {
    publicPort,
    privatePort,
    publicHits,
    privateHits,
    policy,
    close: async () => {
      pub.closeAllConnections();
      priv.closeAllConnections();
      await Promise.all([new Promise((r) => pub.close(r)), new Promise((r) => priv.close(r))]);
    },
  };
}
