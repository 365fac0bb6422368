/** How a server is shown in `zhixing mcp list` and the REPL's /mcp: what its list left out is said. */
import { describe, expect, it } from 'vitest';
import { serverLines } from '../src/cli/mcp-view.js';
import { createStyle } from '../src/cli/style.js';
import type { McpServerView } from '../src/mcp/types.js';

const view: McpServerView = {
  name: 'many',
  transport: 'stdio',
  command: 'node many.mjs',
  envKeys: [],
  headerKeys: [],
  enabled: true,
  timeoutMs: 60_000,
  state: 'connected',
  stderr: [],
  tools: ['many__a'],
  trusted: false,
  since: '',
  reconnects: 0,
  via: 'stdio',
  warning: 'it lists 150 tools; only the first 100 are offered.\u001b[2J',
};

describe('serverLines', () => {
  it("adds a warning line under a server, in both languages, without the server's escapes", () => {
    const style = createStyle(false);
    expect(serverLines(view, 'en', style)).toContain('  warning  it lists 150 tools; only the first 100 are offered.');
    expect(serverLines(view, 'zh', style)).toContain('  注意  it lists 150 tools; only the first 100 are offered.');
    const { warning: _, ...quiet } = view;
    expect(serverLines(quiet, 'en', style).join('\n')).not.toContain('warning');
  });
});
