/**
 * Shared set-up for the MCP client's tests: real servers from node_modules/.bin, a manager over a
 * real tool registry, and a tool context whose asks and progress lines are recorded.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_MCP_TIMEOUT_MS, type McpServerSettings } from '../../src/config/mcp-settings.js';
import { createMcpManager, type McpManagerDeps } from '../../src/mcp/manager.js';
import type { McpManager, McpServerView } from '../../src/mcp/types.js';
import { createToolRegistry, type ToolRegistry, type ToolResult } from '../../src/tools/registry.js';
import type { ToolContext } from '../../src/tools/tool.js';
import type { PermissionRequest } from '../../src/contract/permission.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const bin = (name: string) => path.join(ROOT, 'node_modules', '.bin', name);
export const fixture = (name: string) => path.join(ROOT, 'test', 'fixtures', 'mcp', name);

/** A configured stdio server, as config.json would give it. */
export function stdio(
  name: string,
  command: string,
  args: string[] = [],
  extra: Partial<McpServerSettings> = {},
): McpServerSettings {
  return {
    name,
    transport: 'stdio',
    command,
    args,
    env: {},
    headers: {},
    enabled: true,
    timeoutMs: DEFAULT_MCP_TIMEOUT_MS,
    ...extra,
  };
}

export function http(name: string, url: string, extra: Partial<McpServerSettings> = {}): McpServerSettings {
  return {
    name,
    transport: 'http',
    args: [],
    env: {},
    headers: {},
    url,
    enabled: true,
    timeoutMs: DEFAULT_MCP_TIMEOUT_MS,
    ...extra,
  };
}

export const everything = (extra: Partial<McpServerSettings> = {}) =>
  stdio('everything', bin('mcp-server-everything'), ['stdio'], extra);

export interface Harness {
  manager: McpManager;
  tools: ToolRegistry;
  saved: Array<Record<string, unknown>>;
  changes: McpServerView[];
  asked: PermissionRequest[];
  progress: string[];
  /** Runs a tool as a turn would: through the registry, with a context that allows every ask unless told. */
  call(
    name: string,
    args?: object,
    options?: { decision?: 'allow' | 'deny'; signal?: AbortSignal },
  ): Promise<ToolResult>;
  /** Resolves when `test` holds for the server's view, or rejects after `ms`. */
  until(name: string, test: (view: McpServerView) => boolean, ms?: number): Promise<McpServerView>;
}

export function harness(servers: McpServerSettings[], deps: Partial<McpManagerDeps> = {}): Harness {
  const tools = createToolRegistry([]);
  const saved: Array<Record<string, unknown>> = [];
  const asked: PermissionRequest[] = [];
  const progress: string[] = [];
  const changes: McpServerView[] = [];
  const manager = createMcpManager({
    servers,
    tools,
    saveServers: (s) => void saved.push(structuredClone(s)),
    trusted: () => false,
    retry: { baseMs: 50, maxMs: 400, attempts: 3 },
    ...deps,
  });
  manager.onChange((v) => changes.push(v));
  const call: Harness['call'] = (name, args = {}, options = {}) => {
    const ctx: ToolContext = {
      sessionId: 's1',
      turnId: 't1',
      callId: 'c1',
      workspace: ROOT,
      lang: 'en',
      signal: options.signal ?? new AbortController().signal,
      progress: (line) => void progress.push(line),
      ask: async (r) => {
        asked.push(r);
        return options.decision ?? 'allow';
      },
      refusal: () => (options.decision === 'deny' ? 'declined' : undefined),
    };
    return tools.run({ id: 'c1', name, arguments: JSON.stringify(args) }, ctx);
  };
  const until: Harness['until'] = (name, test, ms = 15_000) =>
    new Promise((resolve, reject) => {
      const now = manager.get(name);
      if (now && test(now)) return resolve(now);
      const timer = setTimeout(() => {
        off();
        reject(new Error(`server ${name} never got there; it is ${JSON.stringify(manager.get(name))}`));
      }, ms);
      const off = manager.onChange((v) => {
        if (v.name !== name || !test(v)) return;
        clearTimeout(timer);
        off();
        resolve(v);
      });
    });
  return { manager, tools, saved, changes, asked, progress, call, until };
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Starts server-everything over HTTP (`streamableHttp` or `sse`) and waits until it listens. */
export async function everythingOverHttp(
  kind: 'streamableHttp' | 'sse',
  port?: number,
): Promise<{ port: number; child: ChildProcess; stop(): Promise<void> }> {
  port ??= await freePort();
  const child = spawn(bin('mcp-server-everything'), [kind], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`server-everything ${kind} did not start: ${seen}`)), 15_000);
    const look = (chunk: Buffer) => {
      seen += chunk.toString();
      if (/listening on port|running on port/i.test(seen)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    child.on('exit', (code) => reject(new Error(`server-everything ${kind} exited (${code}): ${seen}`)));
  });
  return {
    port,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          resolve();
        }
      }),
  };
}

/** The pids of live processes whose command line holds `marker` (Linux /proc). */
export function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const state = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.[0];
      if (cmdline.includes(marker) && state !== 'Z') found.push(Number(entry));
    } catch {
      // Gone while we looked.
    }
  }
  return found;
}

/** Waits until `test` holds, polling, or fails after `ms`. */
export async function eventually(test: () => boolean, ms = 5_000, what = 'condition'): Promise<void> {
  const until = Date.now() + ms;
  while (!test()) {
    if (Date.now() > until) throw new Error(`${what} did not hold within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A marker for a test's server processes, so the test can find (and kill) exactly them. */
export const marker = (label: string) =>
  `--zhixing-test-marker=${label}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
