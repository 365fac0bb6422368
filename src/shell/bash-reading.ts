import type { Node, Tree } from 'web-tree-sitter';
import type { BashParser } from './parser.js';

// Where the grammar's reading of a line and bash's part ways, the line is read as bash reads it.

/** Times a line is parsed again to undo comments bash would not see, past which it is not read. */
const MAX_COMMENT_FIXES = 8;

/**
 * Parses a line so that every comment the tree holds is one for bash too. Where the grammar takes a `#`
 * for a comment's start and bash does not (see `startsComment`), the `#` is escaped — `\#` is the same
 * character to bash, and to the grammar no comment — and the line parsed again, so what follows is read.
 */
export function parseAsBash(parser: BashParser, source: string): Tree | undefined {
  // Most lines hold no `#`: one parse, no second walk of the tree.
  if (!source.includes('#')) return parser.parse(source);
  let text = source;
  for (let round = 0; round < MAX_COMMENT_FIXES; round++) {
    const tree = parser.parse(text);
    const wrong: number[] = [];
    const find = (n: Node) => {
      if (n.type === 'comment' && !startsComment(n)) wrong.push(n.startIndex);
      for (const c of n.children) if (c) find(c);
    };
    find(tree.rootNode);
    if (!wrong.length) return tree;
    tree.delete();
    for (const at of wrong.reverse()) text = `${text.slice(0, at)}\\${text.slice(at)}`;
  }
  return undefined;
}

/**
 * Whether bash too starts a comment at this `#`: only at a word's start, after an unquoted blank, a
 * newline or an operator. The grammar also skips CR, form feeds, vertical tabs and a backslash before a
 * blank or a newline, which for bash are part of a word — there the `#` is a character, and what the
 * grammar took for a comment runs.
 */
function startsComment(node: Node): boolean {
  const source = node.tree.rootNode.text;
  const at = node.startIndex;
  if (at === 0) return true;
  if (!/[ \t\n;&|()]/.test(source[at - 1]!)) return false;
  let backslashes = 0;
  for (let i = at - 2; i >= 0 && source[i] === '\\'; i--) backslashes++;
  return backslashes % 2 === 0;
}

/**
 * The text bash reads again inside a backquoted substitution whose backslashes it removes (before `$`,
 * a backquote, a backslash, and in double quotes before `"`), if any.
 */
export function backquoted(node: Node): string | undefined {
  const text = node.text;
  if (!text.startsWith('`') || !text.endsWith('`') || text.length < 2) return undefined;
  const inner = text.slice(1, -1);
  let quoted = false;
  for (let p = node.parent; p && !quoted; p = p.parent) quoted = p.type === 'string';
  const unescaped = inner.replace(quoted ? /\\([$`"\\])/g : /\\([$`\\])/g, '$1');
  return unescaped === inner ? undefined : unescaped;
}

/** Simple statements, which bash ends at a new line that no backslash continues. */
export const LINE_BOUND = new Set([
  'command',
  'declaration_command',
  'unset_command',
  'redirected_statement',
  'file_redirect',
  'herestring_redirect',
]);
/** What may span lines inside such a statement: quotes, substitutions, here-documents, bodies, lists. */
const MAY_SPAN_LINES = new Set([
  'string',
  'raw_string',
  'ansi_c_string',
  'translated_string',
  'command_substitution',
  'process_substitution',
  'expansion',
  'arithmetic_expansion',
  'heredoc_redirect',
  'heredoc_body',
  'array',
  'subshell',
  'compound_statement',
  'test_command',
  'if_statement',
  'while_statement',
  'for_statement',
  'c_style_for_statement',
  'case_statement',
  'function_definition',
  'pipeline',
  'list',
  'comment',
]);

/**
 * Whether the grammar read a simple statement on past a new line bash ends it at: `echo hi⏎\rm -rf x`
 * read as one echo, `export A=1⏎\rm …` as one export, `echo hi 2>&1⏎\git push` as a redirection's
 * words. Text that may span lines is left out; a new line after an odd number of backslashes continues.
 */
export function readsPastLineEnd(node: Node): boolean {
  let text = node.text;
  if (!text.includes('\n')) return false;
  const base = node.startIndex;
  const blank = (n: Node) => {
    for (const c of n.children) {
      if (!c) continue;
      if (MAY_SPAN_LINES.has(c.type)) {
        const from = c.startIndex - base;
        text =
          text.slice(0, from) + ' '.repeat(c.endIndex - c.startIndex) + text.slice(from + c.endIndex - c.startIndex);
      } else blank(c);
    }
  };
  blank(node);
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) {
    let backslashes = 0;
    for (let i = at - 1; i >= 0 && text[i] === '\\'; i--) backslashes++;
    if (backslashes % 2 === 0) return true;
  }
  return false;
}
