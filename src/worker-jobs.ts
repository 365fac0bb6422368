/**
 * Jobs on worker threads, each with a deadline: work whose cost an outsider sets (a schema and its
 * arguments, a command line) runs there, so the thread that serves every session never waits on it.
 * A worker is kept between jobs (idle-worker.ts); a job that overruns, runs out of memory or breaks
 * its worker takes that worker down, and the next job starts a fresh one. At most `maxRunning` jobs
 * run at once; the rest wait their turn, so a step of many calls does not start a thread for each.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { idleWorkers, type IdleWorkers } from './idle-worker.js';

/**
 * A built worker script, `relative` to dist/ (`shell/analyze-worker.js`), seen from the module at
 * `moduleUrl`; undefined when running from the TypeScript sources (tests), which a worker cannot load.
 */
export function builtWorkerFile(moduleUrl: string, relative: string): string | undefined {
  const here = fileURLToPath(moduleUrl);
  if (here.endsWith('.ts')) return undefined;
  // From dist/<folder>/ or from the bundle in dist/bundle/.
  for (let dir = path.dirname(here), i = 0; i < 4; dir = path.dirname(dir), i++) {
    const candidate = path.join(dir, relative);
    if (existsSync(candidate)) return candidate;
    const pkg = path.join(dir, 'package.json');
    if (existsSync(pkg) && /"name":\s*"zhixing"/.test(readFileSync(pkg, 'utf8'))) {
      const built = path.join(dir, 'dist', relative);
      return existsSync(built) ? built : undefined;
    }
  }
  return undefined;
}

/** A job's answer, or why there is none. */
export type JobResult<R> = { ok: true; reply: R } | { ok: false; why: 'time' | 'memory' | 'failed' };

export interface WorkerJobs<Q, R> {
  run(request: Q): Promise<JobResult<R>>;
  /** Ends the waiting worker, if any. */
  close(): Promise<void>;
}

export interface WorkerJobsOptions {
  /** Starts a worker that answers `{ id, ...request }` with `{ id, reply }`. */
  spawn(): Worker;
  idleMs: number;
  timeoutMs: number;
  maxRunning: number;
}

export function workerJobs<Q extends object, R>(o: WorkerJobsOptions): WorkerJobs<Q, R> {
  let workers: IdleWorkers | undefined;
  let nextId = 1;
  let running = 0;
  const waiting: (() => void)[] = [];

  const runOne = (request: Q): Promise<JobResult<R>> => {
    const pool = (workers ??= idleWorkers(o.spawn, o.idleMs));
    const worker = pool.take();
    const id = nextId++;
    return new Promise((resolve) => {
      const done = (result: JobResult<R>, keep: boolean) => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        if (keep) pool.park(worker);
        else void worker.terminate();
        resolve(result);
      };
      const onMessage = (message: { id: number; reply: R }) => {
        if (message.id === id) done({ ok: true, reply: message.reply }, true);
      };
      const onError = (err: NodeJS.ErrnoException) =>
        done({ ok: false, why: err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'failed' }, false);
      const onExit = () => done({ ok: false, why: 'failed' }, false);
      const timer = setTimeout(() => done({ ok: false, why: 'time' }, false), o.timeoutMs);
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      try {
        worker.postMessage({ ...request, id });
      } catch {
        done({ ok: false, why: 'failed' }, true);
      }
    });
  };

  return {
    async run(request) {
      // A finished job hands its place straight to the next in line.
      if (running >= o.maxRunning) await new Promise<void>((go) => waiting.push(go));
      else running++;
      try {
        return await runOne(request);
      } finally {
        const next = waiting.shift();
        if (next) next();
        else running--;
      }
    },
    async close() {
      await workers?.close();
    },
  };
}
