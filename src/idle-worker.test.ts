import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { idleWorkers } from './idle-worker.js';

const spawned: Worker[] = [];
const spawn = () => {
  const w = new Worker('require("node:worker_threads").parentPort.on("message", () => {})', { eval: true });
  spawned.push(w);
  return w;
};
const exited = (w: Worker) => new Promise<number>((resolve) => w.once('exit', resolve));

afterEach(async () => {
  await Promise.all(spawned.splice(0).map((w) => w.terminate()));
});

describe('idleWorkers', () => {
  it('gives the parked worker to the next job, and a fresh one to a job that overlaps', () => {
    const workers = idleWorkers(spawn, 10_000);
    const a = workers.take();
    const b = workers.take();
    expect(b).not.toBe(a);
    workers.park(a);
    expect(workers.take()).toBe(a);
    expect(spawned).toHaveLength(2);
  });

  it('ends a worker parked while another waits, and the waiting one once it has idled', async () => {
    const workers = idleWorkers(spawn, 50);
    const a = workers.take();
    const b = workers.take();
    workers.park(a);
    const bGone = exited(b);
    workers.park(b);
    await bGone;
    await exited(a);
    expect(workers.take()).not.toBe(a);
  });

  it('lets a waiting worker that fails late go, without an uncaught error, and hands out a live one', async () => {
    const late = () => {
      const w = new Worker(
        'const { parentPort } = require("node:worker_threads"); parentPort.on("message", () => setTimeout(() => { throw new Error("late"); }, 20));',
        { eval: true },
      );
      spawned.push(w);
      return w;
    };
    const workers = idleWorkers(late, 10_000);
    const a = workers.take();
    const gone = exited(a);
    a.postMessage('go');
    workers.park(a);
    await gone;
    const b = workers.take();
    expect(b).not.toBe(a);
    expect(b.threadId).not.toBe(-1);
  });

  it('closes the waiting worker', async () => {
    const workers = idleWorkers(spawn, 10_000);
    const a = workers.take();
    workers.park(a);
    const gone = exited(a);
    await workers.close();
    await gone;
  });
});
