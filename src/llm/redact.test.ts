import { describe, expect, it } from 'vitest';
import {
  createEventRedactor,
  createRedactor,
  createStreamRedactor,
  redactDeep,
  redactKey,
  redactSecret,
} from './redact.js';
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
  });

  it('leave other text alone; only error details lose key-shaped words and bearer tokens', () => {
    const text = 'Bearer $TOKEN and ak-47-assault-rifle';
    expect(redactKey(text, KEYS[0]!)).toBe(text);
    expect(redactSecret(text, KEYS[0]!)).toBe('Bearer [key] and ak-[key]');
    expect(redactKey('abc', 'abc')).toBe('abc'); // too short to be a secret
    // Short enough that its base64 has no core long enough to look for: the key itself still goes.
    expect(redactKey('a k3y! b', 'k3y!')).toBe('a [key] b');
    expect(createStreamRedactor('k3y!').push('a k3y! b')).toBe('a [key] b');
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
          expect(stream(key, [text.slice(0, a), text.slice(a, b), text.slice(b)]).join('')).toBe(
            'Your key: [key]. Keep it safe.',
          );
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
      {
        type: 'tool_call',
        call: { id: 'c', name: 'file_write', arguments: `{"content":"${Buffer.from(key).toString('base64')}"}` },
      },
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

/** The key from the review: `/`, `+` and `=` in it, so every encoding changes it somewhere. */
const REVIEW_KEY = 'zk-Qm7/Xp+Lr=Vt9Wb3Nc';
const b64 = (text: string) => Buffer.from(text).toString('base64');
const b64url = (text: string) => Buffer.from(text).toString('base64url');

/** Encodings that leave some characters as they are, or mix hex cases: no fixed list has them all. */
function partialUrlForms(key: string): string[] {
  const quote = (text: string) => encodeURIComponent(text).replaceAll('%2F', '/'); // Python's quote(): `/` stays
  const mixed = (text: string) => {
    let n = 0;
    return encodeURIComponent(text).replace(/%[0-9A-F]{2}/g, (e) => (n++ % 2 ? e.toLowerCase() : e));
  };
  return [
    quote(key),
    quote(key).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
    mixed(key),
    key.replaceAll('+', '%2B'),
  ];
}

/** Base64 with something in front: the key sits in another alignment. `run` is the base64 run; `coreAt` where key-only characters begin in it. */
interface PrefixedForm {
  form: string;
  run: string;
  coreAt: number;
}
function prefixedBase64Forms(key: string): PrefixedForm[] {
  const behind = (prefix: string, encode: (t: string) => string, label = '') => {
    const run = encode(prefix + key);
    return { form: label + run, run, coreAt: Math.ceil((Buffer.byteLength(prefix) * 8) / 6) };
  };
  return [
    behind(':', b64, 'Basic '), // an HTTP Basic header with the key as password
    behind('user:', b64, 'Basic '),
    behind('Bearer ', b64),
    behind('Bearer ', b64url),
    behind('x', b64url),
    { form: b64(`${key}\n`), run: b64(`${key}\n`), coreAt: 0 }, // `echo $KEY | base64`
    {
      form: b64(JSON.stringify({ api_key: key })),
      run: b64(JSON.stringify({ api_key: key })),
      coreAt: Math.ceil((Buffer.byteLength('{"api_key":"') * 8) / 6),
    },
  ];
}

describe('forms no fixed list covers', () => {
  const keys = [REVIEW_KEY, ...KEYS];

  it('finds the key URL-encoded with some characters left as they are, in either hex case', () => {
    expect(partialUrlForms(REVIEW_KEY)).toContain('zk-Qm7/Xp%2BLr%3DVt9Wb3Nc');
    for (const key of keys) {
      for (const form of partialUrlForms(key)) {
        expect(redactKey(`before ${form} after`, key)).toBe('before [key] after');
        expect(
          redactKey(
            `{"url":"https:\\/\\/x.test\\/k\\/${JSON.stringify(form).slice(1, -1).replaceAll('/', '\\/')}?a=1"}`,
            key,
          ),
        ).toBe('{"url":"https:\\/\\/x.test\\/k\\/[key]?a=1"}');
      }
    }
  });

  it('finds the key JSON-escaped twice, as tool arguments inside a JSON string', () => {
    for (const key of keys) {
      const twice = JSON.stringify(JSON.stringify(key)).slice(3, -3);
      expect(redactKey(`args: "${twice}"`, key)).toBe('args: "[key]"');
    }
  });

  it('finds base64 of the key behind a prefix, in base64 and base64url, and hides the whole run', () => {
    for (const key of keys) {
      for (const { form, run } of prefixedBase64Forms(key)) {
        const expected = `Authorization: ${form.slice(0, form.length - run.length)}[key]; next`;
        expect(redactKey(`Authorization: ${form}; next`, key)).toBe(expected);
        // In JSON, with the slashes escaped the way some servers write them.
        expect(redactKey(`{"h":"${form.replaceAll('/', '\\/')}"}`, key)).toBe(
          `{"h":"${form.slice(0, form.length - run.length)}[key]"}`,
        );
        // URL-encoded, as in a query string.
        expect(redactKey(`?auth=${encodeURIComponent(run)}&x=1`, key)).toBe('?auth=[key]&x=1');
      }
    }
  });

  it('leaves base64 alone that merely shares a few characters with the key', () => {
    const key = REVIEW_KEY;
    const other = b64('zk-Qm7/somethingelse entirely');
    expect(redactKey(`data ${other} end`, key)).toBe(`data ${other} end`);
    expect(redactKey(`a=${b64('hello world')}==`, key)).toBe(`a=${b64('hello world')}==`);
  });

  it('redacts streamed text split at every position, in every form', () => {
    for (const key of keys) {
      const exact = partialUrlForms(key).map((form) => ({ form, run: form, coreAt: 0 }));
      for (const { form, run, coreAt } of [...exact, ...prefixedBase64Forms(key)]) {
        const text = `Your key: ${form}. Keep it safe.`;
        const label = form.slice(0, form.length - run.length);
        const runAt = text.indexOf(form) + label.length;
        const expected = `Your key: ${label}[key]. Keep it safe.`;
        expect(redactKey(text, key)).toBe(expected);
        const accept = (out: string, cuts: number[]) => {
          if (out === expected) return;
          // A cut inside the run before the key-only characters may have shown them already:
          // they encode the prefix and at most the key's first byte, never a whole character of it.
          const shownTo = out.indexOf('[key]');
          expect(
            cuts.some((cut) => cut > runAt && cut < runAt + run.length),
            `${JSON.stringify(out)} for cuts ${cuts}`,
          ).toBe(true);
          expect(shownTo).toBeGreaterThan(runAt);
          expect(shownTo).toBeLessThanOrEqual(runAt + coreAt);
          expect(out).toBe(`${text.slice(0, shownTo)}[key]. Keep it safe.`);
        };
        for (let a = 0; a <= text.length; a++) {
          accept(stream(key, [text.slice(0, a), text.slice(a)]).join(''), [a]);
          const b = Math.min(text.length, a + 3);
          accept(stream(key, [text.slice(0, a), text.slice(a, b), text.slice(b)]).join(''), [a, b]);
        }
        accept(
          stream(key, [...text]).join(''),
          [...text].map((_, i) => i + 1),
        );
      }
    }
  });

  it('holds back the longest form until it is whole: doubly escaped, percent-encoded in full', () => {
    for (const key of keys) {
      const longest = JSON.stringify(JSON.stringify(encodeURIComponent(key).replaceAll('%2F', '/')))
        .slice(3, -3)
        .replaceAll('/', '\\\\/');
      const redactor = createStreamRedactor(key);
      expect(redactor.push(`see ${longest.slice(0, -1)}`)).toBe('see ');
      expect(redactor.push(`${longest.slice(-1)}, end`)).toMatch(/^\[key\],/);
      expect(redactor.end()).not.toContain(',');
    }
  });

  it('drops the rest of a long base64 run as it streams, in linear time', () => {
    const key = REVIEW_KEY;
    const blob = b64(`${'x'.repeat(300_000)}${key}${'y'.repeat(300_000)}`);
    const pieces = blob.match(/.{1,4}/gs)!;
    const started = Date.now();
    const out = stream(key, ['blob: ', ...pieces, ' done']).join('');
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(out).toContain('[key] done');
    expect(out.startsWith('blob: ')).toBe(true);
    expect(out.length).toBeLessThan('blob: '.length + 400_010 + ' done'.length);
    expect(redactKey(`blob: ${blob} done`, key)).toBe('blob: [key] done');
  });

  it('lets an unfinished escape after a run out when the stream ends', () => {
    const key = REVIEW_KEY;
    expect(stream(key, [`k=${b64(key)}`, '%2']).join('')).toBe(redactKey(`k=${b64(key)}%2`, key));
    expect(stream(key, [`k=${b64(key)}`, '%2']).join('')).toBe('k=[key]%2');
  });

  it('redacts a 5 MB text quickly', () => {
    const key = REVIEW_KEY;
    const text = `${'lorem ipsum zk-Qm7 dolor '.repeat(100_000)}${b64(`Bearer ${key}`)} ${b64('z'.repeat(2_000_000))}`;
    const started = Date.now();
    const out = redactKey(text, key);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(out.endsWith(`[key] ${b64('z'.repeat(2_000_000))}`)).toBe(true);
  });
});

/** Streams `text` in the given pieces and returns what came out, piece by piece. */
function stream(key: string, pieces: string[]): string[] {
  const redactor = createStreamRedactor(key);
  return [...pieces.map((p) => redactor.push(p)), redactor.end()];
}

describe('createRedactor', () => {
  it('takes the key out in every form, and leaves other text as it was', () => {
    for (const key of [REVIEW_KEY, ...KEYS]) {
      const redact = createRedactor(key);
      const forms = [...independentForms(key), ...partialUrlForms(key), ...prefixedBase64Forms(key).map((p) => p.run)];
      for (const form of forms) expect(redact(`tool said: ${form}\nnext line`)).toBe('tool said: [key]\nnext line');
      const plain = 'ls -la /tmp && echo "done" # 你好 c2st';
      expect(redact(plain)).toBe(plain);
    }
  });

  it('is the identity without a key, or with one too short to be a secret', () => {
    expect(createRedactor('')('sk-anything')).toBe('sk-anything');
    expect(createRedactor('abc')('abc')).toBe('abc');
  });
});

describe('redactDeep', () => {
  const redact = createRedactor(REVIEW_KEY);
  const basic = `Basic ${b64(`:${REVIEW_KEY}`)}`;

  it('redacts every string in a parsed JSON value, object keys too, and keeps the rest', () => {
    const args = JSON.parse(
      JSON.stringify({
        command: `curl -H "Authorization: ${basic}" https://x.test`,
        env: { [REVIEW_KEY]: 'as a key', TOKEN: encodeURIComponent(REVIEW_KEY) },
        list: [1, true, null, `k=${REVIEW_KEY}`, [b64(`Bearer ${REVIEW_KEY}`)]],
        n: 3.5,
      }),
    ) as unknown;
    expect(redactDeep(args, redact)).toEqual({
      command: 'curl -H "Authorization: Basic [key]" https://x.test',
      env: { '[key]': 'as a key', TOKEN: '[key]' },
      list: [1, true, null, 'k=[key]', ['[key]']],
      n: 3.5,
    });
  });

  it('works on a bare string or number, and leaves its input unchanged', () => {
    expect(redactDeep(`x ${REVIEW_KEY}`, redact)).toBe('x [key]');
    expect(redactDeep(42, redact)).toBe(42);
    const input = { a: [REVIEW_KEY] };
    const out = redactDeep(input, redact);
    expect(input).toEqual({ a: [REVIEW_KEY] });
    expect(out).toEqual({ a: ['[key]'] });
  });

  it('keeps a "__proto__" key from JSON as a plain key', () => {
    const parsed = JSON.parse(`{"__proto__": {"polluted": "${REVIEW_KEY}"}}`) as Record<string, unknown>;
    const out = redactDeep(parsed, redact) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ polluted: '[key]' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('walks JSON nested deeper than the call stack', () => {
    const depth = 200_000;
    const parsed = JSON.parse(`${'['.repeat(depth)}"${REVIEW_KEY}"${']'.repeat(depth)}`) as unknown;
    let inner = redactDeep(parsed, redact) as unknown;
    for (let i = 0; i < depth; i++) inner = (inner as unknown[])[0];
    expect(inner).toBe('[key]');
  });
});
