/**
 * Text from outside (a web page, a search result, a PDF, a browser snapshot) as the model reads it:
 * fenced, with where it came from, so that instructions written inside it read as what they are,
 * content, and not as the user or the system speaking. The permission rules still decide every
 * action whatever the model makes of it: this fence is a second line, never the only one.
 */

const OPEN = '<untrusted-content';
export const UNTRUSTED_CLOSE = '</untrusted-content>';
const CLOSE = UNTRUSTED_CLOSE;

/** Attribute text without quotes or line breaks, short enough to read. */
function attr(value: string): string {
  return value.replace(/["<>\u0000-\u001f\u007f\u2028\u2029]/g, ' ').slice(0, 500);
}

/**
 * Wraps `text` from `source` (a URL, a file path, a search query). A fence written inside the text
 * is defused, so the content cannot close its own fence and speak after it.
 */
export function untrusted(source: string, text: string, kind = 'web page'): string {
  const body = text.replace(/<\s*\/?\s*untrusted-content/gi, (m) => m.replace('<', '‹'));
  return `${OPEN} kind="${attr(kind)}" source="${attr(source)}">\n${body}\n${CLOSE}`;
}

/** The text inside the fences of `output`, for a reader who is a person (the offline planner's reply). */
export function unfenced(output: string): string {
  return output.replace(/<untrusted-content\b[^>\n]*>\n?/g, '').replace(/\n?<\/untrusted-content>/g, '');
}
