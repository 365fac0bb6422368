#!/usr/bin/env node
// The MCP client's cost, each figure against a baseline from the same run: a tool call through
// Zhixing's client (the registry's checks, the permission ask, the result mapping, the healing
// wrapper) against the SDK's bare `Client`, both over stdio to server-everything; connect time; and
// a one-shot's first turn with a server that takes 5 s to initialize configured, against none.
// Usage: npm run build && node bench/mcp.mjs
import { spawnSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const everything = join(root, 'node_modules', '.bin', 'mcp-server-everything');
const { createMcpManager } = await import(join(root, 'dist/mcp/manager.js'));
const { createToolRegistry } = await import(join(root, 'dist/tools/registry.js'));

const CALLS = Number(process.env.MCP_BENCH_CALLS ?? 2000);
const WARMUP = 200;
/** Calls alternate between the two clients in blocks this long, so both see the same machine. */
const BLOCK = 100;
const CONNECTS = 7;
const SHOTS = 7;

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const quantile = (xs, q) => {
  const s = sorted(xs);
  return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1)))];
};
const median = (xs) => quantile(xs, 0.5);
const range = (xs, f = (x) => x.toFixed(1)) => `${f(Math.min(...xs))}–${f(Math.max(...xs))}`;
const us = (ms) => `${(ms * 1000).toFixed(0)} µs`;

async function bareClient() {
  const client = new Client({ name: 'bench-bare', version: '0' });
  await client.connect(new StdioClientTransport({ command: everything, args: ['stdio'], stderr: 'ignore' }));
  return client;
}

function ourClient() {
  const tools = createToolRegistry([]);
  const manager = createMcpManager({
    servers: [
      {
        name: 'everything',
        transport: 'stdio',
        command: everything,
        args: ['stdio'],
        env: {},
        headers: {},
        enabled: true,
        timeoutMs: 60_000,
      },
    ],
    tools,
    saveServers: () => {},
    trusted: () => true,
  });
  const ctx = {
    sessionId: 'bench',
    turnId: 't',
    callId: 'c',
    workspace: root,
    lang: 'en',
    signal: new AbortController().signal,
    progress: () => {},
    ask: async () => 'allow',
  };
  return { manager, tools, ctx };
}

/**
 * get-sum through each client, interleaved in blocks, after a warm-up of each: the bare SDK Client;
 * our MCP tool (its permission ask, the healing connection, the result mapping), the figure the
 * target is about; and the same through the tool registry every tool call takes (parse, schema
 * check, timeout, result bounds), as a turn runs it.
 */
async function calls() {
  const bare = await bareClient();
  const ours = ourClient();
  ours.manager.start();
  if ((await ours.manager.ready(30_000)).length) throw new Error('our client did not connect');
  const tool = ours.tools.get('everything__get-sum');
  const call = { id: 'c', name: 'everything__get-sum', arguments: '{"a":2,"b":3}' };
  const viaBare = async () => {
    const r = await bare.callTool({ name: 'get-sum', arguments: { a: 2, b: 3 } });
    if (!r.content[0].text.includes('5')) throw new Error('bad result');
  };
  const viaOurs = async () => {
    const r = await tool.execute({ a: 2, b: 3 }, { ...ours.ctx, signal: new AbortController().signal });
    if (!r.output.includes('5')) throw new Error(`bad result: ${r.output}`);
  };
  const viaRegistry = async () => {
    const r = await ours.tools.run(call, ours.ctx);
    if (!r.ok || !r.output.includes('5')) throw new Error(`bad result: ${r.output}`);
  };
  const runs = [
    ['bare', viaBare],
    ['ours', viaOurs],
    ['registry', viaRegistry],
  ];
  for (let i = 0; i < WARMUP; i++) for (const [, fn] of runs) await fn();
  const times = { bare: [], ours: [], registry: [] };
  for (let done = 0; done < CALLS; done += BLOCK) {
    for (const [name, fn] of runs) {
      for (let i = 0; i < BLOCK; i++) {
        const t0 = performance.now();
        await fn();
        times[name].push(performance.now() - t0);
      }
    }
  }
  await bare.close();
  await ours.manager.close();
  return times;
}

/** From nothing to a usable server: spawn, initialize (and for ours, tools/list and registration). */
async function connects() {
  const times = { bare: [], ours: [] };
  for (let i = 0; i < CONNECTS; i++) {
    let t0 = performance.now();
    const bare = await bareClient();
    times.bare.push(performance.now() - t0);
    await bare.close();
    const ours = ourClient();
    t0 = performance.now();
    ours.manager.start();
    await ours.manager.ready(30_000);
    if (!ours.tools.get('everything__get-sum')) throw new Error('tools not registered');
    times.ours.push(performance.now() - t0);
    await ours.manager.close();
  }
  return times;
}

