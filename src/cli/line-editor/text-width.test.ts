import { describe, expect, it } from 'vitest';
import { graphemes, graphemeWidth, textWidth } from './text-width.js';

describe('textWidth', () => {
  it('counts Chinese, Japanese, Korean and fullwidth characters as two columns', () => {
    expect(textWidth('abc')).toBe(3);
    expect(textWidth('天气')).toBe(4);
    expect(textWidth('こんにちは')).toBe(10);
    expect(textWidth('안녕')).toBe(4);
    expect(textWidth('（全角）')).toBe(8);
    expect(textWidth('知行 › ')).toBe(7);
  });

  it('counts emoji as two columns and combining marks and joiners as none', () => {
    expect(textWidth('🌦')).toBe(2);
    expect(textWidth('👩‍💻')).toBe(2);
    expect(textWidth('❤️')).toBe(2);
    expect(textWidth('é')).toBe(1);
    expect(textWidth('e\u0301')).toBe(1);
  });

  it('ignores the styling a prompt carries', () => {
    expect(textWidth('\x1b[1m知行 › \x1b[22m')).toBe(7);
  });

  it('splits text into what the user sees as characters', () => {
    expect(graphemes('a👩‍💻e\u0301天')).toEqual(['a', '👩‍💻', 'e\u0301', '天']);
    expect(graphemeWidth('\t')).toBe(4);
    // Kana with a combining voiced mark is one character.
    expect(graphemes('か\u3099た')).toEqual(['か\u3099', 'た']);
    // Long text is segmented in pieces, with the same result.
    const long = '👩‍💻é天 '.repeat(200);
    expect(graphemes(long)).toEqual(Array.from(new Intl.Segmenter().segment(long), (s) => s.segment));
  });
});
