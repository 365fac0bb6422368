/**
 * Text out of a PDF with pdf.js, on a worker thread with its own heap limit and a deadline: a
 * hostile or broken file can exhaust that worker's memory or spin forever, and the assistant
 * carries on. The worker only parses; layout is done here, in plain code that tests can reach.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PageText } from './layout.js';

/** How long one document may take, start to end. */
export const PDF_TIME_LIMIT_MS = 60_000;
/** The worker's heap: ample for a few hundred pages of text, far below what would threaten the process. */
export const PDF_HEAP_LIMIT_MB = 512;

/** Why a document could not be read; the tool turns each into its own sentence. */
export type PdfFailure = 'password' | 'invalid' | 'timeout' | 'memory' | 'aborted' | 'failed';

export class PdfError extends Error {
  override name = 'PdfError';
  constructor(readonly reason: PdfFailure, message: string) {
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
  return { module: pathToFileURL(main).href, cMapUrl: path.join(root, 'cmaps') + path.sep, standardFontDataUrl: path.join(root, 'standard_fonts') + path.sep };
}

// Runs inside the worker (CommonJS, given as source text so that it works the same from src/, dist/
// and the bundle). isEvalSupported: false closes CVE-2024-4367 (font code compiled with eval);
// fonts are never installed or looked up on the system: only the text is wanted.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fail = (e) => parentPort.postMessage({ type: 'error', name: (e && e.name) || 'Error', message: String((e && e.message) || e) });
(async () => {
  const pdfjs = await import(workerData.module);
  const doc = await pdfjs.getDocument({
    data: workerData.data, cMapUrl: workerData.cMapUrl, cMapPacked: true, standardFontDataUrl: workerData.standardFontDataUrl,
    isEvalSupported: false, disableFontFace: true, useSystemFonts: false, useWorkerFetch: false, verbosity: 0,
  }).promise;
  let title;
  try {
    const meta = await doc.getMetadata();
    title = (meta.metadata && meta.metadata.get('dc:title')) || (meta.info && meta.info.Title);
  } catch {}
  parentPort.postMessage({ type: 'info', pageCount: doc.numPages, title: typeof title === 'string' ? title : undefined });
  parentPort.on('message', async (msg) => {
    try {
      if (msg.type === 'done') { await doc.destroy(); parentPort.close(); return; }
      const page = await doc.getPage(msg.page);
      const [x0, y0, x1, y1] = page.view;
      const content = await page.getTextContent();
      const items = [];
      for (const i of content.items) {
        if (!i.str) continue;
        const t = i.transform;
        items.push({ str: i.str, x: t[4] - x0, y: t[5] - y0, w: i.width, h: Math.hypot(t[2], t[3]) || i.height });
      }
      page.cleanup();
      parentPort.postMessage({ type: 'page', page: msg.page, width: x1 - x0, height: y1 - y0, items });
    } catch (e) { fail(e); }
  });
})().catch(fail);
`;

type FromWorker =
  | { type: 'info'; pageCount: number; title?: string }
  | { type: 'page'; page: number; width: number; height: number; items: PageText['items'] }
  | { type: 'error'; name: string; message: string };

/** Reads the chosen pages of `data`; resolves with the document's info once every page wanted has arrived. */
export function extractPdf(opts: ExtractOptions): Promise<PdfInfo> {
  const files = pdfjsFiles();
  // The worker gets its own copy: pdf.js detaches the buffer it is given.
  const data = new Uint8Array(opts.data);
  return new Promise<PdfInfo>((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { ...files, data },
      transferList: [data.buffer],
      resourceLimits: { maxOldGenerationSizeMb: opts.heapLimitMb ?? PDF_HEAP_LIMIT_MB, maxYoungGenerationSizeMb: 64 },
      stdout: true,
      stderr: true,
    });
    let info: PdfInfo | undefined;
    let queue: number[] = [];
    let settled = false;
    const finish = (err?: PdfError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (err) {
        void worker.terminate();
        reject(err);
      } else {
        worker.postMessage({ type: 'done' });
        // pdf.js's cleanup is not needed for the answer; the worker is ended if it lingers.
        setTimeout(() => void worker.terminate(), 1_000).unref();
        resolve(info!);
      }
    };
    const timer = setTimeout(() => finish(new PdfError('timeout', 'time limit')), opts.timeoutMs ?? PDF_TIME_LIMIT_MS);
    const onAbort = () => finish(new PdfError('aborted', 'aborted'));
    if (opts.signal?.aborted) return onAbort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const next = () => {
      const n = queue.shift();
      if (n === undefined) finish();
      else worker.postMessage({ type: 'page', page: n });
    };
    worker.on('message', (msg: FromWorker) => {
      if (settled) return;
      try {
        if (msg.type === 'error') return finish(workerFailure(msg.name, msg.message));
        if (msg.type === 'info') {
          info = { pageCount: msg.pageCount, ...(msg.title?.trim() ? { title: msg.title.trim() } : {}) };
          queue = opts.choosePages(info);
          return next();
        }
        if (!opts.onPage(msg.page, { width: msg.width, height: msg.height, items: msg.items })) queue = [];
        next();
      } catch (err) {
        settled = true;
        clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
        void worker.terminate();
        reject(err);
      }
    });
    worker.on('error', (err: NodeJS.ErrnoException) => {
      finish(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new PdfError('memory', err.message) : new PdfError('failed', err.message));
    });
    worker.on('exit', () => finish(new PdfError('failed', 'the PDF reader stopped unexpectedly')));
  });
}

function workerFailure(name: string, message: string): PdfError {
  if (name === 'PasswordException') return new PdfError('password', message);
  if (name === 'InvalidPDFException' || name === 'FormatError' || /Invalid PDF|No PDF header/i.test(message)) return new PdfError('invalid', message);
  return new PdfError('failed', `${name}: ${message}`);
}
