import type { Bus } from '../bus/bus.js';
import type { ActionRecord } from '../contract/tool-outcome.js';
import type { Lang } from '../i18n.js';
import type { LiveStatus } from './live-status.js';
import { permissionNote } from './permission-trace.js';
import { plainText } from './terminal-text.js';
import type { Style } from './style.js';

const MAX_PREVIEW_CHARS = 100;
/** A call's progress lines in the trace, at most this many a second: a command's output streams, an MCP server's thousands do not flood. */
export const PROGRESS_LINES_PER_SECOND = 10;

const oneLine = (text: string) => {
  const line = plainText(text).replace(/\s+/g, ' ').trim();
  return line.length > MAX_PREVIEW_CHARS ? `${line.slice(0, MAX_PREVIEW_CHARS)}…` : line;
};

export const formatMs = (ms: number) => (ms < 10 ? ms.toFixed(1) : Math.round(ms).toString());

/**
 * `🔧 calculator {"expression":"(3+5)*2"} ✓ 16 (0.4 ms)`, and how its permissions were decided when
 * that tells something: `🔧 file_write {…} ✓ Wrote notes.md (1.2 ms) · allowed by rule file_write`.
 */
export function traceLine(
  a: Pick<ActionRecord, 'tool' | 'input' | 'ok' | 'output' | 'ms' | 'metadata' | 'permission'>,
  style: Style,
  lang: Lang = 'en',
): string {
  const input = typeof a.input === 'string' ? a.input : JSON.stringify(a.input);
  const mark = a.ok ? style.green('✓') : style.red('✗');
  const output = oneLine(a.ok ? a.output : a.output.replace(/^Error: /, ''));
  const note = permissionNote(a.permission, a.metadata, lang);
  return `🔧 ${style.bold(oneLine(a.tool))} ${style.dim(oneLine(input ?? ''))} ${mark} ${output} ${style.dim(`(${formatMs(a.ms)} ms)`)}${note ? ` ${style.dim(`· ${note}`)}` : ''}`;
}

/** The trace's note that older messages were summarised to fit the model's window. */
export function compactionLine(messages: number, lang: Lang): string {
  return lang === 'zh'
    ? `🗜 已把较早的 ${messages} 条消息压缩成摘要，以放进模型的上下文（原消息都还在，/history 可查看）`
    : `🗜 Summarised ${messages} earlier messages to fit the model's context (every message is kept; see /history)`;
}

/** The trace's note that summarising failed, and what the turn does instead. */
export function compactionFailedLine(reason: string, lang: Lang): string {
  return lang === 'zh'
    ? `🗜 没能压缩较早的消息（${oneLine(reason)}），这一轮只发送放得下的最近消息`
    : `🗜 Could not summarise earlier messages (${oneLine(reason)}); this turn sends the most recent messages that fit`;
}

/** Renders a reply's Markdown for the terminal, a piece at a time (`./markdown/index.ts`, loaded only on a terminal). */
export interface MarkdownOutput {
  stream(): { push(text: string): string; end(): string };
}

/**
 * Prints a session's turn as it happens: streamed text, and a trace line per tool call.
 * Everything printed here comes from the model or a tool, so it is made plain text first.
 * On a terminal, `markdown` renders the reply and `live` shows the spinner and tool lines on
 * stderr; the live lines are erased before anything is printed here.
 * Returns the unsubscribe function.
 */
export function attachPrinter(options: {
  bus: Bus;
  sessionId: string;
  write: (s: string) => void;
  style: Style;
  showActions: boolean;
  markdown?: MarkdownOutput;
  live?: LiveStatus;
  /** The language the trace's words are in, asked per line: the REPL's follows the user's. */
  lang?: () => Lang;
}): () => void {
  const { bus, sessionId, write, style, live } = options;
  let atLineStart = true;
  let text: { partId: string; stream: ReturnType<MarkdownOutput['stream']> } | undefined;
  const out = (s: string) => {
    if (!s) return;
    write(s);
    atLineStart = s.endsWith('\n');
  };
  /** A text part is over (a tool call, the turn's end): the rest of its rendering. */
  const endText = () => {
    if (!text) return;
    out(text.stream.end());
    text = undefined;
  };
  const ours = (e: { sessionId: string }) => e.sessionId === sessionId;
  // Each running call's progress lines written in the current second; the live status shows every one.
  const progressShown = new Map<string, { second: number; lines: number }>();
  const offs = [
    bus.on('turn.start', (e) => ours(e) && live?.thinking()),
    bus.on('step.start', (e) => ours(e) && e.step > 0 && live?.thinking()),
    bus.on('text.delta', (e) => {
      if (!ours(e)) return;
      live?.hide();
      if (!options.markdown) return out(plainText(e.delta));
      if (text?.partId !== e.partId) {
        endText();
        text = { partId: e.partId, stream: options.markdown.stream() };
      }
      out(text.stream.push(e.delta));
    }),
    bus.on('tool.start', (e) => {
      if (!ours(e)) return;
      endText();
      if (!atLineStart) out('\n');
      live?.toolStart(e.callId, e.tool, e.input);
    }),
    bus.on('tool.progress', (e) => {
      if (!ours(e)) return;
      live?.toolProgress(e.callId, e.message);
      if (!options.showActions) return;
      const second = Math.floor(Date.now() / 1000);
      const shown = progressShown.get(e.callId);
      if (shown?.second === second && shown.lines >= PROGRESS_LINES_PER_SECOND) return;
      progressShown.set(e.callId, shown?.second === second ? { second, lines: shown.lines + 1 } : { second, lines: 1 });
      live?.hide();
      if (!atLineStart) out('\n');
      out(style.dim(`  … ${oneLine(e.message)}\n`));
      live?.show();
    }),
    bus.on('tool.end', (e) => {
      if (!ours(e)) return;
      progressShown.delete(e.callId);
      live?.toolEnd(
        e.callId,
        e.ok,
        e.output,
        e.ms,
        !options.showActions,
        permissionNote(e.permission, e.metadata, options.lang?.() ?? 'en'),
      );
      if (!options.showActions) return;
      live?.hide();
      if (!atLineStart) out('\n');
      out(`${traceLine(e, style, options.lang?.())}\n`);
      live?.show();
    }),
    bus.on('context.compacted', (e) => {
      if (!ours(e) || !options.showActions) return;
      live?.hide();
      if (!atLineStart) out('\n');
      out(`${style.dim(compactionLine(e.messages, options.lang?.() ?? 'en'))}\n`);
      live?.show();
    }),
    bus.on('context.compaction_failed', (e) => {
      if (!ours(e) || !options.showActions) return;
      live?.hide();
      if (!atLineStart) out('\n');
      out(`${style.dim(compactionFailedLine(e.reason, options.lang?.() ?? 'en'))}\n`);
      live?.show();
    }),
    // The host hides the live lines when a question is asked (before it is written); shown again once answered.
    bus.on('permission.replied', (e) => ours(e) && live?.show()),
    bus.on('turn.end', (e) => {
      if (!ours(e)) return;
      endText();
      live?.stop();
      // A reply the code wrote (a stop condition) was not streamed: print it now.
      if (e.stopReason !== 'done' && e.reply) {
        if (!atLineStart) out('\n');
        out(plainText(e.reply));
      }
      if (!atLineStart) out('\n');
    }),
  ];
  return () => {
    offs.forEach((off) => off());
    endText();
    live?.stop();
  };
}
