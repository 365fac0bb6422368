import { spawn, type ChildProcess } from 'node:child_process';
import { createOutputBuffer } from './output-buffer.js';

/** After SIGTERM, how long a command has to end before SIGKILL. */
const KILL_GRACE_MS = 2_000;
/** At most one progress line per this interval: a chatty build must not flood the event stream. */
const PROGRESS_INTERVAL_MS = 1_000;
/** The longest progress line passed on. */
const MAX_PROGRESS_CHARS = 200;
/**
 * Once the command's own process has ended, how long what it left running may keep its output open.
 * Background processes end with the command (under bubblewrap the whole namespace goes), so this is
 * only the time their last words take to arrive.
 */
const DRAIN_MS = 1_000;
/**
 * Run by the shell first: standard error joined to standard output, so both come back as one stream in
 * the order they were written; then the command itself as `bash -c` would run it, line numbers and all.
 */
const JOIN_STDERR = 'exec 2>&1; exec "$BASH" -c "$1"';

export interface RunCommandOptions {
  command: string;
  cwd: string;
  env: Record<string, string>;
  /** The absolute path of bash. */
  shell: string;
  /** The sandbox program and its arguments, put before the shell; empty to run uncontained. */
  prefix?: string[];
  /** Pipes the sandbox program gets beyond standard output and error (descriptors 3, 4…). */
  pipes?: number;
  /** Called once the sandbox program runs, before the command may start; a rejection ends it unstarted. */
  attach?(child: ChildProcess): Promise<void>;
  timeoutMs: number;
  signal?: AbortSignal;
  /** The latest line of output, now and then, while the command runs. */
  onProgress?(line: string): void;
  /** The note put where the middle of a long output was cut. */
  cutNote(cutBytes: number): string;
  killGraceMs?: number;
}

export interface CommandResult {
  /** The exit code, or null when a signal ended the command. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  ms: number;
  /** Standard output and error as one text, its middle cut past ~28 KB. */
  output: string;
  totalBytes: number;
  cutBytes: number;
  /** Set when this side ended the command: its time ran out, or the caller stopped it. */
  stopped?: 'timeout' | 'abort';
  /** Set when the command could not be started at all (no bash, no sandbox program). */
  startError?: string;
}

/**
 * Runs one command line with `bash -c` in a process group of its own (`detached`), standard input
 * closed. A timeout or a stop ends the whole group (SIGTERM, then SIGKILL), background children too.
 */
export function runCommand(o: RunCommandOptions): Promise<CommandResult> {
  const started = performance.now();
  const buffer = createOutputBuffer();
  const grace = o.killGraceMs ?? KILL_GRACE_MS;
  const done = (rest: Partial<CommandResult> & Pick<CommandResult, 'exitCode' | 'signal'>): CommandResult => {
    const kept = buffer.result(o.cutNote);
    return {
      ms: performance.now() - started,
      output: kept.text,
      totalBytes: kept.totalBytes,
      cutBytes: kept.cutBytes,
      ...rest,
    };
  };
  if (o.signal?.aborted) return Promise.resolve(done({ exitCode: null, signal: null, stopped: 'abort' }));

  const argv = [...(o.prefix ?? []), o.shell, '-c', JOIN_STDERR, 'bash', o.command];
  return new Promise((resolve) => {
    const extra = Array.from({ length: o.pipes ?? 0 }, () => 'pipe' as const);
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: o.cwd,
      env: o.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe', ...extra],
    });
    let stopped: CommandResult['stopped'];
    let setupFailed: string | undefined;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];
    /** False when the group is gone already. */
    const killGroup = (signal: NodeJS.Signals): boolean => {
      try {
        process.kill(-child.pid!, signal);
        return true;
      } catch {
        return false;
      }
    };
    /** SIGTERM to everyone in the group, SIGKILL to whoever is left after the grace. */
    const terminate = () => {
      // A group that is gone is not signalled again later: by then its number may be another's.
      if (!killGroup('SIGTERM')) return;
      // Not cleared when the result is in: what ignored SIGTERM still has to go.
      setTimeout(() => killGroup('SIGKILL'), grace).unref();
    };
    const stop = (why: 'timeout' | 'abort') => {
      if (stopped || settled) return;
      stopped = why;
      terminate();
    };
    const onAbort = () => stop('abort');
    const finish = (result: CommandResult) => {
      if (settled) return;
      settled = true;
      timers.forEach(clearTimeout);
      o.signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };

    child.stdout!.on('data', (d: Buffer) => buffer.push(d));
    // Only the wrapper and the sandbox itself can write here (the command's errors go to stdout): said as output all the same.
    child.stderr!.on('data', (d: Buffer) => buffer.push(d));
    child.on('error', (err) => finish(done({ exitCode: null, signal: null, startError: err.message })));
    child.on('exit', () => {
      // What the command left in the background ends with it; its pipes then close.
      terminate();
      for (const pipe of child.stdio.slice(3)) pipe?.destroy();
      const drain = setTimeout(() => {
        child.stdout!.destroy();
        child.stderr!.destroy();
      }, DRAIN_MS);
      drain.unref();
      timers.push(drain);
    });
    child.on('close', (code, signal) => {
      if (setupFailed) return finish(done({ exitCode: null, signal: null, startError: setupFailed }));
      finish(done({ exitCode: code, signal, ...(stopped ? { stopped } : {}) }));
    });
    if (o.attach && child.pid !== undefined) {
      o.attach(child).catch((err: unknown) => {
        setupFailed = err instanceof Error ? err.message : String(err);
        terminate();
      });
    }

    timers.push(setTimeout(() => stop('timeout'), o.timeoutMs));
    o.signal?.addEventListener('abort', onAbort, { once: true });
    if (o.onProgress) {
      let last = '';
      const tick = setInterval(() => {
        const line = buffer.lastLine().slice(0, MAX_PROGRESS_CHARS);
        if (line && line !== last) o.onProgress!((last = line));
      }, PROGRESS_INTERVAL_MS);
      tick.unref();
      timers.push(tick as unknown as NodeJS.Timeout);
    }
  });
}
