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
 * A fenced block as CommonMark reads one: quoted material, not the user's words (piped text, a pasted
 * log, the names of uploaded files). It opens with ``` or ~~~ (three or more, up to three spaces in; a
 * backtick fence's info string holds no backtick, so ```bash``` on a line is inline code), and runs to a
 * line of the same character at least as long, or to the end.
 */
const FENCED = /^ {0,3}(`{3,}(?=[^`\n]*$)|~{3,})[^\n]*\n[\s\S]*?(?:^ {0,3}\1(?:(?<=`)`*|(?<=~)~*)[ \t]*$|(?![\s\S]))/gm;

/** True when `line` closes a block opened by `fence`: the same character, at least as many. */
const closes = (line: string, fence: string): boolean => {
  const t = line.trim();
  return t.length >= fence.length && t === fence[0]!.repeat(t.length) && /^ {0,3}\S/.test(line);
};

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
    open = lines.length > 1 && closes(lines.at(-1)!, m[1]!) ? undefined : m[1];
  }
  return open ? `${text}\n${open}` : text;
}
