#!/usr/bin/env node
// Runs the held-out phrasings (eval/offline/heldout.jsonl) through the real app in offline mode and
// prints the hit rate, overall and per kind, and every miss with what happened instead.
//
//   node eval/offline/run.mjs [--json] [--only ID_OR_KIND[,…]] [FILE]
//
// Runs what is built in dist/ (`npm run eval:offline` builds it first). Always exits 0 when the set
// ran: it is a measurement, not a gate (test/offline-heldout.e2e.test.ts is the gate).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { check, NOW_ISO, NOW_ZONE } from './check.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..');

// ---------------------------------------------------------------- the fixed "now"
const NOW_MS = Date.parse(NOW_ISO);

// The zone and the clock are set before the app is loaded, so everything in it (the planner, the
// tools, the store) sees the same "now". The clock moves on with real time from the fixed instant.
process.env.TZ = NOW_ZONE;
const RealDate = Date;
let clockBase = NOW_MS;
let realBase = RealDate.now();
const clockNow = () => clockBase + (RealDate.now() - realBase);
const resetClock = () => {
  clockBase = NOW_MS;
  realBase = RealDate.now();
};
class FixedDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(clockNow());
    else super(...args);
  }
  static now() {
    return clockNow();
  }
}
globalThis.Date = FixedDate;

// ---------------------------------------------------------------- arguments
const args = process.argv.slice(2);
const json = args.includes('--json');
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? new Set((args[onlyAt + 1] ?? '').split(',').filter(Boolean)) : undefined;
const fileArg = args.find((a, i) => !a.startsWith('--') && (onlyAt < 0 || i !== onlyAt + 1));
const file = resolve(fileArg ?? join(HERE, 'heldout.jsonl'));

const DIST_APP = join(ROOT, 'dist', 'app.js');
if (!existsSync(DIST_APP)) {
  process.stderr.write('dist/ is not built: run `npm run eval:offline` (or `npm run build`) first.\n');
  process.exit(1);
}
const { createApp } = await import(pathToFileURL(DIST_APP).href);
const { loadConfig } = await import(pathToFileURL(join(ROOT, 'dist', 'config', 'config.js')).href);

/** How long one turn may take before the case counts as a miss. */
const TURN_TIMEOUT_MS = 15_000;

