/**
 * The worker thread that turns a page into Markdown (see extract-bounded.ts): one page at a time,
 * so that a page built to be slow or huge costs this thread, which can be ended, and never the
 * process that serves every session.
 */
import { parentPort } from 'node:worker_threads';
import { extractPage } from './extract.js';

export interface ExtractRequest {
  id: number;
  html: string;
  url: string;
}

export type ExtractReply =
  { id: number; ok: true; page: Awaited<ReturnType<typeof extractPage>> } | { id: number; ok: false; message: string };

parentPort?.on('message', async ({ id, html, url }: ExtractRequest) => {
  let reply: ExtractReply;
  try {
    reply = { id, ok: true, page: await extractPage(html, url) };
  } catch (err) {
    reply = { id, ok: false, message: err instanceof Error ? err.message : String(err) };
  }
  parentPort?.postMessage(reply);
});
