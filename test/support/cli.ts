import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = join(REPO_ROOT, 'bin', 'zhixing');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Written to stdin, which then ends (by default an empty stdin that ends at once). */
  input?: string;
  /**
   * Instead of `input`: stdin over time, as a slow command's output comes, each text written `afterMs`
   * after the start; with `end: false` stdin is never closed, like a pipe a CI step inherits.
   */
  feed?: { writes: Array<{ afterMs: number; text: string }>; end: boolean };
  /** Instead of `input`: this file is stdin, as `zhixing … < file` gives it. */
  stdinFile?: string;
  cwd?: string;
  timeoutMs?: number;
}

/**
 * Runs ./bin/zhixing as a user would, with only the given environment (plus PATH). With `timeoutMs`
 * a run that hangs is killed (its code is then null) instead of hanging the test run.
 */
export function runCli(args: string[], env: Record<string, string>, options: RunOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const file = options.stdinFile === undefined ? undefined : openSync(options.stdinFile, 'r');
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? env.ZHIXING_HOME,
      timeout: options.timeoutMs,
      env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env },
      stdio: [file ?? 'pipe', 'pipe', 'pipe'],
    });
    if (file !== undefined) closeSync(file);
    let stdout = '';
    let stderr = '';
    const timers: NodeJS.Timeout[] = [];
    child.stdout!.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      timers.forEach(clearTimeout);
      child.stdin?.destroy();
      resolve({ code, stdout, stderr });
    });
    if (!child.stdin) return;
    // The child may exit before reading everything: that is its right, not a test failure.
    child.stdin.on('error', () => {});
    if (!options.feed) return void child.stdin.end(options.input ?? '');
    const { writes, end } = options.feed;
    for (const { afterMs, text } of writes) timers.push(setTimeout(() => child.stdin!.write(text), afterMs));
    if (end) timers.push(setTimeout(() => child.stdin!.end(), Math.max(0, ...writes.map((w) => w.afterMs)) + 1));
  });
}
