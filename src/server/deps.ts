import type { App } from '../app.js';
import type { SseRegistry } from './sse.js';

/** What every resource's routes are built from. */
export interface ServerDeps {
  app: App;
  sse: SseRegistry;
  turns: TurnTracker;
  version: string;
  /** Where unexpected errors are reported (the server's stderr). */
  log(line: string): void;
  /** How long the provider has to list its models (default 5 s). */
  modelListTimeoutMs?: number;
}

/** The turns this server started, so shutdown can wait for them to settle after aborting them. */
export interface TurnTracker {
  /** Returns the same promise; its rejection is handled here, whoever else is listening. */
  track<T>(turn: Promise<T>): Promise<T>;
  /** Resolves when every tracked turn has settled, or after `timeoutMs`. */
  settled(timeoutMs: number): Promise<void>;
  readonly size: number;
}

export function createTurnTracker(): TurnTracker {
  const pending = new Set<Promise<unknown>>();
  return {
    track(turn) {
      const settled = turn.then(
        () => {},
        () => {},
      );
      pending.add(settled);
      void settled.then(() => pending.delete(settled));
      return turn;
    },
    async settled(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
      await Promise.race([Promise.all([...pending]), timeout]);
      clearTimeout(timer);
    },
    get size() {
      return pending.size;
    },
  };
}
