import type { ServerResponse } from 'node:http';
import type { BusEvent, NewEvent } from '../bus/bus.js';

/** A comment line this often keeps proxies and idle-connection reapers from closing a quiet stream. */
export const HEARTBEAT_MS = 15_000;
/**
 * A client that has not read this much of what we sent is too slow to follow: it is dropped rather
 * than letting its backlog grow in our memory. It can reconnect (and resume with Last-Event-ID).
 */
export const MAX_BUFFERED_BYTES = 1_048_576;

const HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store',
  // Nginx and similar proxies buffer responses unless told not to; an event stream must flow.
  'x-accel-buffering': 'no',
};
const HEARTBEAT = ': ping\n\n';

/**
 * One event in SSE wire form. `data` must be a single line (JSON.stringify output is), so one
 * `data:` line carries it.
 */
export function formatEvent(type: string, data: string, id?: number | string): string {
  return id === undefined ? `event: ${type}\ndata: ${data}\n\n` : `id: ${id}\nevent: ${type}\ndata: ${data}\n\n`;
}

/**
 * An open event stream written straight to the node response. Hono's streamSSE helper goes through
 * web streams and costs about ten times the memory and twice the CPU per stream; a thousand open
 * streams must stay cheap. A class rather than a closure per method: a thousand of them share one
 * prototype.
 */
export class SseStream {
  closed = false;
  constructor(
    private readonly res: ServerResponse,
    private readonly onClose: (stream: SseStream) => void,
  ) {}

  /** Writes a frame already in wire form (so one formatted event can go to many streams). */
  write(frame: string): void {
    if (this.closed) return;
    if (this.res.writableLength > MAX_BUFFERED_BYTES) {
      this.res.destroy();
      return;
    }
    this.res.write(frame);
  }

  /**
   * Resolves once the client has taken what was written (or left): a writer of many events at once,
   * like a replay, waits here between batches instead of filling memory and being dropped as slow.
   */
  drained(): Promise<void> {
    if (this.closed || !this.res.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.once('drain', done);
      this.res.once('close', done);
    });
  }

  send(type: string, data: unknown, id?: number | string): void {
    this.write(formatEvent(type, JSON.stringify(data), id));
  }

  /** Ends the stream after what was written so far. */
  close(): void {
    if (this.closed) return;
    this.res.end();
    this.ended();
  }

  /** Called once, whichever side ended the stream. */
  ended(): void {
    if (this.closed) return;
    this.closed = true;
    this.onClose(this);
  }
}

export interface SseRegistry {
  /** Sends the event-stream headers on `res` and tracks the stream until either side ends it. */
  open(res: ServerResponse, onClose?: () => void): SseStream;
  readonly size: number;
  /** Ends every open stream (shutdown). */
  closeAll(): void;
  /** Stops the heartbeat timer. */
  stop(): void;
}

/**
 * Every open event stream of the server, with one heartbeat timer for all of them instead of one
 * per stream.
 */
export function createSseRegistry(options: { heartbeatMs?: number } = {}): SseRegistry {
  const open = new Set<SseStream>();
  const heartbeat = setInterval(() => {
    for (const s of open) s.write(HEARTBEAT);
  }, options.heartbeatMs ?? HEARTBEAT_MS);
  heartbeat.unref();

  return {
    open(res, onClose) {
      const stream = new SseStream(res, (s) => {
        open.delete(s);
        onClose?.();
      });
      open.add(stream);
      // The client may have left while the request was handled: its 'close' has been and gone.
      if (res.destroyed) {
        stream.ended();
        return stream;
      }
      // HEAD asks what a GET would answer: the headers, and no stream to keep open.
      if (res.req?.method === 'HEAD') {
        res.writeHead(200, HEADERS).end();
        stream.ended();
        return stream;
      }
      res.writeHead(200, HEADERS);
      // The headers go out now: a client waits for them before it calls the stream open.
      res.flushHeaders();
      res.once('close', () => stream.ended());
      return stream;
    },
    get size() {
      return open.size;
    },
    closeAll() {
      for (const s of [...open]) s.close();
    },
    stop: () => clearInterval(heartbeat),
  };
}

/** The per-session sequence number an event carries, when the core gives it one: it becomes the SSE `id:`. */
export function seqOf(event: object): number | undefined {
  const seq = (event as { seq?: unknown }).seq;
  return typeof seq === 'number' && Number.isFinite(seq) ? seq : undefined;
}

/** A bus event in wire form: `event:` is its type, `data:` the whole event as JSON. */
export const eventFrame = (event: BusEvent | NewEvent): string =>
  formatEvent(event.type, JSON.stringify(event), seqOf(event));
