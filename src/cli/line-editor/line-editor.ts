/**
 * The REPL's line editor, on a terminal in raw mode: multi-line entries (bracketed paste, a newline
 * key, open blocks the caller recognises), history with ↑/↓ and Ctrl-R, Tab completion, and the
 * usual Emacs keys. Written here because readline's own has no reverse search, no multi-line text
 * and no bracketed paste.
 *
 * Between prompts (while the REPL works) nothing typed is shown: keys wait and are replayed at the
 * next entry prompt, as a shell does with type-ahead. Ctrl-C is never held back.
 */
import { emitKeypressEvents } from 'node:readline';
import * as buffer from './edit-buffer.js';
import { emptyState, stateOf, type EditState } from './edit-buffer.js';
import { extendQuery, olderMatch, setQuery, shownMatch, startSearch, type SearchState } from './history-search.js';
import { isCtrl, isEnter, isNewlineKey, typedText, type Key } from './keys.js';
import { layout } from './layout.js';
import { createPainter } from './painter.js';
import { graphemes, textWidth } from './text-width.js';

const DEFAULT_COLUMNS = 80;
const PASTE_ON = '\x1b[?2004h';
export const PASTE_OFF = '\x1b[?2004l';

export interface Completion {
  /** Where in the text before the cursor the completed word starts. */
  start: number;
  /** `value` replaces the word; `label` (default `value`) is what a list of choices shows. */
  candidates: Array<{ value: string; label?: string }>;
}

/** `entry`: a message or command (history, completion, several lines); `answer`: one line answering a question. */
export type PromptKind = 'entry' | 'answer';

export interface LineEditorOptions {
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  /** Earlier entries, oldest first, read at each prompt. */
  history: () => readonly string[];
  complete?: (before: string) => Completion | undefined;
  /** Whether Enter ends this entry; while false (an open block) it starts a new line. */
  isComplete?: (text: string) => boolean;
  /** What Ctrl-R shows before the query. */
  searchLabel: (query: string, failed: boolean) => string;
  onEntry: (text: string) => void;
  /** Ctrl-C; `cleared` says it emptied a line that had text. */
  onInterrupt: (info: { cleared: boolean }) => void;
  /** Ctrl-D on an empty line, or the terminal went away. */
  onEnd: () => void;
  /** Ctrl-Z: stops the process (job control); returns once it runs again. */
  suspend?: () => void;
}

export interface LineEditor {
  /** Shows `prompt` and edits until an entry is complete; an entry prompt replays keys typed meanwhile. */
  prompt(prompt: string, kind?: PromptKind): void;
  /** Ends the line on screen without an entry (a question withdrawn, a note to print under it). */
  withdraw(): void;
  /** Gives the terminal back: cooked mode, bracketed paste off. */
  close(): void;
}

type Press = [string | undefined, Key];

