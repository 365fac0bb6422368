/**
 * Keeps the API key out of text that comes from outside: error bodies, whatever the model
 * streams back (a server or a model may echo the key), and, through `createRedactor` and
 * `redactDeep`, what tools take and give. A server rarely echoes the key as typed: it
 * may come back URL-encoded, form-encoded, base64'd behind a prefix or JSON-escaped;
 * key-pattern.ts finds all of those. Streamed text is redacted as it flows, holding back only
 * the trailing characters that could be the start of the key split across deltas.
 */
import { base64RunEnd, base64RunStart, createKeyMatcher, type KeyMatch, type KeyMatcher } from './key-pattern.js';
import type { LlmEvent } from './types.js';

const REPLACEMENT = '[key]';
/** Shapes of keys that providers sometimes echo back in error bodies. */
const KEY_PATTERN = /\b(sk|pk|rk|ak)-[A-Za-z0-9_-]{8,}/g;
const BEARER_PATTERN = /Bearer\s+[^\s"',]+/gi;

/** Text in, the same text with the key taken out, in every form. */
export type Redact = (text: string) => string;

/** What to replace for one match: the match, or for a base64 core the run it sits in. */
interface Span {
  start: number;
  end: number;
  /** The text ends inside it: more of it may follow. */
  open: boolean;
  /** For a base64 run: its padding has begun. */
  padding: boolean;
}

/** `floor`: text before it is already written out, and no span reaches back into it. */
function spanOf(match: KeyMatch, text: string, floor: number): Span {
  if (!match.base64) return { start: match.start, end: match.end, open: match.end === text.length, padding: false };
  const run = base64RunEnd(text, match.end, false);
  return { start: base64RunStart(text, match.start, floor), ...run };
}

function redactAll(matcher: KeyMatcher, text: string): string {
  let out = '';
  let pos = 0;
  for (let match = matcher.next(text, 0); match; match = matcher.next(text, pos)) {
    const span = spanOf(match, text, pos);
    out += text.slice(pos, span.start) + REPLACEMENT;
    pos = span.end;
  }
  return pos === 0 ? text : out + text.slice(pos);
}

/**
 * A redactor for text that does not stream: a tool's arguments or output, an error body.
 * Other text is left exactly as it was. Build it once per key: it compiles the key's patterns.
 */
export function createRedactor(apiKey: string): Redact {
  const matcher = createKeyMatcher(apiKey);
  return matcher ? (text) => redactAll(matcher, text) : (text) => text;
}

/**
 * Every string inside a parsed JSON value redacted, object keys included, in a copy (the value
 * is not changed): for tool arguments once parsed, and tool outputs. Numbers, booleans and null
 * are kept; keys that redact to the same text collapse into one. Walks without recursion:
 * parsed JSON may nest deeper than the call stack.
 */
export function redactDeep<T>(value: T, redact: Redact): T {
  const copies = new Map<object, object>();
  const pending: Array<[object, object]> = [];
  const copy = (item: unknown): unknown => {
    if (typeof item === 'string') return redact(item);
    if (typeof item !== 'object' || item === null) return item;
    let target = copies.get(item);
    if (!target) {
      target = Array.isArray(item) ? [] : {};
      copies.set(item, target);
      pending.push([item, target]);
    }
    return target;
  };
  const root = copy(value);
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [source, target] = next;
    if (Array.isArray(source)) {
      source.forEach((item, i) => ((target as unknown[])[i] = copy(item)));
      continue;
    }
    for (const [key, item] of Object.entries(source)) {
      // Defined, not assigned: a `__proto__` key from JSON must stay a plain key.
      Object.defineProperty(target, redact(key), {
        value: copy(item),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return root as T;
}

/** Replaces the key, in any of its forms, in model output. Other text is left exactly as it was. */
export function redactKey(text: string, apiKey: string): string {
  return createRedactor(apiKey)(text);
}

/** For error details: the key in any form, and anything shaped like a key or a bearer token. */
export function redactSecret(text: string, apiKey: string): string {
  return redactKey(text, apiKey).replace(BEARER_PATTERN, 'Bearer [key]').replace(KEY_PATTERN, '$1-[key]');
}

export interface StreamRedactor {
  /** The text that is safe to show now; a possible start of the key is held back. */
  push(delta: string): string;
  /** What was held back, once the stream is over. */
  end(): string;
}

/**
 * Redacts text as it streams. A whole delta passes at once unless its end could be the start of
 * the key in some form (then that start is held, and for base64 the run just before it). Once a
 * base64 core is seen, the rest of its run is dropped as it comes. Its beginning is hidden as far
 * back as it was still held: a delta that ended before the core began has already shown the
 * characters before it, which say what came before the key and at most a few bits of its first
 * byte, never a character of it.
 */
export function createStreamRedactor(apiKey: string): StreamRedactor {
  const matcher = createKeyMatcher(apiKey);
  let held = '';
  /** Inside a base64 run already replaced: its rest is dropped until it ends. */
  let inRun: { padding: boolean } | undefined;

  /**
   * Where `text` stops being safe to let out, from `from` on: the earliest start of a match still
   * arriving; for a base64 core, the run before it too (as far back as a match is long), which
   * holds what a prefix such as `Basic :` mixed into the key's first characters.
   */
  function holdFrom(keys: KeyMatcher, text: string, from: number): number {
    for (let at = Math.max(from, text.length - keys.maxLength + 1); at < text.length; at++) {
      const kind = keys.couldStart(text, at);
      if (kind === 'base64') return base64RunStart(text, at, Math.max(from, at - keys.maxLength));
      if (kind) return at;
    }
    return text.length;
  }

  return {
    push(delta) {
      if (!matcher) return delta;
      let text = held + delta;
      held = '';
      if (inRun) {
        const run = base64RunEnd(text, 0, inRun.padding);
        if (run.open) {
          inRun.padding = run.padding;
          held = text.slice(run.end);
          return '';
        }
        inRun = undefined;
        text = text.slice(run.end);
      }
      let out = '';
      let pos = 0;
      for (let match = matcher.next(text, 0); match; match = matcher.next(text, pos)) {
        const span = spanOf(match, text, pos);
        if (span.open && !match.base64) {
          // The key may go on (a longer escape of its last character): wait for the rest.
          held = text.slice(span.start);
          return out + text.slice(pos, span.start);
        }
        out += text.slice(pos, span.start) + REPLACEMENT;
        pos = span.end;
        if (span.open) {
          inRun = { padding: span.padding };
          held = text.slice(pos);
          return out;
        }
      }
      const cut = holdFrom(matcher, text, pos);
      held = text.slice(cut);
      return out + text.slice(pos, cut);
    },
    end() {
      const rest = held;
      const wasInRun = inRun !== undefined;
      held = '';
      inRun = undefined;
      // Inside a run, what is held is an unfinished escape after it, which was never part of it.
      if (wasInRun || !matcher) return rest;
      return redactAll(matcher, rest);
    },
  };
}

export interface EventRedactor {
  /** The events to pass on for one event from the model, with the key taken out. */
  push(event: LlmEvent): LlmEvent[];
}

/**
 * Redacts a model step's events: text and reasoning as they stream, each through its own
 * redactor; a tool call (which arrives whole) at once. Held-back text is let out before any
 * other kind of event, so the order of what the model said is kept.
 */
export function createEventRedactor(apiKey: string): EventRedactor {
  const redact = createRedactor(apiKey);
  const text = createStreamRedactor(apiKey);
  const reasoning = createStreamRedactor(apiKey);
  const flush = (redactor: StreamRedactor, type: 'text' | 'reasoning'): LlmEvent[] => {
    const rest = redactor.end();
    return rest ? [{ type, delta: rest }] : [];
  };
  const delta = (redactor: StreamRedactor, type: 'text' | 'reasoning', value: string): LlmEvent[] => {
    const safe = redactor.push(value);
    return safe ? [{ type, delta: safe }] : [];
  };

  return {
    push(event) {
      if (event.type === 'text') return [...flush(reasoning, 'reasoning'), ...delta(text, 'text', event.delta)];
      if (event.type === 'reasoning') return [...flush(text, 'text'), ...delta(reasoning, 'reasoning', event.delta)];
      const before = [...flush(reasoning, 'reasoning'), ...flush(text, 'text')];
      if (event.type !== 'tool_call') return [...before, event];
      const { call } = event;
      return [
        ...before,
        { type: 'tool_call', call: { ...call, name: redact(call.name), arguments: redact(call.arguments) } },
      ];
    },
  };
}
