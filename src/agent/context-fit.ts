import type { ChatMessage } from '../llm/types.js';
import type { Entry } from './context-units.js';

/** Tool outputs of older exchanges longer than this are pruned first when a request is over budget. */
const PRUNE_MIN_CHARS = 2_000;
/** The newest exchanges (this turn's included) whose outputs stay whole while older ones can be pruned. */
const KEEP_WHOLE_EXCHANGES = 2;
/** This turn's user message is never cut shorter than this. */
const USER_MIN_CHARS = 2_000;
/** A last-resort cut aims this far under what would fit, since its size is reckoned from an average. */
const CUT_SLACK = 0.9;
const MAX_CUTS = 8;

export interface FitInput {
  system: ChatMessage;
  /** Older exchanges, oldest first: whole units that may be pruned or dropped. */
  history: Entry[][];
  /** This turn: the user's message and the steps so far. Never dropped; pruned oldest step first, and cut as a last resort. */
  current: Entry[];
  budget: number;
  count(m: ChatMessage): number;
}

export interface FitResult {
  messages: ChatMessage[];
  tokens: number;
  /** Tool outputs replaced by a marker. */
  pruned: number;
  /** Older exchanges left out. */
  dropped: number;
  /** Messages cut short: this turn alone was over budget. */
  cut: number;
}

const formatAt = (at: number) => new Date(at).toISOString().slice(0, 16).replace('T', ' ');

/** What the model reads in place of a pruned tool output: the stored output is untouched. */
export function prunedMarker(e: Entry, chars: number): string {
  const from = e.tool ? ` from ${e.tool}` : '';
  return `[output pruned: ${chars.toLocaleString('en-US')} characters${from} at ${formatAt(e.at)} UTC, to fit the context; the stored result is unchanged]`;
}

/**
 * Fits a request into `budget` tokens: old large tool outputs pruned first, then the oldest
 * exchanges dropped whole (so a tool call never loses its results), then this turn's older steps'
 * outputs pruned, and only then its largest messages cut. The input arrays are not changed.
 */
export function fitRequest(input: FitInput): FitResult {
  const { budget, count } = input;
  const units = [...input.history.map((u) => [...u]), [...input.current]];
  const cost = (u: Entry[]) => u.reduce((n, e) => n + count(e.msg), 0);
  let total = count(input.system) + units.reduce((n, u) => n + cost(u), 0);
  const result = { pruned: 0, dropped: 0, cut: 0 };
  const over = () => total > budget;
  const done = (): FitResult => ({
    messages: [input.system, ...units.flat().map((e) => e.msg)],
    tokens: total,
    ...result,
  });
  if (!over()) return done();

  /** Replaces a tool output with its marker; true when that made the request smaller. */
  const prune = (u: Entry[], i: number, minChars: number): boolean => {
    const e = u[i]!;
    if (e.msg.role !== 'tool' || e.msg.content.length <= minChars) return false;
    const marker = prunedMarker(e, e.msg.content.length);
    if (marker.length >= e.msg.content.length) return false;
    const msg: ChatMessage = { ...e.msg, content: marker };
    total += count(msg) - count(e.msg);
    u[i] = { ...e, msg };
    result.pruned++;
    return true;
  };

  // 1. Old exchanges' large outputs, oldest first; the newest exchanges keep theirs whole.
  for (let k = 0; k < units.length - KEEP_WHOLE_EXCHANGES && over(); k++) {
    const u = units[k]!;
    for (let i = 0; i < u.length && over(); i++) prune(u, i, PRUNE_MIN_CHARS);
  }
  // 2. Whole old exchanges, oldest first.
  while (over() && units.length > 1) {
    total -= cost(units.shift()!);
    result.dropped++;
  }
  // 3. This turn's outputs, oldest step first; the newest step's last.
  const current = units[0]!;
  for (let i = 0; i < current.length && over(); i++) prune(current, i, 0);
  // 4. Still over: the largest messages are cut, with a note of how much is left out.
  for (let n = 0; n < MAX_CUTS && over(); n++) {
    if (!cutLargest(current)) break;
  }
  return done();

  function cutLargest(u: Entry[]): boolean {
    let at = -1;
    for (let i = 0; i < u.length; i++) if (at < 0 || count(u[i]!.msg) > count(u[at]!.msg)) at = i;
    const e = u[at];
    if (!e || (e.msg.role !== 'tool' && e.msg.role !== 'user') || e.msg.content.length < 2) return false;
    const tokens = count(e.msg);
    const room = budget - (total - tokens);
    const fits = Math.max(0, Math.floor(((room > 0 ? room : 0) / tokens) * e.msg.content.length * CUT_SLACK) - 200);
    // The user's own words are what the turn is about: a request a little over a tiny window gets an
    // honest error from the model service, one with the question cut away gets a wrong answer.
    const keep =
      e === u[0] && e.msg.role === 'user' ? Math.max(fits, Math.min(e.msg.content.length, USER_MIN_CHARS)) : fits;
    const content = `${e.msg.content.slice(0, keep)}\n[cut to fit the context: ${(e.msg.content.length - keep).toLocaleString('en-US')} more characters not shown]`;
    if (content.length >= e.msg.content.length) return false;
    const msg = { ...e.msg, content } as ChatMessage;
    total += count(msg) - tokens;
    u[at] = { ...e, msg };
    result.cut++;
    return true;
  }
}
