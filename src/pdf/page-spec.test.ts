import { describe, expect, it } from 'vitest';
import { formatPages, PageSpecError, parsePageSpec } from './page-spec.js';

describe('page specs', () => {
  it('turn ranges and lists into sorted distinct pages', () => {
    expect(parsePageSpec('1-3,5', 10, 'en')).toEqual([1, 2, 3, 5]);
    expect(parsePageSpec(' 5, 1 - 2 ,5', 10, 'en')).toEqual([1, 2, 5]);
    expect(parsePageSpec('8-', 10, 'en')).toEqual([8, 9, 10]);
    expect(parsePageSpec('2，4', 10, 'zh')).toEqual([2, 4]);
    expect(parsePageSpec('１－３，５', 10, 'zh')).toEqual([1, 2, 3, 5]);
    expect(parsePageSpec(undefined, 3, 'en')).toEqual([1, 2, 3]);
    expect(parsePageSpec('', 2, 'en')).toEqual([1, 2]);
  });

  it('refuse what names no page of the document, with its page count', () => {
    expect(() => parsePageSpec('11', 10, 'en')).toThrow(
      new PageSpecError(
        'The pages "11" are not valid: there is no page 11. This PDF has 10 pages; write them like "1-3,5", numbered 1 to 10.',
      ),
    );
    expect(() => parsePageSpec('2-1', 1, 'en')).toThrow(/runs backwards.*This PDF has 1 page;/);
    expect(() => parsePageSpec('a-b', 10, 'zh')).toThrow('页码“a-b”无效：“a-b”不是页码或页码范围。这份 PDF 共 10 页');
    expect(() => parsePageSpec(',', 10, 'en')).toThrow(/no page is named/);
    expect(() => parsePageSpec('1,'.repeat(200), 10, 'en')).toThrow(/too long/);
  });

  it('format read pages compactly', () => {
    expect(formatPages([1, 2, 3, 5, 7, 8])).toBe('1-3, 5, 7-8');
    expect(formatPages([4])).toBe('4');
  });
});
