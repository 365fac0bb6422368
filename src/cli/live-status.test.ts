import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLiveStatus, fitWidth, inputSummary } from './live-status.js';
import { cliText } from './messages.js';
import { createStyle } from './style.js';

afterEach(() => vi.useRealTimers());

function live(lang: 'zh' | 'en' = 'en', columns = 40) {
  let out = '';
  let now = 0;
  const status = createLiveStatus({
    write: (s) => (out += s),
    columns: () => columns,
    text: cliText(lang),
    style: createStyle(false),
    now: () => now,
    frameMs: 100,
  });
  return { status, out: () => out, advance: (ms: number) => ((now += ms), vi.advanceTimersByTime(ms)) };
}

describe('the live status lines', () => {
  it('spins with the seconds waited, and erases its line when text comes', () => {
    vi.useFakeTimers();
    const l = live();
    l.status.thinking();
    l.advance(2_050);
    expect(l.out()).toContain('⠋ Thinking…');
    expect(l.out()).toContain('Thinking… 2 s');
    const before = l.out().length;
    l.status.hide();
    expect(l.out().slice(before)).toBe('\r\x1b[J');
    l.advance(500);
    expect(l.out().length).toBe(before + 4);
  });

  it('draws a line per running tool, redraws them in place, and leaves a result line when one ends', () => {
    vi.useFakeTimers();
    const l = live('zh');
    l.status.toolStart('a', 'weather', { city: '北京' });
    l.status.toolStart('b', 'calculator', { expression: '1+1' });
    expect(l.out()).toContain('weather 北京 …\n');
    // Two lines drawn: erasing goes up one line first.
    l.status.toolEnd('a', true, 'sunny', 300, true);
    expect(l.out()).toContain('\r\x1b[1A\x1b[J✓ weather 北京 （300 毫秒）\n');
    l.status.toolEnd('b', false, 'Error: bad input', 1_500, true);
    expect(l.out()).toContain('✗ calculator 1+1 — bad input （1.5 秒）\n');
    l.status.stop();
    expect(l.out().endsWith('\r\x1b[J')).toBe(true);
  });

  it('writes a notice above its lines and redraws them after it', () => {
    vi.useFakeTimers();
    const l = live();
    l.status.thinking();
    l.status.notice('retrying (1/3)…');
    expect(l.out()).toMatch(/Thinking…\r\x1b\[Jretrying \(1\/3\)…\n⠋ Thinking…$/);
  });

  it('fits each line to the terminal, so a wrap never breaks the erasing', () => {
    vi.useFakeTimers();
    const l = live('en', 20);
    l.status.toolStart('a', 'web_fetch', { url: 'https://example.com/a/very/long/address' });
    expect(l.out()).toBe('⠋ web_fetch https:…');
  });

  it('cuts a line to a width with an ellipsis, never splitting a wide character', () => {
    expect(fitWidth('北京上海', 5)).toBe('北京…');
    expect(fitWidth('short', 10)).toBe('short');
  });

  it('sums up an input by its first text', () => {
    expect(inputSummary({ city: '北京' })).toBe('北京');
    expect(inputSummary({ n: 3, flag: true })).toBe('3');
    expect(inputSummary({})).toBe('');
    expect(inputSummary({ command: 'ls\n-la \x1b[31m' })).toBe('ls -la');
  });
});
