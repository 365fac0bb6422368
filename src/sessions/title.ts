const MAX_TITLE_CHARS_CJK = 20;
const MAX_TITLE_CHARS = 48;
const MAX_TITLE_WORDS = 6;

/** A title from the first words of a message: used offline, and online when the model's title fails. */
export function titleFromText(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (!line) return 'New chat';
  const hasCjk = /[\u3400-\u9fff]/.test(line);
  let title = hasCjk ? line : line.split(' ').slice(0, MAX_TITLE_WORDS).join(' ');
  const max = hasCjk ? MAX_TITLE_CHARS_CJK : MAX_TITLE_CHARS;
  if ([...title].length > max) title = `${[...title].slice(0, max).join('')}…`;
  else if (title.length < line.length) title = `${title}…`;
  return title;
}
