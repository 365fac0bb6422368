import { readFileSync } from 'node:fs';
import type { McpServerEntry, McpServerSettings } from '../config/mcp-settings.js';
import { MCP_SERVER_NAME, MCP_SERVER_NAME_RULE, toServerEntry } from '../config/mcp-settings.js';
import type { ToolRegistry } from '../tools/registry.js';
import { DEFAULT_RETRY, type RetryPolicy } from './client/backoff.js';
import type { ServerConnection } from './client/connection.js';
import type { ClientInfo } from './client/transport.js';
import type { McpManager, McpServerView } from './types.js';

/** How long `close()` waits for the servers to stop, all together. */
const CLOSE_BOUND_MS = 3_000;

export interface McpManagerDeps {
  /** The servers config.json names, in its order. */
  servers: McpServerSettings[];
  tools: ToolRegistry;
  /** Writes `mcpServers` to config.json (the whole object, by name). */
  saveServers(servers: Record<string, McpServerEntry>): void;
  /** Whether a rule lets this server's tools run without asking. */
  trusted(name: string): boolean;
  /** How dropped servers are tried again (tests make it quick). */
  retry?: RetryPolicy;
  /** What the client calls itself to servers; by default "zhixing" and the installed version. */
  clientInfo?: ClientInfo;
}

interface Entry {
  settings: McpServerSettings;
  /** Made when the server first connects (the SDK is loaded then, not before). */
  conn?: ServerConnection;
  tools: string[];
  warning?: string;
  /** When it was configured (or added): its `since` until it first connects. */
  added: string;
  loadError?: string;
}

type ClientModule = typeof import('./client/index.js');

function ourClientInfo(): ClientInfo {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return { name: 'zhixing', version: pkg.version ?? '0.0.0' };
  } catch {
    return { name: 'zhixing', version: '0.0.0' };
  }
}

const commandLine = (s: McpServerSettings) =>
  s.command
    ? [s.command, ...s.args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replaceAll("'", `'\\''`)}'`)).join(' ')
    : undefined;

/** A URL as shown: without credentials, query or fragment (they may hold tokens). */
function shownUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return undefined;
  }
}

/**
 * The MCP client: one self-healing connection per configured server, their tools registered as
 * `<server>__<tool>` while they are usable, and the configuration kept in config.json.
 */
