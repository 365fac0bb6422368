// A sed script read as GNU sed reads it, for one question: may it run a command? GNU sed runs one
// with the `e` command and the `e` flag of `s`, after any address form (`1~2`, `0,/re/`, `\,re,`,
// `addr,+N`, `/re/I`). What this reader does not understand counts as running one (closed world).

const NO_ARGUMENT = new Set(['=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F', '{', '}']);
const NUMBER_ARGUMENT = new Set(['l', 'L', 'q', 'Q']);
const LABEL = new Set([':', 'b', 't', 'T', 'v']);
const FILE_ARGUMENT = new Set(['r', 'R', 'w', 'W']);
const TEXT = new Set(['a', 'i', 'c']);

/** True when the sed script may run a command, or cannot be read. */
export function sedScriptRuns(script: string): boolean {
  let i = 0;
  const at = () => script[i] ?? '';
  const skip = (re: RegExp) => {
    while (i < script.length && re.test(at())) i++;
  };
  const toLineEnd = () => {
    while (i < script.length && at() !== '\n') i++;
  };
  // From just past an opening delimiter to just past the closing one; a backslash escapes any character.
  const delimited = (d: string): boolean => {
    while (i < script.length) {
      const c = script[i++]!;
      if (c === '\\') i++;
      else if (c === d) return true;
    }
    return false;
  };
  // One address, if there is one; false when one starts but does not end.
  const address = (): boolean | undefined => {
    const c = at();
    if (/\d/.test(c)) {
      skip(/\d/);
      if (at() === '~') {
        i++;
        skip(/\d/);
      }
      return true;
    }
    if (c === '$') return (i++, true);
    if (c === '/' || c === '\\') {
      const d = c === '/' ? '/' : script[i + 1];
      i += c === '/' ? 1 : 2;
      if (!d || d === '\n' || !delimited(d)) return false;
      skip(/[IM]/);
      return true;
    }
    return undefined;
  };
  while (i < script.length) {
    skip(/[\s;]/);
    if (i >= script.length) break;
    if (at() === '#') {
      toLineEnd();
      continue;
    }
    const first = address();
    if (first === false) return true;
    if (first) {
      skip(/[ \t]/);
      if (at() === ',') {
        i++;
        skip(/[ \t]/);
        if (at() === '+' || at() === '~') {
          i++;
          skip(/\d/);
        } else if (address() !== true) return true;
      }
    }
    skip(/[ \t!]/);
    const command = script[i++] ?? '';
    if (command === 'e') return true;
    // A block's first command may follow its brace directly.
    if (command === '{') continue;
    if (NO_ARGUMENT.has(command)) {
      // nothing to read
    } else if (NUMBER_ARGUMENT.has(command)) skip(/[ \t\d]/);
    else if (LABEL.has(command)) {
      // GNU sed ends a label at `;`, a newline or whitespace (`:a e CMD` is label a, then `e CMD`): text
      // after the label's first word is not part of it, so a label with more on its line is not read.
      skip(/[ \t]/);
      while (i < script.length && !/[;\n \t]/.test(at())) i++;
      skip(/[ \t]/);
      if (i < script.length && !/[;\n}]/.test(at())) return true;
    } else if (FILE_ARGUMENT.has(command)) toLineEnd();
    else if (TEXT.has(command)) {
      // Text to the end of the line, and on past each line that ends in a backslash.
      while (i < script.length && at() !== '\n') i += at() === '\\' ? 2 : 1;
    } else if (command === 's' || command === 'y') {
      const d = script[i++];
      if (!d || d === '\n' || d === '\\' || !delimited(d) || !delimited(d)) return true;
      if (command === 's') {
        for (;;) {
          const flag = at();
          if (flag === 'e') return true;
          if (flag === 'w') {
            toLineEnd();
            break;
          }
          if (!/[gpiImM\d]/.test(flag) || flag === '') break;
          i++;
        }
      }
    } else return true;
    skip(/[ \t]/);
    if (i < script.length && !/[;\n}#]/.test(at())) return true;
  }
  return false;
}
