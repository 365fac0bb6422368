/**
 * Text the program did not write itself (model output, tool names and results, file contents, session
 * titles, provider error messages) must never drive the terminal: an escape sequence in it could set
 * the user's clipboard (OSC 52), retitle the window (OSC 0), hide text or move the cursor.
 *
 * Removing every ESC and C1 control is enough, and works on streamed deltas one at a time: without its
 * introducer a sequence split across deltas is left as plain, harmless characters. Whole sequences are
 * removed where they can be seen, so their parameters do not show up as noise.
 */

// OSC, DCS, SOS, PM, APC: a string up to BEL or ST (ESC \), or to the end of the text when unterminated.
const ESC_STRING = /\x1b[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\|$)/g;
// CSI: ESC [ parameters, intermediates, one final byte.
const ESC_CSI = /\x1b\[[0-?]*[ -/]*[@-~]?/g;
// Any other escape: ESC plus one character (or ESC alone at the end).
const ESC_OTHER = /\x1b[\s\S]?/g;
// C0 controls but tab and newline, DEL, and the C1 controls (U+0080–U+009F: 0x9B is a one-byte CSI).
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** `text` with no control sequences left; line breaks and tabs kept (CR LF becomes LF). */
export function plainText(text: string): string {
  if (!/[\x00-\x08\x0b-\x1f\x7f-\x9f]/.test(text)) return text;
  return text
    .replace(/\r\n/g, '\n')
    .replace(ESC_STRING, '')
    .replace(ESC_CSI, '')
    .replace(ESC_OTHER, '')
    .replace(CONTROL, '');
}

/**
 * One JSON line for stdout. JSON.stringify escapes C0 controls but leaves the C1 range (U+0080–U+009F)
 * raw, and terminals act on those (U+009B starts a control sequence): escape them too. The text stays
 * the same JSON value.
 */
export function jsonLine(value: unknown): string {
  return `${JSON.stringify(value).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
}
