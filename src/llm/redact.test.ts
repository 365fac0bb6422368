import { describe, expect, it } from 'vitest';
import { createEventRedactor, createStreamRedactor, keyForms, redactKey, redactSecret } from './redact.js';
import type { LlmEvent } from './types.js';

/** Keys whose characters change under each encoding: `/ + =` (URL, base64), `~` and space (form), `"` (JSON). */
const KEYS = ['sk-te/st+key=abc_123', 'gw~tok en"x\\y/z+1==', 'plainkey0123456789'];

function independentForms(key: string): string[] {
  const uri = encodeURIComponent(key);
  const form = new URLSearchParams({ k: key }).toString().slice(2);
  const lower = (text: string) => text.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase());
  const json = JSON.stringify(key).slice(1, -1);
  return [
    key,
    uri,
    lower(uri),
    form,
    lower(form),
    Buffer.from(key).toString('base64'),
    Buffer.from(key).toString('base64url'),
    json,
    json.replaceAll('/', '\\/'),
  ];
}

describe('redactKey and redactSecret', () => {
  it('replace the key in each of its forms', () => {
    for (const key of KEYS) {
      for (const form of independentForms(key)) {
        expect(redactKey(`before ${form} after`, key)).toBe('before [key] after');
        expect(redactSecret(`said: "${form}".`, key)).toBe('said: "[key]".');
      }
    }
    expect(keyForms('sk-te/st+key=abc_123')).toContain('sk-te%2fst%2bkey%3dabc_123');
  });

  it('leave other text alone; only error details lose key-shaped words and bearer tokens', () => {
    const text = 'Bearer $TOKEN and ak-47-assault-rifle';
    expect(redactKey(text, KEYS[0]!)).toBe(text);
    expect(redactSecret(text, KEYS[0]!)).toBe('Bearer [key] and ak-[key]');
    expect(redactKey('abc', 'abc')).toBe('abc'); // too short to be a secret
    expect(redactKey('anything', '')).toBe('anything');
  });
});

describe('createStreamRedactor', () => {
  /** Streams `text` in the given pieces and returns what came out, piece by piece. */
  function stream(key: string, pieces: string[]): string[] {
    const redactor = createStreamRedactor(key);
    return [...pieces.map((p) => redactor.push(p)), redactor.end()];
  }

  it('catches a key split anywhere across two or three deltas, in every form', () => {
    for (const key of KEYS) {
      for (const form of independentForms(key)) {
        const text = `Your key: ${form}. Keep it safe.`;
        const start = text.indexOf(form);
        for (let a = start; a <= start + form.length; a++) {
          expect(stream(key, [text.slice(0, a), text.slice(a)]).join('')).toBe('Your key: [key]. Keep it safe.');
          const b = Math.min(text.length, a + 3);
          expect(stream(key, [text.slice(0, a), text.slice(a, b), text.slice(b)]).join('')).toBe('Your key: [key]. Keep it safe.');
        }
      }
    }
  });

  it('one character at a time, holding back no more than a key could need', () => {
    const key = KEYS[0]!;
    const text = `x${encodeURIComponent(key)}y and more text`;
    const out = stream(key, [...text]);
    expect(out.join('')).toBe('x[key]y and more text');
    expect(out.at(-1)).toBe('');
    // Plain text flows at once: nothing in it starts a form of the key.
    expect(stream(key, ['hello ', 'world'])).toEqual(['hello ', 'world', '']);
  });

  it('passes everything through untouched without a key', () => {
    expect(stream('', ['s', 'k-'])).toEqual(['s', 'k-', '']);
  });
});

describe('createEventRedactor', () => {
  it('keeps the order of text, reasoning and calls, and redacts call arguments', () => {
    const key = KEYS[0]!;
    const redactor = createEventRedactor(key);
    const events: LlmEvent[] = [
      { type: 'reasoning', delta: 'think s' },
      { type: 'text', delta: 'answer s' },
      { type: 'text', delta: 'k-te/st+key=abc_123!' },
      { type: 'tool_call', call: { id: 'c', name: 'file_write', arguments: `{"content":"${Buffer.from(key).toString('base64')}"}` } },
      { type: 'finish', reason: 'tool_calls' },
    ];
    expect(events.flatMap((e) => redactor.push(e))).toEqual([
      { type: 'reasoning', delta: 'think ' },
      { type: 'reasoning', delta: 's' },
      { type: 'text', delta: 'answer ' },
      { type: 'text', delta: '[key]!' },
      { type: 'tool_call', call: { id: 'c', name: 'file_write', arguments: '{"content":"[key]"}' } },
      { type: 'finish', reason: 'tool_calls' },
    ]);
  });
});
