import type { McpServerEntry, McpServerSettings } from '../config/mcp-settings.js';
import { toServerEntry } from '../config/mcp-settings.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { McpManager, McpServerView } from './types.js';

export interface McpManagerDeps {
  /** The servers config.json names, in its order. */
  servers: McpServerSettings[];
  tools: ToolRegistry;
  /** Writes `mcpServers` to config.json (the whole object, by name). */
  saveServers(servers: Record<string, McpServerEntry>): void;
  /** Whether a rule lets this server's tools run without asking. */
  trusted(name: string): boolean;
}

// Placeholder until the client lands: keeps the configuration, connects nothing.
export function createMcpManager(deps: McpManagerDeps): McpManager {
  const servers = new Map(deps.servers.map((s) => [s.name, s]));
  const listeners = new Set<(s: McpServerView) => void>();
  const view = (s: McpServerSettings): McpServerView => ({
    name: s.name,
    transport: s.transport,
    command: s.command ? [s.command, ...s.args].join(' ') : undefined,
    url: s.url,
    envKeys: Object.keys(s.env),
    headerKeys: Object.keys(s.headers),
    enabled: s.enabled,
    timeoutMs: s.timeoutMs,
    state: s.enabled ? 'failed' : 'disabled',
    error: s.enabled ? 'MCP client not built yet' : undefined,
    stderr: [],
    tools: [],
    trusted: deps.trusted(s.name),
    since: new Date().toISOString(),
    reconnects: 0,
  });
  const save = () => deps.saveServers(Object.fromEntries([...servers].map(([n, s]) => [n, toServerEntry(s)])));
  const emit = (s: McpServerSettings) => listeners.forEach((l) => l(view(s)));
  return {
    list: () => [...servers.values()].map(view),
    get: (name) => (servers.has(name) ? view(servers.get(name)!) : undefined),
    start() {},
    ready: async () => [],
    async add(server) {
      servers.set(server.name, server);
      save();
      emit(server);
      return view(server);
    },
    async remove(name) {
      if (!servers.delete(name)) return false;
      save();
      return true;
    },
    async setEnabled(name, enabled) {
      const s = servers.get(name);
      if (!s) return undefined;
      s.enabled = enabled;
      save();
      emit(s);
      return view(s);
    },
    async reconnect(name) {
      return servers.has(name) ? view(servers.get(name)!) : undefined;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async close() {},
  };
}
