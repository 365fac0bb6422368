import { describe, expect, it } from 'vitest';
import { defaultsOf, withoutRule, withRule } from './rule-edits.js';

describe('editing permission rules', () => {
  it('sets a tool, or adds a pattern keeping the tool\'s own or default decision as "*"', () => {
    expect(withRule({}, {}, 'file_write', 'ask')).toEqual({ file_write: 'ask' });
    expect(withRule({}, { shell: 'ask' }, 'shell', 'deny', 'curl *')).toEqual({
      shell: { '*': 'ask', 'curl *': 'deny' },
    });
    expect(
      withRule({ shell: { 'git *': 'allow' } }, { shell: { 'git *': 'allow' } }, 'shell', 'deny', 'rm -rf *'),
    ).toEqual({
      shell: { 'git *': 'allow', 'rm -rf *': 'deny' },
    });
    expect(withRule({}, {}, 'web_fetch', 'allow', 'https://example.com/*')).toEqual({
      web_fetch: { 'https://example.com/*': 'allow' },
    });
    // A plain decision over a tool with patterns sets its "*", keeping the denies beside it.
    expect(withRule({ shell: { 'curl *': 'deny', '*': 'ask' } }, {}, 'shell', 'allow')).toEqual({
      shell: { 'curl *': 'deny', '*': 'allow' },
    });
  });

  it('removes a tool, or one pattern, and the tool with its last pattern', () => {
    expect(withoutRule({ a: 'allow', b: 'deny' }, 'a')).toEqual({ rules: { b: 'deny' }, removed: true });
    expect(withoutRule({ s: { x: 'allow', y: 'deny' } }, 's', 'x')).toEqual({
      rules: { s: { y: 'deny' } },
      removed: true,
    });
    expect(withoutRule({ s: { x: 'allow' } }, 's', 'x')).toEqual({ rules: {}, removed: true });
    expect(withoutRule({ s: 'allow' }, 's', 'x').removed).toBe(false);
    expect(withoutRule({}, 's').removed).toBe(false);
  });

  it("tells the defaults from the user's rules", () => {
    expect(defaultsOf({ shell: 'ask', file_write: 'deny', '*__*': 'ask' }, { file_write: 'deny' })).toEqual({
      shell: 'ask',
      '*__*': 'ask',
    });
  });
});
