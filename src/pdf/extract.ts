/**
 * Text out of a PDF with pdf.js, on a worker thread with its own heap limit and a deadline: a
 * hostile or broken file can exhaust that worker's memory or spin forever, and the assistant
 * carries on. The worker only parses; layout is done here, in plain code that tests can reach.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { idleWorkers } from '../idle-worker.js';
import type { PageText } from './layout.js';

/** How long one document may take, start to end. */
export const PDF_TIME_LIMIT_MS = 60_000;
/** The worker's heap: ample for a few hundred pages of text, far below what would threaten the process. */
export const PDF_HEAP_LIMIT_MB = 512;

/** Why a document could not be read; the tool turns each into its own sentence. */
export type PdfFailure = 'password' | 'invalid' | 'timeout' | 'memory' | 'aborted' | 'failed';

export class PdfError extends Error {
  override name = 'PdfError';
  constructor(
    readonly reason: PdfFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface PdfInfo {
  pageCount: number;
  /** The document's own title (XMP dc:title, else the Info dictionary), when it has one. */
  title?: string;
}

export interface ExtractOptions {
  data: Uint8Array;
  /** Told the page count, says which pages to read (it may throw to refuse the request). */
  choosePages(info: PdfInfo): number[];
  /** Called with each page as it arrives; returning false stops reading (enough text already). */
  onPage(n: number, page: PageText): boolean;
  signal?: AbortSignal;
  timeoutMs?: number;
  heapLimitMb?: number;
}

/** Where pdf.js and its data files are: found through the package system so it works from dist/ and from a bundle. */
export function pdfjsFiles(): { module: string; cMapUrl: string; standardFontDataUrl: string } {
  const require = createRequire(import.meta.url);
  const main = require.resolve('pdfjs-dist/legacy/build/pdf.mjs');
  const root = path.resolve(path.dirname(main), '..', '..');
  // pdf.js on Node reads these with fs: plain folder paths, with the trailing separator it appends names to.
  return {
    module: pathToFileURL(main).href,
    cMapUrl: path.join(root, 'cmaps') + path.sep,
    standardFontDataUrl: path.join(root, 'standard_fonts') + path.sep,
  };
}

// Runs inside the worker (CommonJS, given as source text so that it works the same from src/, dist/
// and the bundle). isEvalSupported: false closes CVE-2024-4367 (font code compiled with eval);
// fonts are never installed or looked up on the system: only the text is wanted. One document at a
// time; the worker stays for the next one, so pdf.js is loaded once per process, not once per call.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
// pdf.js's console lines are not the user's business, and an unread stdout would pile them up:
// reading it instead would keep a one-shot CLI alive while the worker idles.
for (const k of ['log', 'info', 'warn', 'error', 'debug']) console[k] = () => {};
const fail = (e) => parentPort.postMessage({ type: 'error', name: (e && e.name) || 'Error', message: String((e && e.message) || e) });
let pdfjs;
let doc;
let stopped = false;
parentPort.on('message', async (msg) => {
  try {
    if (msg.type === 'open') {
      pdfjs = pdfjs || await import(workerData.module);
      doc = await pdfjs.getDocument({
        data: msg.data, cMapUrl: workerData.cMapUrl, cMapPacked: true, standardFontDataUrl: workerData.standardFontDataUrl,
        isEvalSupported: false, disableFontFace: true, useSystemFonts: false, useWorkerFetch: false, verbosity: 0,
      }).promise;
      let title;
      try {
        const meta = await doc.getMetadata();
        title = (meta.metadata && meta.metadata.get('dc:title')) || (meta.info && meta.info.Title);
      } catch {}
      parentPort.postMessage({ type: 'info', pageCount: doc.numPages, title: typeof title === 'string' ? title : undefined });
    } else if (msg.type === 'pages') {
      // All pages asked for in one message, each sent back as it is done: no round trip per page.
      // A 'stop' arriving between pages (enough text already) ends the loop.
      stopped = false;
      for (const n of msg.pages) {
        if (stopped) break;
        const page = await doc.getPage(n);
        // Positions as the page is shown (its crop box and /Rotate applied), turned back to y-up.
        const view = page.getViewport({ scale: 1 });
        const content = await page.getTextContent();
        const items = [];
        for (const i of content.items) {
          if (!i.str) continue;
          const t = pdfjs.Util.transform(view.transform, i.transform);
          items.push({ str: i.str, x: t[4], y: view.height - t[5], w: i.width, h: Math.hypot(t[2], t[3]) || i.height });
        }
        page.cleanup();
        parentPort.postMessage({ type: 'page', page: n, width: view.width, height: view.height, items });
      }
      // The document is let go here, not on a message of its own: the caller has all it needs, and a
      // round trip more would be a good part of what reading a short PDF costs.
      const d = doc;
      doc = undefined;
      parentPort.postMessage({ type: 'pages-done' });
      if (d) await d.destroy().catch(() => {});
    } else if (msg.type === 'stop') {
      stopped = true;
    }
  } catch (e) { fail(e); }
});
`;

type FromWorker =
  | { type: 'info'; pageCount: number; title?: string }
  | { type: 'page'; page: number; width: number; height: number; items: PageText['items'] }
  | { type: 'pages-done' }
  | { type: 'error'; name: string; message: string };

/** An idle reader worker is ended after this long: it holds pdf.js (some tens of MB) only while documents keep coming. */
const IDLE_MS = 30_000;

export interface PdfReader {
  /** Reads the chosen pages of `data`; resolves with the document's info once every page wanted has arrived. */
  read(opts: ExtractOptions): Promise<PdfInfo>;
  /** Ends the idle worker, if any. */
  close(): Promise<void>;
}

/**
 * A reader that keeps one worker between documents. A document that fails, overruns its time or
 * memory, or is stopped takes its worker down with it; the next one starts a fresh worker. Calls that
 * overlap get a worker of their own.
 */
export function createPdfReader(options: { timeoutMs?: number; heapLimitMb?: number } = {}): PdfReader {
  const workers = idleWorkers(
    () =>
      new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: pdfjsFiles(),
        resourceLimits: {
          maxOldGenerationSizeMb: options.heapLimitMb ?? PDF_HEAP_LIMIT_MB,
          maxYoungGenerationSizeMb: 64,
        },
        stdout: true,
        stderr: true,
      }),
    IDLE_MS,
  );
  return {
    read: (opts) => readWith(workers.take(), opts, options.timeoutMs ?? PDF_TIME_LIMIT_MS, (w) => workers.park(w)),
    close: () => workers.close(),
  };
}

function readWith(
  worker: Worker,
  opts: ExtractOptions,
  timeoutMs: number,
  park: (w: Worker) => void,
): Promise<PdfInfo> {
  // The worker gets its own copy: pdf.js detaches the buffer it is given.
  const data = new Uint8Array(opts.data);
  return new Promise<PdfInfo>((resolve, reject) => {
    let info: PdfInfo | undefined;
    let wanted = true;
    let settled = false;
    const detach = () => {
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const fail = (err: unknown) => {
      if (settled) return;
      detach();
      void worker.terminate();
      reject(err);
    };
    const onAbort = () => fail(new PdfError('aborted', 'aborted'));
    const timer = setTimeout(() => fail(new PdfError('timeout', 'time limit')), timeoutMs);
    const onMessage = (msg: FromWorker) => {
      if (settled) return;
      try {
        if (msg.type === 'error') return fail(workerFailure(msg.name, msg.message));
        if (msg.type === 'info') {
          info = { pageCount: msg.pageCount, ...(msg.title?.trim() ? { title: msg.title.trim() } : {}) };
          return worker.postMessage({ type: 'pages', pages: opts.choosePages(info) });
        }
        if (msg.type === 'page') {
          // Pages already on their way after a stop are dropped.
          if (wanted && !opts.onPage(msg.page, { width: msg.width, height: msg.height, items: msg.items })) {
            wanted = false;
            worker.postMessage({ type: 'stop' });
          }
          return;
        }
        // pages-done: the worker lets the document go on its own and is ready for the next one.
        detach();
        park(worker);
        resolve(info!);
      } catch (err) {
        fail(err);
      }
    };
    const onError = (err: NodeJS.ErrnoException) =>
      fail(
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new PdfError('memory', err.message)
          : new PdfError('failed', err.message),
      );
    const onExit = () => fail(new PdfError('failed', 'the PDF reader stopped unexpectedly'));
    if (opts.signal?.aborted) return onAbort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage({ type: 'open', data }, [data.buffer]);
  });
}

function workerFailure(name: string, message: string): PdfError {
  if (name === 'PasswordException') return new PdfError('password', message);
  if (name === 'InvalidPDFException' || name === 'FormatError' || /Invalid PDF|No PDF header/i.test(message))
    return new PdfError('invalid', message);
  return new PdfError('failed', `${name}: ${message}`);
}
