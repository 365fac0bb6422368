import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { App } from '../app.js';
import { childEnvironment } from '../config/child-env.js';

/**
 * `--mcp`: the built-in tools run in a `zhixing mcp serve` child, this installation's own, over MCP.
 * The child is started without `--yes` and offline (it serves tools, never asks a model): its
 * permission asks come back here and are decided where the user is, by this run's rules, terminal and
 * `--yes`, exactly as they would be in-process; the child runs only what was approved here.
 * Returns the function that stops the child.
 */
export async function toolsThroughMcp(app: App): Promise<() => Promise<void>> {
  // dist/cli/ and dist/bundle/ both sit two levels below the package root, as src/cli/ does.
  const bin = fileURLToPath(new URL('../../bin/zhixing', import.meta.url));
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  const { useToolsFromSubprocess } = await import('../mcp-server/subprocess-tools.js');
  const served = await useToolsFromSubprocess({
    tools: app.tools,
    workspace: app.workspace,
    command: process.execPath,
    args: [bin, 'mcp', 'serve', '--offline'],
    env: childEnvironment(),
    cwd: process.cwd(),
    version: pkg.version,
  });
  return served.close;
}
