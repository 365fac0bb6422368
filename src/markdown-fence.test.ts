import { describe, expect, it } from 'vitest';
import { closeOpenFence, fenced, fenceFor, withoutFences } from './markdown-fence.js';

describe('fenced blocks, read as CommonMark reads them', () => {
  it('takes out what a fence quotes, to its closing line or the end', () => {
    expect(withoutFences('look:\n```\nquoted\n```\nmine')).toBe('look:\n\nmine');
    expect(withoutFences('look:\n~~~~\nquoted\n~~~~\nmine')).toBe('look:\n\nmine');
    expect(withoutFences('look:\n```\nquoted to the end')).toBe('look:\n');
    // Up to three spaces in, and a closing line longer than the opening one.
    expect(withoutFences('a\n   ```js\nquoted\n`````\nmine')).toBe('a\n\nmine');
    // A closing line must be the opener's own character.
    expect(withoutFences('a\n```\nquoted\n~~~\nstill quoted')).toBe('a\n');
  });

  it('leaves inline code and four-space indents as the words they are', () => {
    for (const text of ['run ```bash``` first\nthen this', '    ```\n    indented code\nmine', '``not a fence``\nmine'])
      expect(withoutFences(text)).toBe(text);
  });

  it('closes only a fence left open, however it was closed', () => {
    expect(closeOpenFence('a\n```\nx')).toBe('a\n```\nx\n```');
    expect(closeOpenFence('a\n~~~~\nx')).toBe('a\n~~~~\nx\n~~~~');
    expect(closeOpenFence('a\n```\nx\n``````')).toBe('a\n```\nx\n``````');
    expect(closeOpenFence('say ```bash``` please')).toBe('say ```bash``` please');
  });

  it('makes a fence nothing inside can close', () => {
    expect(fenceFor('a ````` b')).toBe('``````');
    const block = fenced('x\n```\nthen words');
    expect(withoutFences(`mine\n${block}\nmine too`)).toBe('mine\n\nmine too');
  });
});
