// Cost of undo's workspace snapshots on a workspace of 5,000 small files (20 MB in all): the first
// snapshot (every file read and copied), the state a turn left (one file changed), and the next
// turn's snapshot (hashes reused from the stat, one file read). Run after `npm run build`:
// node bench/undo-snapshot.mjs [files] [total MB]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createStore } from '../dist/store/store.js';
import { createWorkspaceUndo } from '../dist/undo/undo.js';

const FILES = Number(process.argv[2] ?? 5_000);
const TOTAL_MB = Number(process.argv[3] ?? 20);
/** The second snapshot must not make a turn's first write feel slow. */
const TARGET_SECOND_MS = 300;
const RUNS = 5;

const root = mkdtempSync(join(tmpdir(), 'zhixing-bench-undo-'));
try {
  const rows = [];
  for (let run = 0; run < RUNS; run++) rows.push(await once(join(root, String(run))));
  const median = (k) => rows.map((r) => r[k]).sort((a, b) => a - b)[Math.floor(rows.length / 2)];
  const fmt = (k) =>
    `${median(k).toFixed(1)} ms (${Math.min(...rows.map((r) => r[k])).toFixed(1)}–${Math.max(...rows.map((r) => r[k])).toFixed(1)})`;
  console.log(`${FILES} files, ${TOTAL_MB} MB, ${RUNS} runs, medians (min–max):`);
  console.log(`  first snapshot (reads and copies everything): ${fmt('first')}`);
  console.log(`  end of that turn (one file changed):          ${fmt('after')}`);
  console.log(`  next turn's snapshot (one file changed):       ${fmt('second')}`);
  console.log(`  undo of that turn:                             ${fmt('undo')}`);
  console.log(`  a snapshot in a new process (manifest from the database): ${fmt('cold')}`);
  if (median('second') > TARGET_SECOND_MS || median('cold') > TARGET_SECOND_MS) {
    console.log(`MISSED: the second snapshot took more than ${TARGET_SECOND_MS} ms`);
    process.exitCode = 1;
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}

async function once(dir) {
  const workspace = join(dir, 'workspace');
  const size = Math.floor((TOTAL_MB * 1024 * 1024) / FILES);
  for (let i = 0; i < FILES; i++) {
    // 50 files a folder, like a source tree.
    const folder = join(workspace, `d${Math.floor(i / 50)}`);
    if (i % 50 === 0) mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `f${i}.txt`), Buffer.alloc(size, `${i} `));
  }
  const store = createStore(join(dir, 'z.db'));
  const undo = createWorkspaceUndo({ repo: store.snapshots, dir: join(dir, 'snapshots'), workspace });
  const session = store.sessions.create('ses_bench', '', Date.now()).id;
  const time = async (fn) => {
    const t = performance.now();
    await fn();
    return performance.now() - t;
  };
  const first = await time(() => undo.before(session, 'trn_1'));
  writeFileSync(join(workspace, 'd0', 'f0.txt'), 'changed by turn 1');
  const after = await time(() => undo.after('trn_1'));
  const second = await time(() => undo.before(session, 'trn_2'));
  writeFileSync(join(workspace, 'd1', 'f50.txt'), 'changed by turn 2');
  undo.after('trn_2');
  const undone = await time(() => undo.undo(session, 'en'));
  // A one-shot CLI run starts with nothing in memory: the previous manifest comes from the database.
  writeFileSync(join(workspace, 'd2', 'f100.txt'), 'changed by hand');
  const fresh = createWorkspaceUndo({ repo: store.snapshots, dir: join(dir, 'snapshots'), workspace });
  const cold = await time(() => fresh.before(session, 'trn_3'));
  store.close();
  return { first, after, second, undo: undone, cold };
}
