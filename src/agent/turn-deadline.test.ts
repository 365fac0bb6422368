import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBus } from '../bus/bus.js';
import { createTurnDeadline, deadlineText, formatDuration } from './turn-deadline.js';

afterEach(() => vi.useRealTimers());

describe('createTurnDeadline', () => {
  it('aborts the turn when its time is up, with the deadline as the reason', () => {
    vi.useFakeTimers();
    const d = createTurnDeadline({ bus: createBus(), sessionId: 's', turnId: 't', ms: 1_000 });
    vi.advanceTimersByTime(999);
    expect(d.fired).toBe(false);
    vi.advanceTimersByTime(1);
    expect(d.fired).toBe(true);
    expect(d.signal.reason).toBe('deadline');
    d.dispose();
  });

  it("does not count the time the user takes to answer this turn's permission asks", () => {
    vi.useFakeTimers();
    const bus = createBus();
    const d = createTurnDeadline({ bus, sessionId: 's', turnId: 't', ms: 1_000 });
    const ask = (id: string, turnId = 't') =>
      bus.emit({
        type: 'permission.asked',
        sessionId: 's',
        turnId,
        id,
        callId: 'c',
        tool: 'file_write',
        action: 'file.write',
        target: 'a.txt',
      });
    const reply = (id: string) => bus.emit({ type: 'permission.replied', sessionId: 's', id, decision: 'once' });
    vi.advanceTimersByTime(600);
    ask('p1');
    ask('p2');
    vi.advanceTimersByTime(60_000);
    reply('p1');
    vi.advanceTimersByTime(60_000);
    expect(d.fired).toBe(false);
    reply('p2');
    // Another turn's ask is not this turn's wait.
    ask('p3', 'other');
    vi.advanceTimersByTime(399);
    expect(d.fired).toBe(false);
    vi.advanceTimersByTime(1);
    expect(d.fired).toBe(true);
    d.dispose();
  });

  it('stops its timer when disposed', () => {
    vi.useFakeTimers();
    const d = createTurnDeadline({ bus: createBus(), sessionId: 's', turnId: 't', ms: 1_000 });
    d.dispose();
    vi.advanceTimersByTime(5_000);
    expect(d.fired).toBe(false);
  });
});

describe('what the deadline says', () => {
  it('names the limit the way a person reads it, and the setting that changes it', () => {
    expect(formatDuration(600_000, 'en')).toBe('10 min');
    expect(formatDuration(90_000, 'en')).toBe('90 s');
    expect(formatDuration(1_500, 'zh')).toBe('1.5 秒');
    expect(deadlineText(600_000, 'zh')).toBe(
      '这一轮超过了时限（10 分钟），已经停下（可用 ZHIXING_TURN_TIMEOUT_MS 调整）。',
    );
    expect(deadlineText(1_500, 'en')).toBe(
      'The turn ran past its time limit of 1.5 s and was stopped (ZHIXING_TURN_TIMEOUT_MS sets it).',
    );
  });
});
