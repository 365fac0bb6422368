/**
 * A JSON Schema `pattern` (ECMA-262, Unicode mode, as ajv compiles it) run by RE2, which matches in
 * time linear in the text: V8's own engine backtracks, and `^(a+)+$` on forty characters takes an
 * hour. Where RE2 cannot mean the same thing (backreferences, lookaround, a class RE2 reads
 * differently), the pattern stays a native RegExp, and only the deadline of the thread that runs it
 * bounds it.
 *
 * `linearPattern` is also sent as source text into the schema checker's worker thread, so it must
 * stay self-contained: no imports, no helpers outside its body, only what its arguments give it.
 */

/** The part of re2js's `RE2JS` this needs. */
export interface Re2Engine {
  compile(pattern: string): { test(text: string): boolean };
  translateRegExp(pattern: string): string;
}

/** What ajv's `code.regExp` returns: something with `test`. */
export interface PatternTest {
  test(text: string): boolean;
}

/**
 * The pattern as RE2 when RE2 reads it as ECMA-262 would, else as a native RegExp. Throws on a
 * pattern that is not valid ECMA-262 in Unicode mode, as ajv's own `new RegExp` would.
 */
export function linearPattern(pattern: string, flags: string, re2: Re2Engine): PatternTest {
  // Constructing a RegExp only parses it (no matching): it says whether the pattern is valid ECMA-262.
  const native = new RegExp(pattern, flags);
  // ECMA's \s also takes Unicode spaces and `.` stops at \r, U+2028 and U+2029; RE2's do not.
  const space =
    '\\t\\n\\v\\f\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}';
  const lineChar = '[^\\n\\r\\x{2028}\\x{2029}]';
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      // Backreferences: RE2 has none (and re2js would silently read `\k<n>` as text).
      if (next === 'k' || (next >= '1' && next <= '9')) return native;
      if (next === 's') out += inClass ? space : `[${space}]`;
      else if (next === 'S') {
        if (inClass) return native;
        out += `[^${space}]`;
      } else out += c + next;
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
      // `[]` and `[^]` are classes of their own in ECMA-262; RE2 reads a leading `]` as a member.
      const negated = pattern[i + 1] === '^';
      if (pattern[i + (negated ? 2 : 1)] === ']') return native;
    } else if (
      c === '(' &&
      pattern[i + 1] === '?' &&
      (pattern[i + 2] === '=' ||
        pattern[i + 2] === '!' ||
        (pattern[i + 2] === '<' && (pattern[i + 3] === '=' || pattern[i + 3] === '!')))
    ) {
      return native;
    } else if (c === '.') {
      out += lineChar;
    } else {
      out += c;
    }
  }
  try {
    return re2.compile(re2.translateRegExp(out));
  } catch {
    return native;
  }
}
