/** What a keypress (as `readline.emitKeypressEvents` reports it) means to the line editor. */

export interface Key {
  name?: string;
  sequence?: string;
  ctrl?: boolean;
  meta?: boolean;
  shift?: boolean;
}

/** Text a key types: one or more characters with no control character among them. */
export function typedText(str: string | undefined, key: Key): string | undefined {
  if (!str || key.ctrl || key.meta) return undefined;
  return /^[^\x00-\x1f\x7f-\x9f]+$/u.test(str) ? str : undefined;
}

// Shift+Enter as terminals with extended keyboard reporting send it (kitty's protocol, xterm's modifyOtherKeys).
const SHIFT_ENTER = new Set(['\x1b[13;2u', '\x1b[27;2;13~']);

/**
 * A new line in the text rather than the end of the entry: Ctrl-J (which sends a line feed, where
 * Enter sends a carriage return), Alt+Enter (ESC then CR), or Shift+Enter where the terminal tells it apart.
 */
export function isNewlineKey(key: Key): boolean {
  return key.name === 'enter' || (key.name === 'return' && Boolean(key.meta)) || SHIFT_ENTER.has(key.sequence ?? '');
}

export const isEnter = (key: Key) => key.name === 'return' && !key.meta;

export const isCtrl = (key: Key, name: string) => Boolean(key.ctrl) && !key.meta && key.name === name;
