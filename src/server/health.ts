import type { ServerResponse } from 'node:http';
import { z } from '@hono/zod-openapi';
import { endpoint, newSubApp } from './openapi.js';
import { SECURITY_HEADERS } from './guards.js';

export const Health = z
  .object({ ok: z.literal(true), version: z.string().describe('The Zhixing version.') })
  .openapi('Health');
export type Health = z.infer<typeof Health>;

export function healthRoutes(version: string) {
  const app = newSubApp();
  const body: Health = { ok: true, version };
  endpoint(
    app,
    {
      method: 'get',
      path: '/api/health',
      tag: 'server',
      summary: 'Is the server up',
      responses: { 200: { description: 'It is.', schema: Health } },
    },
    (c) => c.json(body),
  );
  return app;
}

/**
 * The same answer written straight to the node response, with headers and body built once.
 * Health checks are the one route polled hard (load balancers, the UI's liveness check), so it
 * skips the router.
 */
export function createHealthResponder(version: string): (res: ServerResponse) => void {
  const body = Buffer.from(JSON.stringify({ ok: true, version } satisfies Health));
  const headers = {
    ...SECURITY_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(body.length),
  };
  return (res) => {
    res.writeHead(200, headers);
    res.end(body);
  };
}
