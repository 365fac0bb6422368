#!/usr/bin/env node
// HTTP API benchmarks, each against a bare node:http server doing the same work, measured in the same run.
// Usage: npm run bench (runs bench/run.mjs first), or node bench/server.mjs. Needs dist/ (npm install builds it).
// The servers run pinned to core 0 and this driver and the load generator to core 1 (taskset, when there is
// one), so "one core" means one core. Only loopback traffic; about a minute in all.
import { spawn, spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const STREAMS = 1000;
/** Connections opened at once: below the listen backlog (511), so no SYN waits for a retry. */
const OPEN_BATCH = 100;
const EVENTS_PER_S = 20;
const EMIT_SECONDS = 5;
const ROUNDS = 3;
const HEALTH_SECONDS = 3;
const HEALTH_CONNECTIONS = 64;
const TARGET_KB_PER_STREAM = 20;
const TARGET_CPU_SHARE = 0.4;
const TARGET_HEALTH_RPS = 35_000;
const SERVER_CORE = '0';
const CLIENT_CORE = '1';

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
/** `min–max` of a sample, so a median is never read without its spread. */
const range = (xs, f = (x) => x.toFixed(1)) => `${f(Math.min(...xs))}–${f(Math.max(...xs))}`;
const pct = (x) => `${(x * 100).toFixed(1)}%`;
const int = (x) => Math.round(x).toLocaleString('en-US');

const pinned = spawnSync('taskset', ['-V']).status === 0;
const onCore = (core, cmd, args) => (pinned ? ['taskset', ['-c', core, cmd, ...args]] : [cmd, args]);
if (pinned) spawnSync('taskset', ['-cp', CLIENT_CORE, String(process.pid)], { stdio: 'ignore' });

/** A server process (zhixing or bare) with a request/answer channel over IPC. */
async function startTarget(mode) {
  const [cmd, args] = onCore(SERVER_CORE, process.execPath, [
    '--expose-gc',
    join(root, 'bench/server-target.mjs'),
    mode,
  ]);
  const child = spawn(cmd, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = () => new Promise((resolve) => child.once('message', resolve));
  const { port } = await next();
  return {
    mode,
    port,
    ask: (msg) => (child.send(msg), next()),
    stop: () => new Promise((resolve) => (child.once('exit', resolve), child.send({ cmd: 'exit' }))),
  };
}

/** Opens `n` GET /api/events streams and reads them; resolves once every one has its headers. */
async function openStreams(port, n) {
  const streams = [];
  for (let opened = 0; opened < n; opened += OPEN_BATCH) {
    await Promise.all(
      Array.from(
        { length: Math.min(OPEN_BATCH, n - opened) },
        () =>
          new Promise((resolve, reject) => {
            const stream = { events: 0, req: undefined };
            stream.req = request(
              { host: '127.0.0.1', port, path: '/api/events', headers: { accept: 'text/event-stream' }, agent: false },
              (res) => {
                if (res.statusCode !== 200) return reject(new Error(`/api/events answered ${res.statusCode}`));
                res.setEncoding('utf8').on('data', (d) => (stream.events += d.split('event: ').length - 1));
                res.on('error', () => {});
                streams.push(stream);
                resolve();
              },
            );
            stream.req.on('error', reject);
            stream.req.end();
          }),
      ),
    );
  }
  return streams;
}

async function closeStreams(streams) {
  for (const s of streams) s.req.destroy();
  // Let the server see every close before the next measurement.
  await new Promise((resolve) => setTimeout(resolve, 500));
}

/** One round: memory with 0 and with 1000 streams, then CPU while events go to all of them. */
async function sseRound(target) {
  await closeStreams(await openStreams(target.port, 50)); // warm-up: JIT, buffers
  const before = (await target.ask({ cmd: 'mem' })).mem;
  const streams = await openStreams(target.port, STREAMS);
  const after = (await target.ask({ cmd: 'mem' })).mem;
  const cpu = await target.ask({ cmd: 'emit', rate: EVENTS_PER_S, seconds: EMIT_SECONDS });
  await new Promise((resolve) => setTimeout(resolve, 200));
  const fewest = Math.min(...streams.map((s) => s.events));
  await closeStreams(streams);
  return {
    kbPerStream: (after.rss - before.rss) / 1024 / STREAMS,
    heapKbPerStream: (after.heapUsed + after.external - before.heapUsed - before.external) / 1024 / STREAMS,
    cpuShare: cpu.cpuMs / cpu.wallMs,
    /** The share of the emitted events the slowest-served stream received. */
    delivered: fewest / cpu.emitted,
  };
}

/**
 * GET /api/health from autocannon, pinned to the other core. Two figures: requests per second of wall
 * time, and requests per second of the server's own CPU time. On a machine others share, the server
 * gets only part of its core and the first drops with the load; the second is what one whole core serves.
 */
async function healthRound(target, seconds) {
  const bin = join(root, 'node_modules/autocannon/autocannon.js');
  const [cmd, args] = onCore(CLIENT_CORE, process.execPath, [
    bin,
    '-c',
    String(HEALTH_CONNECTIONS),
    '-d',
    String(seconds),
    '-j',
    `http://127.0.0.1:${target.port}/api/health`,
  ]);
  const cpu0 = (await target.ask({ cmd: 'cpu' })).cpuMs;
  const result = await new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`autocannon exited ${code}`)),
    );
  });
  const cpuMs = (await target.ask({ cmd: 'cpu' })).cpuMs - cpu0;
  if (result.non2xx || result.errors)
    throw new Error(`autocannon saw ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  return { wall: result.requests.total / seconds, perCpu: result.requests.total / (cpuMs / 1000) };
}

const targets = { bare: await startTarget('bare'), zhixing: await startTarget('zhixing') };
const sse = { bare: [], zhixing: [] };
const rps = { bare: [], zhixing: [] };
try {
  // Interleaved, so both see the same machine.
  for (let r = 0; r < ROUNDS; r++)
    for (const mode of ['bare', 'zhixing']) sse[mode].push(await sseRound(targets[mode]));
  for (const mode of ['bare', 'zhixing']) await healthRound(targets[mode], 1); // warm-up
  for (let r = 0; r < ROUNDS; r++)
    for (const mode of ['bare', 'zhixing']) rps[mode].push(await healthRound(targets[mode], HEALTH_SECONDS));
} finally {
  await Promise.all(Object.values(targets).map((t) => t.stop()));
}

const pick = (mode, key) => sse[mode].map((r) => r[key]);
const mem = { bare: median(pick('bare', 'kbPerStream')), zhixing: median(pick('zhixing', 'kbPerStream')) };
const cpu = { bare: median(pick('bare', 'cpuShare')), zhixing: median(pick('zhixing', 'cpuShare')) };
const hp = (mode, key) => rps[mode].map((r) => r[key]);
const hps = { bare: median(hp('bare', 'perCpu')), zhixing: median(hp('zhixing', 'perCpu')) };
const delivered = Math.min(...pick('zhixing', 'delivered'));
const pass = {
  mem: mem.zhixing <= TARGET_KB_PER_STREAM,
  cpu: cpu.zhixing <= TARGET_CPU_SHARE,
  rps: hps.zhixing >= TARGET_HEALTH_RPS,
  delivered: delivered >= 0.95,
};

console.log(
  `\nHTTP API (${pinned ? `servers on core ${SERVER_CORE}, clients on core ${CLIENT_CORE}` : 'no taskset: unpinned'}; ${ROUNDS} rounds each, interleaved)`,
);
console.log(
  `\nmemory per open SSE stream at ${STREAMS} streams (GET /api/events; RSS after GC, less the same server with 0 streams)`,
);
console.log(
  `  zhixing median ${mem.zhixing.toFixed(1)} KB (${range(pick('zhixing', 'kbPerStream'))}) · heap+external ${median(pick('zhixing', 'heapKbPerStream')).toFixed(1)} KB` +
    ` · bare node:http median ${mem.bare.toFixed(1)} KB (${range(pick('bare', 'kbPerStream'))}) · ratio ${(mem.zhixing / mem.bare).toFixed(2)}× (target ≤ ${TARGET_KB_PER_STREAM} KB) ${pass.mem ? 'PASS' : 'FAIL'}`,
);
console.log(`\nserver CPU at ${STREAMS} streams × ${EVENTS_PER_S} events/s for ${EMIT_SECONDS} s (share of one core)`);
console.log(
  `  zhixing median ${pct(cpu.zhixing)} (${range(pick('zhixing', 'cpuShare'), pct)}) · bare node:http median ${pct(cpu.bare)} (${range(pick('bare', 'cpuShare'), pct)})` +
    ` · ratio ${(cpu.zhixing / cpu.bare).toFixed(2)}× (target ≤ ${pct(TARGET_CPU_SHARE)}) ${pass.cpu ? 'PASS' : 'FAIL'} · every stream got its events: ${pass.delivered ? 'yes' : `NO (${pct(delivered)})`}`,
);
console.log(
  `\nGET /api/health requests per second of the server's CPU time, i.e. on one whole core (autocannon -c ${HEALTH_CONNECTIONS}, ${HEALTH_SECONDS} s)`,
);
console.log(
  `  zhixing median ${int(hps.zhixing)} (${range(hp('zhixing', 'perCpu'), int)}) · bare node:http median ${int(hps.bare)} (${range(hp('bare', 'perCpu'), int)})` +
    ` · ratio ${(hps.zhixing / hps.bare).toFixed(2)}× (target ≥ ${int(TARGET_HEALTH_RPS)}) ${pass.rps ? 'PASS' : 'FAIL'}`,
);
console.log(
  `  per second of wall time: zhixing median ${int(median(hp('zhixing', 'wall')))} (${range(hp('zhixing', 'wall'), int)}) · bare median ${int(median(hp('bare', 'wall')))} (${range(hp('bare', 'wall'), int)})` +
    ' (lower when others share the core)',
);
process.exitCode = Object.values(pass).every(Boolean) ? 0 : 1;
