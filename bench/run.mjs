#!/usr/bin/env node
// Benchmarks, each reported against a baseline measured in the same run.
// Usage: npm run bench  (builds nothing: run `npm install` or `npm run build` first)
import { spawn, spawnSync } from 'node:child_process';
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

/** bench/model-server.mjs in a process of its own: a local OpenAI-format service that answers at once. */
async function startModelServer() {
  const child = spawn(process.execPath, [join(root, 'bench', 'model-server.mjs')], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout.once('data', (d) => resolve(String(d).trim()));
  });
  return { url, stop: () => child.stdin.end() };
}

/**
 * One-shot `zhixing "(3+5)*2"` against `node -e 0`, interleaved so all see the same machine: offline
 * (the planner and the calculator), with a model (a local OpenAI-format server answering in one
 * step), and offline with the compile cache off, as the very first run after an install would be.
 */
async function oneShot(runs) {
  const home = mkdtempSync(join(tmpdir(), 'zhixing-bench-'));
  const modelHome = mkdtempSync(join(tmpdir(), 'zhixing-bench-'));
  const server = await startModelServer();
  // The compile cache in the bench's own folder, warmed by the first run as a user's first call warms theirs.
  const base = { ...process.env, NO_COLOR: '1', ZHIXING_CACHE_DIR: join(home, 'cache') };
  const offline = { ...base, ZHIXING_HOME: home, ZHIXING_OFFLINE: '1' };
  const cold = { ...offline, ZHIXING_CACHE_DIR: 'off' };
  const model = {
    ...base,
    ZHIXING_HOME: modelHome,
    ZHIXING_BASE_URL: server.url,
    ZHIXING_API_KEY: 'sk-bench-0000000000000000',
    ZHIXING_MODEL: 'bench',
  };
  const bin = join(root, 'bin', 'zhixing');
  const times = { node: [], offline: [], model: [], cold: [] };
  try {
    // Warm the file cache and create the databases once, as a user's second call would find them.
    for (const env of [offline, model]) {
      const first = timeCommand(process.execPath, [bin, '(3+5)*2'], env);
      if (!first.stdout.includes('16')) throw new Error(`unexpected reply: ${first.stdout}`);
    }
    for (let i = 0; i < runs; i++) {
      times.node.push(timeCommand(process.execPath, ['-e', '0'], offline).ms);
      times.offline.push(timeCommand(process.execPath, [bin, '(3+5)*2'], offline).ms);
      times.model.push(timeCommand(process.execPath, [bin, '(3+5)*2'], model).ms);
      times.cold.push(timeCommand(process.execPath, [bin, '(3+5)*2'], cold).ms);
    }
  } finally {
    server.stop();
    rmSync(home, { recursive: true, force: true });
    rmSync(modelHome, { recursive: true, force: true });
  }
  const node = median(times.node);
  const line = (name, xs, limit) => ({
    name,
    base: node,
    ours: median(xs),
    ratio: median(xs) / node,
    limit,
    spread: [range(times.node), range(xs)],
  });
  return [
    line('offline one-shot "(3+5)*2" vs node -e 0', times.offline, 3),
    line('one-shot "(3+5)*2" with a model (local OpenAI-format server) vs node -e 0', times.model, 3),
    line('offline one-shot, compile cache off (a first run) vs node -e 0', times.cold, undefined),
  ];
}

/**
 * What a tool step costs beyond the work it must do, against a bare loop in the same run that does
 * that work and nothing else: parse the call's arguments, validate them with the same zod schema,
 * call the same function, insert one row (better-sqlite3, autocommit, WAL, synchronous=NORMAL, so
 * each step is on disk as it happens). Zhixing's step also checks the repeat guard, runs the tool
 * under the registry's rules, stores the step (assistant message, tool part, usage) and numbers,
 * emits and stores its four events.
 *
 * `instant` (the target): the model and the tool answer at once, so a turn's steps run in one
 * event-loop tick and their writes are committed together at its end (the store's group commit).
 * A turn with no tool step, run just before, is subtracted and the rest divided by the number of
 * steps; the bare loop's as many steps are timed just before that. The overhead is the difference,
 * sample by sample (paired, so both sides of a sample share the machine's state). Turns are short
 * (10 steps, under a millisecond) so that on a shared machine a timed span seldom holds another
 * process's time slice: with 50-step turns (3 ms) most spans did, and the median measured them.
 *
 * `each`: the model answers after an event-loop turn, as any real model does, so each step is
 * committed on its own before the next (what a crash would find). Each step is timed on its own,
 * from one model call to the next; the bare loop waits the same event-loop turn before each step.
 */
