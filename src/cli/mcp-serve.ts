import type { Config } from '../config/config.js';
import type { McpCommand } from './mcp-args.js';

/** `zhixing mcp serve`: Zhixing's tools to an MCP client over stdio. Exits when the client hangs up. */
export async function runMcpServe(_config: Config, _cmd: Extract<McpCommand, { action: 'serve' }>, io: { stderr: (s: string) => void }): Promise<number> {
  io.stderr('zhixing: mcp serve is not built yet.\n');
  return 2;
}
