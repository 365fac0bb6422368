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
