// Bundles the compiled CLI (dist/cli/main.js and what it loads) into a few files under
// dist/bundle/, so a one-shot call parses one file instead of a few hundred small modules.
// Lazy imports stay lazy: they become separate chunks loaded only when needed. The bundle is
// CommonJS: Node 20 can keep V8's compiled code of CommonJS files between runs (see
// bin/compile-cache.js), which it cannot do for ES modules, and skips starting the ESM loader.
import { rm } from 'node:fs/promises';
import { build } from 'rolldown';

await rm('dist/bundle', { recursive: true, force: true });
await build({
  input: { main: 'dist/cli/main.js' },
  platform: 'node',
  // Native code stays a package. The provider SDK is bundled too, in the chunk loaded only when a
  // model is configured: as a package it is some 200 small modules, ~70 ms of a one-shot's start.
  // jsdom and playwright-core read their own files at run time (jsdom its stylesheets and a worker,
  // playwright-core its protocol and the scripts it injects into pages), which a bundle would not
  // carry along: they stay packages, loaded only when web_fetch reads a page or the browser starts.
  external: ['better-sqlite3', 'jsdom', 'playwright-core', /^playwright-core\//, /^node:/],
  // JSDoc is dropped: a `{import('…')}` type in a library's comment would keep its chunk out of the
  // compile cache (bin/compile-cache.js skips files that may import()), and it is bytes to parse.
  output: {
    dir: 'dist/bundle',
    format: 'cjs',
    entryFileNames: '[name].cjs',
    chunkFileNames: '[name]-[hash].cjs',
    comments: { legal: true, annotation: true, jsdoc: false },
  },
  logLevel: 'warn',
});
