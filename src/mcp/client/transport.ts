import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { McpServerSettings } from '../../config/mcp-settings.js';
import { boundedFetch } from './bounded-fetch.js';
import { depthCheckedFetch, guardStdioReads } from './depth-guard.js';
import { descendants, signalAll } from './process-tree.js';
import { scoped } from './signals.js';
import type { StderrTail } from './stderr.js';

/** One message from a server over HTTP at most, as the SDK's read buffer bounds one from a local server. */
const MAX_HTTP_MESSAGE_BYTES = 10 * 1024 * 1024;
/** How long a stopping server has to exit after its stdin closes, then after SIGTERM, before SIGKILL. */
const EXIT_GRACE_MS = 500;

export interface ClientInfo {
  name: string;
  version: string;
}

/** One live session with a server: its client, and how to end it for good. */
export interface Live {
  client: Client;
  /** The transport actually used: `sse` when an `http` server only spoke the older protocol. */
  transport: 'stdio' | 'http' | 'sse';
  /** The local server's process id. */
  pid?: number;
  /** Ends the session and stops the process (and what it started); bounded, never throws. */
  close(): Promise<void>;
}

export interface OpenOptions {
  settings: McpServerSettings;
  clientInfo: ClientInfo;
  stderr: StderrTail;
  /** Bounds the initialize handshake. */
  timeoutMs: number;
  /** Stops the handshake, and the process, when the connection is no longer wanted. */
  signal: AbortSignal;
  /** Set up the client before it connects (notification handlers), so nothing the server sends early is missed. */
  prepare(client: Client): void;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** A process that has exited: signal 0 fails. */
const gone = (pid: number) => {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
};

/**
 * Stops a local server and everything it started (npx's child): its stdin is closed, as MCP asks,
 * then SIGTERM, then SIGKILL, each after a short grace. Bounded at about a second.
 */
async function stopProcess(transport: StdioClientTransport, pid: number | undefined, graceMs: number): Promise<void> {
  const tree = pid ? [pid, ...descendants(pid)] : [];
  // The SDK's own close waits up to 4 s; ours does the signals sooner, and it is never awaited past them.
  const closing = transport.close().catch(() => undefined);
  if (!tree.length) return void (await Promise.race([closing, wait(graceMs)]));
  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    await Promise.race([closing, wait(graceMs)]);
    const left = tree.filter((p) => !gone(p));
    if (!left.length) return;
    signalAll(left, signal);
    graceMs = EXIT_GRACE_MS;
  }
}

/**
 * The SDK would check a tool's structured output against the server's `outputSchema` with ajv on
 * this thread (after `listTools`, which connection.ts does not use). The server sends both, so one
 * backtracking `pattern` would hold the thread that serves every session; the output is untrusted
 * text to us whatever it matches, so that check is never made.
 */
const OUTPUT_UNCHECKED: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

/** Runs the handshake; on failure `cleanup` ends whatever was started before the error goes on. */
async function connectClient(
  transport: Transport,
  options: OpenOptions,
  cleanup: (client: Client) => Promise<void>,
): Promise<Client> {
  const client = new Client(options.clientInfo, { capabilities: {}, jsonSchemaValidator: OUTPUT_UNCHECKED });
  options.prepare(client);
  try {
    await scoped(options.signal, (signal) => client.connect(transport, { timeout: options.timeoutMs, signal }));
  } catch (err) {
    await cleanup(client);
    throw err;
  }
  return client;
}

const closeClient = (client: Client) => client.close().catch(() => undefined);

async function openStdio(options: OpenOptions): Promise<Live> {
  const { settings } = options;
  const transport = new StdioClientTransport({
    command: settings.command!,
    args: settings.args,
    env: settings.env,
    cwd: settings.cwd,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => options.stderr.write(chunk));
  // Each line is checked for depth before the SDK parses it: deep nesting would hold this thread for seconds.
  guardStdioReads(transport, tellStderr(options));
  // Kept from the spawn: the SDK forgets the process as soon as its own close begins (a failed
  // handshake starts one), and the process, with what it started, must still be stopped.
  let pid: number | undefined;
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await start();
    pid = transport.pid ?? undefined;
  };
  let closed = false;
  const close = async (client: Client, graceMs: number) => {
    if (closed) return;
    closed = true;
    // The process first: the client's close would end it without its children, and only after 4 s.
    await stopProcess(transport, pid, graceMs);
    await closeClient(client);
  };
  // A server that never finished its handshake has nothing to save: it is stopped at once.
  const client = await connectClient(transport, options, (c) => close(c, 0));
  return { client, transport: 'stdio', pid, close: () => close(client, EXIT_GRACE_MS) };
}

/** A message the client would not read is told in the server's stderr tail, where its state is explained. */
const tellStderr = (options: OpenOptions) => (line: string) => options.stderr.write(`${line}\n`);

const headersFor = (options: OpenOptions) => ({
  requestInit: { headers: options.settings.headers },
  fetch: depthCheckedFetch(boundedFetch(MAX_HTTP_MESSAGE_BYTES), tellStderr(options)),
});

/** A Streamable HTTP endpoint answers an initialize POST; an older SSE-only server answers 4xx (404, 405). */
const speaksOnlySse = (err: unknown) =>
  err instanceof StreamableHTTPError &&
  typeof err.code === 'number' &&
  err.code >= 400 &&
  err.code < 500 &&
  err.code !== 401 &&
  err.code !== 403;

async function openSse(options: OpenOptions): Promise<Live> {
  const transport = new SSEClientTransport(new URL(options.settings.url!), headersFor(options));
  const client = await connectClient(transport, options, closeClient);
  return { client, transport: 'sse', close: () => closeClient(client) };
}

async function openHttp(options: OpenOptions): Promise<Live> {
  const transport = new StreamableHTTPClientTransport(new URL(options.settings.url!), headersFor(options));
  let client: Client;
  try {
    client = await connectClient(transport, options, closeClient);
  } catch (err) {
    if (speaksOnlySse(err)) return openSse(options);
    throw err;
  }
  return {
    client,
    transport: 'http',
    async close() {
      // Ending the session tells the server it may forget it; a server that is gone cannot be told.
      await Promise.race([transport.terminateSession().catch(() => undefined), wait(EXIT_GRACE_MS)]);
      await closeClient(client);
    },
  };
}

/** Starts (stdio) or reaches (HTTP, SSE) a server and runs the initialize handshake. */
export function openConnection(options: OpenOptions): Promise<Live> {
  const kind = options.settings.transport;
  return kind === 'stdio' ? openStdio(options) : kind === 'sse' ? openSse(options) : openHttp(options);
}
