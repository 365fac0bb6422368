import { describe, expect, it } from 'vitest';
import { charWidth, fitWidth, textWidth } from './text-width.js';

describe('text width in terminal columns', () => {
  it.each([
    ['a', 1],
    ['北', 2],
    ['，', 2],
    ['ｱ', 1],
    ['한', 2],
    ['😀', 2],
    ['\u0301', 0],
    ['\u200d', 0],
    ['é', 1],
  ])('%s takes %i', (ch, w) => expect(charWidth(ch)).toBe(w));

  it('adds up a mixed line', () => {
    expect(textWidth('北京 Paris 3°C')).toBe(4 + 1 + 5 + 1 + 3);
  });

  it('cuts to a width with an ellipsis, never splitting a wide character', () => {
    expect(fitWidth('北京上海', 5)).toBe('北京…');
    expect(fitWidth('short', 10)).toBe('short');
  });
});