async function stepOverhead({ turns, stepsPerTurn, eachTurns, eachSteps }) {
  const { loadConfig } = await import(join(root, 'dist/config/config.js'));
  const { createApp } = await import(join(root, 'dist/app.js'));
  const { defineTool } = await import(join(root, 'dist/tools/tool.js'));
  const { z } = await import('zod');
  const Database = (await import('better-sqlite3')).default;
  const home = mkdtempSync(join(tmpdir(), 'zhixing-bench-'));
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  // `tools`: each step calls the no-op tool with new arguments until the turn's last step answers.
  // `baseline`: the model answers at once (user message, one model step, the reply persisted).
  let script = 'tools';
  let waits = false;
  let step = 0;
  let calls = [];
  const llm = {
    mode: 'llm',
    provider: 'bench',
    model: 'instant',
    async *stream() {
      calls.push(performance.now());
      if (waits) await tick();
      if (script === 'tools' && ++step <= perTurn) {
        yield { type: 'tool_call', call: { id: `c${step}`, name: 'noop', arguments: `{"n":${step}}` } };
      } else {
        step = 0;
        yield { type: 'text', delta: 'done' };
      }
      yield { type: 'finish', reason: 'stop' };
    },
  };
  const parameters = z.object({ n: z.number() });
  const execute = ({ n }) => String(n);
  let perTurn = stepsPerTurn;
  const config = loadConfig({
    env: { ZHIXING_HOME: home, ZHIXING_MAX_STEPS: String(Math.max(stepsPerTurn, eachSteps) + 1) },
    cwd: home,
  });
  const app = await createApp(config, { llm });
  app.tools.register(defineTool({ name: 'noop', description: 'does nothing', parameters, execute }));

  const bare = new Database(join(home, 'bare.db'));
  bare.pragma('journal_mode = WAL');
  bare.pragma('synchronous = NORMAL');
  bare.exec(
    'CREATE TABLE steps (id INTEGER PRIMARY KEY, call_id TEXT NOT NULL, tool TEXT NOT NULL, input TEXT NOT NULL, output TEXT NOT NULL, created_at INTEGER NOT NULL)',
  );
  const insert = bare.prepare('INSERT INTO steps (call_id, tool, input, output, created_at) VALUES (?, ?, ?, ?, ?)');
  const bareStep = (s) => {
    const args = `{"n":${s}}`;
    const input = parameters.parse(JSON.parse(args));
    insert.run(`c${s}`, 'noop', args, execute(input), Date.now());
  };
  const send = async (title, text) => {
    const r = await app.sessions.send(app.sessions.create(title).id, text);
    if (script === 'tools' && r.actions.length !== perTurn)
      throw new Error(`expected ${perTurn} steps, got ${r.actions.length}`);
  };

  const instant = { ours: [], bare: [], overhead: [], baseline: [] };
  const each = { ours: [], bare: [] };
  try {
    for (let t = 0; t < turns; t++) {
      let t0 = performance.now();
      for (let s = 1; s <= stepsPerTurn; s++) bareStep(s);
      instant.bare.push(((performance.now() - t0) * 1000) / stepsPerTurn);
      // Fresh sessions, so a growing history does not blur the numbers.
      script = 'baseline';
      t0 = performance.now();
      await send('baseline', 'baseline');
      instant.baseline.push((performance.now() - t0) * 1000);
      script = 'tools';
      t0 = performance.now();
      await send('steps', `turn ${t}`);
      instant.ours.push(((performance.now() - t0) * 1000 - instant.baseline.at(-1)) / stepsPerTurn);
      instant.overhead.push(instant.ours.at(-1) - instant.bare.at(-1));
    }
    waits = true;
    perTurn = eachSteps;
    for (let t = 0; t < eachTurns; t++) {
      let last = performance.now();
      for (let s = 1; s <= perTurn; s++) {
        await tick();
        bareStep(s);
        const now = performance.now();
        each.bare.push((now - last) * 1000);
        last = now;
      }
      calls = [];
      await send('steps', `turn ${t}`);
      // From one model call to the next: the step, its tool, its writes committed, the wait for the model.
      for (let i = 1; i <= perTurn; i++) each.ours.push((calls[i] - calls[i - 1]) * 1000);
    }
  } finally {
    app.close();
    bare.close();
    rmSync(home, { recursive: true, force: true });
  }
  const summary = (xs) => ({ median: median(xs), range: range(xs) });
  return {
    name: 'overhead per tool step vs a bare parse-validate-call-insert loop',
    limitUs: 100,
    turns,
    stepsPerTurn,
    eachTurns,
    eachSteps,
    instant: Object.fromEntries(Object.entries(instant).map(([k, v]) => [k, summary(v)])),
    each: { ours: summary(each.ours), bare: summary(each.bare), overhead: median(each.ours) - median(each.bare) },
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
    mode: 'llm',
    provider: 'bench',
    model: 'instant',
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
  const msg = db
    .prepare("SELECT id FROM messages WHERE session_id = ? AND role = 'assistant' ORDER BY rowid LIMIT 1")
    .get(heavy);
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
  return {
    name: 'a turn after a 50 MB message in the session vs the same turn in a clean session',
    base: b,
    ours: o,
    ratio: o / b,
    limit: 1.5,
    spread: [range(base), range(ours)],
  };
}

const shots = await oneShot(41);
const steps = await stepOverhead({ turns: 1001, stepsPerTurn: 10, eachTurns: 41, eachSteps: 50 });
const huge = await hugeHistory(31);
const passes = [];
for (const a of shots) {
  const verdict = a.limit === undefined ? '' : ` (target ≤ ${a.limit}×) ${a.ratio <= a.limit ? 'PASS' : 'FAIL'}`;
  if (a.limit !== undefined) passes.push(a.ratio <= a.limit);
  console.log(`\n${a.name}`);
  console.log(
    `  node -e 0 median ${fmt(a.base)} (${a.spread[0]}) · zhixing median ${fmt(a.ours)} (${a.spread[1]}) · ratio ${a.ratio.toFixed(2)}×${verdict}`,
  );
}
const { instant, each } = steps;
const us = (x) => `${x.median.toFixed(1)} µs (${x.range})`;
passes.push(instant.overhead.median <= steps.limitUs);
console.log(`\n${steps.name}`);
console.log(
  `  instant model, ${steps.turns} turns of ${steps.stepsPerTurn} steps: overhead median ${us(instant.overhead)} (target ≤ ${steps.limitUs} µs) ${instant.overhead.median <= steps.limitUs ? 'PASS' : 'FAIL'}` +
    ` · zhixing per step ${us(instant.ours)} · bare loop per step ${us(instant.bare)} · no-tool turn ${us(instant.baseline)}`,
);
console.log(
  `  a commit per step (the model answers after an event-loop turn), ${steps.eachTurns} turns of ${steps.eachSteps} steps: zhixing per step ${us(each.ours)}` +
    ` · bare loop per step ${us(each.bare)} · overhead ${each.overhead.toFixed(1)} µs`,
);
passes.push(huge.ratio <= huge.limit);
console.log(`\n${huge.name}`);
console.log(
  `  clean median ${huge.base.toFixed(1)} µs (${huge.spread[0]}) · after 50 MB median ${huge.ours.toFixed(1)} µs (${huge.spread[1]}) · ratio ${huge.ratio.toFixed(2)}× (target ≤ ${huge.limit}×) ${huge.ratio <= huge.limit ? 'PASS' : 'FAIL'}`,
);
process.exitCode = passes.every(Boolean) ? 0 : 1;
