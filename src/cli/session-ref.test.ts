import { describe, expect, it } from 'vitest';
import { resolveSessionRef } from './session-ref.js';

const row = (id: string) => ({ id, title: id, createdAt: 0, updatedAt: 0, messageCount: 0 });
const list = [row('ses_0mabc123000aaaa'), row('ses_0mabc124000bbbb'), row('ses_0mzzz999000cccc')];

describe('resolveSessionRef', () => {
  it('takes the number shown, the id, or the unique start of an id', () => {
    expect(resolveSessionRef(list, '2')).toEqual({ kind: 'found', session: list[1] });
    expect(resolveSessionRef(list, ' ses_0mzzz999000cccc ')).toEqual({ kind: 'found', session: list[2] });
    expect(resolveSessionRef(list, 'ses_0mz')).toEqual({ kind: 'found', session: list[2] });
  });

  it('says what is wrong otherwise', () => {
    expect(resolveSessionRef(list, '4')).toEqual({ kind: 'no-number', n: 4, count: 3 });
    expect(resolveSessionRef(list, '0')).toEqual({ kind: 'no-number', n: 0, count: 3 });
    expect(resolveSessionRef(list, 'ses_0mabc12')).toEqual({ kind: 'ambiguous', count: 2 });
    // Too short to mean one session, even when only one matches.
    expect(resolveSessionRef(list, 'ses_0')).toEqual({ kind: 'none' });
    expect(resolveSessionRef(list, 'nope-nope')).toEqual({ kind: 'none' });
  });
});
