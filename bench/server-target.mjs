// The server side of bench/server.mjs, run as its own process (pinned to one core by the driver).
//   node --expose-gc bench/server-target.mjs zhixing   Zhixing's HTTP API (dist/), offline, in a temporary home
//   node --expose-gc bench/server-target.mjs bare      the baseline: bare node:http answering the same health JSON
//                                                      and writing the same SSE frames, with nothing else
// Driven over IPC: {cmd:'mem'} → memory after GC; {cmd:'emit', rate, seconds} → emits server-wide events at
// `rate` per second and answers with the CPU time the process used meanwhile; {cmd:'cpu'} → CPU time so far;
// {cmd:'exit'}.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const mode = process.argv[2];

async function zhixing() {
  const { loadConfig } = await import(join(root, 'dist/config/config.js'));
  const { createApp } = await import(join(root, 'dist/app.js'));
  const { createServer: createZhixingServer } = await import(join(root, 'dist/server/create-server.js'));
  const home = mkdtempSync(join(tmpdir(), 'zhixing-bench-'));
  const app = await createApp(loadConfig({ env: { ZHIXING_HOME: home }, cwd: home }));
  const server = await createZhixingServer({ app, port: 0, log: () => {} });
  return {
    port: server.port,
    // A status change goes through the bus to every GET /api/events client, as a real one does.
    emit: (i) => app.bus.emit({ type: 'session.status', sessionId: 'ses_bench', status: i % 2 ? 'busy' : 'idle' }),
    async close() {
      await server.close();
      app.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

async function bare() {
  const health = JSON.stringify({ ok: true, version: '0.1.0' });
  const streams = new Set();
  const server = createServer((req, res) => {
    if (req.url === '/api/health') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': health.length });
      return res.end(health);
    }
    if (req.url === '/api/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      streams.add(res);
      return res.on('close', () => streams.delete(res));
    }
    res.writeHead(404).end();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    emit(i) {
      const event = { type: 'session.status', sessionId: 'ses_bench', status: i % 2 ? 'busy' : 'idle' };
      const frame = `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
      for (const res of streams) res.write(frame);
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const target = mode === 'zhixing' ? await zhixing() : await bare();

function memory() {
  for (let i = 0; i < 3; i++) globalThis.gc();
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, external: m.external };
}

process.on('message', async (msg) => {
  if (msg.cmd === 'mem') process.send({ mem: memory() });
  if (msg.cmd === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send({ cpuMs: (user + system) / 1000 });
  }
  if (msg.cmd === 'emit') {
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    let i = 0;
    const timer = setInterval(() => target.emit(i++), 1000 / msg.rate);
    setTimeout(() => {
      clearInterval(timer);
      const cpu = process.cpuUsage(cpu0);
      const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
      process.send({ emitted: i, cpuMs: (cpu.user + cpu.system) / 1000, wallMs });
    }, msg.seconds * 1000);
  }
  if (msg.cmd === 'exit') {
    await target.close();
    process.exit(0);
  }
});
process.send({ ready: true, port: target.port });
