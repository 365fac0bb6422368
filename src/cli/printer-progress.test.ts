import { describe, expect, it, vi } from 'vitest';
import { createBus } from '../bus/bus.js';
import { attachPrinter, PROGRESS_LINES_PER_SECOND } from './printer.js';
import { createStyle } from './style.js';

const where = { sessionId: 'ses_1', turnId: 'trn_1', messageId: 'msg_1', partId: 'prt_1', callId: 'call_1' };

describe('tool progress in the trace', () => {
  it("shows a running call's progress as a dim line, as plain text, at most ten a second however many arrive", () => {
    vi.useFakeTimers({ now: 1_000_000 });
    try {
      const bus = createBus();
      let out = '';
      const detach = attachPrinter({
        bus,
        sessionId: 'ses_1',
        write: (s) => (out += s),
        style: createStyle(false),
        showActions: true,
      });
      bus.emit({ type: 'tool.start', ...where, tool: 'everything__trigger-long-running-operation', input: {} });
      bus.emit({ type: 'tool.progress', ...where, message: 'step 1 of 5 \x1b]0;pwned\x07\x1b[2J' });
      for (let i = 2; i <= 1000; i++) bus.emit({ type: 'tool.progress', ...where, message: `step ${i}` });
      vi.advanceTimersByTime(1_000);
      bus.emit({ type: 'tool.progress', ...where, message: 'step 1001' });
      // Another session's progress is not this trace's.
      bus.emit({ type: 'tool.progress', ...where, sessionId: 'ses_2', message: 'elsewhere' });
      detach();
      const lines = out.split('\n').filter(Boolean);
      expect(lines).toHaveLength(PROGRESS_LINES_PER_SECOND + 1);
      expect(lines.slice(0, 3)).toEqual(['  … step 1 of 5', '  … step 2', '  … step 3']);
      expect(lines.at(-1)).toBe('  … step 1001');
    } finally {
      vi.useRealTimers();
    }
  });

  it('says nothing of progress when the trace is off', () => {
    const bus = createBus();
    let out = '';
    attachPrinter({ bus, sessionId: 'ses_1', write: (s) => (out += s), style: createStyle(false), showActions: false });
    bus.emit({ type: 'tool.progress', ...where, message: 'step 1' });
    expect(out).toBe('');
  });
});
