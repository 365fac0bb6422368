/** Text put inside a Markdown code fence that nothing in the text can close early. */

/** A fence longer than any run of backticks in `text` (at least three). */
export function fenceFor(text: string): string {
  let longest = 0;
  // A loop, not Math.max(...runs): piped text can hold more runs than a call takes arguments.
  for (const run of text.match(/`{3,}/g) ?? []) longest = Math.max(longest, run.length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/** `text` as a fenced block, shown as it is by anything that renders Markdown. */
export function fenced(text: string): string {
  const fence = fenceFor(text);
  return `${fence}\n${text.replace(/\n$/, '')}\n${fence}`;
}

/**
 * A fenced block (``` or ~~~, three or more, to its closing fence or the end): quoted material, not the user's
 * words (piped text, a pasted log, the names of uploaded files).
 */
const FENCED = /^(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^\1[ \t]*$|(?![\s\S]))/gm;

/** The user's text without the fenced blocks quoted in it. */
export function withoutFences(text: string): string {
  return text.includes('```') || text.includes('~~~') ? text.replace(FENCED, '') : text;
}

/**
 * `text` with a fence it leaves open (a pasted error with no closing line) closed at its end, so quoted
 * material put after it stays in a block of its own: nothing in that material can close the user's fence
 * and turn the rest into the user's words.
 */
export function closeOpenFence(text: string): string {
  let open: string | undefined;
  for (const m of text.matchAll(FENCED)) {
    const lines = m[0].replace(/\n$/, '').split('\n');
    open = lines.length > 1 && lines.at(-1)!.trim() === m[1] ? undefined : m[1];
  }
  return open ? `${text}\n${open}` : text;
}
