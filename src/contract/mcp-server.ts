/** An MCP server as the client keeps it and every host shows it. */
import { z } from 'zod';

export const McpTransport = z.enum(['stdio', 'http', 'sse']);
export type McpTransport = z.infer<typeof McpTransport>;
export const McpServerState = z.enum(['connecting', 'connected', 'failed', 'disabled']);
export type McpServerState = z.infer<typeof McpServerState>;

/** One configured MCP server as hosts see it: never its env's or headers' values (they hold keys). */
export const McpServer = z
  .object({
    name: z.string(),
    transport: McpTransport,
    command: z.string().optional().describe('The whole command line of a local server, as it runs.'),
    url: z.string().optional().describe("An HTTP server's URL."),
    envKeys: z.array(z.string()).describe('The names of the env variables set for it; never their values.'),
    headerKeys: z.array(z.string()).describe('The names of the headers sent to it; never their values.'),
    enabled: z.boolean(),
    timeoutMs: z.number().int(),
    state: McpServerState,
    error: z.string().optional().describe('Why it failed, for `failed`.'),
    stderr: z.array(z.string()).describe('The last lines the server wrote to stderr, newest last.'),
    tools: z.array(z.string()).describe('Its tools as the model is offered them (`<server>__<tool>`).'),
    serverInfo: z.object({ name: z.string(), version: z.string() }).optional(),
    trusted: z.boolean().describe('A rule lets its tools run without asking (`"<name>__*": "allow"`).'),
    since: z.string().describe('When the state last changed (ISO 8601).'),
    reconnects: z.number().int(),
    warning: z
      .string()
      .optional()
      .describe('What was left out though it connected: tools over the cap, schemas too big, malformed tools.'),
    via: McpTransport.optional().describe(
      'The transport in use once connected: `sse` for an `http` server that only spoke the older protocol.',
    ),
  })
  .meta({ id: 'McpServer' });
export type McpServer = z.infer<typeof McpServer>;

const MCP_VIEW_KEYS = Object.keys(McpServer.shape);
/**
 * A server's view with only the fields hosts may show (never a secret's value, whatever else a
 * manager keeps), picked rather than parsed: a view that does not fit the schema still shows.
 */
export function mcpPublicView<V extends object>(view: V): McpServer {
  const v = view as Record<string, unknown>;
  const picked = Object.fromEntries(MCP_VIEW_KEYS.filter((k) => v[k] !== undefined).map((k) => [k, v[k]])) as McpServer;
  // A URL's credentials, query and fragment may hold a token: never shown.
  if (typeof picked.url === 'string' && URL.canParse(picked.url)) {
    const u = new URL(picked.url);
    picked.url = `${u.origin}${u.pathname}`;
  }
  return picked;
}
