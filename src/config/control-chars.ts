/**
 * A setting may carry terminal escapes (a planted ./.env can say anything). The CLI cleans what it
 * prints, but the config layer's own messages never quote such a value either: they say what is
 * wrong with it instead, so no escape depends on one filter to stay harmless.
 */

// C0 controls but tab and newline, DEL, and the C1 controls: what could start a control sequence.
const CONTROL_CHARS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

/** Whether `text` holds a character that could drive the terminal. */
export function hasControlChars(text: string): boolean {
  return CONTROL_CHARS.test(text);
}
