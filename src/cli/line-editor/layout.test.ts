import { describe, expect, it } from 'vitest';
import { layout, visibleStart } from './layout.js';

const base = { prompt: '> ', promptWidth: 2, continuation: '. ', continuationWidth: 2 };

describe('layout', () => {
  it('puts the cursor after double-width characters at twice their count', () => {
    expect(layout({ ...base, text: '天气ab', cursor: 2, columns: 80 })).toEqual({
      rows: ['> 天气ab'],
      cursorRow: 0,
      cursorCol: 6,
    });
  });

  it('wraps a double-width character that does not fit whole onto the next row', () => {
    // "> " + 天气 is 6 columns; 好 would take columns 7–8 of 7.
    const l = layout({ ...base, text: '天气好', cursor: 9, columns: 7 });
    expect(l.rows).toEqual(['> 天气', '好']);
    expect([l.cursorRow, l.cursorCol]).toEqual([1, 2]);
  });

  it('starts a new row for the cursor after a row filled exactly', () => {
    const l = layout({ ...base, text: 'abcd', cursor: 4, columns: 6 });
    expect(l).toEqual({ rows: ['> abcd', ''], cursorRow: 1, cursorCol: 0 });
  });

  it('shows each line of the text on its own row after a continuation prompt', () => {
    const l = layout({ ...base, text: 'one\n天', cursor: 5, columns: 80 });
    expect(l).toEqual({ rows: ['> one', '. 天'], cursorRow: 1, cursorCol: 4 });
    expect(layout({ ...base, text: 'one\n', cursor: 4, columns: 80 })).toEqual({
      rows: ['> one', '. '],
      cursorRow: 1,
      cursorCol: 2,
    });
  });

  it('shows a tab as spaces', () => {
    expect(layout({ ...base, text: 'a\tb', cursor: 3, columns: 80 })).toEqual({
      rows: ['> a    b'],
      cursorRow: 0,
      cursorCol: 8,
    });
  });

  it('keeps the cursor row in view when the text is taller than the screen, the end preferred', () => {
    expect(visibleStart(5, 4, 10)).toBe(0);
    expect(visibleStart(30, 29, 10)).toBe(20);
    expect(visibleStart(30, 25, 10)).toBe(20);
    expect(visibleStart(30, 3, 10)).toBe(3);
  });
});
