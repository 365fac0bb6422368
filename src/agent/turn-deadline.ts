import type { Bus } from '../bus/bus.js';
import { say, type Lang } from '../i18n.js';

/** The abort reason a turn's signal carries when its deadline fired. */
export const DEADLINE_REASON = 'deadline';

export interface TurnDeadline {
  /** Aborted, with reason `deadline`, once the turn has run for its time. */
  signal: AbortSignal;
  readonly fired: boolean;
  dispose(): void;
}

/**
 * The most a whole turn may take: every model step, retry and tool call together. A model service
 * that trickles keep-alive pings forever, or answers each of eight steps just before its own
 * timeouts, cannot keep the user waiting past it. Time spent waiting for the user to answer a
 * permission ask does not count: that wait is theirs, and has no timeout of its own either.
 */
export function createTurnDeadline(options: {
  bus: Bus;
  sessionId: string;
  turnId: string;
  ms: number;
  now?: () => number;
}): TurnDeadline {
  const { bus, turnId, ms } = options;
  const now = options.now ?? Date.now;
  const controller = new AbortController();
  let left = ms;
  let startedAt = now();
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    startedAt = now();
    timer = setTimeout(() => controller.abort(DEADLINE_REASON), left);
    timer.unref();
  };
  const openAsks = new Set<string>();
  const offs = [
    bus.on('permission.asked', (e) => {
      if (e.turnId !== turnId || controller.signal.aborted) return;
      if (openAsks.size === 0 && timer) {
        clearTimeout(timer);
        timer = undefined;
        left = Math.max(0, left - (now() - startedAt));
      }
      openAsks.add(e.id);
    }),
    bus.on('permission.replied', (e) => {
      if (!openAsks.delete(e.id) || openAsks.size > 0 || controller.signal.aborted) return;
      arm();
    }),
  ];
  arm();
  return {
    signal: controller.signal,
    get fired() {
      return controller.signal.aborted;
    },
    dispose() {
      clearTimeout(timer);
      offs.forEach((off) => off());
    },
  };
}

/** `10 min`, `90 s`, `1.5 s`: a limit as a person reads it. */
export function formatDuration(ms: number, lang: Lang): string {
  if (ms >= 120_000 && ms % 60_000 === 0) return say(lang, `${ms / 60_000} 分钟`, `${ms / 60_000} min`);
  const s = ms >= 10_000 ? Math.round(ms / 1000) : Math.round(ms / 100) / 10;
  return say(lang, `${s} 秒`, `${s} s`);
}

/** What the user reads when the deadline ended the turn, and where to change it. */
export function deadlineText(ms: number, lang: Lang): string {
  const limit = formatDuration(ms, lang);
  return say(
    lang,
    `这一轮超过了时限（${limit}），已经停下（可用 ZHIXING_TURN_TIMEOUT_MS 调整）。`,
    `The turn ran past its time limit of ${limit} and was stopped (ZHIXING_TURN_TIMEOUT_MS sets it).`,
  );
}
