/**
 * Typed in-process events. The core emits; hosts (CLI printer, SSE, tests) subscribe.
 * Handlers run synchronously in emit order, and one handler's exception never reaches the emitter.
 */

export interface ActionRecord {
  /** The id the model gave the call, so a result can be matched to its call. */
  callId: string;
  tool: string;
  input: unknown;
  ok: boolean;
  output: string;
  ms: number;
  /** One short line for the call's card, when the tool gave one. */
  title?: string;
  /** Small JSON details for the card, when the tool gave them. */
  metadata?: Record<string, unknown>;
  /** What the call attached, named and sized; the bytes stay in the store for the UI to fetch. */
  attachments?: Array<{ name: string; mimeType: string; size: number }>;
}

export type BusEvent =
  | { type: 'turn.start'; sessionId: string; turnId: string; text: string }
  | { type: 'text.delta'; sessionId: string; turnId: string; delta: string }
  | { type: 'tool.start'; sessionId: string; turnId: string; callId: string; tool: string; input: unknown }
  | { type: 'tool.progress'; sessionId: string; turnId: string; callId: string; message: string }
  | ({ type: 'tool.end'; sessionId: string; turnId: string } & ActionRecord)
  | { type: 'turn.end'; sessionId: string; turnId: string; reply: string; stopReason: string }
  | { type: 'error'; sessionId: string; turnId?: string; code: string; message: string }
  | { type: 'session.status'; sessionId: string; status: 'busy' | 'idle' | 'error' }
  /** The model service refused or failed for now and the request will be sent again. */
  | { type: 'llm.retry'; attempt: number; maxRetries: number; reason: string; status?: number; delayMs?: number }
  /** The model service has taken the request but not started answering yet; repeated while that lasts. */
  | { type: 'llm.waiting'; elapsedMs: number };

export type BusEventType = BusEvent['type'];
export type EventOf<T extends BusEventType> = Extract<BusEvent, { type: T }>;
export type Handler<E> = (event: E) => void;

export interface Bus {
  emit(event: BusEvent): void;
  on<T extends BusEventType>(type: T, handler: Handler<EventOf<T>>): () => void;
  /** Every event, e.g. for the SSE stream or a test recorder. */
  onAny(handler: Handler<BusEvent>): () => void;
}

export function createBus(onHandlerError: (err: unknown) => void = () => {}): Bus {
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
    emit(event) {
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
