import { updateConfigKey } from './config-writer.js';
import { toServerEntry, type McpServerEntry, type McpServerSettings } from './mcp-settings.js';

type Entries = Record<string, unknown>;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * How a running process saves `mcpServers`: only what it changed, laid over config.json as it is
 * now, read under the file's lock. A `zhixing mcp add` from another terminal while `zhixing serve`
 * runs is kept when the web app then turns some other server off; and an entry this process never
 * touched keeps the user's own spelling (`disabled: true`, fields Zhixing does not know).
 *
 * `initial` is what the process read at start; the saver is given the whole set each time.
 */
export function createMcpServersSaver(
  path: string,
  initial: McpServerSettings[],
): (servers: Record<string, McpServerEntry>) => void {
  let known: Record<string, McpServerEntry> = Object.fromEntries(initial.map((s) => [s.name, toServerEntry(s)]));
  return (servers) => {
    updateConfigKey(path, 'mcpServers', (current) => {
      const onDisk: Entries =
        typeof current === 'object' && current !== null && !Array.isArray(current) ? { ...(current as Entries) } : {};
      // Removed here: removed there too. Added or changed here: written. The rest stays as it is on disk.
      for (const name of Object.keys(known)) if (!(name in servers)) delete onDisk[name];
      for (const [name, entry] of Object.entries(servers))
        if (!(name in known) || !same(known[name], entry)) onDisk[name] = entry;
      return onDisk;
    });
    known = { ...servers };
  };
}
