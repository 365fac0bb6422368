import type { Config } from '../config/config.js';
import type { McpCommand } from './mcp-args.js';
import type { CliIo } from './one-shot.js';

/** `zhixing mcp add|list|remove|enable|disable`. */
export async function runMcpCommand(_config: Config, _cmd: Exclude<McpCommand, { action: 'serve' }>, io: CliIo): Promise<number> {
  io.stderr('zhixing: mcp is not built yet.\n');
  return 2;
}
