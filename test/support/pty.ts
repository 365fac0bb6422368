/**
 * ./bin/zhixing under a real pseudo-terminal (util-linux `script`), and what a terminal of that
 * size would show after the bytes it wrote: the spinner's carriage returns, cursor moves and
 * erasing applied, colours set aside. A test can then say "nothing was left behind" about the screen.
 */
import { spawn } from 'node:child_process';
import { charWidth } from '../../src/cli/text-width.js';
import { BIN } from './cli.js';

const WAIT_STEP_MS = 20;
const WAIT_MAX_MS = 15_000;

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export interface Pty {
  /** Every byte written to the terminal so far, escape sequences included. */
  raw(): string;
  /** The screen now. */
  screen(): string;
  press(keys: string): void;
  /** Waits until the raw output after `from` matches; returns where the match ends. */
  waitForRaw(pattern: RegExp, from?: number): Promise<number>;
  /** Waits until the screen matches. */
  waitForScreen(pattern: RegExp): Promise<void>;
  closed: Promise<number | null>;
  kill(): void;
}

/**
 * Runs zhixing with `args` on a terminal `columns` wide. `stderrTo` sends standard error to a file
 * instead (so it is no terminal). The environment is only what is given, plus PATH and a TERM.
 */
export function runInPty(args: string[], env: Record<string, string>, options: { columns?: number; stderrTo?: string } = {}): Pty {
  const columns = options.columns ?? 80;
  const command = `stty cols ${columns} rows 40; exec ${[process.execPath, BIN, ...args].map(quote).join(' ')}${options.stderrTo ? ` 2>${quote(options.stderrTo)}` : ''}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: env.ZHIXING_HOME,
    env: { PATH: process.env.PATH ?? '', SHELL: '/bin/sh', TERM: 'xterm-256color', ...env },
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    raw: () => output,
    screen: () => renderScreen(output, columns),
    press: (keys) => void child.stdin.write(keys),
    async waitForRaw(pattern, from = 0) {
      for (let waited = 0; waited < WAIT_MAX_MS; waited += WAIT_STEP_MS) {
        const match = pattern.exec(output.slice(from));
        if (match) return from + match.index + match[0].length;
        await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
      }
      throw new Error(`The terminal never showed ${pattern}. It shows:\n${renderScreen(output, columns)}`);
    },
    async waitForScreen(pattern) {
      for (let waited = 0; waited < WAIT_MAX_MS; waited += WAIT_STEP_MS) {
        if (pattern.test(renderScreen(output, columns))) return;
        await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
      }
      throw new Error(`The screen never showed ${pattern}. It shows:\n${renderScreen(output, columns)}`);
    },
    closed,
    kill: () => child.kill(),
  };
}

/**
 * A small terminal: printable characters (wide ones take two columns, a full row wraps), CR, LF,
 * backspace, and the CSI sequences that move the cursor or erase (A B C D G H J K); colours and
 * other sequences change nothing on screen.
 */
export function renderScreen(raw: string, columns: number): string {
  const rows: string[][] = [[]];
  let row = 0;
  let col = 0;
  const line = (r: number) => (rows[r] ??= []);
  const put = (ch: string) => {
    const w = charWidth(ch);
    if (w === 0) return;
    if (col + w > columns) {
      row++;
      col = 0;
    }
    const cells = line(row);
    while (cells.length < col) cells.push(' ');
    cells[col] = ch;
    if (w === 2) cells[col + 1] = '';
    col += w;
  };
  const sequence = /\x1b\[([0-9;?]*)([A-Za-z@])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[^[\]]/y;
  for (let i = 0; i < raw.length; ) {
    sequence.lastIndex = i;
    const m = raw[i] === '\x1b' ? sequence.exec(raw) : null;
    if (m) {
      i = sequence.lastIndex;
      if (m[2] === undefined) continue;
      const n = Number(m[1]?.split(';')[0] || 0);
      switch (m[2]) {
        case 'A':
          row = Math.max(0, row - (n || 1));
          break;
        case 'B':
          row += n || 1;
          break;
        case 'C':
          col += n || 1;
          break;
        case 'D':
          col = Math.max(0, col - (n || 1));
          break;
        case 'G':
          col = Math.max(0, (n || 1) - 1);
          break;
        case 'J':
          if (n === 0) {
            line(row).length = Math.min(line(row).length, col);
            rows.length = row + 1;
          }
          break;
        case 'K':
          if (n === 0) line(row).length = Math.min(line(row).length, col);
          else if (n === 2) line(row).length = 0;
          break;
      }
      continue;
    }
    const ch = String.fromCodePoint(raw.codePointAt(i)!);
    i += ch.length;
    if (ch === '\r') col = 0;
    else if (ch === '\n') {
      row++;
      line(row);
    } else if (ch === '\b') col = Math.max(0, col - 1);
    else if (ch >= ' ') put(ch);
  }
  return rows.map((r) => (r ?? []).join('').trimEnd()).join('\n').replace(/\n+$/, '');
}
