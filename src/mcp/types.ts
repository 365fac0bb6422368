/**
 * The MCP client as hosts (CLI, REPL, HTTP API, web app, status) see it. Only `src/mcp/` imports the
 * SDK; everything outside talks to these types.
 */
import type { McpServerSettings } from '../config/mcp-settings.js';
import type { McpServer } from '../contract/mcp-server.js';

/** One configured server as the manager keeps it and the hosts show it (the contract's McpServer). */
export type McpServerView = McpServer;

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
