/**
 * Typed in-process events. The core emits; hosts (CLI printer, SSE, tests) subscribe.
 * Handlers run synchronously in emit order, and one handler's exception never reaches the emitter.
 * The event shapes are described with zod in events.ts.
 */
import type { BusEvent, NewEvent } from './events.js';

export type { BusEvent, NewEvent } from './events.js';

export type BusEventType = BusEvent['type'];
export type EventOf<T extends BusEventType> = Extract<BusEvent, { type: T }>;
export type Handler<E> = (event: E) => void;

export interface Bus {
  /** Numbers the event within its session (and records it, when the bus has a log), then tells every handler. */
  emit(event: NewEvent): void;
  on<T extends BusEventType>(type: T, handler: Handler<EventOf<T>>): () => void;
  /** Every event, e.g. for the SSE stream or a test recorder. */
  onAny(handler: Handler<BusEvent>): () => void;
}

export interface BusOptions {
  onHandlerError?: (err: unknown) => void;
  /** Gives a session's event its `seq` and keeps it for clients that reconnect; by default a count in memory. */
  stamp?: (event: NewEvent) => BusEvent;
}

/** Numbers events per session in memory: enough for tests and for one process without a store. */
export function countingStamp(): (event: NewEvent) => BusEvent {
  const last = new Map<string, number>();
  return (event) => {
    const seq = (last.get(event.sessionId) ?? 0) + 1;
    last.set(event.sessionId, seq);
    return { ...event, seq } as BusEvent;
  };
}

export function createBus(options: BusOptions = {}): Bus {
  const onHandlerError = options.onHandlerError ?? (() => {});
  const stamp = options.stamp ?? countingStamp();
  const byType = new Map<string, Set<Handler<BusEvent>>>();
  const any = new Set<Handler<BusEvent>>();

  const call = (h: Handler<BusEvent>, e: BusEvent) => {
    try {
      h(e);
    } catch (err) {
      onHandlerError(err);
    }
  };

  return {
    emit(input) {
      const event = stamp(input);
      byType.get(event.type)?.forEach((h) => call(h, event));
      any.forEach((h) => call(h, event));
    },
    on(type, handler) {
      let set = byType.get(type);
      if (!set) byType.set(type, (set = new Set()));
      const h = handler as Handler<BusEvent>;
      set.add(h);
      return () => set!.delete(h);
    },
    onAny(handler) {
      any.add(handler);
      return () => any.delete(handler);
    },
  };
}
