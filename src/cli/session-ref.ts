/**
 * A session as the user names it on the command line or in the REPL: what `/sessions` and
 * `zhixing sessions` show, that is its number in the list (1 is the most recent), its id, or the
 * start of its id when only one id starts so.
 */
import type { SessionRecord } from '../contract/session.js';

/** Shorter starts match too many ids to mean one (they all begin `ses_` and the time). */
export const MIN_PREFIX_CHARS = 6;

export type SessionRef =
  | { kind: 'found'; session: SessionRecord }
  | { kind: 'no-number'; n: number; count: number }
  | { kind: 'ambiguous'; count: number }
  | { kind: 'none' };

/** Finds what `ref` names in `list` (in the order it was shown). */
export function resolveSessionRef(list: readonly SessionRecord[], ref: string): SessionRef {
  const arg = ref.trim();
  if (/^\d+$/.test(arg)) {
    const n = Number(arg);
    const s = n >= 1 ? list[n - 1] : undefined;
    return s ? { kind: 'found', session: s } : { kind: 'no-number', n, count: list.length };
  }
  const exact = list.find((s) => s.id === arg);
  if (exact) return { kind: 'found', session: exact };
  if (arg.length < MIN_PREFIX_CHARS) return { kind: 'none' };
  const starts = list.filter((s) => s.id.startsWith(arg));
  if (starts.length === 1) return { kind: 'found', session: starts[0]! };
  return starts.length ? { kind: 'ambiguous', count: starts.length } : { kind: 'none' };
}
