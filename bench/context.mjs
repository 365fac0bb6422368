#!/usr/bin/env node
// The cost of a turn as a session grows: 1k, 10k and 50k stored messages, through the real app
// (offline planner, the calculator tool), each size in a fresh process so peak memory is its own.
// Target: a turn at 50k within 1.5× of one at 1k, medians, measured in the same run.
// Usage: node bench/context.mjs [runs]   (run `npm run build` first)
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SIZES = [1_000, 10_000, 50_000];
const WARM_TURNS = 2;
const TURNS = 15;
const LIMIT = 1.5;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const range = (xs, f = (x) => x.toFixed(1)) => `${f(Math.min(...xs))}–${f(Math.max(...xs))}`;

async function openApp(home, env = {}) {
  const { loadConfig } = await import(join(root, 'dist/config/config.js'));
  const { createApp } = await import(join(root, 'dist/app.js'));
  const config = loadConfig({
    env: { ZHIXING_HOME: home, ZHIXING_OFFLINE: '1', ZHIXING_LANG: 'en', ...env },
    cwd: home,
  });
  return createApp(config, { warn: () => {} });
}

/** A session of `n` messages written in one transaction: a question, a tool call with its result, an answer. */
async function build(home, n) {
  const app = await openApp(home);
  const { store } = app;
  const session = app.sessions.create('bench');
  let t = Date.now() - n * 1_000;
  store.transaction(() => {
    for (let i = 0; i * 3 < n; i++) {
      const turnId = `trn_b${i}`;
      const add = (role, part) =>
        store.messages.addMessage({ id: store.newId('msg'), sessionId: session.id, turnId, role, now: t++ }, [
          { id: store.newId('prt'), now: t, ...part },
        ]);
      add('user', {
        type: 'text',
        text: `Question ${i}: what does notes-${i % 50}.md say about the plan for week ${i % 52}?`,
      });
      add('assistant', {
        type: 'tool',
        callId: `c${i}`,
        tool: 'file_read',
        input: { path: `notes-${i % 50}.md` },
        state: 'completed',
        output: `week ${i % 52}: ${'ship the draft, review it, then send it on. '.repeat(8)}`,
        ms: 1,
      });
      add('assistant', {
        type: 'text',
        text: `notes-${i % 50}.md says week ${i % 52} is for shipping the draft and reviewing it.`,
      });
    }
  });
  app.close();
}

/** In a child: warm-up turns, then timed ones; prints the times and the memory. */
async function child(home, env) {
  const app = await openApp(home, env);
  const session = app.sessions.mostRecent();
  const times = [];
  for (let i = 0; i < WARM_TURNS + TURNS; i++) {
    const t0 = performance.now();
    const r = await app.sessions.send(session.id, '(3+5)*2');
    const ms = performance.now() - t0;
    if (!r.reply.includes('16')) throw new Error(`unexpected reply: ${r.reply}`);
    if (i >= WARM_TURNS) times.push(ms);
  }
  app.close();
  process.stdout.write(
    JSON.stringify({
      times,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
      heapMb: process.memoryUsage().heapUsed / 2 ** 20,
    }),
  );
}

function measure(templates, runs, env) {
  const out = Object.fromEntries(SIZES.map((n) => [n, { times: [], rss: [], heap: [], runMedians: [] }]));
  for (let r = 0; r < runs; r++) {
    // Interleaved, so every size sees the same machine.
    for (const n of SIZES) {
      const home = mkdtempSync(join(tmpdir(), 'zhixing-bench-ctx-'));
      copyFileSync(join(templates[n], 'zhixing.db'), join(home, 'zhixing.db'));
      const c = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', home, JSON.stringify(env)], {
        encoding: 'utf8',
      });
      rmSync(home, { recursive: true, force: true });
      if (c.status !== 0) throw new Error(`the child for ${n} messages failed: ${c.stderr}`);
      const m = JSON.parse(c.stdout);
      out[n].times.push(...m.times);
      out[n].runMedians.push(median(m.times));
      out[n].rss.push(m.maxRssMb);
      out[n].heap.push(m.heapMb);
    }
  }
  return out;
}

function report(name, out) {
  const base = median(out[SIZES[0]].times);
  const baseRss = median(out[SIZES[0]].rss);
  console.log(`\n${name}`);
  let pass = true;
  for (const n of SIZES) {
    const o = out[n];
    const ratio = median(o.times) / base;
    const verdict = n === SIZES.at(-1) ? ` (target ≤ ${LIMIT}×) ${ratio <= LIMIT ? 'PASS' : 'FAIL'}` : '';
    if (n === SIZES.at(-1)) pass = ratio <= LIMIT;
    console.log(
      `  ${String(n).padStart(6)} messages: turn median ${median(o.times).toFixed(2)} ms (${range(o.times)}, ${o.times.length} turns) ${ratio.toFixed(2)}×${verdict}` +
        ` · peak RSS ${median(o.rss).toFixed(0)} MB (${range(o.rss, (x) => x.toFixed(0))}) ${(median(o.rss) / baseRss).toFixed(2)}× · heap ${median(o.heap).toFixed(1)} MB`,
    );
  }
  return pass;
}

if (process.argv[2] === '--child') {
  await child(process.argv[3], JSON.parse(process.argv[4] ?? '{}'));
} else {
  const runs = Number(process.argv[2] ?? 7);
  const templates = {};
  try {
    for (const n of SIZES) {
      templates[n] = mkdtempSync(join(tmpdir(), 'zhixing-bench-ctx-'));
      await build(templates[n], n);
    }
    const on = measure(templates, runs, {});
    const off = measure(templates, runs, { ZHIXING_COMPACTION: '0' });
    const passes = [
      report(
        `a turn (offline planner, one tool step) in a session of 1k / 10k / 50k stored messages, compaction on (its first turn compacts, before the timed ones); ${runs} processes per size, ${TURNS} turns each`,
        on,
      ),
      report('the same with compaction off (windowing only)', off),
    ];
    process.exitCode = passes.every(Boolean) ? 0 : 1;
  } finally {
    for (const dir of Object.values(templates)) rmSync(dir, { recursive: true, force: true });
  }
}
