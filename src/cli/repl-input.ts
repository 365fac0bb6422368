/**
 * Where the REPL's entries come from: a terminal, through the line editor, or a pipe, a line at a
 * time (`printf 'a\nb\n' | zhixing chat` is two turns). Either way `"""` on a line of its own opens
 * a block that another `"""` closes, and the block is one entry.
 */
import { createInterface } from 'node:readline';
import { createLineEditor, PASTE_OFF, type Completion, type PromptKind } from './line-editor/line-editor.js';

export const BLOCK_FENCE = '"""';

const isFence = (line: string | undefined) => line?.trim() === BLOCK_FENCE;

/** Whether `text` is a `"""` block not closed yet: Enter then starts a new line instead of sending. */
export function isOpenBlock(text: string): boolean {
  const lines = text.split('\n');
  return isFence(lines[0]) && !(lines.length > 1 && isFence(lines.at(-1)));
}

/** What an entry says: a block's lines without its fences, anything else as typed. */
export function entryMessage(text: string): string {
  const lines = text.split('\n');
  if (!isFence(lines[0])) return text;
  return lines.slice(1, lines.length > 1 && isFence(lines.at(-1)) ? -1 : undefined).join('\n');
}

export interface ReplInputHandlers {
  /** A whole entry: a line, a block with its fences, or everything pasted and typed before Enter. */
  onEntry(text: string): void;
  /** Ctrl-C (on a terminal, `cleared` when it emptied a line that had text), or SIGINT with a pipe. */
  onInterrupt(info: { cleared: boolean }): void;
  /** No more input: Ctrl-D, the pipe's end, or close(). Told once. */
  onEnd(): void;
}

export interface ReplInput {
  readonly interactive: boolean;
  /** Shows a prompt and lets the user type (a pipe has none). */
  prompt(text: string, kind?: PromptKind): void;
  /** Ends a prompt's line without an entry, so something else can be printed under it. */
  withdraw(): void;
  /** Stops reading; onEnd follows. */
  close(): void;
}

export interface TerminalInputOptions {
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  history: () => readonly string[];
  complete: (before: string) => Completion | undefined;
  searchLabel: (query: string, failed: boolean) => string;
}

/** Signals that end the process: the terminal is given back first, then the signal does what it does. */
const FATAL_SIGNALS = ['SIGTERM', 'SIGHUP', 'SIGINT'] as const;

export function createTerminalInput(options: TerminalInputOptions, handlers: ReplInputHandlers): ReplInput {
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    handlers.onEnd();
  };
  const editor = createLineEditor({
    ...options,
    isComplete: (text) => !isOpenBlock(text),
    onEntry: handlers.onEntry,
    onInterrupt: handlers.onInterrupt,
    onEnd: end,
    // Where there is no job control (no shell to continue it), the signal is discarded and this returns at once.
    suspend: () => void process.kill(process.pid, 'SIGTSTP'),
  });
  // However the process ends, the terminal must not be left pasting in brackets.
  const restore = () => options.output.write(PASTE_OFF);
  const onSignal = (signal: NodeJS.Signals) => {
    editor.close();
    unhook();
    process.kill(process.pid, signal);
  };
  const unhook = () => {
    process.off('exit', restore);
    for (const s of FATAL_SIGNALS) process.off(s, onSignal);
  };
  process.on('exit', restore);
  for (const s of FATAL_SIGNALS) process.on(s, onSignal);

  return {
    interactive: true,
    prompt: (text, kind) => editor.prompt(text, kind),
    withdraw: () => editor.withdraw(),
    close() {
      editor.withdraw();
      editor.close();
      unhook();
      end();
    },
  };
}

/**
 * Lines from a pipe. Ctrl-C (SIGINT, since the terminal still sends it) is told once: a second one
 * ends the process at once, as it would without a REPL.
 */
export function createPipedInput(
  input: NodeJS.ReadableStream,
  handlers: ReplInputHandlers,
  notes: { blockUnclosed: string; stderr: (s: string) => void },
): ReplInput {
  const rl = createInterface({ input, terminal: false });
  let block: string[] | undefined;
  let ended = false;
  rl.on('line', (line) => {
    if (ended) return;
    if (block) {
      block.push(line);
      if (!isFence(line)) return;
      const text = block.join('\n');
      block = undefined;
      return handlers.onEntry(text);
    }
    if (isFence(line)) block = [line];
    else handlers.onEntry(line);
  });
  const end = () => {
    if (ended) return;
    if (block) {
      notes.stderr(`${notes.blockUnclosed}\n`);
      handlers.onEntry(block.join('\n'));
      block = undefined;
    }
    ended = true;
    process.off('SIGINT', onSigint);
    handlers.onEnd();
  };
  let interrupted = false;
  const onSigint = () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    handlers.onInterrupt({ cleared: false });
  };
  process.on('SIGINT', onSigint);
  rl.on('close', end);
  return {
    interactive: false,
    prompt: () => {},
    withdraw: () => {},
    close() {
      block = undefined;
      end();
      rl.close();
    },
  };
}
