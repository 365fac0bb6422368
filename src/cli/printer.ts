import type { ActionRecord, Bus } from '../bus/bus.js';
import { plainText } from './terminal-text.js';

const MAX_PREVIEW_CHARS = 100;

export interface Style {
  dim(s: string): string;
  green(s: string): string;
  red(s: string): string;
  bold(s: string): string;
}

/** ANSI styling, or none at all under NO_COLOR or when the output is not a terminal. */
export function createStyle(enabled: boolean): Style {
  const wrap = (open: number, close: number) => (s: string) => (enabled ? `\x1b[${open}m${s}\x1b[${close}m` : s);
  return { dim: wrap(2, 22), green: wrap(32, 39), red: wrap(31, 39), bold: wrap(1, 22) };
}

const oneLine = (text: string) => {
  const line = plainText(text).replace(/\s+/g, ' ').trim();
  return line.length > MAX_PREVIEW_CHARS ? `${line.slice(0, MAX_PREVIEW_CHARS)}…` : line;
};

export const formatMs = (ms: number) => (ms < 10 ? ms.toFixed(1) : Math.round(ms).toString());

/** `🔧 calculator {"expression":"(3+5)*2"} ✓ 16 (0.4 ms)` */
export function traceLine(a: Pick<ActionRecord, 'tool' | 'input' | 'ok' | 'output' | 'ms'>, style: Style): string {
  const input = typeof a.input === 'string' ? a.input : JSON.stringify(a.input);
  const mark = a.ok ? style.green('✓') : style.red('✗');
  const output = oneLine(a.ok ? a.output : a.output.replace(/^Error: /, ''));
  return `🔧 ${style.bold(oneLine(a.tool))} ${style.dim(oneLine(input ?? ''))} ${mark} ${output} ${style.dim(`(${formatMs(a.ms)} ms)`)}`;
}

/**
 * Prints a session's turn as it happens: streamed text, and a trace line per tool call.
 * Everything printed here comes from the model or a tool, so it is made plain text first.
 * Returns the unsubscribe function.
 */
export function attachPrinter(options: {
  bus: Bus;
  sessionId: string;
  write: (s: string) => void;
  style: Style;
  showActions: boolean;
}): () => void {
  const { bus, sessionId, write, style } = options;
  let atLineStart = true;
  const out = (s: string) => {
    if (!s) return;
    write(s);
    atLineStart = s.endsWith('\n');
  };
  const offs = [
    bus.on('text.delta', (e) => e.sessionId === sessionId && out(plainText(e.delta))),
    bus.on('tool.progress', (e) => {
      if (e.sessionId !== sessionId || !options.showActions) return;
      if (!atLineStart) out('\n');
      out(style.dim(`  … ${oneLine(e.message)}\n`));
    }),
    bus.on('tool.end', (e) => {
      if (e.sessionId !== sessionId || !options.showActions) return;
      if (!atLineStart) out('\n');
      out(`${traceLine(e, style)}\n`);
    }),
    bus.on('turn.end', (e) => {
      if (e.sessionId !== sessionId) return;
      // A reply the code wrote (a stop condition) was not streamed: print it now.
      if (e.stopReason !== 'done' && e.reply) {
        if (!atLineStart) out('\n');
        out(plainText(e.reply));
      }
      if (!atLineStart) out('\n');
    }),
  ];
  return () => offs.forEach((off) => off());
}
