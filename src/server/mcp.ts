import { z } from '@hono/zod-openapi';
import { McpServer, mcpPublicView } from '../contract/mcp-server.js';
import { withoutServerRules } from '../permission/rule-edits.js';
import {
  DEFAULT_MCP_MAX_TOTAL_MS,
  DEFAULT_MCP_TIMEOUT_MS,
  MAX_MCP_LIMIT_MS,
  MCP_SERVER_NAME,
  MCP_SERVER_NAME_RULE,
  type McpServerSettings,
} from '../config/mcp-settings.js';
import type { McpManager, McpServerView } from '../mcp/types.js';
import type { ServerDeps } from './deps.js';
import { ApiError } from './errors.js';
import type { EventFeed } from './events.js';
import { endpoint, newSubApp } from './openapi.js';

// Generous for any real server, small enough that one request cannot fill config.json with junk.
const MAX_ARG_CHARS = 8_192;
const MAX_ARGS = 256;
const MAX_PAIRS = 100;
const MAX_VALUE_CHARS = 16_384;

export const McpServerList = z.object({ servers: z.array(McpServer) }).openapi('McpServerList');

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
// RFC 9110 token characters: anything else would break the request line or smuggle a header.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;
const noControl = (s: string) => !/[\0\r\n]/.test(s);

const Name = z.string().regex(MCP_SERVER_NAME, `a server's name is ${MCP_SERVER_NAME_RULE.en}`);
const Value = z.string().max(MAX_VALUE_CHARS).refine(noControl, 'must not hold NUL, CR or LF');
const pairsOf = (key: RegExp, what: string) =>
  z
    .record(z.string(), Value)
    .refine((r) => Object.keys(r).length <= MAX_PAIRS, `at most ${MAX_PAIRS} ${what}s`)
    .refine((r) => Object.keys(r).every((k) => key.test(k)), `every ${what} name must match ${key.source}`);

const Common = {
  name: Name,
  enabled: z.boolean().optional().describe('False saves it turned off (default true).'),
  timeout_ms: z
    .number()
    .int()
    .min(1)
    .max(MAX_MCP_LIMIT_MS)
    .optional()
    .describe(
      `How long one call may go without an answer, restarted by each progress notification (default ${DEFAULT_MCP_TIMEOUT_MS}).`,
    ),
  max_total_ms: z
    .number()
    .int()
    .min(1)
    .max(MAX_MCP_LIMIT_MS)
    .optional()
    .describe(
      `How long one call may take in all, whatever progress the server reports (default ${DEFAULT_MCP_MAX_TOTAL_MS}, or timeout_ms when that is longer).`,
    ),
  replace: z.boolean().optional().describe('Replace a server of this name; without it an existing name is a 409.'),
};

// One object, not a union: a union's failure reads "Invalid input", where each field's own check
// says which field is wrong and why.
export const NewMcpServer = z
  .object({
    ...Common,
    command: z
      .string()
      .min(1)
      .max(MAX_ARG_CHARS)
      .refine(noControl, 'must not hold NUL, CR or LF')
      // A relative path would mean whatever folder the server happens to be started from next.
      .refine(
        (c) => !c.includes('/') || c.startsWith('/'),
        'must be a program name found on PATH (npx, uvx) or an absolute path',
      )
      .optional()
      .describe('The program to start (a local server over stdio): a name on PATH or an absolute path.'),
    args: z
      .array(
        z
          .string()
          .max(MAX_ARG_CHARS)
          .refine((a) => !a.includes('\0'), 'must not hold NUL'),
      )
      .max(MAX_ARGS)
      .optional()
      .describe('With `command`.'),
    env: pairsOf(ENV_NAME, 'env variable')
      .optional()
      .describe('With `command`: set for the server; never shown again, only their names.'),
    cwd: z
      .string()
      .min(1)
      .max(4096)
      .refine(noControl, 'must not hold NUL, CR or LF')
      .optional()
      .describe('With `command`: the folder it starts in.'),
    url: z
      .string()
      .max(4096)
      .url()
      .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), 'must be an http(s) URL')
      .optional()
      .describe('A server over HTTP: Streamable HTTP, falling back to the older SSE transport.'),
    headers: pairsOf(HEADER_NAME, 'header')
      .optional()
      .describe('With `url`: sent with each request (e.g. Authorization); never shown again, only their names.'),
    transport: z
      .enum(['http', 'sse'])
      .optional()
      .describe('With `url`: `sse` for a server that speaks only the older SSE transport.'),
  })
  .strict()
  .superRefine((b, ctx) => {
    if ((b.command === undefined) === (b.url === undefined)) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: 'give either "command" (a program to start) or "url" (a server over HTTP), not both',
      });
      return;
    }
    const wrong = b.command !== undefined ? (['headers', 'transport'] as const) : (['args', 'env', 'cwd'] as const);
    for (const key of wrong) {
      if (b[key] !== undefined)
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: [key],
          message: `goes with ${b.command !== undefined ? '"url"' : '"command"'}, not ${b.command !== undefined ? '"command"' : '"url"'}`,
        });
    }
  })
  .openapi('NewMcpServer');
