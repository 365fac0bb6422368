import type { TurnResult } from '../agent/run-turn.js';
import type { ChatResult } from '../contract/chat-result.js';

/** Milliseconds to two decimals: enough to compare, without float noise. */
const roundMs = (ms: number) => Math.round(ms * 100) / 100;

/** The contract's `--json` object: what `zhixing --json` prints and `POST /api/sessions/{id}/chat` answers. */
export function jsonResult(sessionId: string, mode: ChatResult['mode'], r: TurnResult): ChatResult {
  return {
    session: sessionId,
    mode,
    reply: r.reply,
    actions: r.actions.map((a) => ({
      tool: a.tool,
      input: a.input,
      ok: a.ok,
      output: a.output,
      ms: roundMs(a.ms),
      ...(a.permission && { permission: a.permission }),
    })),
    ...(r.error ? { error: r.error } : {}),
  };
}
