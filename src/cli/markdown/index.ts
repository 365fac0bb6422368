/**
 * The terminal Markdown renderer, loaded only when a reply goes to a terminal that takes colour:
 * markdown-it reads the inline syntax, highlight.js (its core and the languages people paste most)
 * colours code. Piped and `--json` runs never load this module.
 */
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import markdown from 'highlight.js/lib/languages/markdown';
import php from 'highlight.js/lib/languages/php';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import MarkdownIt from 'markdown-it';
import type { BlockDeps } from './blocks.js';
import { createCodeHighlighter } from './highlight.js';
import { createInlineRenderer } from './inline.js';
import { createMarkdownStream, renderMarkdown, type MarkdownStream } from './stream.js';

export type { MarkdownStream } from './stream.js';

const LANGUAGES = {
  bash,
  c,
  cpp,
  csharp,
  css,
  diff,
  go,
  ini,
  java,
  javascript,
  json,
  kotlin,
  markdown,
  php,
  python,
  ruby,
  rust,
  sql,
  swift,
  typescript,
  xml,
  yaml,
};
const ALIASES: Record<string, string[]> = {
  bash: ['sh', 'shell', 'zsh', 'console'],
  javascript: ['js', 'mjs', 'cjs', 'jsx'],
  typescript: ['ts', 'tsx', 'mts'],
  python: ['py'],
  xml: ['html', 'vue', 'svg'],
  yaml: ['yml'],
  rust: ['rs'],
  ini: ['toml'],
};

/** Renders Markdown for a terminal `columns()` wide. */
export interface MarkdownRenderer {
  stream(): MarkdownStream;
  render(text: string): string;
}

function createDeps(): BlockDeps {
  const highlighter = hljs.newInstance();
  for (const [name, language] of Object.entries(LANGUAGES)) highlighter.registerLanguage(name, language);
  for (const [name, aliases] of Object.entries(ALIASES)) highlighter.registerAliases(aliases, { languageName: name });
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
  return { inline: createInlineRenderer(md), code: createCodeHighlighter(highlighter) };
}

export function createMarkdownRenderer(columns: () => number): MarkdownRenderer {
  // Built at the first reply, not at start: a turn that fails before any text never pays for it.
  let deps: BlockDeps | undefined;
  const ready = () => (deps ??= createDeps());
  return {
    stream: () => createMarkdownStream(ready(), columns),
    render: (text) => renderMarkdown(ready(), text, columns()),
  };
}