export type NewMcpServer = z.infer<typeof NewMcpServer>;

export const McpEnabled = z.object({ enabled: z.boolean() }).strict().openapi('McpEnabled');
const NameParam = z.object({ name: z.string().min(1).max(64) });

/** The settings a request body stands for. */
export function settingsOf(body: NewMcpServer): McpServerSettings {
  const base = {
    name: body.name,
    enabled: body.enabled ?? true,
    timeoutMs: body.timeout_ms ?? DEFAULT_MCP_TIMEOUT_MS,
    ...(body.max_total_ms !== undefined ? { maxTotalMs: body.max_total_ms } : {}),
  };
  if (body.command !== undefined) {
    return {
      ...base,
      transport: 'stdio',
      command: body.command,
      args: body.args ?? [],
      env: body.env ?? {},
      cwd: body.cwd,
      headers: {},
    };
  }
  return {
    ...base,
    transport: body.transport ?? 'http',
    url: body.url,
    args: [],
    env: {},
    headers: body.headers ?? {},
  };
}

/** A view with only what a response may carry: whatever the manager adds later, never a secret's value. */
export const publicView = (v: McpServerView): McpServerView => mcpPublicView(v) as McpServerView;

const unknownServer = (mcp: McpManager, name: string) =>
  new ApiError(
    404,
    'not_found',
    `There is no MCP server "${name}". ${
      mcp.list().length
        ? `The servers are: ${mcp
            .list()
            .map((s) => s.name)
            .join(', ')}.`
        : 'None is configured.'
    }`,
  );

/** How one request the manager refused reads: its sentence, as a 400 (a bad entry) unless it is ours. */
function refused(err: unknown): never {
  if (err instanceof ApiError) throw err;
  if (err instanceof Error && (err.name === 'ConfigWriteError' || /name|clash|exists|invalid/i.test(err.message))) {
    throw new ApiError(
      err.name === 'ConfigWriteError' ? 500 : 400,
      err.name === 'ConfigWriteError' ? 'config_not_written' : 'bad_request',
      err.message,
    );
  }
  throw err;
}

