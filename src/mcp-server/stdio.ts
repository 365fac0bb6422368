import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { buildMcpServer, type McpServerApp } from './build-server.js';
import { lineLimit } from './line-limit.js';

/** The longest message taken: 4 MiB, as the SDK's HTTP transport takes, far more than any tool's arguments. */
const MAX_LINE_BYTES = 4 * 1024 * 1024;
/** How long calls cut off by the client leaving have to stop: a tool gets 10 s after a stop. */
const SETTLE_MS = 12_000;

/**
 * Serves one MCP client on this process's stdin and stdout until it hangs up (stdin ends) or the
 * transport gives up. Nothing but protocol may reach stdout: the caller sends everything else to stderr.
 */
export async function serveStdio(options: {
  app: McpServerApp;
  version: string;
  log: (line: string) => void;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
}): Promise<void> {
  const stdin = options.stdin ?? process.stdin;
  const built = buildMcpServer({ app: options.app, version: options.version, log: options.log, forwardAsks: true });
  const lines = stdin.pipe(
    lineLimit(MAX_LINE_BYTES, (bytes) =>
      options.log(`zhixing: MCP: a message of ${bytes} bytes was dropped (at most ${MAX_LINE_BYTES}).`),
    ),
  );
  const transport = new StdioServerTransport(
    lines as unknown as typeof process.stdin,
    (options.stdout ?? process.stdout) as typeof process.stdout,
  );
  // A line that is not JSON-RPC is the client's mistake: said on stderr, and the next line is read as usual.
  transport.onerror = (err) => options.log(`zhixing: MCP: ${err.message}`);
  const ended = new Promise<void>((resolve) => {
    // The lines' end, not stdin's: a message sent just before the client hung up has reached the transport by then.
    lines.once('end', resolve);
    stdin.once('close', () => setImmediate(resolve));
    built.server.onclose = () => resolve();
  });
  await built.server.connect(transport);
  await ended;
  // Closing aborts the calls still running; they get the registry's grace to stop before the app closes.
  await built.server.close().catch(() => {});
  await built.settled(SETTLE_MS);
  built.dispose();
}