// ---------------------------------------------------------------- weather stand-in
/** Open-Meteo on 127.0.0.1 from the recorded fixtures: any name is found (the recorded place, renamed). */
async function startWeather() {
  const dir = join(ROOT, 'test', 'fixtures', 'weather');
  const geocoding = JSON.parse(readFileSync(join(dir, 'open-meteo-geocoding-enschede.json'), 'utf8'));
  const forecast = readFileSync(join(dir, 'open-meteo-forecast-current-subset.json'), 'utf8');
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    res.setHeader('content-type', 'application/json');
    if (url.pathname === '/v1/search') {
      const name = url.searchParams.get('name') ?? '';
      return res.end(JSON.stringify({ ...geocoding, results: [{ ...geocoding.results[0], name }] }));
    }
    if (url.pathname === '/v1/forecast') return res.end(forecast);
    res.statusCode = 404;
    res.end('{}');
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${server.address().port}`;
  return {
    env: { ZHIXING_GEOCODING_URL: `${base}/v1/search`, ZHIXING_WEATHER_URL: `${base}/v1/forecast` },
    close: () => new Promise((r) => server.close(() => r())),
  };
}

// ---------------------------------------------------------------- one case
async function runCase(c, weatherEnv) {
  resetClock();
  const home = mkdtempSync(join(tmpdir(), 'zhixing-heldout-'));
  let app;
  try {
    const env = { ZHIXING_HOME: home, ZHIXING_OFFLINE: '1', ...weatherEnv };
    const config = loadConfig({ env, cwd: home });
    app = await createApp(config, { autoApprove: true });

    for (const t of c.setup?.todos ?? []) {
      const row = app.store.todos.add(t.content, t.due ?? null, Date.now());
      if (t.done) app.store.todos.markDone(row.id, Date.now());
    }
    for (const [path, content] of Object.entries(c.setup?.files ?? {})) {
      const target = join(app.workspace, path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, content);
    }

    const session = app.sessions.create().id;
    const send = (text) => app.sessions.send(session, text, { signal: AbortSignal.timeout(TURN_TIMEOUT_MS) });
    const prior = [];
    for (const text of c.prior ?? []) {
      try {
        const r = await send(text);
        prior.push({
          message: text,
          reply: r.reply,
          calls: r.actions.map((a) => ({ tool: a.tool, input: a.input, ok: a.ok })),
        });
      } catch (err) {
        prior.push({ message: text, error: String(err?.message ?? err) });
      }
    }
    const result = await send(c.message);

    const files = {};
    for (const path of Object.keys(c.expect.files ?? {})) {
      try {
        files[path] = readFileSync(join(app.workspace, path), 'utf8');
      } catch {
        /* absent */
      }
    }
    const state = {
      todos: app.store.todos.list().map((t) => ({ content: t.content, due: t.due, done: t.done })),
      files,
    };
    const matchEnv = { workspaces: [...new Set([app.workspace, config.workspace])] };
    const reasons = check(c, { reply: result.reply, actions: result.actions }, state, matchEnv);
    if (result.stopReason === 'aborted') reasons.unshift(`the turn did not finish within ${TURN_TIMEOUT_MS / 1000} s`);
    return {
      reasons,
      reply: result.reply,
      calls: result.actions.map((a) => ({ tool: a.tool, input: a.input, ok: a.ok, output: a.output })),
      ...(c.expect.todos ? { todos: state.todos } : {}),
      ...(c.expect.files ? { files } : {}),
      ...(prior.length ? { prior } : {}),
    };
  } catch (err) {
    return { reasons: [`the turn failed: ${err?.message ?? err}`], reply: '', calls: [] };
  } finally {
    app?.close();
    rmSync(home, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- the set
const cases = readFileSync(file, 'utf8')
  .split('\n')
  .map((line, i) => ({ line: line.trim(), n: i + 1 }))
  .filter(({ line }) => line && !line.startsWith('//'))
  .map(({ line, n }) => {
    try {
      return JSON.parse(line);
    } catch (err) {
      throw new Error(`${file}:${n}: ${err.message}`, { cause: err });
    }
  })
  .filter((c) => !only || only.has(c.id) || only.has(c.kind));

const started = performance.now();
const weather = await startWeather();
const results = [];
try {
  for (const c of cases) results.push({ case: c, ...(await runCase(c, weather.env)) });
} finally {
  await weather.close();
}
const seconds = (performance.now() - started) / 1000;

const tally = (key) => {
  const groups = {};
  for (const r of results) {
    const g = (groups[r.case[key]] ??= { total: 0, hits: 0, rate: 0 });
    g.total += 1;
    if (r.reasons.length === 0) g.hits += 1;
  }
  for (const g of Object.values(groups)) g.rate = g.hits / g.total;
  return groups;
};
const hits = results.filter((r) => r.reasons.length === 0).length;
const summary = {
  set: file,
  now: NOW_ISO,
  timeZone: NOW_ZONE,
  total: results.length,
  hits,
  rate: results.length ? hits / results.length : 0,
  byKind: tally('kind'),
  byLang: tally('lang'),
  seconds: Math.round(seconds * 10) / 10,
  cases: results.map((r) => ({
    id: r.case.id,
    kind: r.case.kind,
    lang: r.case.lang,
    hit: r.reasons.length === 0,
    message: r.case.message,
    ...(r.reasons.length ? { reasons: r.reasons } : {}),
    reply: r.reply,
    calls: r.calls,
    ...(r.todos ? { todos: r.todos } : {}),
    ...(r.files ? { files: r.files } : {}),
    ...(r.prior ? { prior: r.prior } : {}),
  })),
};

let text;
if (json) {
  text = `${JSON.stringify(summary)}\n`;
} else {
  const pct = (g) => `${(g.rate * 100).toFixed(1)}%`.padStart(6);
  const cut = (s, n) => {
    const one = String(s).replace(/\s*\n\s*/g, ' ⏎ ');
    return one.length > n ? `${one.slice(0, n)}…` : one;
  };
  const out = [];
  out.push(`Offline planner, held-out set ${file.startsWith(ROOT) ? file.slice(ROOT.length + 1) : file}`);
  out.push(`now = ${NOW_ISO} (${NOW_ZONE}, Thursday)`);
  out.push('');
  const misses = summary.cases.filter((c) => !c.hit);
  if (misses.length) {
    out.push(`Misses (${misses.length}):`);
    for (const m of misses) {
      out.push(`- ${m.id} [${m.kind}/${m.lang}] ${cut(m.message, 100)}`);
      for (const r of m.reasons) out.push(`    ✗ ${cut(r, 160)}`);
      const calls = m.calls.length
        ? m.calls.map((a) => `${a.tool}(${cut(JSON.stringify(a.input), 60)})${a.ok ? '' : ' failed'}`).join(' → ')
        : 'none';
      out.push(`    calls: ${calls}`);
      out.push(`    reply: ${cut(m.reply, 160)}`);
    }
    out.push('');
  }
  out.push('Per kind:');
  for (const [kind, g] of Object.entries(summary.byKind))
    out.push(`  ${kind.padEnd(13)} ${String(g.hits).padStart(3)}/${String(g.total).padEnd(3)} ${pct(g)}`);
  out.push('Per language:');
  for (const [lang, g] of Object.entries(summary.byLang))
    out.push(`  ${lang.padEnd(13)} ${String(g.hits).padStart(3)}/${String(g.total).padEnd(3)} ${pct(g)}`);
  out.push('');
  out.push(`Hit rate: ${hits}/${results.length} = ${(summary.rate * 100).toFixed(1)}%  (${summary.seconds} s)`);
  text = `${out.join('\n')}\n`;
}
// Exit once the output is written out: a pipe takes it in pieces.
process.stdout.write(text, () => process.exit(0));
