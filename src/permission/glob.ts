/**
 * The globs permission rules are written in. `*` matches any run of characters, spaces and `/`
 * included (`git *` covers every git command line, `notes/*` every file below notes/), `?` exactly one
 * character, and a backslash makes the next character literal (`\*`, `\?`, `\\`). Everything else,
 * `[`, `{`, `.` included, is itself: rules name commands and paths, where brackets are literal text.
 *
 * One convenience: a pattern ending in ` *` (space, star) also matches the text without the space,
 * so `curl *` covers a bare `curl` as well as `curl -s x`, but never `curly`.
 */
export interface Glob {
  /** The pattern as written. */
  source: string;
  test(text: string): boolean;
  /** The literal text before the first wildcard: what every match starts with. */
  prefix: string;
  /** True when the pattern starts with a wildcard, so it does not name a program or path. */
  broad: boolean;
}

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/]/g;

/** Compiles a rule's glob. Pure; callers that match often keep the result. */
export function compileGlob(pattern: string): Glob {
  let source = '';
  let prefix = '';
  let literalSoFar = true;
  const tokens: Array<{ wild?: '*' | '?'; text?: string }> = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) tokens.push({ text: pattern[++i]! });
    else if (c === '*' || c === '?') tokens.push({ wild: c });
    else tokens.push({ text: c });
  }
  // A trailing unescaped " *": the arguments are optional.
  const last = tokens.at(-1);
  const beforeLast = tokens.at(-2);
  const optionalTail = last?.wild === '*' && beforeLast?.text === ' ';
  const body = optionalTail ? tokens.slice(0, -2) : tokens;
  for (const t of body) {
    if (t.wild) {
      literalSoFar = false;
      source += t.wild === '*' ? '[\\s\\S]*' : '[\\s\\S]';
    } else {
      if (literalSoFar) prefix += t.text;
      source += t.text!.replace(REGEX_SPECIAL, '\\$&');
    }
  }
  if (optionalTail) source += '(?: [\\s\\S]*)?';
  const regex = new RegExp(`^${source}$`, 'u');
  return { source: pattern, test: (text) => regex.test(text), prefix, broad: tokens[0]?.wild !== undefined };
}

/** True when `pattern` matches all of `text`. */
export const matchGlob = (pattern: string, text: string): boolean => compileGlob(pattern).test(text);

/** True when `name` contains a wildcard, so it is a glob over tool names rather than one tool's name. */
export const isToolGlob = (name: string): boolean => /(?<!\\)[*?]/.test(name);
