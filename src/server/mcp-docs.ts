import { documentOnly, newSubApp } from './openapi.js';

const ABOUT =
  'Zhixing as an MCP server over Streamable HTTP (protocol 2025-06-18 and later): the built-in tools, with their annotations, and `chat`, the whole assistant as one tool. ' +
  "Answered by the MCP SDK's transport before the router, behind the same Host, Origin and token checks as the API. " +
  "Calls that would ask for permission are refused with the reason (allow them with a rule in config.json's `permissions`). " +
  'Bodies are JSON-RPC 2.0, not the Error shape.';

/** `/mcp` is answered before the router; the document lists it all the same. */
export function mcpDocs() {
  const api = newSubApp();
  documentOnly(api, {
    method: 'post',
    path: '/mcp',
    tag: 'mcp',
    summary: 'Send MCP messages',
    description:
      `${ABOUT} A JSON-RPC request, notification or response. Without \`Mcp-Session-Id\` only \`initialize\` is taken: it opens a session, whose id comes back in the \`Mcp-Session-Id\` header for every later request. ` +
      'Accept must list both application/json and text/event-stream; a request is answered as an event stream (progress, then the result).',
    responses: {
      200: { description: 'The JSON-RPC response, as an event stream or JSON.', events: true },
      202: { description: 'A notification or response was taken.' },
      400: { description: 'Not JSON-RPC, or no session and not an initialize.' },
      404: { description: 'No such session (it ended, expired or gave way to a newer one): initialize again.' },
      413: { description: 'The body is over 1 MiB.' },
      429: { description: 'An initialize from a client that holds 16 sessions, every one answering a request now.' },
      503: {
        description: 'An initialize while all 64 sessions are answering a request (an idle one would have given way).',
      },
    },
  });
  documentOnly(api, {
    path: '/mcp',
    tag: 'mcp',
    summary: 'Listen for server messages',
    description: `${ABOUT} Opens the session's stream for messages the server sends on its own (needs \`Mcp-Session-Id\`).`,
    responses: {
      200: { description: 'The stream.', events: true },
      400: { description: 'No Mcp-Session-Id.' },
      404: { description: 'No such session.' },
    },
  });
  documentOnly(api, {
    method: 'delete',
    path: '/mcp',
    tag: 'mcp',
    summary: 'End an MCP session',
    description: `${ABOUT} Ends the session named by \`Mcp-Session-Id\`; sessions with no request and no stream for 5 minutes end by themselves.`,
    responses: {
      200: { description: 'Ended.' },
      400: { description: 'No Mcp-Session-Id.' },
      404: { description: 'No such session.' },
    },
  });
  return api;
}
