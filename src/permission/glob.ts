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

type Token = { wild: '*' | '?' } | { text: string };

/** Compiles a rule's glob. Pure; callers that match often keep the result. */
export function compileGlob(pattern: string): Glob {
  const tokens: Token[] = [];
  // Code points, as a `?` matches one character, 汉 or 😀 alike.
  const chars = Array.from(pattern);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === '\\' && i + 1 < chars.length) tokens.push({ text: chars[++i]! });
    else if (c === '*' || c === '?') tokens.push({ wild: c });
    else tokens.push({ text: c });
  }
  // A trailing unescaped " *": the arguments are optional.
  const last = tokens.at(-1);
  const beforeLast = tokens.at(-2);
  const optionalTail =
    last !== undefined &&
    'wild' in last &&
    last.wild === '*' &&
    beforeLast !== undefined &&
    'text' in beforeLast &&
    beforeLast.text === ' ';
  const body = optionalTail ? tokens.slice(0, -2) : tokens;
  let prefix = '';
  for (const t of body) {
    if ('wild' in t) break;
    prefix += t.text;
  }
  return {
    source: pattern,
    test: (text) => {
      const t = Array.from(text);
      return wildMatch(tokens, t) || (optionalTail && wildMatch(body, t));
    },
    prefix,
    broad: tokens[0] !== undefined && 'wild' in tokens[0],
  };
}

/**
 * Whether `tokens` match all of `text`, in time proportional to their lengths' product at worst:
 * on a mismatch only the latest `*` takes one more character, never an earlier one (which a later
 * `*` could always take instead). A regular expression built from the glob backtracks
 * exponentially on patterns like `*?*?*?…x`, and one rule must never freeze the process.
 */
function wildMatch(tokens: readonly Token[], text: readonly string[]): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    const token = tokens[p];
    if (token !== undefined && 'wild' in token && token.wild === '*') {
      star = p++;
      resume = t;
    } else if (token !== undefined && ('wild' in token || token.text === text[t])) {
      p++;
      t++;
    } else if (star >= 0) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < tokens.length && 'wild' in tokens[p]! && (tokens[p] as { wild: string }).wild === '*') p++;
  return p === tokens.length;
}

/** True when `pattern` matches all of `text`. */
export const matchGlob = (pattern: string, text: string): boolean => compileGlob(pattern).test(text);

/** True when `name` contains a wildcard, so it is a glob over tool names rather than one tool's name. */
export const isToolGlob = (name: string): boolean => /(?<!\\)[*?]/.test(name);
