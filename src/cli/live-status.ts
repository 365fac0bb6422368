/**
 * What is going on while a turn runs, on stderr when it is a terminal: a spinner with the seconds
 * waited while the model thinks, and a line per running tool call that becomes `✓ weather 北京 (0.3 s)`
 * when it ends. The live lines are redrawn in place and erased before anything else is written,
 * so they never mix with the reply, a question or a notice, and are never left behind.
 */
import { graphemes, graphemeWidth, textWidth } from './line-editor/text-width.js';
import type { CliText } from './messages.js';
import type { Style } from './style.js';
import { plainText } from './terminal-text.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const FRAME_MS = 80;
/** A tool's input shown on its line, at most this many columns. */
const MAX_INPUT_COLUMNS = 40;

export interface LiveStatus {
  /** A turn or a model step begins: the spinner runs until text or a tool call comes. */
  thinking(): void;
  /** The model service has not started answering after `elapsedMs`. */
  waiting(elapsedMs: number): void;
  /** A line that stays (a retry), written above the live lines. */
  notice(line: string): void;
  toolStart(id: string, tool: string, input: unknown): void;
  toolProgress(id: string, message: string): void;
  /** `keep`: leave a `✓ tool input (0.3 s)` line, ending in `note` (how its permissions were decided) when given; otherwise the caller prints its own. */
  toolEnd(id: string, ok: boolean, output: string, ms: number, keep: boolean, note?: string): void;
  /** Something else is about to be written to the terminal (reply text, a question): erase, and stay hidden. */
  hide(): void;
  /** Show again what is running (after a question was answered). */
  show(): void;
  /** The turn is over: erase everything and stop. */
  stop(): void;
}

export interface LiveStatusOptions {
  write: (s: string) => void;
  columns: () => number;
  text: CliText;
  style: Style;
  now?: () => number;
  frameMs?: number;
}

/** `text` cut to at most `columns` columns, with "…" where it was cut. */
export function fitWidth(text: string, columns: number): string {
  if (textWidth(text) <= columns) return text;
  let out = '';
  let width = 0;
  for (const g of graphemes(text)) {
    const w = graphemeWidth(g);
    if (width + w > columns - 1) break;
    out += g;
    width += w;
  }
  return `${out}…`;
}

/** A short, one-line summary of a tool's input: its first text or number, else its JSON. */
export function inputSummary(input: unknown): string {
  let value: unknown = input;
  if (input && typeof input === 'object' && !Array.isArray(input)) {
    value = Object.values(input).find((v) => typeof v === 'string' || typeof v === 'number') ?? JSON.stringify(input);
    if (value === '{}') value = '';
  }
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? '');
  return fitWidth(plainText(text).replace(/\s+/g, ' ').trim(), MAX_INPUT_COLUMNS);
}

export function createLiveStatus(o: LiveStatusOptions): LiveStatus {
  const now = o.now ?? Date.now;
  const t = o.text;
  const tools = new Map<string, { tool: string; what: string; progress: string }>();
  let active = false;
  let hidden = false;
  let since = now();
  let waitingSince: number | undefined;
  let drawn = 0;
  let frame = 0;
  let timer: NodeJS.Timeout | undefined;

  const erase = () => {
    if (!drawn) return;
    o.write(`\r${drawn > 1 ? `\x1b[${drawn - 1}A` : ''}\x1b[J`);
    drawn = 0;
  };
  const lines = (): string[] => {
    if (!active || hidden) return [];
    const spin = FRAMES[frame % FRAMES.length]!;
    if (tools.size)
      return [...tools.values()].map(
        (r) => `${spin} ${r.tool}${r.what ? ` ${r.what}` : ''} …${r.progress ? ` ${r.progress}` : ''}`,
      );
    const waited = now() - since;
    return [`${spin} ${waitingSince !== undefined ? t.waiting(now() - waitingSince) : t.thinking(waited)}`];
  };
  // Live lines are plain and fit the terminal: a wrapped one would move the cursor where erasing cannot follow.
  const draw = () => {
    erase();
    const width = Math.max(10, o.columns() - 1);
    const shown = lines().map((l) => fitWidth(l, width));
    if (!shown.length) return;
    o.write(shown.join('\n'));
    drawn = shown.length;
  };
  const tick = () => {
    frame++;
    draw();
  };
  const run = () => {
    if (timer || !active) return;
    timer = setInterval(tick, o.frameMs ?? FRAME_MS);
    timer.unref();
  };
  const halt = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
  };

  return {
    thinking() {
      active = true;
      hidden = false;
      since = now();
      waitingSince = undefined;
      draw();
      run();
    },
    waiting(elapsedMs) {
      waitingSince = now() - elapsedMs;
      draw();
    },
    notice(line) {
      erase();
      o.write(`${line}\n`);
      draw();
    },
    toolStart(id, tool, input) {
      active = true;
      hidden = false;
      waitingSince = undefined;
      tools.set(id, { tool: fitWidth(plainText(tool), MAX_INPUT_COLUMNS), what: inputSummary(input), progress: '' });
      draw();
      run();
    },
    toolProgress(id, message) {
      const row = tools.get(id);
      if (!row) return;
      row.progress = fitWidth(plainText(message).replace(/\s+/g, ' ').trim(), MAX_INPUT_COLUMNS);
      draw();
    },
    toolEnd(id, ok, output, ms, keep, note) {
      const row = tools.get(id);
      tools.delete(id);
      erase();
      if (row && keep) {
        const why = ok
          ? ''
          : ` ${o.style.dim(
              `— ${fitWidth(
                plainText(output.replace(/^Error: /, ''))
                  .replace(/\s+/g, ' ')
                  .trim(),
                MAX_INPUT_COLUMNS,
              )}`,
            )}`;
        const said = note ? ` ${o.style.dim(`· ${note}`)}` : '';
        o.write(
          `${ok ? o.style.green('✓') : o.style.red('✗')} ${o.style.bold(row.tool)}${row.what ? ` ${row.what}` : ''}${why} ${o.style.dim(t.took(ms))}${said}\n`,
        );
      }
      // The model reads the results next: the spinner takes over from the last tool line.
      if (!tools.size) since = now();
      draw();
    },
    hide() {
      hidden = true;
      erase();
    },
    show() {
      hidden = false;
      draw();
    },
    stop() {
      active = false;
      tools.clear();
      halt();
      erase();
    },
  };
}
