import { describe, expect, it } from 'vitest';
import { compactSnapshot, cutSnapshot } from './snapshot.js';

describe('compactSnapshot', () => {
  it('folds unnamed wrappers into their children and drops cursor hints', () => {
    const raw = [
      '- generic [active] [ref=e1]:',
      '  - heading "Sign up" [level=1] [ref=e2]',
      '  - generic [ref=e3]:',
      '    - generic [ref=e4]:',
      '      - text: Name',
      '      - textbox "Name" [ref=e5]',
      '    - button "Send" [ref=e8]',
      '  - link "Link" [ref=e9] [cursor=pointer]:',
      '    - /url: /x',
      '  - generic "Named group" [ref=e10]:',
      '    - paragraph [ref=e11]: Kept',
    ].join('\n');
    expect(compactSnapshot(raw)).toBe(
      [
        '- heading "Sign up" [level=1] [ref=e2]',
        '- text: Name',
        '- textbox "Name" [ref=e5]',
        '- button "Send" [ref=e8]',
        '- link "Link" [ref=e9]:',
        '  - /url: /x',
        '- generic "Named group" [ref=e10]:',
        '  - paragraph [ref=e11]: Kept',
      ].join('\n'),
    );
  });
});

describe('cutSnapshot', () => {
  it('keeps a short tree whole and cuts a long one on a line boundary, saying so', () => {
    expect(cutSnapshot('- a\n- b', 100, 'en')).toBe('- a\n- b');
    const long = Array.from({ length: 100 }, (_, i) => `- item ${i}`).join('\n');
    const cut = cutSnapshot(long, 50, 'en');
    expect(
      cut
        .split('\n')
        .slice(0, -1)
        .every((l) => /^- item \d+$/.test(l)),
    ).toBe(true);
    expect(cut).toMatch(/\n… \(a long page: showing the first \d+ of 989 characters\)$/);
    expect(cutSnapshot(long, 50, 'zh')).toMatch(/（页面很长，只显示了前 \d+ \/ 989 个字符）$/);
  });
});
