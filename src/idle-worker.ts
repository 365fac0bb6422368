/**
 * One worker thread kept between jobs: the next job takes it instead of starting a thread and loading
 * its libraries again, and it is ended after `idleMs` without work. Workers are unref'd, so one waiting
 * never keeps a one-shot CLI alive. Jobs that overlap get a fresh worker each; a job that fails, times
 * out or is stopped ends its worker instead of giving it back.
 */
import type { Worker } from 'node:worker_threads';

export interface IdleWorkers {
  /** The waiting worker, or a new one. */
  take(): Worker;
  /** Gives a worker that finished its job back for the next one (or ends it when one already waits). */
  park(worker: Worker): void;
  /** Ends the waiting worker, if any. */
  close(): Promise<void>;
}

export function idleWorkers(spawn: () => Worker, idleMs: number): IdleWorkers {
  let idle: { worker: Worker; timer: NodeJS.Timeout; gone: () => void } | undefined;
  const takeIdle = (): Worker | undefined => {
    if (!idle) return undefined;
    const { worker, timer, gone } = idle;
    idle = undefined;
    clearTimeout(timer);
    worker.off('error', gone).off('exit', gone);
    // A worker that ended while it waited (threadId -1) would take messages and never answer.
    return worker.threadId === -1 ? undefined : worker;
  };
  return {
    take() {
      const waiting = takeIdle();
      if (waiting) return waiting;
      const worker = spawn();
      worker.unref();
      return worker;
    },
    park(worker) {
      if (idle || worker.threadId === -1) return void worker.terminate();
      // While it waits, nobody else listens: a late error in it must not become the process's
      // uncaught exception, and a worker that ended is not handed out again.
      const gone = () => {
        if (idle?.worker === worker) takeIdle();
        void worker.terminate();
      };
      const timer = setTimeout(gone, idleMs).unref();
      worker.on('error', gone).once('exit', gone);
      idle = { worker, timer, gone };
    },
    async close() {
      const waiting = takeIdle();
      if (waiting) await waiting.terminate();
    },
  };
}
