/**
 * The note a message carries about the files uploaded with it. Their names are quoted in a fence: a
 * file's name is chosen by whoever made the file (a download, a mail attachment), so the assistant
 * takes them as material, not as the user's words (addresses in them are not ones the user named).
 */
export function attachedNote(label: string, files: string[], message = ''): string {
  // Longer than any run in the message too: a fence the user left open (a pasted error) then runs on
  // over the names, which stay quoted, instead of being closed by this one.
  const longest = Math.max(
    0,
    ...[...files, message].map((f) => Math.max(0, ...(f.match(/`+/g) ?? []).map((run) => run.length))),
  );
  const fence = '`'.repeat(Math.max(3, longest + 1));
  // The label is the fence's info string: the note is one quoted block, and nothing of it reads as a request.
  return `${fence}${label}\n${files.join('\n')}\n${fence}`;
}

/** A fenced block as the server reads one (src/markdown-fence.ts): opener, then up to its closing line or the end. */
const FENCED = /^(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^\1[ \t]*$|(?![\s\S]))/gm;

/**
 * The user's text with a fence it leaves open (a pasted error) closed at its end, so the note after it
 * is a block of its own: no name in it can close the user's fence and turn the rest into their words.
 */
export function closeOpenFence(text: string): string {
  let open: string | undefined;
  for (const m of text.matchAll(FENCED)) {
    const lines = m[0].replace(/\n$/, '').split('\n');
    open = lines.length > 1 && lines.at(-1)!.trim() === m[1] ? undefined : m[1];
  }
  return open ? `${text}\n${open}` : text;
}
