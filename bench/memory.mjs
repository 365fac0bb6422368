#!/usr/bin/env node
// Long-term memory search at scale: memory_search p95 at 100k and 1M memories (384 dimensions),
// lexical and hybrid, vector recall against exact search, a common keyword, and recall() before a step.
// Usage: node bench/memory.mjs [--quick]   (--quick: 100k only). Needs `npm run build` (dist/).
// The built databases are cached under $TMPDIR, keyed by BUILD_VERSION, so reruns skip the build.
import { existsSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { openDb } = await import(join(root, 'dist/store/db.js'));
const { createMemoriesRepo } = await import(join(root, 'dist/store/memories-repo.js'));
const { createMemoryVectorsRepo } = await import(join(root, 'dist/store/memory-vectors-repo.js'));
const { createSessionsRepo } = await import(join(root, 'dist/store/sessions-repo.js'));
const { createMemoryService, scopeToken, MIN_VECTOR_CANDIDATES } = await import(join(root, 'dist/memory/service.js'));
const { indexTerms } = await import(join(root, 'dist/memory/terms.js'));

/** Bump when the data or the schema changes: a cached database of another version is rebuilt. */
const BUILD_VERSION = 2;
const DIMS = 384;
const MODEL = 'bench-384';
const SESSIONS = 1000;
const TOPICS = 64;
const ROUNDS = 3;
const QUERIES = 100;
const RECALL_QUERIES = 20;
const quick = process.argv.includes('--quick');
const SCALES = quick ? [100_000] : [100_000, 1_000_000];
const TARGETS = { 100_000: { p95: 20 }, 1_000_000: { p95: 100, keyword: 10 } };
const MIN_RECALL = 0.95;

// Seeded, so every build and every run sees the same data and questions.
let seed = 0x9e3779b9;
const rand = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 4294967296;
};
const gauss = () => Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
const pick = (xs) => xs[Math.floor(rand() * xs.length)];

const ZH =
  '咖啡 过敏 花生 牛奶 跑步 游泳 北京 上海 医生 牙医 会议 周报 生日 电影 音乐 钢琴 吉他 猫咪 小狗 旅行 机票 酒店 火车 地铁 晚饭 早餐 午饭 茶叶 绿茶 红茶 米饭 面条 饺子 水果 苹果 香蕉 西瓜 葡萄 书店 小说 历史 数学 物理 化学 英语 日语 法语 项目 预算 合同 客户 老板 同事 孩子 学校 老师 考试 假期 周末 天气 下雨 雪天 手机 电脑 键盘 耳机 相机 照片 画画 瑜伽 健身 体重 睡眠 医院 药物 感冒 头痛 牙疼 眼镜 衣服 鞋子 帽子 围巾'.split(
    ' ',
  );
const EN =
  'coffee peanut allergy milk running swimming london paris doctor dentist meeting report birthday movie music piano guitar cat dog travel flight hotel train subway dinner breakfast lunch tea rice noodles dumplings fruit apple banana melon grape bookstore novel history math physics chemistry english japanese french project budget contract client manager colleague children school teacher exam holiday weekend weather rain snow phone laptop keyboard headphones camera photo painting yoga gym weight sleep hospital medicine cold headache glasses clothes shoes hat scarf'.split(
    ' ',
  );
const ZH_FRAME = ['用户喜欢', '用户不喜欢', '用户对', '用户每周', '用户提到', '用户的'];
const EN_FRAME = [
  'the user likes',
  'the user dislikes',
  'user mentioned',
  'every week the user',
  'the user is into',
  'user said',
];
const COMMON_ZH = '用户';
const COMMON_EN = 'user';

/** A memory's text: a frame with the common word, then words of its topic (mostly) and others. */
function text(topic) {
  const zh = rand() < 0.5;
  const words = zh ? ZH : EN;
  const n = 3 + Math.floor(rand() * 3);
  const parts = [pick(zh ? ZH_FRAME : EN_FRAME)];
  for (let i = 0; i < n; i++) parts.push(rand() < 0.7 ? words[(topic * 3 + i) % words.length] : pick(words));
  return zh ? parts.join('') + '。' : parts.join(' ') + '.';
}

