import type { Node } from 'web-tree-sitter';

/** A shell word as bash would pass it after quote removal, or why it cannot be known before it runs. */
export interface Word {
  /** The value after quote removal and escapes (`c"u"rl` → `curl`); the source text when `dynamic`. */
  value: string;
  /** Holds an expansion or substitution (`$X`, `$(…)`, `` `…` ``): its value exists only at run time. */
  dynamic: boolean;
  /** Holds an unquoted glob or brace expansion (`*.txt`, `{a,b}`): it may become other words. */
  glob: boolean;
  /** The source text. */
  raw: string;
}

const DYNAMIC_NODES = new Set([
  'simple_expansion',
  'expansion',
  'command_substitution',
  'process_substitution',
  'arithmetic_expansion',
]);

/**
 * `~+`, `~-`, `~2`, `~-1` at a word's start: bash puts PWD, OLDPWD or an entry of the folder stack
 * there, which the line can set to anything (`OLDPWD=-rf; rm ~- x` is `rm -rf x`).
 */
const RUN_TIME_TILDE = /^~(?:[+-]|[+-]?\d+)(?:\/|$)/;

/** `{a,b}` and `{1..3}` become several words. */
const BRACE_EXPANSION = /\{[^}]*(?:,|\.\.)[^}]*\}/;

/** Escapes inside `$'…'`, as bash decodes them. */
const ANSI_SIMPLE: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** Decodes the body of `$'…'`: `\x63` → c, `\143` → c, `\u0063` → c, `\cX` control characters. */
export function decodeAnsiC(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\' || i + 1 >= body.length) {
      out += c;
      continue;
    }
    const n = body[++i]!;
    if (n in ANSI_SIMPLE) out += ANSI_SIMPLE[n];
    else if (n === 'x') {
      const hex = /^[0-9a-fA-F]{1,2}/.exec(body.slice(i + 1))?.[0];
      if (hex) {
        out += String.fromCharCode(parseInt(hex, 16));
        i += hex.length;
      } else out += '\\x';
    } else if (n === 'u' || n === 'U') {
      const hex = new RegExp(`^[0-9a-fA-F]{1,${n === 'u' ? 4 : 8}}`).exec(body.slice(i + 1))?.[0];
      if (hex) {
        out += String.fromCodePoint(Math.min(parseInt(hex, 16), 0x10ffff));
        i += hex.length;
      } else out += `\\${n}`;
    } else if (/[0-7]/.test(n)) {
      const oct = /^[0-7]{1,3}/.exec(body.slice(i))![0];
      out += String.fromCharCode(parseInt(oct, 8) & 0xff);
      i += oct.length - 1;
    } else if (n === 'c' && i + 1 < body.length)
      out += String.fromCharCode(body[++i]!.toUpperCase().charCodeAt(0) ^ 0x40);
    else out += `\\${n}`;
  }
  return out;
}

/** An unquoted word's value: a backslash keeps the next character, a backslash-newline is nothing. */
function unquoted(text: string): { value: string; glob: boolean } {
  let value = '';
  let glob = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\') {
      const n = text[++i];
      if (n !== undefined && n !== '\n') value += n;
      continue;
    }
    if (c === '*' || c === '?' || c === '[') glob = true;
    value += c;
  }
  if (BRACE_EXPANSION.test(text)) glob = true;
  return { value, glob };
}

/** Inside double quotes a backslash escapes only `$`, `` ` ``, `"`, `\` and a newline. */
function doubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c));
}

/** Reads a word node (an argument, a program name, an assignment's value) the way bash would expand it. */
export function readWord(node: Node): Word {
  const raw = node.text;
  const w = wordOf(node);
  return { value: w.dynamic ? raw : w.value, dynamic: w.dynamic, glob: w.glob, raw };
}

function wordOf(node: Node): { value: string; dynamic: boolean; glob: boolean } {
  const type = node.type;
  if (DYNAMIC_NODES.has(type)) return { value: node.text, dynamic: true, glob: false };
  switch (type) {
    case 'raw_string':
      return { value: node.text.slice(1, -1), dynamic: false, glob: false };
    case 'ansi_c_string':
      return { value: decodeAnsiC(node.text.slice(2, -1)), dynamic: false, glob: false };
    case 'string':
    case 'translated_string': {
      const children = node.namedChildren.filter((c): c is Node => c !== null);
      if (children.some((c) => DYNAMIC_NODES.has(c.type))) return { value: node.text, dynamic: true, glob: false };
      // The text between the quotes, escapes resolved: string_content nodes skip some characters (a lone `$`).
      const inner = node.text.slice(type === 'string' ? 1 : 2, -1);
      return { value: doubleQuoted(inner), dynamic: false, glob: false };
    }
    case 'concatenation': {
      let value = '';
      let dynamic = false;
      let glob = false;
      // Children's own text skips nothing between them: a concatenation is its parts side by side.
      for (const child of node.children) {
        if (!child) continue;
        const w = wordOf(child);
        value += w.value;
        dynamic ||= w.dynamic;
        glob ||= w.glob;
      }
      // `~-/x`: a tilde-prefix that bash fills from PWD, OLDPWD or the folder stack, whatever the rest is.
      if (node.children[0]?.type === 'word' && RUN_TIME_TILDE.test(node.children[0].text)) dynamic = true;
      // The grammar splits `{PA,}TH` into pieces none of which is a brace expansion alone: bash sees the whole.
      const skeleton = node.children.map((c) => (c?.type === 'word' ? c.text : 'x')).join('');
      if (BRACE_EXPANSION.test(skeleton)) glob = true;
      return { value, dynamic, glob };
    }
    case 'word':
    case 'number':
    case 'command_name': {
      const named = node.namedChildren.filter((c): c is Node => c !== null);
      if (type === 'command_name' && named.length === 1) return wordOf(named[0]!);
      if (named.length && type !== 'word') return wordOf(named[0]!);
      return { ...unquoted(node.text), dynamic: RUN_TIME_TILDE.test(node.text) };
    }
    case 'brace_expression':
      return { value: node.text, dynamic: false, glob: true };
    default:
      // Anything else in a word's place (an extglob, a regex) is not read further: treated as run-time.
      return { value: node.text, dynamic: true, glob: false };
  }
}

/**
 * A word bash expands (a glob, a brace expansion) into words of which one may start with `-`: an option
 * the program reads though the text shows none (`{,}--filter=…`, `-exe[c]` beside a file named
 * `-exec`, `*` beside one named `--to-command=…`). Only a word that starts with a plain name character
 * makes only words starting with it.
 */
export const mayExpandToOption = (word: Word): boolean => word.glob && !/^[A-Za-z0-9_./~+=:,@%^]/.test(word.raw);

/** A word made from plain text (a wrapper's argument split further, a test's input). */
export const literalWord = (value: string): Word => ({ value, dynamic: false, glob: false, raw: value });
