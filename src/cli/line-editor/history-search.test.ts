import { describe, expect, it } from 'vitest';
import { extendQuery, olderMatch, setQuery, shownMatch, startSearch } from './history-search.js';

const entries = ['北京天气怎么样', 'what is 2+2', '上海天气呢', 'Weather in Paris', '上海天气呢 明天'];

describe('reverse incremental search', () => {
  it('finds the newest entry containing what is typed, Chinese as well', () => {
    let s = extendQuery(entries, startSearch(), '天');
    expect(s.index).toBe(4);
    s = extendQuery(entries, s, '气');
    expect(shownMatch(entries, s)).toEqual({ text: '上海天气呢 明天', at: 2 });
    s = extendQuery(entries, s, '怎');
    expect(shownMatch(entries, s).text).toBe('北京天气怎么样');
  });

  it('goes to older matches on Ctrl-R, skipping the same text, and says when there is none', () => {
    let s = setQuery(entries, '天气');
    expect(s.index).toBe(4);
    s = olderMatch(entries, s);
    expect(s.index).toBe(2);
    s = olderMatch(entries, s);
    expect(s.index).toBe(0);
    s = olderMatch(entries, s);
    expect(s).toMatchObject({ index: 0, failed: true });
  });

  it('ignores case and searches afresh when the query shrinks', () => {
    const s = setQuery(entries, 'weather');
    expect(shownMatch(entries, s)).toEqual({ text: 'Weather in Paris', at: 0 });
    expect(extendQuery(entries, s, 'zz')).toMatchObject({ query: 'weatherzz', index: 3, failed: true });
    expect(setQuery(entries, '')).toEqual(startSearch());
  });
});
