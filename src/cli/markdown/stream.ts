/**
 * A streamed reply rendered as it arrives. Complete lines are rendered at once; of the line still
 * coming, the words already certain are shown too (see `processLine`'s open mode), so text appears
 * as the model writes it. Whatever the pieces the text comes in, the output is exactly the
 * rendering of the whole text at once.
 */
import { plainText } from '../terminal-text.js';
import { finishBlocks, initialBlockState, processLine, type BlockDeps } from './blocks.js';

export interface MarkdownStream {
  /** More of the text; returns the terminal text to write now. */
  push(text: string): string;
  /** The text is complete; returns the rest. The output then ends with a line break (unless empty). */
  end(): string;
}

/** The narrowest layout: below this, rows are laid out as if this wide and the terminal wraps them. */
const MIN_WIDTH = 20;
/**
 * Trying an incomplete line reads all of it, so a long line is tried again only once it has grown
 * by a share of its length: 1/32 (a few words) up to LONG_LINE_CHARS, then 1/4. The work then stays
 * a small multiple of the text's length instead of growing with its square.
 */
const LONG_LINE_CHARS = 4_096;
const retryStep = (length: number) => Math.max(1, length >> (length < LONG_LINE_CHARS ? 5 : 2));

export function createMarkdownStream(deps: BlockDeps, columns: () => number): MarkdownStream {
  const state = initialBlockState();
  let pending = '';
  /** What has been written of the incomplete line. */
  let shown = '';
  /** How long the incomplete line was when last tried. */
  let tried = 0;
  /** The width the current line is laid out at, fixed once any of it is shown. */
  let lineWidth: number | undefined;
  const width = () => (lineWidth ??= Math.max(MIN_WIDTH, columns()));

  const complete = (line: string) => {
    let out = '';
    processLine(state, line, width(), false, (s) => (out += s), deps);
    // What was shown of it is the start of its rendering; should that ever not hold, the line is
    // printed again in full on a new row rather than a row mixing the two.
    const rest = out.startsWith(shown) ? out.slice(shown.length) : `\n${out}`;
    shown = '';
    tried = 0;
    lineWidth = undefined;
    return rest;
  };

  return {
    push(text) {
      // The text is the model's: any control sequence in it is dropped, whoever called.
      const clean = plainText(text);
      pending += clean;
      let out = '';
      // Only new text can hold a line break: a long line is not searched again at every piece.
      for (let nl = clean.includes('\n') ? pending.indexOf('\n') : -1; nl >= 0; nl = pending.indexOf('\n')) {
        out += complete(pending.slice(0, nl));
        pending = pending.slice(nl + 1);
      }
      if (!pending || pending.length - tried < retryStep(pending.length)) return out;
      tried = pending.length;
      let preview = '';
      const trial = structuredClone(state);
      if (!processLine(trial, pending, width(), true, (s) => (preview += s), deps)) return out;
      if (preview.length > shown.length && preview.startsWith(shown)) {
        out += preview.slice(shown.length);
        shown = preview;
      }
      return out;
    },
    end() {
      let out = pending ? complete(pending) : '';
      pending = '';
      finishBlocks(state, Math.max(MIN_WIDTH, columns()), (s) => (out += s), deps);
      return out;
    },
  };
}

/** The whole text at once: what a stream of it ends up writing. */
export function renderMarkdown(deps: BlockDeps, text: string, columns: number): string {
  const stream = createMarkdownStream(deps, () => columns);
  return stream.push(text) + stream.end();
}