export function createLineEditor(options: LineEditorOptions): LineEditor {
  const { input, output } = options;
  let mode: 'hidden' | 'edit' | 'search' = 'hidden';
  let kind: PromptKind = 'entry';
  let promptText = '';
  let state: EditState = emptyState;
  let queued: Press[] = [];
  let paste: string | undefined;
  let pasteCr = false;
  let entries: readonly string[] = [];
  let browse: { index: number; draft: EditState } | undefined;
  let search: (SearchState & { before: EditState }) | undefined;
  const painter = createPainter(output);
  let closed = false;

  const continuation = () => {
    const width = textWidth(promptText);
    return width >= 2 ? `${' '.repeat(width - 2)}… ` : '';
  };

  function currentLayout() {
    let shownPrompt = promptText;
    let view = state;
    if (mode === 'search' && search) {
      shownPrompt = options.searchLabel(search.query, search.failed);
      const match = shownMatch(entries, search);
      view = { text: match.text, cursor: match.at };
    }
    const cont = continuation();
    return layout({
      prompt: shownPrompt,
      promptWidth: textWidth(shownPrompt),
      continuation: cont,
      continuationWidth: textWidth(cont),
      text: view.text,
      cursor: view.cursor,
      columns: output.columns || DEFAULT_COLUMNS,
    });
  }

  /** Draws the prompt and text; `final` shows all of it and leaves the cursor on the line below. */
  const render = (final = false) => painter.paint(currentLayout(), final);

  function setState(next: EditState) {
    state = next;
    render();
  }

  function submit() {
    const text = state.text;
    if (kind === 'entry' && options.isComplete && !options.isComplete(text))
      return setState(buffer.insert(state, '\n'));
    render(true);
    mode = 'hidden';
    state = emptyState;
    browse = undefined;
    options.onEntry(text);
  }

  function historyStep(delta: -1 | 1) {
    if (kind !== 'entry') return;
    const at = browse?.index ?? entries.length;
    const index = at + delta;
    if (index < 0 || index > entries.length || (!browse && delta > 0)) return;
    browse ??= { index, draft: state };
    browse.index = index;
    if (index === entries.length) {
      const { draft } = browse;
      browse = undefined;
      return setState(draft);
    }
    setState(stateOf(entries[index]!));
  }

  function completeWord() {
    const before = state.text.slice(0, state.cursor);
    const found = options.complete?.(before);
    if (!found || !found.candidates.length) return;
    const values = found.candidates.map((c) => c.value);
    const typed = before.slice(found.start);
    let common = values[0]!;
    for (const v of values) while (!v.startsWith(common)) common = common.slice(0, -1);
    if (common.length > typed.length) {
      return setState(
        buffer.insert(
          { text: state.text.slice(0, found.start) + state.text.slice(state.cursor), cursor: found.start },
          common,
        ),
      );
    }
    // Nothing more to add: list the choices under the line, then draw it again.
    render(true);
    // Bare names share a line; described choices (a session's number and title) get one each.
    const described = found.candidates.some((c) => c.label !== undefined && c.label !== c.value.trim());
    const labels = found.candidates.map((c) => c.label ?? c.value);
    output.write(`${labels.join(described ? '\r\n' : '  ')}\r\n`);
    render();
  }

  function searchKey(str: string | undefined, key: Key): boolean {
    const s = search!;
    const typed = typedText(str, key);
    if (typed) search = { ...extendQuery(entries, s, typed), before: s.before };
    else if (key.name === 'backspace')
      search = { ...setQuery(entries, graphemes(s.query).slice(0, -1).join('')), before: s.before };
    else if (isCtrl(key, 'r')) search = { ...olderMatch(entries, s), before: s.before };
    else if (key.name === 'escape' || isCtrl(key, 'g')) {
      mode = 'edit';
      search = undefined;
      setState(s.before);
    } else {
      // Any other key takes the match and then acts, as a shell does: Enter sends it, an arrow edits
      // it. A search that found nothing for what was typed takes nothing, not a stale match.
      const match = shownMatch(entries, s);
      mode = 'edit';
      search = undefined;
      state = s.index < 0 || s.failed ? s.before : stateOf(match.text);
      return false;
    }
    render();
    return true;
  }

  function editKey(str: string | undefined, key: Key) {
    const name = key.name;
    const typed = typedText(str, key);
    if (typed) return setState(buffer.insert(state, typed));
    if (isNewlineKey(key)) return kind === 'entry' ? setState(buffer.insert(state, '\n')) : submit();
    if (isEnter(key)) return submit();
    if (isCtrl(key, 'd')) {
      if (state.text) return setState(buffer.deleteForward(state));
      render(true);
      mode = 'hidden';
      return options.onEnd();
    }
    if (isCtrl(key, 'r') && kind === 'entry') {
      mode = 'search';
      search = { ...startSearch(), before: state };
      return render();
    }
    if (name === 'tab' && kind === 'entry') return completeWord();
    if (isCtrl(key, 'z') && options.suspend) {
      // The shell takes the terminal back while the REPL is stopped, as it was before the REPL began.
      render(true);
      input.setRawMode?.(false);
      output.write(PASTE_OFF);
      options.suspend();
      input.setRawMode?.(true);
      output.write(PASTE_ON);
      return render();
    }
    if (isCtrl(key, 'l')) {
      output.write('\x1b[H\x1b[2J');
      painter.forget();
      return render();
    }
    const step = editStep(state, key);
    if (step) return setState(step);
    if (name === 'up' || isCtrl(key, 'p'))
      return buffer.lineUp(state) ? setState(buffer.lineUp(state)!) : historyStep(-1);
    if (name === 'down' || isCtrl(key, 'n'))
      return buffer.lineDown(state) ? setState(buffer.lineDown(state)!) : historyStep(1);
  }

  function pasteKey(str: string | undefined, key: Key) {
    if (key.name === 'paste-end') {
      const text = paste!.replace(/\n+$/, '');
      paste = undefined;
      return setState(buffer.insert(state, kind === 'entry' ? text : text.replace(/\n/g, ' ')));
    }
    // CR LF, CR and LF alike are one line break.
    if (key.name === 'return') paste += '\n';
    else if (key.name === 'enter') paste += pasteCr ? '' : '\n';
    else if (key.name === 'tab') paste += '\t';
    else paste += typedText(str, { ...key, ctrl: false, meta: false }) ?? '';
    pasteCr = key.name === 'return';
  }

  function press(str: string | undefined, key: Key) {
    if (paste !== undefined) return pasteKey(str, key);
    if (key.name === 'paste-start') {
      paste = '';
      pasteCr = false;
      return;
    }
    if (mode === 'search' && searchKey(str, key)) return;
    editKey(str, key);
  }

  function interrupt() {
    paste = undefined;
    const cleared = mode !== 'hidden' && (state.text !== '' || mode === 'search');
    if (mode === 'hidden') queued = [];
    else if (cleared) {
      mode = 'edit';
      search = undefined;
      browse = undefined;
      setState(emptyState);
    }
    options.onInterrupt({ cleared });
  }

  const onKeypress = (str: string | undefined, key: Key = {}) => {
    if (closed) return;
    if (isCtrl(key, 'c')) return interrupt();
    if (mode === 'hidden') return void queued.push([str, key]);
    press(str, key);
  };
  const onResize = () => mode !== 'hidden' && render();
  const onEnd = () => !closed && options.onEnd();

  emitKeypressEvents(input);
  input.setRawMode?.(true);
  input.on('keypress', onKeypress);
  input.on('end', onEnd);
  output.on('resize', onResize);
  input.resume();
  output.write(PASTE_ON);

  return {
    prompt(text, promptKind = 'entry') {
      if (closed) return;
      promptText = text;
      kind = promptKind;
      mode = 'edit';
      search = undefined;
      browse = undefined;
      painter.forget();
      entries = promptKind === 'entry' ? options.history() : [];
      render();
      if (promptKind !== 'entry') return;
      const replay = queued;
      queued = [];
      // An entry among them ends this prompt: the keys after it wait for the next one.
      for (const [str, key] of replay) onKeypress(str, key);
    },
    withdraw() {
      if (mode === 'hidden') return;
      paste = undefined;
      mode = 'edit';
      search = undefined;
      render(true);
      mode = 'hidden';
      state = emptyState;
    },
    close() {
      if (closed) return;
      closed = true;
      input.off('keypress', onKeypress);
      input.off('end', onEnd);
      output.off('resize', onResize);
      input.setRawMode?.(false);
      input.pause();
      output.write(PASTE_OFF);
    },
  };
}

/** The keys that move the cursor or delete, the same in every mode. */
function editStep(s: EditState, key: Key): EditState | undefined {
  const { name, ctrl, meta } = key;
  if (name === 'backspace' || isCtrl(key, 'h')) return meta || ctrl ? buffer.killWordBack(s) : buffer.backspace(s);
  if (name === 'delete') return buffer.deleteForward(s);
  if ((name === 'left' && (ctrl || meta)) || (meta && name === 'b')) return buffer.wordLeft(s);
  if ((name === 'right' && (ctrl || meta)) || (meta && name === 'f')) return buffer.wordRight(s);
  if (name === 'left' || isCtrl(key, 'b')) return buffer.left(s);
  if (name === 'right' || isCtrl(key, 'f')) return buffer.right(s);
  if (name === 'home' || isCtrl(key, 'a')) return buffer.home(s);
  if (name === 'end' || isCtrl(key, 'e')) return buffer.end(s);
  if (isCtrl(key, 'k')) return buffer.killToEnd(s);
  if (isCtrl(key, 'u')) return buffer.killToStart(s);
  if (isCtrl(key, 'w')) return buffer.killWordBack(s);
  return undefined;
}
