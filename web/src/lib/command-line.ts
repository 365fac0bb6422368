/**
 * The MCP page's add form: a command line typed as in a shell, split into the program and its
 * arguments the way a POSIX shell would (quotes and backslashes; nothing is expanded or run), and
 * KEY=VALUE or "Name: value" lines.
 */

/** The words of `line`, or undefined when a quote is left open. */
export function splitCommandLine(line: string): string[] | undefined {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) word += line[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) return undefined;
  if (inWord) words.push(word);
  return words;
}

/** The words as one line a shell would split back into them: each quoted only when it needs it. */
export function joinCommandLine(words: string[]): string {
  return words.map((w) => (w !== '' && /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}

export type Pairs = { pairs: Record<string, string> } | { badLine: number; line: string };

/** `KEY=VALUE` (env) or `Name: value` (headers) lines; blank lines are skipped. */
export function parsePairs(text: string, separator: '=' | ':'): Pairs {
  const pairs: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.trim()) continue;
    const at = line.indexOf(separator);
    const key = at > 0 ? line.slice(0, at).trim() : '';
    if (!key) return { badLine: i + 1, line };
    pairs[key] = separator === '=' ? line.slice(at + 1) : line.slice(at + 1).trim();
  }
  return { pairs };
}
