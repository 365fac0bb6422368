import { createRequire } from 'node:module';
import type { Parser, Tree } from 'web-tree-sitter';

/** A loaded bash parser: turns a command line into a syntax tree. */
export interface BashParser {
  parse(source: string): Tree;
}

// The grammar is loaded once per process and never changes: a module-level promise is a cache, not state.
let loading: Promise<BashParser> | undefined;

/**
 * The bash parser, loaded on first use (tens of milliseconds of WebAssembly, paid only by a call that
 * runs a command). Both .wasm files are found through the packages themselves, so the bundled CLI,
 * whose code no longer sits beside web-tree-sitter's, finds them too.
 */
export function bashParser(): Promise<BashParser> {
  loading ??= load().catch((err: unknown) => {
    // A failed load (a missing file) is tried again next time rather than cached.
    loading = undefined;
    throw err;
  });
  return loading;
}

async function load(): Promise<BashParser> {
  const require = createRequire(import.meta.url);
  const { Parser: ParserClass, Language } = await import('web-tree-sitter');
  await ParserClass.init({ locateFile: () => require.resolve('web-tree-sitter/tree-sitter.wasm') });
  const bash = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
  const parser: Parser = new ParserClass();
  parser.setLanguage(bash);
  return {
    parse(source) {
      const tree = parser.parse(source);
      if (!tree) throw new Error('the bash parser returned no tree');
      return tree;
    },
  };
}
