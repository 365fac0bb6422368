import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CallToolResultSchema,
  ToolListChangedNotificationSchema,
  ToolSchema,
  type CallToolResult,
  type Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { totalLimitMs, type McpServerSettings } from '../../config/mcp-settings.js';
import type { McpServerState } from '../../contract/mcp-server.js';
import { backoffMs, type RetryPolicy } from './backoff.js';
import { isConnectionLost, isHopeless, isTimeout, reasonOf as plainReason, redactor } from './errors.js';
import { cleanText } from './names.js';
import { bounded, scoped } from './signals.js';
import { createStderrTail } from './stderr.js';
import { openConnection, type ClientInfo, type Live } from './transport.js';

/** The pages of `tools/list` read at most: a server paging forever must not keep us listing. */
const MAX_LIST_PAGES = 50;
/** A burst of `tools/list_changed` is waited out this long, then answered with one listing. */
const RELIST_DEBOUNCE_MS = 150;
/** New stderr lines are told to hosts at most this often: a chatty server must not flood them. */
const STDERR_NOTICE_MS = 250;
/**
 * A connection that ends sooner than this after it was made, having answered no call, counts as a
 * failed try: a server crashing in a loop is backed off from and given up on.
 */
const STABLE_MS = 10_000;
/** A page of `tools/list` read as it comes: each tool is checked on its own, so one malformed tool does not fail the server. */
const LenientToolsPage = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });

/** How long stopping a server may take before we stop waiting for it. */
const STOP_BOUND_MS = 2_000;

export interface ConnectionStatus {
  state: McpServerState;
  error?: string;
  since: string;
  reconnects: number;
  serverInfo?: { name: string; version: string };
  /** The transport in use once connected: `sse` when an `http` server only spoke the older protocol. */
  via?: 'stdio' | 'http' | 'sse';
}

export interface CallOptions {
  signal: AbortSignal;
  onProgress?(progress: number, total: number | undefined, message: string | undefined): void;
}

export interface ConnectionDeps {
  settings: McpServerSettings;
  clientInfo: ClientInfo;
  retry: RetryPolicy;
  /** Told whenever the status changed. */
  changed(): void;
  /** The server's whole tool list, after each connect and each `tools/list_changed`, and the names of tools it sent malformed. */
  listed(tools: McpTool[], malformed: string[]): void;
  /** The server's tools can no longer be called (it failed for good, or was stopped). */
  gone(): void;
}

