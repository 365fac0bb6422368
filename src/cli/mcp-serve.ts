import { readFileSync } from 'node:fs';
import type { Config } from '../config/config.js';
import type { McpCommand } from './command.js';
import { plainText } from './terminal-text.js';

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/**
 * `zhixing mcp serve`: Zhixing's tools to an MCP client over stdio. Exits 0 when the client hangs up.
 * stdout carries the protocol and nothing else: every warning goes to stderr.
 */
export async function runMcpServe(
  config: Config,
  cmd: Extract<McpCommand, { action: 'serve' }>,
  io: { stderr: (s: string) => void },
): Promise<number> {
  const log = (line: string) => io.stderr(`${plainText(line)}\n`);
  const { createApp } = await import('../app.js');
  let app;
  try {
    // --yes: calls that would ask run (a deny still refuses); without it nobody here can answer, so they are refused.
    app = await createApp(config, { autoApprove: cmd.yes, warn: (line) => log(`zhixing: ${line}`) });
  } catch (err) {
    log(`zhixing: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
  try {
    const { serveStdio } = await import('../mcp-server/stdio.js');
    await serveStdio({ app, version: version(), log });
    return 0;
  } finally {
    app.close();
  }
}