/** A one-shot with a model, with and without a server that takes 5 s to initialize configured. */
async function oneShots() {
  const model = spawn(process.execPath, [join(root, 'bench', 'model-server.mjs')], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve) => model.stdout.once('data', (d) => resolve(String(d).trim())));
  const plain = mkdtempSync(join(tmpdir(), 'zhixing-bench-mcp-'));
  const slow = mkdtempSync(join(tmpdir(), 'zhixing-bench-mcp-'));
  writeFileSync(
    join(slow, 'config.json'),
    JSON.stringify({
      mcpServers: {
        slow: {
          command: process.execPath,
          args: [join(root, 'test', 'fixtures', 'mcp', 'slow-init.mjs')],
          env: { SLOW_INIT_MS: '5000' },
        },
      },
    }),
  );
  const base = {
    ...process.env,
    NO_COLOR: '1',
    ZHIXING_BASE_URL: url,
    ZHIXING_API_KEY: 'sk-bench-0000000000000000',
    ZHIXING_MODEL: 'bench',
  };
  const run = (home) => {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [join(root, 'bin', 'zhixing'), '(3+5)*2'], {
      env: { ...base, ZHIXING_HOME: home },
      encoding: 'utf8',
    });
    const ms = performance.now() - t0;
    if (r.status !== 0 || !r.stdout.includes('16')) throw new Error(`one-shot failed: ${r.stderr}`);
    return ms;
  };
  const times = { plain: [], slow: [] };
  try {
    run(plain);
    run(slow);
    for (let i = 0; i < SHOTS; i++) {
      times.plain.push(run(plain));
      times.slow.push(run(slow));
    }
  } finally {
    model.stdin.end();
    rmSync(plain, { recursive: true, force: true });
    rmSync(slow, { recursive: true, force: true });
  }
  return times;
}

const passes = [];
const c = await calls();
const ratio = median(c.ours) / median(c.bare);
const p99ratio = quantile(c.ours, 0.99) / quantile(c.bare, 0.99);
passes.push(ratio <= 1.2);
console.log(
  `\nMCP tool call (get-sum over stdio to server-everything), ${CALLS} calls each after ${WARMUP} warm-up, interleaved in blocks of ${BLOCK}`,
);
console.log(
  `  bare SDK Client median ${us(median(c.bare))} (p99 ${us(quantile(c.bare, 0.99))}) · Zhixing's MCP tool (ask, connection, mapping) median ${us(median(c.ours))} (p99 ${us(quantile(c.ours, 0.99))})`,
);
console.log(
  `  ratio median ${ratio.toFixed(2)}× (target ≤ 1.2×) ${ratio <= 1.2 ? 'PASS' : 'FAIL'} · p99 ${p99ratio.toFixed(2)}×`,
);
console.log(
  `  the same through the tool registry, as a turn runs it: median ${us(median(c.registry))} (p99 ${us(quantile(c.registry, 0.99))}) · ratio ${(median(c.registry) / median(c.bare)).toFixed(2)}× to the bare Client`,
);

const k = await connects();
console.log(`\nMCP connect (spawn server-everything to usable), ${CONNECTS} runs each`);
console.log(
  `  bare SDK Client (spawn + initialize) median ${median(k.bare).toFixed(1)} ms (${range(k.bare)}) · Zhixing (spawn + initialize + tools/list + registering) median ${median(k.ours).toFixed(1)} ms (${range(k.ours)}) · ratio ${(median(k.ours) / median(k.bare)).toFixed(2)}×`,
);

const s = await oneShots();
const extra = median(s.slow) - median(s.plain);
passes.push(extra < 1000);
console.log(
  `\none-shot "(3+5)*2" with a model, with a server that takes 5 s to initialize configured vs none, ${SHOTS} runs each`,
);
console.log(
  `  no MCP server median ${median(s.plain).toFixed(1)} ms (${range(s.plain)}) · slow server configured median ${median(s.slow).toFixed(1)} ms (${range(s.slow)}) · difference ${extra.toFixed(1)} ms (target < 1000 ms: it is not waited for) ${extra < 1000 ? 'PASS' : 'FAIL'}`,
);
process.exitCode = passes.every(Boolean) ? 0 : 1;
