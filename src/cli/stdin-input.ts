/**
 * Standard input as part of what the user says: `git diff | zhixing "review"`, `cat notes.txt | zhixing`.
 *
 * A terminal is never read (that is the user typing). A file or a device is read to its end. A pipe
 * or socket is read once something comes: but a program started by another (a CI step, a script,
 * an agent's shell tool) often inherits a stdin that stays open and never says anything, and
 * reading that to its end would hang for ever. So a pipe that sends nothing at all within
 * `firstByteWaitMs` is left alone; once it has sent something, it is read to its end, as `cat`
 * would, and `onSlow` is told if that takes a while.
 */
import { fstatSync } from 'node:fs';
import { isatty } from 'node:tty';
import { closeOpenFence, fenceFor } from '../markdown-fence.js';

/** What standard input gave. */
export type PipedInput =
  /** A terminal, or a pipe, file or device that ended without a byte. */
  | { kind: 'none' }
  /** An open pipe that sent nothing within the wait. */
  | { kind: 'silent' }
  /** Not text: it holds NUL bytes. */
  | { kind: 'binary' }
  /** The text; `more` when there was more than `maxBytes` and the rest was not read. */
  | { kind: 'text'; text: string; more: boolean };

export interface ReadPipedOptions {
  /** How long an open pipe may stay silent before it is left alone. */
  firstByteWaitMs: number;
  /** The most bytes read; the rest is left unread. */
  maxBytes: number;
  /** Told once when a pipe that has started sending has not ended after `slowAfterMs`. */
  onSlow?: () => void;
  slowAfterMs?: number;
  /** Standard input by default (tests pass their own stream and kind). */
  input?: NodeJS.ReadableStream & { isTTY?: boolean; destroy?: () => void };
  /** What the input is; found with fstat on fd 0 by default. */
  kind?: 'terminal' | 'pipe' | 'file';
}

const DEFAULT_SLOW_AFTER_MS = 5_000;

/** What fd 0 is: a terminal, a pipe or socket (may never end), or a file or device (ends by itself). */
function stdinKind(): 'terminal' | 'pipe' | 'file' {
  // isatty, not process.stdin.isTTY: asking that would set up a stream on a terminal this never reads.
  if (isatty(0)) return 'terminal';
  try {
    const stat = fstatSync(0);
    return stat.isFIFO() || stat.isSocket() ? 'pipe' : 'file';
  } catch {
    // A closed fd 0: nothing to read.
    return 'terminal';
  }
}

export function readPipedInput(options: ReadPipedOptions): Promise<PipedInput> {
  const kind = options.kind ?? stdinKind();
  if (kind === 'terminal') return Promise.resolve({ kind: 'none' });
  const input = options.input ?? process.stdin;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    let settled = false;
    let slow: NodeJS.Timeout | undefined;
    const finish = (result: PipedInput, stop: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(silence);
      clearTimeout(slow);
      input.removeListener('data', onData);
      input.removeListener('end', onEnd);
      input.removeListener('error', onEnd);
      // Whatever is not read stays unread: the writer gets EPIPE, as with `head`, and this process can exit.
      if (stop) input.destroy?.();
      resolve(result);
    };
    const result = (more: boolean): PipedInput => {
      if (bytes === 0) return { kind: 'none' };
      const all = Buffer.concat(chunks).subarray(0, options.maxBytes);
      if (all.includes(0)) return { kind: 'binary' };
      // `stream` keeps back a character cut in half at the byte limit instead of showing it as �.
      const text = new TextDecoder('utf-8').decode(all, { stream: more }).replace(/^\uFEFF/, '');
      return { kind: 'text', text, more };
    };
    const onData = (chunk: Buffer | string) => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      if (bytes === 0) {
        clearTimeout(silence);
        if (kind === 'pipe' && options.onSlow) {
          slow = setTimeout(options.onSlow, options.slowAfterMs ?? DEFAULT_SLOW_AFTER_MS);
          slow.unref();
        }
      }
      chunks.push(buffer);
      bytes += buffer.length;
      if (bytes > options.maxBytes) finish(result(true), true);
    };
    const onEnd = () => finish(result(false), false);
    const silence =
      kind === 'pipe'
        ? setTimeout(() => finish(bytes ? result(false) : { kind: 'silent' }, true), options.firstByteWaitMs)
        : undefined;
    input.on('data', onData);
    input.once('end', onEnd);
    // A read error (EIO on a hung-up terminal, say) ends the input where it is.
    input.once('error', onEnd);
  });
}

/** What is sent when standard input is part of the message, and whether it had to be cut to fit. */
export interface ComposedMessage {
  text: string;
  /** Set when only part of the piped text fits: the characters sent and those there were (at least). */
  cut?: { sent: number; total: number; more: boolean };
}

/**
 * The message to send: the user's words, then the piped text in a fenced block (or the piped text
 * alone when there are no words), within `maxChars`. Text that does not fit is cut, and the message
 * says so too, so the model does not take a part for the whole.
 */
export function composeMessage(
  words: string | undefined,
  piped: { text: string; more: boolean },
  maxChars: number,
  /** The line that marks the cut, for the model: how many characters were left out (`more`: at least that many). */
  cutNote: (n: number, more: boolean) => string,
): ComposedMessage {
  const text = piped.text.replace(/\s+$/, '');
  const said = words === undefined ? undefined : closeOpenFence(words);
  const wrap = (body: string) => {
    if (!said) return body;
    // Longer than any run in the user's words too: a fence they left open (a pasted error) then runs on
    // over the piped text, which stays quoted, instead of being closed by ours.
    const fence = fenceFor(`${said}\n${body}`);
    return `${said}\n\n${fence}\n${body}\n${fence}`;
  };
  const whole = wrap(text);
  if (whole.length <= maxChars && !piped.more) return { text: whole };
  // The note names how many characters were left out, so its own length depends on that count: room for the longest.
  const note = `\n${cutNote(text.length, piped.more)}`;
  const overhead = wrap('').length + note.length;
  const sent = Math.max(0, Math.min(text.length, maxChars - overhead));
  // A cut between the halves of a surrogate pair would leave half a character.
  const end = /[\uD800-\uDBFF]/.test(text[sent - 1] ?? '') ? sent - 1 : sent;
  const body = `${text.slice(0, end)}\n${cutNote(text.length - end, piped.more)}`;
  return { text: wrap(body), cut: { sent: end, total: text.length, more: piped.more } };
}
