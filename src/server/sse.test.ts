import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { createSseRegistry, eventFrame, formatEvent, MAX_BUFFERED_BYTES } from './sse.js';

/** Just enough of a node ServerResponse to see what the stream writes. */
function fakeResponse(options: { destroyed?: boolean } = {}) {
  const res = Object.assign(new EventEmitter(), {
    written: '',
    head: undefined as unknown,
    destroyed: options.destroyed ?? false,
    writableLength: 0,
    ended: false,
    writeHead(status: number, headers: object) {
      res.head = { status, headers };
    },
    flushHeaders() {},
    write(chunk: string) {
      res.written += chunk;
      return true;
    },
    end() {
      res.ended = true;
      res.emit('close');
    },
    destroy() {
      res.destroyed = true;
      res.emit('close');
    },
  });
  return res;
}
const asResponse = (r: ReturnType<typeof fakeResponse>) => r as unknown as ServerResponse;

describe('SSE wire form', () => {
  it('writes id, event and one data line, and the id only when there is one', () => {
    expect(formatEvent('turn.end', '{"reply":"16"}')).toBe('event: turn.end\ndata: {"reply":"16"}\n\n');
    expect(formatEvent('turn.end', '{}', 7)).toBe('id: 7\nevent: turn.end\ndata: {}\n\n');
    expect(eventFrame({ type: 'session.status', sessionId: 's', status: 'idle' })).toBe(
      'event: session.status\ndata: {"type":"session.status","sessionId":"s","status":"idle"}\n\n',
    );
    // A line break inside the data stays escaped in the JSON: one event cannot become two.
    expect(
      eventFrame({
        type: 'text.delta',
        sessionId: 's',
        turnId: 't',
        messageId: 'm',
        partId: 'p',
        delta: 'a\n\nevent: x',
      }),
    ).toBe(
      'event: text.delta\ndata: {"type":"text.delta","sessionId":"s","turnId":"t","messageId":"m","partId":"p","delta":"a\\n\\nevent: x"}\n\n',
    );
  });
});

describe('the stream registry', () => {
  it('sends the headers, tracks the stream until either side ends it, and closes all on shutdown', () => {
    const sse = createSseRegistry();
    const [a, b] = [fakeResponse(), fakeResponse()];
    const closed = vi.fn();
    const sa = sse.open(asResponse(a), closed);
    sse.open(asResponse(b));
    expect(a.head).toEqual({
      status: 200,
      headers: expect.objectContaining({ 'content-type': 'text/event-stream; charset=utf-8' }),
    });
    expect(sse.size).toBe(2);
    sa.write('event: x\ndata: 1\n\n');
    expect(a.written).toBe('event: x\ndata: 1\n\n');
    b.emit('close'); // the client left
    expect(sse.size).toBe(1);
    sse.closeAll();
    expect(a.ended).toBe(true);
    expect(closed).toHaveBeenCalledTimes(1);
    expect(sse.size).toBe(0);
    sa.write('late');
    expect(a.written).not.toContain('late');
    sse.stop();
  });

  it('does not hold a stream whose client left before it opened', () => {
    const sse = createSseRegistry();
    const closed = vi.fn();
    const s = sse.open(asResponse(fakeResponse({ destroyed: true })), closed);
    expect(s.closed).toBe(true);
    expect(closed).toHaveBeenCalledTimes(1);
    expect(sse.size).toBe(0);
    sse.stop();
  });

  it('drops a client that does not read, instead of buffering for it without end', () => {
    const sse = createSseRegistry();
    const slow = fakeResponse();
    const s = sse.open(asResponse(slow));
    slow.writableLength = MAX_BUFFERED_BYTES + 1;
    s.write('event: x\ndata: 1\n\n');
    expect(slow.destroyed).toBe(true);
    expect(slow.written).toBe('');
    expect(sse.size).toBe(0);
    sse.stop();
  });

  it('writes a heartbeat comment to every open stream', () => {
    vi.useFakeTimers();
    try {
      const sse = createSseRegistry({ heartbeatMs: 1_000 });
      const r = fakeResponse();
      sse.open(asResponse(r));
      vi.advanceTimersByTime(2_500);
      expect(r.written).toBe(': ping\n\n: ping\n\n');
      sse.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