function normalize(v) {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n) || 1;
  for (let i = 0; i < v.length; i++) v[i] /= n;
  return v;
}

/**
 * Vectors with structure at three scales, as meaning has: a topic, a subject within it, a detail within
 * that, then the memory's own noise. A memory's nearest are its detail's, then its subject's.
 */
const SUBJECTS = 32;
const DETAILS = 16;
function vectorOf(levels, topic) {
  const subject = Math.floor(rand() * SUBJECTS);
  const detail = Math.floor(rand() * DETAILS);
  const [a, b, c] = [
    levels.topics[topic],
    levels.subjects[topic * SUBJECTS + subject],
    levels.details[(topic * SUBJECTS + subject) * DETAILS + detail],
  ];
  const v = new Float32Array(DIMS);
  for (let i = 0; i < DIMS; i++) v[i] = a[i] + 0.8 * b[i] + 0.6 * c[i] + (0.5 * gauss()) / Math.sqrt(DIMS);
  return normalize(v);
}

function nearby(v, noise) {
  const q = new Float32Array(DIMS);
  for (let i = 0; i < DIMS; i++) q[i] = v[i] + (noise * gauss()) / Math.sqrt(DIMS);
  return normalize(q);
}

function build(path, n) {
  const t0 = Date.now();
  seed = 0x9e3779b9 ^ n;
  const tmp = `${path}.building`;
  rmSync(tmp, { force: true });
  const db = openDb(tmp);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  const sessions = createSessionsRepo(db);
  const repo = createMemoriesRepo(db);
  const vectors = createMemoryVectorsRepo(db);
  const unit = () => normalize(Float32Array.from({ length: DIMS }, gauss));
  const levels = {
    topics: Array.from({ length: TOPICS }, unit),
    subjects: Array.from({ length: TOPICS * SUBJECTS }, unit),
    details: Array.from({ length: TOPICS * SUBJECTS * DETAILS }, unit),
  };
  const ids = [];
  db.transaction(() => {
    for (let s = 0; s < SESSIONS; s++)
      ids.push(sessions.create(`ses_bench${String(s).padStart(5, '0')}`, `bench ${s}`, s).id);
    const BATCH = 1000;
    for (let i = 0; i < n; i += BATCH) {
      const rows = [];
      for (let j = i; j < Math.min(n, i + BATCH); j++) {
        const topic = Math.floor(rand() * TOPICS);
        const sessionId = ids[j % SESSIONS];
        const content = text(topic);
        repo.insert(
          { id: `mem_bench${j}`, sessionId, kind: 'fact', content, tags: [], createdAt: j, updatedAt: j },
          { scope: scopeToken(sessionId), terms: indexTerms(content) },
        );
        rows.push({ seq: j + 1, scope: scopeToken(sessionId), vector: vectorOf(levels, topic) });
      }
      vectors.put(MODEL, rows);
      if ((i / BATCH) % 100 === 0)
        process.stderr.write(`\r  building ${n}: ${i}/${n} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    }
  })();
  db.exec(
    "INSERT INTO memories_fts(memories_fts) VALUES ('optimize'); INSERT INTO memories_terms(memories_terms) VALUES ('optimize');",
  );
  db.close();
  renameSync(tmp, path);
  process.stderr.write(`\r  built ${n} memories in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
}

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const median = (xs) => percentile(xs, 50);
const f = (x) => x.toFixed(2);
const spread = (xs) => `${f(median(xs))} (${f(Math.min(...xs))}–${f(Math.max(...xs))})`;

async function timeEach(items, fn) {
  const times = [];
  for (const item of items) {
    const t0 = process.hrtime.bigint();
    await fn(item);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return times;
}

/** Exact top-k by cosine over every stored vector, for all queries in one pass. */
function exactTopK(db, queries, k) {
  const tops = queries.map(() => []);
  const floor = queries.map(() => -Infinity);
  for (const row of db.prepare('SELECT seq, vector FROM memory_vectors WHERE model = ?').iterate(MODEL)) {
    const v = new Float32Array(new Uint8Array(row.vector).buffer);
    queries.forEach((q, qi) => {
      let dot = 0;
      for (let i = 0; i < DIMS; i++) dot += q[i] * v[i];
      if (dot <= floor[qi]) return;
      const top = tops[qi];
      top.push({ seq: row.seq, dot });
      top.sort((a, b) => b.dot - a.dot);
      if (top.length > k) top.pop();
      if (top.length === k) floor[qi] = top[k - 1].dot;
    });
  }
  return tops.map((t) => t.map((x) => x.seq));
}

async function scale(n) {
  const path = join(process.env.TMPDIR || tmpdir(), `zhixing-bench-memory-v${BUILD_VERSION}-${n}.db`);
  if (!existsSync(path)) build(path, n);
  const db = openDb(path);
  const repo = createMemoriesRepo(db);
  const vectors = createMemoryVectorsRepo(db);
  seed = 0x51f15e ^ n;
  // Questions near stored memories (a paraphrase's vector), with the memory's text as the question.
  const sample = repo.bySeq(Array.from({ length: QUERIES }, () => 1 + Math.floor(rand() * n)));
  const stored = new Map(
    db
      .prepare('SELECT seq, vector FROM memory_vectors WHERE model = ? AND seq IN (SELECT value FROM json_each(?))')
      .all(MODEL, JSON.stringify(sample.map((m) => m.seq)))
      .map((r) => [r.seq, new Float32Array(new Uint8Array(r.vector).buffer)]),
  );
  const questions = sample.map((m) => ({
    text: m.content,
    sessionId: m.sessionId,
    vector: nearby(stored.get(m.seq), 0.3),
  }));
  const byText = new Map(questions.map((q) => [q.text, q.vector]));
  const embedder = {
    kind: 'remote',
    model: MODEL,
    embed: async (texts) => texts.map((t) => byText.get(t) ?? nearby(new Float32Array(DIMS).fill(1), 1)),
  };
  const lexicalOnly = createMemoryService({ repo, newId: () => 'x' });
  const hybrid = createMemoryService({ repo, vectors, embedder, newId: () => 'x' });
  const shortWords = [...ZH.slice(0, 50), ...EN.slice(0, 50)];
  const bm25All = db
    .prepare('SELECT rowid FROM memories_terms WHERE memories_terms MATCH ? ORDER BY bm25(memories_terms) LIMIT 10')
    .pluck();

  // Warm the caches and load sqlite-vec before timing.
  for (const q of questions.slice(0, 10)) await hybrid.search({ query: q.text, sessionId: q.sessionId, scope: 'all' });
  const rounds = {
    lexSession: [],
    lexAll: [],
    hybSession: [],
    hybAll: [],
    keyword: [],
    keywordBm25: [],
    short: [],
    recall: [],
  };
  for (let r = 0; r < ROUNDS; r++) {
    rounds.lexSession.push(
      percentile(await timeEach(questions, (q) => lexicalOnly.search({ query: q.text, sessionId: q.sessionId })), 95),
    );
    rounds.lexAll.push(
      percentile(
        await timeEach(questions, (q) => lexicalOnly.search({ query: q.text, sessionId: q.sessionId, scope: 'all' })),
        95,
      ),
    );
    rounds.hybSession.push(
      percentile(await timeEach(questions, (q) => hybrid.search({ query: q.text, sessionId: q.sessionId })), 95),
    );
    rounds.hybAll.push(
      percentile(
        await timeEach(questions, (q) => hybrid.search({ query: q.text, sessionId: q.sessionId, scope: 'all' })),
        95,
      ),
    );
    rounds.short.push(
      percentile(
        await timeEach(shortWords, (w) =>
          lexicalOnly.search({ query: w, sessionId: questions[0].sessionId, scope: 'all' }),
        ),
        95,
      ),
    );
    const common = Array.from({ length: 50 }, (_, i) => (i % 2 ? COMMON_ZH : COMMON_EN));
    rounds.keyword.push(
      percentile(
        await timeEach(common, (w) =>
          lexicalOnly.search({ query: w, sessionId: questions[0].sessionId, scope: 'all' }),
        ),
        95,
      ),
    );
    // The baseline: FTS5 ranking every match of the common word by bm25.
    rounds.keywordBm25.push(percentile(await timeEach(common.slice(0, 6), (w) => bm25All.all(`"${w}"`)), 95));
    rounds.recall.push(
      percentile(
        await timeEach(questions, (q) => hybrid.recall({ sessionId: q.sessionId, text: q.text, maxTokens: 500 })),
        95,
      ),
    );
  }

  // Vector recall@10 of the quantised search against exact cosine over every vector.
  const rq = questions.slice(0, RECALL_QUERIES);
  const t0 = process.hrtime.bigint();
  const exact = exactTopK(
    db,
    rq.map((q) => q.vector),
    10,
  );
  const exactMs = Number(process.hrtime.bigint() - t0) / 1e6 / rq.length;
  // At the service's own candidate count, and at more, to show what more would buy.
  const recall = {};
  for (const candidates of [...new Set([20, 30, MIN_VECTOR_CANDIDATES, 50])]) {
    let found = 0;
    const ms = await timeEach(
      rq.map((q, i) => [q, i]),
      ([q, i]) => {
        const got = new Set(vectors.nearest(MODEL, q.vector, { k: 10, candidates }).map((c) => c.seq));
        found += exact[i].filter((s) => got.has(s)).length;
      },
    );
    recall[candidates] = { recall: found / (rq.length * 10), ms: median(ms) };
  }
  hybrid.close();
  db.close();
  return { n, rounds, recall, exactMs };
}

if (process.argv.includes('--build-only')) {
  for (const n of SCALES) {
    const path = join(process.env.TMPDIR || tmpdir(), `zhixing-bench-memory-v${BUILD_VERSION}-${n}.db`);
    if (!existsSync(path)) build(path, n);
  }
  process.exit(0);
}
const results = [];
for (const n of SCALES) results.push(await scale(n));
let failed = false;
console.log(`memory bench (${ROUNDS} rounds of ${QUERIES} questions; p95 per round: median (min–max), ms)`);
for (const { n, rounds, recall, exactMs } of results) {
  const t = TARGETS[n];
  const check = (ms, target) =>
    target === undefined ? '' : median(ms) <= target ? ` ✓ ≤ ${target}` : ((failed = true), ` ✗ > ${target}`);
  console.log(`\n${n.toLocaleString('en')} memories, ${DIMS} dimensions, ${SESSIONS} sessions`);
  console.log(`  memory_search lexical, session:     ${spread(rounds.lexSession)}${check(rounds.lexSession, t.p95)}`);
  console.log(`  memory_search lexical, all:         ${spread(rounds.lexAll)}${check(rounds.lexAll, t.p95)}`);
  console.log(`  memory_search hybrid, session:      ${spread(rounds.hybSession)}${check(rounds.hybSession, t.p95)}`);
  console.log(`  memory_search hybrid, all:          ${spread(rounds.hybAll)}${check(rounds.hybAll, t.p95)}`);
  console.log(`  two-character / one-word query, all: ${spread(rounds.short)}`);
  console.log(
    `  common keyword (${COMMON_ZH}/${COMMON_EN}), all:  ${spread(rounds.keyword)}${check(rounds.keyword, t.keyword)}`,
  );
  console.log(
    `  — baseline: FTS5 bm25 over every match: ${spread(rounds.keywordBm25)} (${(median(rounds.keywordBm25) / median(rounds.keyword)).toFixed(0)}× slower)`,
  );
  console.log(`  recall() before a step, session:    ${spread(rounds.recall)}`);
  for (const [candidates, { recall: r, ms }] of Object.entries(recall)) {
    const mine = Number(candidates) === MIN_VECTOR_CANDIDATES;
    if (mine && r < MIN_RECALL) failed = true;
    const verdict = mine ? (r >= MIN_RECALL ? ` ✓ ≥ ${MIN_RECALL}` : ` ✗ < ${MIN_RECALL}`) : '';
    console.log(
      `  vector recall@10 vs exact, ${candidates} binary candidates${mine ? " (the service's)" : ''}: ${r.toFixed(3)}${verdict}, ${ms.toFixed(1)} ms median`,
    );
  }
  console.log(`  — baseline: exact brute force in JS over every vector: ${exactMs.toFixed(0)} ms a query`);
}
process.exitCode = failed ? 1 : 0;
