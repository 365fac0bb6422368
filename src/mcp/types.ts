/**
 * The MCP client as hosts (CLI, REPL, HTTP API, web app, status) see it. Only `src/mcp/` imports the
 * SDK; everything outside talks to these types.
 */
import type { McpServerSettings, McpTransportKind } from '../config/mcp-settings.js';

export type McpServerState = 'connecting' | 'connected' | 'failed' | 'disabled';

/** One configured server as the user sees it: never its headers' or env's values (they hold keys). */
export interface McpServerView {
  name: string;
  transport: McpTransportKind;
  /** The whole command line for a local server (`npx -y @modelcontextprotocol/server-everything`), shown when it is added. */
  command?: string;
  /** The server's URL for an HTTP server, without credentials or query. */
  url?: string;
  /** The names of env variables and headers set for it, never their values. */
  envKeys: string[];
  headerKeys: string[];
  enabled: boolean;
  timeoutMs: number;
  state: McpServerState;
  /** Why it failed, in one sentence, for `failed`. */
  error?: string;
  /** The last lines the server wrote to stderr (a local server), newest last: what it said before dying. */
  stderr: string[];
  /** Its tools as the model is offered them (`<server>__<tool>`). */
  tools: string[];
  /** What the server calls itself (`serverInfo`), once connected. */
  serverInfo?: { name: string; version: string };
  /** True when a rule allows its tools without asking (`"<name>__*": "allow"`). */
  trusted: boolean;
  /** When the state last changed (ISO 8601). */
  since: string;
  /** How many times it has been reconnected since the program started. */
  reconnects: number;
  /** Something left out though it connected: tools over the cap of 100, schemas too big. */
  warning?: string;
  /** The transport in use once connected: `sse` for an `http` server that only spoke the older protocol. */
  via?: McpTransportKind;
}

/** What `add` takes: a config entry's settings, named. */
export type McpServerInput = McpServerSettings;

export interface McpManager {
  /** Every configured server with its state, in config order. */
  list(): McpServerView[];
  get(name: string): McpServerView | undefined;
  /** Connects every enabled server in parallel; resolves at once (never waits for them). */
  start(): void;
  /**
   * Waits until every enabled server has connected or failed, at most `ms`: a one-shot that needs
   * their tools waits this long, never more. Resolves to the servers still connecting. With `names`,
   * waits for those servers only (and tells of those only).
   */
  ready(ms: number, names?: string[]): Promise<string[]>;
  /** Adds (or replaces) a server, saves it to config.json, and connects it. Throws on a bad name or a clash. */
  add(server: McpServerInput): Promise<McpServerView>;
  /** Disconnects, removes its tools, and deletes it from config.json. False when there was none. */
  remove(name: string): Promise<boolean>;
  /** Turns a server on or off (saved); off disconnects it and removes its tools. */
  setEnabled(name: string, enabled: boolean): Promise<McpServerView | undefined>;
  /** Drops the connection and connects again, now. */
  reconnect(name: string): Promise<McpServerView | undefined>;
  /** Told on every state or tool-list change, with the server's new view. Returns an unsubscribe. */
  onChange(listener: (server: McpServerView) => void): () => void;
  /** Disconnects everything and stops the servers it started. */
  close(): Promise<void>;
}
