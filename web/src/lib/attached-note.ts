import { fenceFor } from '../../../src/markdown-fence.js';

export { closeOpenFence } from '../../../src/markdown-fence.js';

/**
 * The note a message carries about the files uploaded with it. Their names are quoted in a fence: a
 * file's name is chosen by whoever made the file (a download, a mail attachment), so the assistant
 * takes them as material, not as the user's words (addresses in them are not ones the user named).
 */
export function attachedNote(label: string, files: string[], message = ''): string {
  // Longer than any run in the message too: a fence the user left open (a pasted error) then runs on
  // over the names, which stay quoted, instead of being closed by this one.
  const fence = fenceFor([...files, message].join('\n'));
  // The label is the fence's info string: the note is one quoted block, and nothing of it reads as a request.
  return `${fence}${label}\n${files.join('\n')}\n${fence}`;
}
