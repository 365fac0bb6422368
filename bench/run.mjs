#!/usr/bin/env node
// Benchmarks, each reported against a baseline measured in the same run.
// Usage: npm run bench  (builds nothing: run `npm install` or `npm run build` first)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (ms) => `${ms.toFixed(1)} ms`;
/** `min–max` of a sample, so a median is never read without its spread. */
const range = (xs, f = (x) => x.toFixed(1)) => `${f(Math.min(...xs))}–${f(Math.max(...xs))}`;

function timeCommand(cmd, args, env) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { env, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, stdout: r.stdout };
}

/** Offline one-shot `zhixing "(3+5)*2"` against `node -e 0`, interleaved so both see the same machine. */
function oneShot(runs) {
  const home = mkdtempSync(join(tmpdir(), 'zhixing-bench-'));
  const env = { ...process.env, ZHIXING_HOME: home, ZHIXING_OFFLINE: '1', NO_COLOR: '1' };
  const node = [];
  const cli = [];
  try {
    // Warm the file cache and create the database once, as a user's second call would find it.
    const first = timeCommand(join(root, 'bin', 'zhixing'), ['(3+5)*2'], env);
    if (!first.stdout.includes('16')) throw new Error(`unexpected reply: ${first.stdout}`);
    for (let i = 0; i < runs; i++) {
      node.push(timeCommand(process.execPath, ['-e', '0'], env).ms);
      cli.push(timeCommand(process.execPath, [join(root, 'bin', 'zhixing'), '(3+5)*2'], env).ms);
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  const base = median(node);
  const ours = median(cli);
  return { name: 'offline one-shot "(3+5)*2" vs node -e 0', base, ours, ratio: ours / base, limit: 3, spread: [range(node), range(cli)] };
}

/** Per-step cost of the loop itself (parse, validate, run, persist, emit) with an instant model and tool. */
async function stepOverhead(turns, stepsPerTurn) {
  const { loadConfig } = await import(join(root, 'dist/config/config.js'));
  const { createApp } = await import(join(root, 'dist/app.js'));
  const { defineTool } = await import(join(root, 'dist/tools/tool.js'));
  const { z } = await import('zod');
  const home = mkdtempSync(join(tmpdir(), 'zhixing-bench-'));
  // `tools`: each step calls the no-op tool with new arguments until the turn's last step answers.
  // `baseline`: the model answers at once (user message, one model step, the reply persisted).
  let script = 'tools';
  let step = 0;
  const llm = {
    mode: 'llm', provider: 'bench', model: 'instant',
    async *stream() {
      if (script === 'tools' && ++step <= stepsPerTurn) {
        yield { type: 'tool_call', call: { id: `c${step}`, name: 'noop', arguments: `{"n":${step}}` } };
      } else {
        step = 0;
        yield { type: 'text', delta: 'done' };
      }
      yield { type: 'finish', reason: 'stop' };
    },
  };
  const config = loadConfig({ env: { ZHIXING_HOME: home, ZHIXING_MAX_STEPS: String(stepsPerTurn + 1) }, cwd: home });
  const app = await createApp(config, { llm });
  app.tools.register(defineTool({ name: 'noop', description: 'does nothing', parameters: z.object({ n: z.number() }), execute: ({ n }) => String(n) }));
  const perStep = [];
  const baseline = [];
  try {
    for (let t = 0; t < turns; t++) {
      // Fresh sessions, so a growing history does not blur the numbers.
      script = 'baseline';
      let t0 = performance.now();
      await app.sessions.send(app.sessions.create('baseline').id, 'baseline');
      baseline.push((performance.now() - t0) * 1000);
      script = 'tools';
      t0 = performance.now();
      const r = await app.sessions.send(app.sessions.create('steps').id, `turn ${t}`);
      if (r.actions.length !== stepsPerTurn) throw new Error(`expected ${stepsPerTurn} steps, got ${r.actions.length}`);
      // Subtract the turn's fixed cost so what remains is the cost of the tool steps alone.
      perStep.push(((performance.now() - t0) * 1000 - baseline.at(-1)) / stepsPerTurn);
    }
  } finally {
    app.close();
    rmSync(home, { recursive: true, force: true });
  }
  const ours = median(perStep);
  const base = median(baseline);
  return {
    name: `agent overhead per tool step (${stepsPerTurn}-step turns) vs a turn with no tool step`,
    base, ours, ratio: ours / base, limitUs: 100, spread: [range(baseline), range(perStep)],
  };
}

/**
 * A turn in a session that once stored a 50 MB reply, against the same turn in a session without it.
 * The context is read from a window of recent messages by their stored sizes, so the giant message,
 * once outside the window, should cost nothing.
 */
async function hugeHistory(turns) {
  const { loadConfig } = await import(join(root, 'dist/config/config.js'));
  const { createApp } = await import(join(root, 'dist/app.js'));
  const Database = (await import('better-sqlite3')).default;
  const home = mkdtempSync(join(tmpdir(), 'zhixing-bench-'));
  const llm = {
    mode: 'llm', provider: 'bench', model: 'instant',
    async *stream() {
      yield { type: 'text', delta: 'ok' };
      yield { type: 'finish', reason: 'stop' };
    },
  };
  const config = loadConfig({ env: { ZHIXING_HOME: home }, cwd: home });
  const app = await createApp(config, { llm });
  const clean = app.sessions.create('clean').id;
  const heavy = app.sessions.create('heavy').id;
  for (const id of [clean, heavy]) for (let i = 0; i < 3; i++) await app.sessions.send(id, `warm-up ${i}`);
  // A 50 MB reply, as a version without limits could have stored it.
  const db = new Database(join(home, 'zhixing.db'));
  const msg = db.prepare("SELECT id FROM messages WHERE session_id = ? AND role = 'assistant' ORDER BY rowid LIMIT 1").get(heavy);
  db.prepare("UPDATE parts SET text = ? WHERE message_id = ? AND type = 'text'").run('z'.repeat(50_000_000), msg.id);
  db.prepare('UPDATE messages SET size = ? WHERE id = ?').run(50_000_000, msg.id);
  db.close();
  const base = [];
  const ours = [];
  try {
    for (let t = 0; t < turns; t++) {
      let t0 = performance.now();
      await app.sessions.send(clean, `turn ${t}`);
      base.push((performance.now() - t0) * 1000);
      t0 = performance.now();
      await app.sessions.send(heavy, `turn ${t}`);
      ours.push((performance.now() - t0) * 1000);
    }
  } finally {
    app.close();
    rmSync(home, { recursive: true, force: true });
  }
  const b = median(base);
  const o = median(ours);
  return { name: 'a turn after a 50 MB message in the session vs the same turn in a clean session', base: b, ours: o, ratio: o / b, limit: 1.5, spread: [range(base), range(ours)] };
}

const results = [oneShot(21), await stepOverhead(31, 50), await hugeHistory(31)];
const [a, b, c] = results;
console.log(`\n${a.name}`);
console.log(`  node -e 0 median ${fmt(a.base)} (${a.spread[0]}) · zhixing median ${fmt(a.ours)} (${a.spread[1]}) · ratio ${a.ratio.toFixed(2)}× (target ≤ ${a.limit}×) ${a.ratio <= a.limit ? 'PASS' : 'FAIL'}`);
console.log(`\n${b.name}`);
console.log(`  per tool step median ${b.ours.toFixed(1)} µs (${b.spread[1]}) (target ≤ ${b.limitUs} µs) ${b.ours <= b.limitUs ? 'PASS' : 'FAIL'} · no-tool turn median ${b.base.toFixed(1)} µs (${b.spread[0]}) · ratio ${b.ratio.toFixed(2)}×`);
console.log(`\n${c.name}`);
console.log(`  clean median ${c.base.toFixed(1)} µs (${c.spread[0]}) · after 50 MB median ${c.ours.toFixed(1)} µs (${c.spread[1]}) · ratio ${c.ratio.toFixed(2)}× (target ≤ ${c.limit}×) ${c.ratio <= c.limit ? 'PASS' : 'FAIL'}`);
process.exitCode = a.ratio <= a.limit && b.ours <= b.limitUs && c.ratio <= c.limit ? 0 : 1;
