import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';

// The harness must see what goes wrong in a page, or every web UI test passes on a broken app.
const browser = useBrowser();
let server: Server;
let url: string;

const BROKEN = `<!doctype html><title>broken</title><script>
  console.error('logged on purpose');
  setTimeout(() => fetch('/missing'), 100); // late, so only a settled check sees it
  throw new Error('thrown on purpose');
</script>`;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html' }).end(BROKEN);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it('collects uncaught errors, console errors and failed requests, and fails on them', async () => {
  const { expectNoErrors } = await browser.openPage(`${url}/`);
  const failure = await expectNoErrors().then(
    () => undefined,
    (error: Error) => error.message,
  );
  expect(failure).toContain('uncaught: Error: thrown on purpose');
  expect(failure).toContain('console.error: logged on purpose');
  expect(failure).toContain(`HTTP 404: GET ${url}/missing`);
  await expectNoErrors([/on purpose/, /\/missing$/]);
});

it('fails to open a page that is not there, saying what came instead', async () => {
  await expect(browser.openPage(`${url}/nowhere`)).rejects.toThrow(`${url}/nowhere answered 404: not here`);
});
