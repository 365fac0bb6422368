import { safeUrl } from '../config/config.js';
import { Status } from '../contract/status.js';
import type { ServerDeps } from './deps.js';
import { endpoint, newSubApp } from './openapi.js';

export function statusRoutes({ app, version }: ServerDeps) {
  const api = newSubApp();
  endpoint(
    api,
    {
      method: 'get',
      path: '/api/status',
      tag: 'server',
      summary: 'Mode, model, tools, MCP servers and running sessions',
      description: 'Never includes the API key.',
      responses: { 200: { description: 'The status.', schema: Status } },
    },
    async (c) => {
      const running = app.sessions.running();
      const sandbox = await app.sandbox();
      const status: Status = {
        version,
        mode: app.llm.mode,
        provider: app.llm.provider,
        model: app.llm.model,
        tools: app.tools.names(),
        mcp: app.mcp.list().map((s) => ({
          name: s.name,
          state: s.state,
          tools: s.tools.length,
          ...(s.error ? { error: s.error } : {}),
        })),
        sessions: { running: running.ids, limit: running.limit },
        sandbox: {
          kind: sandbox.kind,
          ok: sandbox.ok,
          ...(sandbox.reason ? { reason: sandbox.reason } : {}),
          network: sandbox.network ?? 'off',
          ...(sandbox.networkReason ? { networkReason: sandbox.networkReason } : {}),
        },
        memory: { count: app.memory.list({ limit: 1 }).total, embeddings: app.memory.embeddings() },
        search: app.config.web.search
          ? { provider: app.config.web.search.provider, url: safeUrl(app.config.web.search.url) }
          : null,
      };
      return c.json(status);
    },
  );
  return api;
}