export function mcpRoutes({ app }: ServerDeps, feed: Pick<EventFeed, 'mcpRemoved'>) {
  const api = newSubApp();
  const mcp = app.mcp;
  const view = (name: string) => {
    const v = mcp.get(name);
    if (!v) throw unknownServer(mcp, name);
    return publicView(v);
  };

  endpoint(
    api,
    {
      method: 'get',
      path: '/api/mcp',
      tag: 'mcp',
      summary: 'MCP servers with their state',
      description:
        "Every server in config.json's `mcpServers`, in its order: `connecting`, `connected` (with its tools), `failed` (with why and the last lines it wrote to stderr) or `disabled`. " +
        'Env and header values are never shown, only their names. Changes arrive on GET /api/events as `mcp.server`.',
      responses: { 200: { description: 'The servers.', schema: McpServerList } },
    },
    (c) => c.json({ servers: mcp.list().map(publicView) }),
  );

  endpoint(
    api,
    {
      method: 'post',
      path: '/api/mcp',
      tag: 'mcp',
      summary: 'Add an MCP server',
      description:
        "Saved to config.json (`mcpServers`, Claude Desktop's shape) and connected at once; the answer does not wait for it to connect. " +
        "Either `command` (with `args`, `env`, `cwd`) for a local server, or `url` (with `headers`, `transport`). The answer's `command` is the whole command line that runs. " +
        'Its tools ask before each call until it is trusted (`"<name>__*": "allow"` in PUT /api/permissions).',
      body: NewMcpServer,
      responses: {
        201: { description: 'Added; the server as it is now (usually `connecting`).', schema: McpServer },
      },
      errors: [400, 409, 413],
      errorText: { 409: 'A server of this name exists; send `replace: true` to replace it.' },
    },
    async (c, { body }) => {
      if (mcp.get(body.name) && body.replace !== true) {
        throw new ApiError(
          409,
          'exists',
          `There is already an MCP server "${body.name}". Send "replace": true to replace it, or DELETE /api/mcp/${body.name} first.`,
        );
      }
      const added = await mcp.add(settingsOf(body)).catch(refused);
      return c.json(publicView(added), 201);
    },
  );

  endpoint(
    api,
    {
      method: 'delete',
      path: '/api/mcp/{name}',
      tag: 'mcp',
      summary: 'Remove an MCP server',
      description:
        'Disconnects it, stops it, takes its tools away and deletes it from config.json, with the permission rules of its tools (`<name>__…`): a server added later under the same name starts untrusted.',
      params: NameParam,
      responses: {
        200: {
          description: 'Removed.',
          schema: z.object({
            ok: z.literal(true),
            removedRules: z.array(z.string()).describe('The permission rules that went with it.'),
          }),
        },
      },
      errors: [404],
      errorText: { 404: 'There is no server of that name: the message lists the ones there are.' },
    },
    async (c, { params }) => {
      const before = mcp.get(params.name);
      if (!before || !(await mcp.remove(params.name).catch(refused))) throw unknownServer(mcp, params.name);
      feed.mcpRemoved(publicView(before));
      const { rules, removed } = withoutServerRules(app.permission.rules(), params.name);
      if (removed.length) app.permission.setRules(rules);
      return c.json({ ok: true as const, removedRules: removed });
    },
  );

  endpoint(
    api,
    {
      method: 'patch',
      path: '/api/mcp/{name}',
      tag: 'mcp',
      summary: 'Turn an MCP server on or off',
      description: 'Saved to config.json. Off disconnects it and takes its tools away; on connects it.',
      params: NameParam,
      body: McpEnabled,
      responses: { 200: { description: 'The server now.', schema: McpServer } },
      errors: [400, 404],
    },
    async (c, { params, body }) => {
      const changed = await mcp.setEnabled(params.name, body.enabled).catch(refused);
      if (!changed) throw unknownServer(mcp, params.name);
      return c.json(publicView(changed));
    },
  );

  endpoint(
    api,
    {
      method: 'post',
      path: '/api/mcp/{name}/reconnect',
      tag: 'mcp',
      summary: 'Reconnect an MCP server',
      description:
        'Drops its connection (stopping a local server) and connects again now. The answer does not wait for it to connect; follow `mcp.server` events or GET /api/mcp.',
      params: NameParam,
      responses: { 200: { description: 'The server now.', schema: McpServer } },
      errors: [404],
    },
    async (c, { params }) => {
      view(params.name);
      const again = await mcp.reconnect(params.name).catch(refused);
      if (!again) throw unknownServer(mcp, params.name);
      return c.json(publicView(again));
    },
  );
  return api;
}
