/**
 * What a run shows on a terminal beyond plain text: the reply's Markdown rendered on stdout, and
 * the live status (spinner, tool lines) on stderr. Each is loaded only when its stream is a
 * terminal that can take it, so a piped or `--json` run loads neither.
 */
import type { LiveStatus } from './live-status.js';
import type { CliText } from './messages.js';
import type { MarkdownOutput } from './printer.js';
import type { Style } from './style.js';

export interface TerminalOutput {
  markdown?: MarkdownOutput;
  live?: LiveStatus;
}

export async function loadTerminalOutput(o: {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  /** NO_COLOR is unset. */
  color: boolean;
  /** TERM=dumb: no cursor movement, no colour. */
  dumb: boolean;
  text: CliText;
  /** The style for stderr's lines. */
  style: Style;
}): Promise<TerminalOutput> {
  const out: TerminalOutput = {};
  if (o.dumb) return out;
  // The width is read per line: a resized window lays out the next lines at its new width.
  const columns = (stream: NodeJS.WriteStream) => () => stream.columns || 80;
  if (o.stdout.isTTY && o.color) {
    const { createMarkdownRenderer } = await import('./markdown/index.js');
    out.markdown = createMarkdownRenderer(columns(o.stdout));
  }
  if (o.stderr.isTTY) {
    const { createLiveStatus } = await import('./live-status.js');
    const live = createLiveStatus({
      write: (s) => void o.stderr.write(s),
      columns: columns(o.stderr),
      text: o.text,
      style: o.style,
    });
    // However the process ends (a second Ctrl-C, an uncaught error), no spinner is left on screen.
    process.once('exit', () => live.stop());
    out.live = live;
  }
  return out;
}
