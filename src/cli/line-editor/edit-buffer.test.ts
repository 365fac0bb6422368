import { describe, expect, it } from 'vitest';
import * as b from './edit-buffer.js';
import { layout } from './layout.js';

const at = (text: string, cursor: number): b.EditState => ({ text, cursor });

describe('the edit buffer', () => {
  it('moves over and deletes a whole character, however many code units it has', () => {
    const s = b.stateOf('天👩‍💻e\u0301');
    expect(b.left(s)).toEqual(at(s.text, s.text.length - 2));
    expect(b.backspace(s)).toEqual(b.stateOf('天👩‍💻'));
    expect(b.backspace(b.backspace(s))).toEqual(b.stateOf('天'));
    expect(b.right(at(s.text, 1))).toEqual(at(s.text, 6));
    expect(b.deleteForward(at(s.text, 0))).toEqual(at('👩‍💻e\u0301', 0));
    expect(b.left(at('x', 0))).toEqual(at('x', 0));
    expect(b.right(at('x', 1))).toEqual(at('x', 1));
  });

  it('inserts at the cursor', () => {
    expect(b.insert(at('天气', 1), '好')).toEqual(at('天好气', 2));
  });

  it('moves by words, Chinese words included', () => {
    const s = b.stateOf('hello big world');
    expect(b.wordLeft(s).cursor).toBe(10);
    expect(b.wordLeft(at(s.text, 10)).cursor).toBe(6);
    expect(b.wordRight(at(s.text, 0)).cursor).toBe(5);
    expect(b.killWordBack(s)).toEqual(b.stateOf('hello big '));
    const zh = b.stateOf('今天北京天气怎么样');
    expect(b.wordLeft(zh).cursor).toBeGreaterThan(0);
    expect(b.wordLeft(zh).cursor).toBeLessThan(zh.text.length);
  });

  it('works on the cursor line of a text of several lines', () => {
    const text = 'first\nsecond\nthird';
    expect(b.home(at(text, 9))).toEqual(at(text, 6));
    expect(b.end(at(text, 7))).toEqual(at(text, 12));
    expect(b.killToEnd(at(text, 8))).toEqual(at('first\nse\nthird', 8));
    expect(b.killToEnd(at(text, 5))).toEqual(at('firstsecond\nthird', 5));
    expect(b.killToStart(at(text, 9))).toEqual(at('first\nond\nthird', 6));
  });

  it('goes up and down lines keeping the column, by display width', () => {
    const text = '天气好\nabcdef';
    // Under "ab|cd" (column 2) is the end of 天 (column 2).
    expect(b.lineUp(at(text, 6))).toEqual(at(text, 1));
    expect(b.lineDown(at(text, 1))).toEqual(at(text, 6));
    // Column 3 falls inside 气: the cursor stays before it.
    expect(b.lineUp(at(text, 7))).toEqual(at(text, 1));
    expect(b.lineUp(at(text, 2))).toBeUndefined();
    expect(b.lineDown(at(text, 6))).toBeUndefined();
  });
});

describe('on a long paste', () => {
  // Unicode segmentation slows down faster than text grows: a 160 KB paste once took 44 s per Backspace.
  it('edits and lays out in moments, whatever the text holds', () => {
    const lines = Array.from(
      { length: 3000 },
      (_, i) => `这是第 ${i} 行，some text to make it longer ${i % 7 ? '' : '🌦👩‍💻é'}`,
    );
    for (const text of [lines.join('\n'), lines.join(' ')]) {
      const started = performance.now();
      let s = b.stateOf(text);
      for (let i = 0; i < 50; i++) s = b.wordLeft(b.left(b.backspace(s)));
      s = b.lineUp(s) ?? s;
      layout({
        prompt: '> ',
        promptWidth: 2,
        continuation: '. ',
        continuationWidth: 2,
        text: s.text,
        cursor: s.cursor,
        columns: 80,
      });
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(s.text.length).toBeLessThan(text.length);
    }
  });
});
