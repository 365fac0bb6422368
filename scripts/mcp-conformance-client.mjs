#!/usr/bin/env node
// Zhixing's MCP client as the conformance suite's client under test (`conformance client --command
// "node scripts/mcp-conformance-client.mjs"`): the suite appends its server's URL. It connects the way
// a configured server is connected (the manager, over Streamable HTTP), lists the tools and calls
// each one with arguments made from its schema, as a model would. Needs `npm run build` first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMcpManager } from '../dist/mcp/manager.js';
import { createToolRegistry } from '../dist/tools/registry.js';

const url = process.argv.at(-1);
if (!url || !/^https?:\/\//.test(url)) {
  console.error('usage: node scripts/mcp-conformance-client.mjs <server URL>');
  process.exit(2);
}

/** A plain value of a schema's type: numbers count up so sums are checkable. */
let counter = 0;
function example(schema = {}) {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if (type === 'number' || type === 'integer') return ++counter;
  if (type === 'boolean') return true;
  if (type === 'array') return [];
  if (type === 'object' || schema.properties) {
    return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, sub]) => [key, example(sub)]));
  }
  return 'test';
}

const tools = createToolRegistry([]);
const manager = createMcpManager({
  servers: [{ name: 'peer', transport: 'http', url, args: [], env: {}, headers: {}, enabled: true, timeoutMs: 10_000 }],
  tools,
  saveServers() {},
  trusted: () => true,
  retry: { baseMs: 100, maxMs: 500, attempts: 2 },
});
const workspace = mkdtempSync(join(tmpdir(), 'zhixing-conformance-'));
let code = 0;
try {
  manager.start();
  await manager.ready(15_000);
  const view = manager.get('peer');
  if (view?.state !== 'connected') throw new Error(`not connected: ${view?.state} ${view?.error ?? ''}`);
  console.log(`connected to ${view.serverInfo?.name ?? 'the server'}; tools: ${view.tools.join(', ') || '(none)'}`);
  for (const tool of tools.list()) {
    const args = example(tool.spec.parameters);
    const ctx = {
      sessionId: 'conformance',
      turnId: 'turn',
      callId: tool.name,
      workspace,
      lang: 'en',
      signal: new AbortController().signal,
      ask: async () => 'allow',
      progress: (line) => console.log(`  … ${line}`),
    };
    const result = await tools.run({ id: tool.name, name: tool.name, arguments: JSON.stringify(args) }, ctx);
    console.log(`${tool.name}(${JSON.stringify(args)}) → ${result.ok ? 'ok' : 'failed'}: ${result.output}`);
    if (!result.ok) code = 1;
  }
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  code = 1;
} finally {
  await manager.close();
  rmSync(workspace, { recursive: true, force: true });
}
process.exit(code);
