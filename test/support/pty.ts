import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BIN } from './cli.js';
import { createTerminalScreen, type TerminalScreen } from './terminal-screen.js';

const RELAY = join(dirname(fileURLToPath(import.meta.url)), 'pty-relay.py');
const WAIT_STEP_MS = 20;
const WAIT_MAX_MS = 15_000;

export interface PtyOptions {
  cols?: number;
  rows?: number;
  /** Keep the program's stderr off the terminal, in `stderr()`, so a test can tell what went where. */
  stderrApart?: boolean;
  /** Default: the home. */
  cwd?: string;
}

export interface PtyRun {
  screen: TerminalScreen;
  /** Everything written to the terminal, escapes included. */
  raw(): string;
  stderr(): string;
  /** Sends bytes as typed keys. */
  keys(bytes: string): void;
  /** Text as a terminal that supports bracketed paste sends a paste. */
  paste(text: string): void;
  /** Waits until the transcript after `from` shows `pattern`; returns where the match's last line starts (a prompt, often). */
  waitFor(pattern: RegExp, from?: number): Promise<number>;
  /** SIGTERM to the program. */
  terminate(): void;
  closed: Promise<number | null>;
  kill(): void;
}

/** Runs ./bin/zhixing on a real pseudo-terminal (Python's pty module), the way a user at a terminal would. */
export function runInPty(args: string[], env: Record<string, string>, options: PtyOptions = {}): PtyRun {
  const cols = options.cols ?? 100;
  const rows = options.rows ?? 30;
  const relayArgs = [
    RELAY,
    ...(options.stderrApart ? ['--stderr-apart'] : []),
    String(cols),
    String(rows),
    process.execPath,
    BIN,
    ...args,
  ];
  const child = spawn('python3', relayArgs, {
    cwd: options.cwd ?? env.ZHIXING_HOME,
    env: { PATH: process.env.PATH ?? '', TERM: 'xterm-256color', NO_COLOR: '1', ...env },
  });
  const screen = createTerminalScreen(cols, rows);
  let raw = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    raw += d;
    screen.write(d);
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const closed = new Promise<number | null>((resolve, reject) => {
    child.on('close', resolve);
    child.on('error', reject);
  });
  return {
    screen,
    raw: () => raw,
    stderr: () => stderr,
    keys: (bytes) => void child.stdin.write(bytes),
    paste: (text) => void child.stdin.write(`\x1b[200~${text}\x1b[201~`),
    async waitFor(pattern, from = 0) {
      for (let waited = 0; waited < WAIT_MAX_MS; waited += WAIT_STEP_MS) {
        const shown = screen.transcript();
        const match = pattern.exec(shown.slice(from));
        if (match) return shown.lastIndexOf('\n', from + match.index + match[0].length - 1) + 1;
        await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
      }
      throw new Error(
        `The terminal never showed ${pattern}. It shows:\n${screen.transcript()}\n--- stderr:\n${stderr}`,
      );
    },
    terminate: () => void child.kill('SIGTERM'),
    closed,
    kill: () => void child.kill('SIGKILL'),
  };
}
