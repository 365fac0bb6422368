/**
 * The worker thread that reads command lines (see analyze-bounded.ts): a line built to be slow to
 * parse costs this thread, which can be ended, and never the process that serves every session.
 */
import { parentPort } from 'node:worker_threads';
import { analyzeCommand, type AnalyzeOptions, type CommandAnalysis } from './analyze.js';

export interface AnalyzeRequest {
  id: number;
  command: string;
  options: AnalyzeOptions;
}

parentPort?.on('message', async ({ id, command, options }: AnalyzeRequest) => {
  let reply: CommandAnalysis;
  try {
    reply = await analyzeCommand(command, options);
  } catch (err) {
    reply = {
      ok: false,
      reason: `the command line could not be read (${err instanceof Error ? err.message : String(err)})`,
    };
  }
  parentPort?.postMessage({ id, reply });
});
