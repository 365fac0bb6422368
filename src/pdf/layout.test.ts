import { describe, expect, it } from 'vitest';
import { pageMarkdown, type TextItem } from './layout.js';

const at = (str: string, x: number, y: number, h = 10, w = str.length * h * 0.5): TextItem => ({ str, x, y, w, h });

describe('page layout', () => {
  it('orders lines by position and words by x, whatever the drawing order', () => {
    const md = pageMarkdown({
      width: 600,
      height: 800,
      items: [at('world', 131, 700), at('second line', 100, 686), at('Hello', 100, 700)],
    });
    expect(md).toBe('Hello world\nsecond line');
  });

  it('puts no spaces between CJK glyphs drawn one by one, and keeps a wide gap as a space', () => {
    const items = [...'知行合一'].map((c, i) => at(c, 100 + i * 10, 700, 10, 10));
    items.push(at('目', 100, 650, 10, 10), at('录', 140, 650, 10, 10));
    expect(pageMarkdown({ width: 600, height: 800, items })).toBe('知行合一\n\n目 录');
  });

  it('keeps sub- and superscripts on their line', () => {
    expect(pageMarkdown({ width: 600, height: 800, items: [at('E = mc', 100, 700), at('2', 130, 704, 6, 3)] })).toBe(
      'E = mc2',
    );
  });

  it('makes Markdown tables of rows whose cells line up, and leaves prose alone', () => {
    const rows = [
      ['Item', 'Q1', 'Q2'],
      ['Apples', '1,200', '1,350'],
      ['Pears', '300', '(45)'],
      ['Plums', '12', '9'],
    ];
    const items = rows.flatMap((r, i) => [
      at(r[0], 72, 700 - i * 14),
      at(r[1], 300, 700 - i * 14),
      at(r[2], 400, 700 - i * 14),
    ]);
    items.push(at('A closing sentence after the table.', 72, 600));
    expect(pageMarkdown({ width: 612, height: 792, items })).toBe(
      '| Item | Q1 | Q2 |\n| --- | --- | --- |\n| Apples | 1,200 | 1,350 |\n| Pears | 300 | (45) |\n| Plums | 12 | 9 |\n\nA closing sentence after the table.',
    );
  });

  it('reads two columns one after the other, below a title that spans both', () => {
    const items = [at('A Title Across Both Columns Of The Page', 150, 750, 14)];
    for (let i = 0; i < 5; i++) {
      items.push(at(`left column sentence number ${i} goes on`, 50, 700 - i * 12, 9, 230));
      items.push(at(`right column sentence number ${i} goes on`, 320, 700 - i * 12, 9, 230));
    }
    const md = pageMarkdown({ width: 612, height: 792, items });
    expect(md.split('\n').filter(Boolean)).toEqual([
      'A Title Across Both Columns Of The Page',
      ...[0, 1, 2, 3, 4].map((i) => `left column sentence number ${i} goes on`),
      ...[0, 1, 2, 3, 4].map((i) => `right column sentence number ${i} goes on`),
    ]);
  });

  it('does not split a table of labels and numbers into two columns', () => {
    const items: TextItem[] = [];
    for (let i = 0; i < 6; i++)
      items.push(
        at(`Revenue line ${i}`, 50, 700 - i * 12, 9),
        at(`${i},000`, 400, 700 - i * 12, 9),
        at(`${i + 1},500`, 500, 700 - i * 12, 9),
      );
    const md = pageMarkdown({ width: 612, height: 792, items });
    expect(md).toContain('| Revenue line 3 | 3,000 | 4,500 |');
  });
});

describe('wrapped table labels', () => {
  it('join the numbers printed between the two lines of their label', () => {
    const items: TextItem[] = [
      at('Dividends', 72, 700, 7),
      at('(85,871)', 300, 700, 7),
      at('(7,826)', 400, 700, 7),
      at('Adjusted balance at', 72, 690, 7),
      at('175,820', 300, 686, 7),
      at('202,834', 400, 686, 7),
      at('beginning of year', 72, 682, 7),
      at('Transactions with non-', 72, 670, 7),
      at('842', 300, 666, 7),
      at('(1,048)', 400, 666, 7),
      at('controlling interests', 72, 662, 7),
      at('Balance at end of year', 72, 652, 7),
      at('175,820', 300, 652, 7),
      at('202,832', 400, 652, 7),
    ];
    expect(pageMarkdown({ width: 612, height: 792, items })).toBe(
      [
        '| Dividends | (85,871) | (7,826) |',
        '| --- | --- | --- |',
        '| Adjusted balance at beginning of year | 175,820 | 202,834 |',
        '| Transactions with non-controlling interests | 842 | (1,048) |',
        '| Balance at end of year | 175,820 | 202,832 |',
      ].join('\n'),
    );
  });
});
