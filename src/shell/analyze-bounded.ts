/**
 * analyzeCommand with limits. The bash parser runs on the whole line in one go and cannot be
 * interrupted: a crafted 20 KB line holds it for a second or two, and a step may make 64 calls. So
 * from the built program the analysis runs on a worker thread with a deadline; a line not read in
 * time counts as unreadable, which makes it ask a person as any unreadable line does.
 */
import { Worker } from 'node:worker_threads';
import { builtWorkerFile, workerJobs, type WorkerJobs } from '../worker-jobs.js';
import type { TargetPart } from '../contract/permission.js';
import type { AnalyzeOptions, CommandAnalysis } from './analyze.js';

/** A real command line is read in milliseconds; this leaves room for starting the thread on a busy machine. */
export const ANALYZE_TIME_LIMIT_MS = 5_000;
/** The parser's heap for 20 KB of shell: a few MB; far past it is not a command line. */
const ANALYZE_HEAP_LIMIT_MB = 256;
/** An idle reader (the bash grammar loaded) is ended after this long. */
const IDLE_MS = 60_000;
/** Lines read at once; more wait their turn, so a step of many calls does not start a thread for each. */
const MAX_RUNNING = 2;

export type BoundedAnalyze = (command: string, options: AnalyzeOptions) => Promise<CommandAnalysis>;

export interface BoundedAnalyzeOptions {
  timeoutMs?: number;
  /** The built worker script; by default found beside the built program. Absent: read on this thread. */
  workerFile?: string;
}

/** Why a line that was not read in time counts as unreadable. */
const NOT_READ: Record<'time' | 'memory' | 'failed', (ms: number) => string> = {
  time: (ms) => `the command line took more than ${ms / 1000} s to read`,
  memory: () => 'the command line needed too much memory to read',
  failed: () => 'the command line could not be read (the reader stopped)',
};

/**
 * Reads command lines on a worker thread within `timeoutMs`. From the TypeScript sources (tests),
 * where no worker script is built, it reads them on this thread.
 */
export function createBoundedAnalyzer(o: BoundedAnalyzeOptions = {}): BoundedAnalyze {
  const file = o.workerFile ?? builtWorkerFile(import.meta.url, 'shell/analyze-worker.js');
  const timeoutMs = o.timeoutMs ?? ANALYZE_TIME_LIMIT_MS;
  if (!file) return async (command, options) => (await import('./analyze.js')).analyzeCommand(command, options);
  let jobs: WorkerJobs<{ command: string; options: AnalyzeOptions }, CommandAnalysis> | undefined;
  return async (command, options) => {
    jobs ??= workerJobs({
      spawn: () =>
        new Worker(file, {
          resourceLimits: { maxOldGenerationSizeMb: ANALYZE_HEAP_LIMIT_MB, maxYoungGenerationSizeMb: 32 },
          stdout: true,
          stderr: true,
        }),
      idleMs: IDLE_MS,
      timeoutMs,
      maxRunning: MAX_RUNNING,
    });
    const result = await jobs.run({ command, options });
    return result.ok ? result.reply : { ok: false, reason: NOT_READ[result.why](timeoutMs) };
  };
}

/**
 * The parts a shell call sends to the permission layer: the analysis's, or for a line that could not
 * be read, the whole line as one part whose effect cannot be read (so a broad rule never allows it,
 * and with a deny among the rules only a person may approve it).
 */
export function partsForRules(command: string, analysis: CommandAnalysis): TargetPart[] {
  return analysis.ok ? analysis.parts : [{ text: command.trim(), opaque: analysis.reason, wholeLine: true }];
}
