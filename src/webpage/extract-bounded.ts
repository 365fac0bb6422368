/**
 * extractPage with limits. jsdom, Readability and turndown run on the page's whole tree in one go
 * and cannot be interrupted: a page of a few hundred thousand tags, or nested a hundred thousand
 * deep, would hold the thread for minutes and gigabytes. So from the built program they run on a
 * worker thread with a time and a memory limit, which is ended when either is passed, and the page
 * is then read as plain text instead. The worker waits a little for the next page, so reading a
 * second one does not load jsdom again.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { idleWorkers, type IdleWorkers } from '../idle-worker.js';
import { extractPage, type ExtractedPage } from './extract.js';
import type { ExtractReply } from './extract-worker.js';
import { plainText } from './plain-text.js';

/** A real article takes well under a second; past this the page is read as plain text. */
export const EXTRACT_TIME_LIMIT_MS = 20_000;
const EXTRACT_HEAP_LIMIT_MB = 768;
/** An idle worker (jsdom loaded, tens of MB) is ended after this long. */
const IDLE_MS = 30_000;
/**
 * Pages read at once; more wait their turn. A step may fetch 64 pages: a worker each would be 64
 * threads loading jsdom on a small machine (and up to 64 × the heap limit), where two keep it busy.
 */
const MAX_RUNNING = 2;

export interface BoundedOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  heapLimitMb?: number;
}

/** Why a page came back as plain text: it took too long, needed too much memory, or broke the parser. */
export type Degraded = 'time' | 'memory' | 'failed';

export type BoundedPage = ExtractedPage & { degraded?: Degraded };

/** The built worker script, or undefined when running from the TypeScript sources (tests), which a worker cannot load. */
function workerFile(): string | undefined {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts')) return undefined;
  // From dist/webpage/ or from the bundle in dist/bundle/: the worker is dist/webpage/extract-worker.js.
  for (let dir = path.dirname(here), i = 0; i < 4; dir = path.dirname(dir), i++) {
    const candidate = path.join(dir, 'webpage', 'extract-worker.js');
    if (existsSync(candidate)) return candidate;
    const pkg = path.join(dir, 'package.json');
    if (existsSync(pkg) && /"name":\s*"zhixing"/.test(readFileSync(pkg, 'utf8'))) {
      const built = path.join(dir, 'dist', 'webpage', 'extract-worker.js');
      return existsSync(built) ? built : undefined;
    }
  }
  return undefined;
}

let workers: IdleWorkers | undefined;
let nextId = 1;
let running = 0;
const waiting: Array<() => void> = [];

/** Waits for one of the MAX_RUNNING places; the returned function gives it to the next in line. */
async function place(signal?: AbortSignal): Promise<() => void> {
  if (running < MAX_RUNNING) running++;
  else {
    await new Promise<void>((go, stop) => {
      const onAbort = () => {
        const i = waiting.indexOf(go);
        if (i >= 0) waiting.splice(i, 1);
        stop(signal?.reason ?? new Error('aborted'));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      waiting.push(() => {
        signal?.removeEventListener('abort', onAbort);
        go();
      });
    });
  }
  return () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
}

/** The page as plain text, said to be so. */
function degradedPage(html: string, url: string, why: Degraded): BoundedPage {
  const { title, text } = plainText(html);
  return { title: title ?? url, markdown: text, text, links: [], article: false, degraded: why };
}

/**
 * The article of `html` as Markdown, within the limits; past them, its plain text with `degraded`
 * set. Rejects only when `signal` stops it.
 */
export async function extractBounded(html: string, url: string, o: BoundedOptions = {}): Promise<BoundedPage> {
  const file = workerFile();
  if (!file) {
    return extractPage(html, url).catch(() => degradedPage(html, url, 'failed'));
  }
  const release = await place(o.signal);
  try {
    return await extractOnWorker(file, html, url, o);
  } finally {
    release();
  }
}

function extractOnWorker(file: string, html: string, url: string, o: BoundedOptions): Promise<BoundedPage> {
  const heapMb = o.heapLimitMb ?? EXTRACT_HEAP_LIMIT_MB;
  workers ??= idleWorkers(
    () =>
      new Worker(file, {
        resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 64 },
        stdout: true,
        stderr: true,
      }),
    IDLE_MS,
  );
  const worker = workers.take();
  const id = nextId++;
  return new Promise<BoundedPage>((resolve, reject) => {
    const done = (end: () => void, keep: boolean) => {
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      if (keep) workers!.park(worker);
      else void worker.terminate();
      end();
    };
    const onMessage = (reply: ExtractReply) => {
      if (reply.id !== id) return;
      done(() => resolve(reply.ok ? reply.page : degradedPage(html, url, 'failed')), true);
    };
    const onError = (err: NodeJS.ErrnoException) =>
      done(
        () => resolve(degradedPage(html, url, err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'failed')),
        false,
      );
    const onExit = () => done(() => resolve(degradedPage(html, url, 'failed')), false);
    const onAbort = () => done(() => reject(o.signal?.reason ?? new Error('aborted')), false);
    const timer = setTimeout(
      () => done(() => resolve(degradedPage(html, url, 'time')), false),
      o.timeoutMs ?? EXTRACT_TIME_LIMIT_MS,
    );
    if (o.signal?.aborted) return onAbort();
    o.signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    worker.postMessage({ id, html, url });
  });
}