export function createMcpManager(deps: McpManagerDeps): McpManager {
  const entries = new Map<string, Entry>(
    deps.servers.map((s) => [s.name, { settings: s, tools: [], added: new Date().toISOString() }]),
  );
  const listeners = new Set<(view: McpServerView) => void>();
  const retry = deps.retry ?? DEFAULT_RETRY;
  let client: Promise<ClientModule> | undefined;
  let info: ClientInfo | undefined;
  let closed = false;
  /** Connects not yet made because the SDK is loading: `ready` waits for them too. */
  const loading = new Set<Promise<unknown>>();

  function view(entry: Entry): McpServerView {
    const s = entry.settings;
    const status = entry.conn?.status();
    const state = !s.enabled ? 'disabled' : (status?.state ?? (entry.loadError ? 'failed' : 'connecting'));
    return {
      name: s.name,
      transport: s.transport,
      command: commandLine(s),
      url: shownUrl(s.url),
      envKeys: Object.keys(s.env),
      headerKeys: Object.keys(s.headers),
      enabled: s.enabled,
      timeoutMs: s.timeoutMs,
      state,
      ...(status?.error && state !== 'connected' && state !== 'disabled' ? { error: status.error } : {}),
      ...(!status && entry.loadError && state === 'failed' ? { error: entry.loadError } : {}),
      stderr: entry.conn?.stderr() ?? [],
      tools: state === 'connected' || state === 'connecting' ? [...entry.tools] : [],
      ...(status?.serverInfo ? { serverInfo: status.serverInfo } : {}),
      trusted: deps.trusted(s.name),
      since: status?.since ?? entry.added,
      reconnects: status?.reconnects ?? 0,
      ...(entry.warning ? { warning: entry.warning } : {}),
      ...(status?.via ? { via: status.via } : {}),
    };
  }

  function emit(entry: Entry) {
    if (entries.get(entry.settings.name) !== entry) return;
    const shown = view(entry);
    for (const listener of [...listeners]) {
      try {
        listener(shown);
      } catch {
        // One host's listener failing must not keep the others from hearing.
      }
    }
  }

  const source = (name: string) => `mcp:${name}`;

  /** Makes the entry's connection (loading the client code first) and starts it. */
  function connect(entry: Entry): void {
    if (closed || !entry.settings.enabled) return;
    if (entry.conn) return entry.conn.start();
    client ??= import('./client/index.js');
    info ??= deps.clientInfo ?? ourClientInfo();
    const made = client
      .then((mod) => {
        if (closed || entries.get(entry.settings.name) !== entry || !entry.settings.enabled || entry.conn) return;
        const conn: ServerConnection = mod.createServerConnection({
          settings: entry.settings,
          clientInfo: info!,
          retry,
          changed: () => emit(entry),
          listed(tools, malformed) {
            const made = mod.serverTools(
              entry.settings.name,
              tools,
              conn,
              entry.settings.timeoutMs,
              malformed,
              entry.settings.transport !== 'stdio',
            );
            entry.warning = made.warning;
            entry.tools = deps.tools.replaceSource(source(entry.settings.name), made.tools);
          },
          gone() {
            entry.tools = [];
            deps.tools.removeSource(source(entry.settings.name));
          },
        });
        entry.conn = conn;
        conn.start();
      })
      .catch((err: unknown) => {
        // The client code itself would not load (a broken installation): every server says so.
        entry.loadError = `the MCP client could not be loaded: ${err instanceof Error ? err.message : String(err)}`;
        emit(entry);
      });
    loading.add(made);
    void made.finally(() => loading.delete(made));
  }

  /**
   * Saves the servers as they will be after a change, before the change is made: a config.json that
   * cannot be written (broken by hand, a full disk) leaves the running list as the file is.
   */
  function save(next: Map<string, Entry>) {
    deps.saveServers(Object.fromEntries([...next].map(([name, e]) => [name, toServerEntry(e.settings)])));
  }

  async function drop(entry: Entry) {
    entry.tools = [];
    deps.tools.removeSource(source(entry.settings.name));
    await entry.conn?.stop();
  }

  return {
    list: () => [...entries.values()].map(view),
    get: (name) => {
      const entry = entries.get(name);
      return entry && view(entry);
    },
    start() {
      for (const entry of entries.values()) connect(entry);
    },
    async ready(ms, names) {
      let timer: NodeJS.Timeout | undefined;
      const out = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
      const wanted = () => [...entries.values()].filter((e) => !names || names.includes(e.settings.name));
      const settled = async () => {
        // First the loading of the client code, then each connection's first outcome.
        await Promise.all([...loading]);
        await Promise.all(wanted().map((e) => e.conn?.settled()));
      };
      try {
        await Promise.race([settled(), out]);
      } finally {
        clearTimeout(timer);
      }
      return wanted()
        .filter((e) => view(e).state === 'connecting')
        .map((e) => e.settings.name);
    },
    async add(server) {
      if (!MCP_SERVER_NAME.test(server.name)) {
        throw new Error(`"${server.name.slice(0, 40)}" is not a server name: ${MCP_SERVER_NAME_RULE.en}.`);
      }
      if (server.transport === 'stdio' ? !server.command : !server.url) {
        throw new Error(
          server.transport === 'stdio' ? 'A local server needs a command to start.' : 'A server over HTTP needs a URL.',
        );
      }
      const old = entries.get(server.name);
      const entry: Entry = { settings: { ...server }, tools: [], added: new Date().toISOString() };
      save(new Map(entries).set(server.name, entry));
      entries.set(server.name, entry);
      if (old) await drop(old);
      connect(entry);
      emit(entry);
      return view(entry);
    },
    async remove(name) {
      const entry = entries.get(name);
      if (!entry) return false;
      const next = new Map(entries);
      next.delete(name);
      save(next);
      entries.delete(name);
      await drop(entry);
      return true;
    },
    async setEnabled(name, enabled) {
      const entry = entries.get(name);
      if (!entry) return undefined;
      if (entry.settings.enabled !== enabled) {
        const settings = { ...entry.settings, enabled };
        save(new Map(entries).set(name, { ...entry, settings }));
        entry.settings = settings;
      }
      if (enabled) connect(entry);
      else await drop(entry);
      emit(entry);
      return view(entry);
    },
    async reconnect(name) {
      const entry = entries.get(name);
      if (!entry) return undefined;
      if (!entry.settings.enabled) return view(entry);
      if (entry.conn) await entry.conn.reconnect();
      else {
        connect(entry);
        await Promise.all([...loading]);
        await (entry.conn as ServerConnection | undefined)?.settled();
      }
      return view(entry);
    },
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async close() {
      closed = true;
      let timer: NodeJS.Timeout | undefined;
      const stops = Promise.all([...entries.values()].map((e) => e.conn?.stop()));
      await Promise.race([stops, new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_BOUND_MS)))]);
      clearTimeout(timer);
    },
  };
}
