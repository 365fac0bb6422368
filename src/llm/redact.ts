/**
 * Keeps the API key out of text that comes from outside: error bodies, and whatever the model
 * streams back (a server or a model may echo the key). A server rarely echoes it as typed: it
 * may come back URL-encoded, form-encoded, base64'd or JSON-escaped, so each of those forms
 * is looked for too. Streamed text is redacted as it flows, holding back only the few trailing
 * characters that could be the start of a key split across deltas.
 */
import type { LlmEvent } from './types.js';

const REPLACEMENT = '[key]';
/** Shorter "keys" would match ordinary text; placeholders like `x` are not secrets. */
const MIN_KEY_CHARS = 4;
/** Shapes of keys that providers sometimes echo back in error bodies. */
const KEY_PATTERN = /\b(sk|pk|rk|ak)-[A-Za-z0-9_-]{8,}/g;
const BEARER_PATTERN = /Bearer\s+[^\s"',]+/gi;

/** Every form the key may come back in, longest first (so no form is cut by a shorter one). */
export function keyForms(apiKey: string): string[] {
  if (apiKey.length < MIN_KEY_CHARS) return [];
  const lowerHex = (text: string) => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
  const uri = encodeURIComponent(apiKey);
  const form = new URLSearchParams({ k: apiKey }).toString().slice('k='.length);
  const base64 = Buffer.from(apiKey, 'utf8').toString('base64');
  const encoded = [apiKey, uri, lowerHex(uri), form, lowerHex(form), base64, base64.replace(/=+$/, ''), Buffer.from(apiKey, 'utf8').toString('base64url')];
  // JSON-escaped, both as JSON.stringify writes it and with `\/` as some servers write a slash.
  const json = (text: string) => JSON.stringify(text).slice(1, -1);
  const all = encoded.flatMap((text) => [text, json(text), json(text).replaceAll('/', '\\/')]);
  return [...new Set(all)].sort((a, b) => b.length - a.length);
}

function replaceForms(text: string, forms: string[]): string {
  let out = text;
  for (const form of forms) if (out.includes(form)) out = out.split(form).join(REPLACEMENT);
  return out;
}

/** Replaces the key, in any of its forms, in model output. Other text is left exactly as it was. */
export function redactKey(text: string, apiKey: string): string {
  return replaceForms(text, keyForms(apiKey));
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

export function createStreamRedactor(apiKey: string): StreamRedactor {
  const forms = keyForms(apiKey);
  const longest = forms[0]?.length ?? 0;
  let held = '';

  /**
   * Where the text stops being safe to let out: the start of the longest tail that a form
   * starts with (a key may still be arriving; a whole short form too, as base64 without its
   * `=`), moved back so that no whole form straddles the cut.
   */
  function cutPoint(text: string): number {
    let cut = text.length;
    for (let n = Math.min(text.length, longest - 1); n > 0; n--) {
      const tail = text.slice(text.length - n);
      if (forms.some((form) => form.length > n && form.startsWith(tail))) {
        cut = text.length - n;
        break;
      }
    }
    for (let moved = true; moved; ) {
      moved = false;
      for (const form of forms) {
        const at = text.indexOf(form, Math.max(0, cut - form.length + 1));
        if (at !== -1 && at < cut) {
          cut = at;
          moved = true;
        }
      }
    }
    return cut;
  }

  return {
    push(delta) {
      if (forms.length === 0) return delta;
      const text = held + delta;
      const cut = cutPoint(text);
      held = text.slice(cut);
      return replaceForms(text.slice(0, cut), forms);
    },
    end() {
      const rest = replaceForms(held, forms);
      held = '';
      return rest;
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
      return [...before, { type: 'tool_call', call: { ...call, name: redactKey(call.name, apiKey), arguments: redactKey(call.arguments, apiKey) } }];
    },
  };
}
