import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createTerminalScreen } from '../../../test/support/terminal-screen.js';
import { createLineEditor, type LineEditorOptions } from './line-editor.js';

const PROMPT = '> ';
const editors: Array<{ close(): void }> = [];
afterEach(() => editors.splice(0).forEach((e) => e.close()));

/** An editor on an in-memory terminal: keys in, a screen out, and what it reported. */
function setup(
  options: Partial<LineEditorOptions> & { cols?: number; rows?: number; history?: () => readonly string[] } = {},
) {
  const input = new PassThrough() as unknown as NodeJS.ReadStream;
  const screen = createTerminalScreen(options.cols ?? 40, options.rows ?? 10);
  const output = Object.assign(new EventEmitter(), {
    columns: options.cols ?? 40,
    rows: options.rows ?? 10,
    write: (s: string) => (screen.write(s), true),
  }) as unknown as NodeJS.WriteStream;
  const entries: string[] = [];
  const events: string[] = [];
  const editor = createLineEditor({
    input,
    output,
    history: () => [],
    searchLabel: (q, failed) => `${failed ? 'failed ' : ''}search '${q}': `,
    onEntry: (text) => entries.push(text),
    onInterrupt: ({ cleared }) => events.push(cleared ? 'interrupt:cleared' : 'interrupt'),
    onEnd: () => events.push('end'),
    ...options,
  });
  editors.push(editor);
  // Keys are parsed as they arrive; a lone ESC waits for what may follow it.
  const keys = async (s: string) => {
    input.write(s);
    await new Promise((r) => setTimeout(r, s === '\x1b' ? 600 : 5));
  };
  return { editor, screen, entries, events, keys };
}

const lastRow = (screen: ReturnType<typeof createTerminalScreen>) => screen.rows()[screen.cursor().row];

