import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../llm/tokens.js';
import { createTokenCounter, EXACT_MARGIN } from './context-tokens.js';

describe('the token counter', () => {
  it('estimates until loaded, then counts with o200k (and a tenth to spare), quickly even for text without breaks', async () => {
    const counter = createTokenCounter();
    const text = 'x'.repeat(96_000);
    expect(counter.exact).toBe(false);
    expect(counter.text(text)).toBe(estimateTokens(text));
    await counter.load();
    expect(counter.exact).toBe(true);
    const started = performance.now();
    const n = counter.text(text);
    // One piece would take many seconds (BPE is quadratic within a run): pieces take milliseconds. The
    // bound leaves room for a busy machine; it only has to tell the two apart.
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(n).toBeGreaterThanOrEqual(Math.ceil(12_000 * EXACT_MARGIN));
    expect(counter.text('hello world')).toBe(Math.ceil(2 * EXACT_MARGIN));
  });
});
