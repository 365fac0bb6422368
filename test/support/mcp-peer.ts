import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BIN } from './cli.js';

/** The official SDK client, as another agent would use it, talking to `zhixing mcp serve` over stdio. */
export async function stdioClient(
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ client: Client; stderr: () => string; pid: () => number | null }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', 'serve', ...args],
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env },
    cwd: env.ZHIXING_HOME,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const client = new Client({ name: 'zhixing-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, pid: () => transport.pid };
}

/** The official SDK client over Streamable HTTP, to `url` (…/mcp). */
export async function httpClient(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const client = new Client({ name: 'zhixing-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

/** A call's text, all its text parts joined. */
export const textOf = (r: unknown) =>
  (r as CallToolResult).content
    .filter((c) => c.type === 'text')
    .map((c) => (c as { text: string }).text)
    .join('\n');