/** One configured server's connection, kept alive: reconnected with backoff when it drops. */
export interface ServerConnection {
  status(): ConnectionStatus;
  stderr(): string[];
  /** Takes this server's secrets (header and env values, URL credentials and queries) out of a text about it. */
  redact(text: string): string;
  /** Takes its header and env values out of what it sent (a result's text). */
  redactSecrets(text: string): string;
  /** Connects if it is not connected or connecting; returns at once. */
  start(): void;
  /** Drops the connection and connects anew; resolves once connected or failed. */
  reconnect(): Promise<void>;
  /** Resolves when it is not connecting any more (connected, failed or stopped). */
  settled(): Promise<void>;
  /**
   * Calls a tool. Waits for a connection that is being made (within the server's timeout); when the
   * connection the call went out on turns out dead, reconnects and tries the call once more. The whole
   * of it ends at the server's total limit (`TotalTimeoutError`), whatever progress it reports.
   */
  call(name: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult>;
  /** Disconnects and stops the server; its state becomes `disabled`. Bounded. */
  stop(): Promise<void>;
}

/** The server's answer was larger than one message may be: the SDK drops the connection. */
export class TooLargeError extends Error {
  override name = 'TooLargeError';
}

/** The SDK's bound on one message from a local server (its read buffer); a longer one resets the connection. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** A call went on past its whole limit (`max_total_ms`), however much progress the server reported; it was cancelled. */
export class TotalTimeoutError extends Error {
  override name = 'TotalTimeoutError';
  constructor(readonly limitMs: number) {
    super(`the call went on past its total limit of ${limitMs / 1000} s`);
  }
}

/** A call could not reach the server: failed, stopped, or still connecting when its time ran out. */
export class UnavailableError extends Error {
  override name = 'UnavailableError';
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

export function createServerConnection(deps: ConnectionDeps): ServerConnection {
  const { settings } = deps;
  const tail = createStderrTail();
  let stderrTimer: NodeJS.Timeout | undefined;
  const stderr = {
    ...tail,
    write(chunk: Buffer | string) {
      tail.write(chunk);
      stderrTimer ??= setTimeout(() => {
        stderrTimer = undefined;
        deps.changed();
      }, STDERR_NOTICE_MS).unref();
    },
  };
  const redact = redactor(settings, { urls: true });
  const redactSecrets = redactor(settings, { urls: false });
  const reasonOf = (err: unknown) => redact(plainReason(err));
  let state: McpServerState = settings.enabled ? 'connecting' : 'disabled';
  let error: string | undefined;
  let since = new Date().toISOString();
  let reconnects = 0;
  let everConnected = false;
  /** When the live connection was made, and how many in a row ended soon after (a server crashing in a loop). */
  let connectedAt = 0;
  let shortLived = 0;
  /** A call succeeded on the live connection: it worked, whatever ends it later. */
  let served = false;
  let serverInfo: ConnectionStatus['serverInfo'];
  let via: ConnectionStatus['via'];
  let live: Live | undefined;
  /** The connect loop running now, and how to cancel it; a stop or reconnect replaces both. */
  let loop: Promise<Live | undefined> | undefined;
  /** The client whose connection a message too large for the read buffer just ended. */
  let overflowed: Client | undefined;
  let cancel = new AbortController();

  const set = (next: McpServerState, why?: string) => {
    if (next !== state) since = new Date().toISOString();
    state = next;
    error = why;
    deps.changed();
  };

  async function listTools(client: Client, signal: AbortSignal): Promise<{ tools: McpTool[]; malformed: string[] }> {
    const tools: McpTool[] = [];
    const malformed: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const result = await scoped(signal, (own) =>
        client.request({ method: 'tools/list', params: cursor ? { cursor } : {} }, LenientToolsPage, {
          timeout: settings.timeoutMs,
          signal: own,
        }),
      );
      for (const raw of result.tools) {
        const tool = ToolSchema.safeParse(raw);
        if (tool.success) tools.push(tool.data);
        else {
          const name = (raw as { name?: unknown } | null)?.name;
          malformed.push(typeof name === 'string' ? cleanText(name, 40) : '(no name)');
        }
      }
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    return { tools, malformed };
  }

  /** The connection ended by itself (process died, server closed the stream): heal it. */
  function dropped(client: Client) {
    if (!live || live.client !== client) return;
    const dead = live;
    live = undefined;
    void dead.close();
    shortLived = !served && Date.now() - connectedAt < STABLE_MS ? shortLived + 1 : 0;
    heal(`the server closed the connection${dead.pid ? ' (its process exited)' : ''}`);
  }

  function heal(why: string) {
    if (loop || cancel.signal.aborted) return;
    set('connecting', why);
    // A server that keeps dying soon after connecting is tried with backoff, and given up on, like one that cannot connect.
    loop = connectLoop(cancel.signal, shortLived);
  }

  async function connectLoop(signal: AbortSignal, startFailures = 0): Promise<Live | undefined> {
    let failures = startFailures;
    try {
      if (failures >= deps.retry.attempts) {
        set(
          'failed',
          `${error ?? 'it closed the connection'}, ${failures} times in a row soon after connecting (gave up)`,
        );
        deps.gone();
        return undefined;
      }
      if (failures > 0) await sleep(backoffMs(deps.retry, failures), signal);
      while (!signal.aborted) {
        let opened: Live | undefined;
        try {
          opened = await openConnection({
            settings,
            clientInfo: deps.clientInfo,
            stderr,
            timeoutMs: settings.timeoutMs,
            signal,
            prepare(client) {
              client.onclose = () => dropped(client);
              client.onerror = (err) => {
                if (/ReadBuffer exceeded/i.test(err.message)) overflowed = client;
              };
              client.setNotificationHandler(ToolListChangedNotificationSchema, () => refresh(client));
            },
          });
          const list = await listTools(opened.client, signal);
          if (signal.aborted) throw new Error('stopped');
          live = opened;
          const version = opened.client.getServerVersion();
          serverInfo = version
            ? { name: cleanText(String(version.name), 100), version: cleanText(String(version.version), 50) }
            : undefined;
          connectedAt = Date.now();
          served = false;
          if (everConnected) reconnects++;
          everConnected = true;
          via = opened.transport;
          deps.listed(list.tools, list.malformed);
          set('connected');
          return opened;
        } catch (err) {
          await opened?.close();
          if (signal.aborted) return undefined;
          failures++;
          // The SDK's "Connection closed" says nothing to a user whose server crashed on start: its stderr says why.
          const why =
            settings.transport === 'stdio' && isConnectionLost(err)
              ? 'the program exited before it finished connecting; what it wrote to stderr may say why'
              : reasonOf(err);
          // A server that never answered its first handshake in time would make each try wait as long again.
          const giveUp = isHopeless(err) || (isTimeout(err) && !everConnected);
          if (giveUp || failures >= deps.retry.attempts) {
            set('failed', failures > 1 ? `${why} (gave up after ${failures} tries)` : why);
            deps.gone();
            return undefined;
          }
          set('connecting', `${why}; trying again`);
          await sleep(backoffMs(deps.retry, failures), signal);
        }
      }
      return undefined;
    } finally {
      // A stop or reconnect may have started another loop meanwhile: that one stays.
      if (signal === cancel.signal) loop = undefined;
    }
  }
  /**
   * Re-listing after `tools/list_changed`: at most one listing in flight per connection, started a
   * little after the first notice; notices that come while one runs ask for exactly one more. A burst
   * of thousands of notices costs one or two listings, not thousands of requests at once.
   */
  let relist: { client: Client; timer?: NodeJS.Timeout; running: boolean; dirty: boolean } | undefined;
  function refresh(client: Client) {
    if (relist?.client !== client) {
      if (relist?.timer) clearTimeout(relist.timer);
      relist = { client, running: false, dirty: false };
    }
    const r = relist;
    if (r.running) r.dirty = true;
    else r.timer ??= setTimeout(() => void relistNow(r), RELIST_DEBOUNCE_MS).unref();
  }
  async function relistNow(r: NonNullable<typeof relist>) {
    r.timer = undefined;
    if (relist !== r || !live || live.client !== r.client || cancel.signal.aborted) return;
    r.running = true;
    r.dirty = false;
    try {
      const list = await listTools(r.client, cancel.signal);
      if (live?.client === r.client) {
        deps.listed(list.tools, list.malformed);
        deps.changed();
      }
    } catch {
      // The list stays as it was; a dead connection is noticed and healed by its close or the next call.
    } finally {
      r.running = false;
      if (r.dirty && relist === r) {
        r.dirty = false;
        r.timer ??= setTimeout(() => void relistNow(r), RELIST_DEBOUNCE_MS).unref();
      }
    }
  }

  /** A live connection, waiting (at most `ms`) for one being made. */
  async function connection(ms: number, signal: AbortSignal): Promise<Live> {
    if (live) return live;
    if (!loop)
      throw new UnavailableError(
        state === 'disabled' ? 'the server is disabled' : `the server is not connected${error ? `: ${error}` : ''}`,
      );
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    try {
      const got = await Promise.race([
        loop,
        new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms))),
        new Promise<'aborted'>((resolve) => {
          onAbort = () => resolve('aborted');
          if (signal.aborted) onAbort();
          else signal.addEventListener('abort', onAbort, { once: true });
        }),
      ]);
      if (got === 'aborted') throw new UnavailableError('the call was stopped while the server was connecting');
      if (got === 'timeout')
        throw new UnavailableError(`the server was still connecting after ${ms / 1000} s${error ? ` (${error})` : ''}`);
      if (!got) throw new UnavailableError(`the server could not be reached: ${error ?? 'unknown error'}`);
      return got;
    } finally {
      clearTimeout(timer);
      if (onAbort) signal.removeEventListener('abort', onAbort);
    }
  }

  async function callOn(
    conn: Live,
    name: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<CallToolResult> {
    // A signal of its own per call: a turn's signal must not collect one listener per call.
    const result = await scoped(
      options.signal,
      async (signal) =>
        (await conn.client.callTool({ name, arguments: args }, CallToolResultSchema, {
          timeout: settings.timeoutMs,
          resetTimeoutOnProgress: true,
          signal,
          onprogress: options.onProgress ? (p) => options.onProgress!(p.progress, p.total, p.message) : undefined,
        })) as CallToolResult,
    );
    if (conn === live) served = true;
    return result;
  }

  /**
   * A call, waiting (within the server's timeout) for a connection being made; when the connection
   * it went out on turns out dead, reconnects and tries once more.
   */
  async function callWithin(
    name: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<CallToolResult> {
    // The usual case answers without a wait: a live connection is used as it is.
    const first = live ?? (await connection(settings.timeoutMs, options.signal));
    try {
      return await callOn(first, name, args, options);
    } catch (err) {
      if (options.signal.aborted || !isConnectionLost(err)) throw err;
      // An answer too large to read ends the connection; asking again would only get it again.
      if (overflowed === first.client) throw new TooLargeError(`over ${MAX_MESSAGE_BYTES / 1024 / 1024} MB`);
      // The connection this call used is dead (an idle session the server forgot, a process that
      // died unseen): reconnect, and try the call once more.
      if (live === first) {
        live = undefined;
        void first.close();
        heal(reasonOf(err));
      }
      const second = await connection(settings.timeoutMs, options.signal);
      return callOn(second, name, args, options);
    }
  }

  /** Ends the connection and any connect in progress, without a state of its own; bounded. */
  async function teardown() {
    cancel.abort();
    if (relist?.timer) clearTimeout(relist.timer);
    relist = undefined;
    const running = loop;
    const was = live;
    live = undefined;
    loop = undefined;
    await Promise.race([
      Promise.all([running, was?.close()]),
      new Promise((resolve) => setTimeout(resolve, STOP_BOUND_MS).unref()),
    ]);
  }

  return {
    status: () => ({
      state,
      ...(error ? { error } : {}),
      since,
      reconnects,
      ...(serverInfo ? { serverInfo } : {}),
      ...(via ? { via } : {}),
    }),
    stderr: () => stderr.lines().map(redact),
    redact,
    redactSecrets,
    start() {
      if (live || loop) return;
      cancel = new AbortController();
      set('connecting');
      loop = connectLoop(cancel.signal);
    },
    async reconnect() {
      await teardown();
      shortLived = 0;
      stderr.clear();
      cancel = new AbortController();
      set('connecting');
      loop = connectLoop(cancel.signal);
      await loop;
    },
    async settled() {
      await loop;
    },
    async call(name, args, options) {
      // The whole call, waits and the one retry included, ends at its total limit: progress
      // restarts only the per-answer clock. Ending it by our own signal (not the SDK's
      // maxTotalTimeout, checked only when progress comes) is on time and tells the server to cancel.
      const limitMs = totalLimitMs(settings);
      let late = false;
      const lateness = () => ((late = true), new TotalTimeoutError(limitMs));
      try {
        return await bounded(options.signal, limitMs, lateness, (signal) =>
          callWithin(name, args, { ...options, signal }),
        );
      } catch (err) {
        if (late && !options.signal.aborted) throw new TotalTimeoutError(limitMs);
        throw err;
      }
    },
    async stop() {
      const done = teardown();
      deps.gone();
      set('disabled');
      await done;
    },
  };
}