describe('the line editor', () => {
  it('edits with the usual keys: words, line ends, kills', async () => {
    const { editor, entries, keys, screen } = setup();
    editor.prompt(PROMPT);
    await keys('hello big world');
    await keys('\x17'); // Ctrl-W
    expect(lastRow(screen)).toBe('> hello big');
    await keys('\x1bb\x1bb'); // Alt-B twice: before "hello"
    expect(screen.cursor().col).toBe(2);
    await keys('\x1bf\x0b'); // Alt-F, Ctrl-K
    expect(lastRow(screen)).toBe('> hello');
    await keys('\x01X\x05Y\x1b[D\x7f'); // Ctrl-A X, Ctrl-E Y, ←, Backspace
    expect(lastRow(screen)).toBe('> XhellY');
    await keys('\x15'); // Ctrl-U: from the start of the line to the cursor
    expect(lastRow(screen)).toBe('> Y');
    await keys('\x0bok\x1b[3~\r'); // Ctrl-K; Delete at the end does nothing
    expect(entries).toEqual(['ok']);
  });

  it('browses history with ↑ and ↓, giving back the line being typed', async () => {
    const { editor, entries, keys, screen } = setup({ history: () => ['one', 'two\nlines'] });
    editor.prompt(PROMPT);
    await keys('draft');
    await keys('\x1b[A');
    expect(screen.rows().slice(0, 2)).toEqual(['> two', '… lines']);
    await keys('\x1b[A\x1b[A');
    expect(screen.rows()[0]).toBe('> one');
    await keys('\x1b[A');
    expect(screen.rows()[0]).toBe('> one');
    await keys('\x1b[B\x1b[B\x1b[B');
    expect(screen.rows()[0]).toBe('> draft');
    await keys('\r');
    expect(entries).toEqual(['draft']);
  });

  it('takes a paste as text, line breaks of any kind, without sending it', async () => {
    const { editor, entries, keys } = setup();
    editor.prompt(PROMPT);
    await keys('\x1b[200~a\r\nb\rc\nd\te\r\n\x1b[201~');
    expect(entries).toEqual([]);
    await keys('\r');
    expect(entries).toEqual(['a\nb\nc\nd\te']);
    // Answering a question, a paste stays on one line.
    editor.prompt('? ', 'answer');
    await keys('\x1b[200~y\nes\x1b[201~\r');
    expect(entries.at(-1)).toBe('y es');
  });

  it('keeps an answer prompt to one plain line: no history, no search, no new lines', async () => {
    const { editor, entries, keys, screen } = setup({ history: () => ['secret'] });
    editor.prompt('? ', 'answer');
    await keys('\x1b[A\x12s');
    expect(lastRow(screen)).toBe('? s');
    await keys('\n');
    expect(entries).toEqual(['s']);
  });

  it('holds keys typed between prompts for the next entry prompt, and drops them on Ctrl-C', async () => {
    const { editor, entries, events, keys, screen } = setup();
    editor.prompt(PROMPT);
    await keys('first\rsecond\rthi');
    expect(entries).toEqual(['first']);
    // A question shown meanwhile does not take them.
    editor.prompt('? ', 'answer');
    await keys('y\r');
    expect(entries).toEqual(['first', 'y']);
    editor.prompt(PROMPT);
    expect(entries).toEqual(['first', 'y', 'second']);
    editor.prompt(PROMPT);
    expect(lastRow(screen)).toBe('> thi');
    await keys('rd\rlost');
    await keys('\x03');
    expect(events).toEqual(['interrupt']);
    editor.prompt(PROMPT);
    expect(lastRow(screen)).toBe('>');
    expect(entries).toEqual(['first', 'y', 'second', 'third']);
  });

  it('Ctrl-C clears a line with text, and says so; Ctrl-D ends on an empty line only', async () => {
    const { editor, events, keys, screen } = setup();
    editor.prompt(PROMPT);
    await keys('abc\x01\x04');
    expect(lastRow(screen)).toBe('> bc');
    await keys('\x03');
    expect(lastRow(screen)).toBe('>');
    await keys('\x03\x04');
    expect(events).toEqual(['interrupt:cleared', 'interrupt', 'end']);
  });

  it('searches back with Ctrl-R: older matches, cancel with Ctrl-G, any other key takes the match', async () => {
    const { editor, entries, keys, screen } = setup({ history: () => ['北京天气', 'ls', '上海天气', 'pwd'] });
    editor.prompt(PROMPT);
    await keys('typed\x12天气');
    expect(lastRow(screen)).toBe("search '天气': 上海天气");
    await keys('\x12');
    expect(lastRow(screen)).toBe("search '天气': 北京天气");
    await keys('\x12');
    expect(lastRow(screen)).toBe("failed search '天气': 北京天气");
    await keys('\x07');
    expect(lastRow(screen)).toBe('> typed');
    await keys('\x12上\x1b[C!\r');
    expect(entries).toEqual(['上海天气!']);
  });

  it('completes with Tab: the common start, then the choices under the line', async () => {
    const complete = (before: string) => ({
      start: 0,
      candidates: ['/sessions', '/switch '].filter((v) => v.startsWith(before)).map((value) => ({ value })),
    });
    const { editor, keys, screen } = setup({ complete });
    editor.prompt(PROMPT);
    await keys('/\t');
    expect(lastRow(screen)).toBe('> /s');
    await keys('\t');
    expect(screen.rows().slice(0, 3)).toEqual(['> /s', '/sessions  /switch', '> /s']);
    await keys('e\t');
    expect(lastRow(screen)).toBe('> /sessions');
  });

  it('shows a text taller than the screen around the cursor, and all of it once sent', async () => {
    const { editor, entries, keys, screen } = setup({ rows: 5 });
    const lines = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`);
    editor.prompt(PROMPT);
    await keys(`\x1b[200~${lines.join('\n')}\x1b[201~`);
    expect(screen.rows().slice(0, 4)).toEqual(['… line 9', '… line 10', '… line 11', '… line 12']);
    await keys('\x1b[A'.repeat(11));
    expect(lastRow(screen)).toBe('> line 1');
    expect(screen.cursor().row).toBe(0);
    await keys('\r');
    expect(entries).toEqual([lines.join('\n')]);
    expect(screen.transcript()).toContain(['> line 1', ...lines.slice(1).map((l) => `… ${l}`)].join('\n'));
  });

  it('draws the line again on a cleared screen with Ctrl-L', async () => {
    const { editor, keys, screen } = setup({ cols: 20 });
    editor.prompt(PROMPT);
    await keys('天气很好天气很好天气');
    expect(screen.rows().slice(0, 2)).toEqual(['> 天气很好天气很好天', '气']);
    screen.write('\x1b[5;1Hnoise');
    await keys('\x0c');
    expect(screen.rows().slice(0, 5)).toEqual(['> 天气很好天气很好天', '气', '', '', '']);
    expect(screen.cursor()).toEqual({ row: 1, col: 2 });
  });
});
