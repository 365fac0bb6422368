// Lint rules for the TypeScript core, the Vue web app, scripts and tests. Formatting belongs to
// Prettier (`npm run format`); eslint-config-prettier turns off every rule that would argue with it.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import vue from 'eslint-plugin-vue';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', 'coverage/**', 'node_modules/**', '**/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...vue.configs['flat/recommended'].map((config) => ({ files: ['**/*.vue'], ...config })),
  {
    files: ['**/*.vue'],
    languageOptions: { parserOptions: { parser: tseslint.parser } },
  },
  {
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Loaded by `bin/zhixing` before the bundle, with `require`, to keep V8's code cache.
    files: ['bin/compile-cache.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['web/src/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    rules: {
      // `_`-prefixed names are deliberately unused (a callback's place-holding argument).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // A `let` that closures defined above it read, assigned once below them, stays a `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // `ok && next()` and `a ? b() : c()` as statements are a habit of the shell and sed readers.
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
    },
  },
  {
    rules: {
      // Terminal text, ANSI escapes and control characters are matched on purpose.
      'no-control-regex': 'off',
      // An app's own components, not a library's: one-word names read well and cannot collide.
      'vue/multi-word-component-names': 'off',
    },
  },
  {
    // Tests poke at untyped JSON and stand-in peers; `any` there is a convenience, not a leak.
    files: ['test/**', '**/*.test.ts', 'bench/**', 'eval/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  prettier,
);
