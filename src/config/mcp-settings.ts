import { dirname, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';

/** A server's calls give up after this unless it sets `timeout_ms`; progress from the server restarts the clock. */
export const DEFAULT_MCP_TIMEOUT_MS = 60_000;
/**
 * A call's whole time at most, whatever progress the server sends, unless it sets `max_total_ms`:
 * progress restarts the `timeout_ms` clock, so a server reporting progress forever would otherwise
 * hold a turn until the turn's own limit. Never less than the server's `timeout_ms`.
 */
export const DEFAULT_MCP_MAX_TOTAL_MS = 5 * 60_000;
/** The longest either limit may be set to. */
export const MAX_MCP_LIMIT_MS = 3_600_000;
/**
 * Server names are how its tools are called (`<name>__<tool>`) and how rules trust it (`"<name>__*": "allow"`).
 * No `__` and no `_` at the end: then the first `__` of a tool's name always ends its server's name, so
 * no server (`a__b`, `ev_`) can make tool names another server's rule (`a__*`, `ev__*`) matches.
 */
export const MCP_SERVER_NAME = /^(?=.{1,32}$)[A-Za-z0-9](?:[A-Za-z0-9-]|_(?=[A-Za-z0-9-]))*$/;
/** What a server's name may be, in words (for every place that refuses one). */
export const MCP_SERVER_NAME_RULE = {
  en: '1–32 letters, digits, "-" or single "_", starting with a letter or digit and not ending with "_" (its tools are called <name>__<tool>)',
  zh: '1–32 个字母、数字、"-" 或单个 "_"，以字母或数字开头、不以 "_" 结尾（它的工具叫 <名称>__<工具>）',
};

/**
 * One entry of `mcpServers` in config.json: Claude Desktop's shape (`command`, `args`, `env`, `cwd`),
 * or `url` and `headers` for a server over HTTP, plus `enabled`, `timeout_ms` and `max_total_ms`.
 */
export const McpServerEntry = z
  .object({
    /** `stdio`, `http` (Streamable HTTP, falling back to the older SSE transport) or `sse`; read from the fields when absent. */
    type: z.enum(['stdio', 'http', 'streamable-http', 'streamableHttp', 'sse']).optional(),
    command: z.string().min(1).optional(),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().min(1).optional(),
    url: z
      .string()
      .url()
      .refine((u) => /^https?:\/\//i.test(u), { message: 'must be an http:// or https:// URL' })
      .optional(),
    headers: z.record(z.string(), z.string()).optional(),
    enabled: z.boolean().optional(),
    disabled: z.boolean().optional(),
    timeout_ms: z.number().int().positive().max(MAX_MCP_LIMIT_MS).optional(),
    max_total_ms: z.number().int().positive().max(MAX_MCP_LIMIT_MS).optional(),
  })
  .passthrough()
  .refine((e) => (e.command === undefined) !== (e.url === undefined), {
    message: 'needs either "command" (a program to start) or "url" (a server over HTTP), not both',
  });
export type McpServerEntry = z.infer<typeof McpServerEntry>;

export type McpTransportKind = 'stdio' | 'http' | 'sse';

/** A configured MCP server as the client uses it. */
export interface McpServerSettings {
  name: string;
  transport: McpTransportKind;
  command?: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  url?: string;
  headers: Record<string, string>;
  enabled: boolean;
  /** One call's limit without an answer; each progress notification restarts it. */
  timeoutMs: number;
  /** One call's whole limit, progress or not (`max_total_ms`); absent: see `totalLimitMs`. */
  maxTotalMs?: number;
}

/** How long one call to this server may take in all, whatever progress it reports. */
export const totalLimitMs = (s: Pick<McpServerSettings, 'timeoutMs' | 'maxTotalMs'>): number =>
  s.maxTotalMs ?? Math.max(DEFAULT_MCP_MAX_TOTAL_MS, s.timeoutMs);

/** The settings an entry stands for. The entry must have passed `McpServerEntry`. */
export function toServerSettings(name: string, entry: McpServerEntry): McpServerSettings {
  const transport: McpTransportKind = entry.command !== undefined ? 'stdio' : entry.type === 'sse' ? 'sse' : 'http';
  return {
    name,
    transport,
    command: entry.command,
    args: entry.args ?? [],
    env: entry.env ?? {},
    cwd: entry.cwd,
    url: entry.url,
    headers: entry.headers ?? {},
    // Claude Code writes `disabled`, Zhixing `enabled`; either turns a server off.
    enabled: entry.enabled !== false && entry.disabled !== true,
    timeoutMs: entry.timeout_ms ?? DEFAULT_MCP_TIMEOUT_MS,
    ...(entry.max_total_ms !== undefined ? { maxTotalMs: entry.max_total_ms } : {}),
  };
}

/** The entry config.json holds for these settings: only what differs from the defaults. */
export function toServerEntry(s: McpServerSettings): McpServerEntry {
  const entry: Record<string, unknown> = {};
  if (s.transport === 'stdio') {
    entry.command = s.command;
    if (s.args.length) entry.args = s.args;
    if (Object.keys(s.env).length) entry.env = s.env;
    if (s.cwd) entry.cwd = s.cwd;
  } else {
    if (s.transport === 'sse') entry.type = 'sse';
    entry.url = s.url;
    if (Object.keys(s.headers).length) entry.headers = s.headers;
  }
  if (!s.enabled) entry.enabled = false;
  if (s.timeoutMs !== DEFAULT_MCP_TIMEOUT_MS) entry.timeout_ms = s.timeoutMs;
  if (s.maxTotalMs !== undefined) entry.max_total_ms = s.maxTotalMs;
  return entry as McpServerEntry;
}

/**
 * The usable servers of `mcpServers`; each entry that is not is named in a warning and skipped, so
 * one bad entry never stops the others from connecting.
 */
export function readMcpServers(value: unknown, configPath: string, warnings: string[]): McpServerSettings[] {
  if (value === undefined) return [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    warnings.push(
      `Ignored "mcpServers" in ${configPath}: it must be an object of servers by name, as in Claude Desktop's file.`,
    );
    return [];
  }
  const servers: McpServerSettings[] = [];
  for (const [name, raw] of Object.entries(value)) {
    if (!MCP_SERVER_NAME.test(name)) {
      warnings.push(
        `Ignored "mcpServers.${JSON.stringify(name.slice(0, 40)).slice(1, -1)}" in ${configPath}: a server's name is ${MCP_SERVER_NAME_RULE.en}.`,
      );
      continue;
    }
    const entry = McpServerEntry.safeParse(raw);
    if (!entry.success) {
      const why = entry.error.issues
        .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
        .join('; ');
      warnings.push(`Ignored "mcpServers.${name}" in ${configPath}: ${why}.`);
      continue;
    }
    // A relative path is read from config.json's folder, never from wherever Zhixing runs: a cloned
    // project's folder must not decide which program starts (its node_modules/.bin/… could be planted).
    const settings = toServerSettings(name, entry.data);
    const base = dirname(configPath);
    if (settings.command?.includes('/') && !isAbsolute(settings.command))
      settings.command = resolve(base, settings.command);
    if (settings.cwd && !isAbsolute(settings.cwd)) settings.cwd = resolve(base, settings.cwd);
    servers.push(settings);
  }
  return servers;
}
