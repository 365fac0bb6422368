/**
 * Finds the API key in text, in whatever form a server or a model echoes it. A list of fixed
 * forms always misses one (Python's `quote()` leaves `/` as is; a `Basic` header base64s
 * `":" + key`), so the forms are built from the key's characters instead:
 *
 * - The key itself, where every character that is not a letter or a digit may come raw,
 *   percent-encoded (either hex case), JSON-escaped (a JSON string inside a JSON string too),
 *   or, for a space, as the `+` of form encoding. Mixed forms match as well.
 * - Base64 of the key with anything in front of it. Base64 encodes 3 bytes at a time, so the key
 *   starts in one of three alignments; in each, the characters that encode only key bytes (the
 *   core) are the same whatever comes before or after. A core, in base64 or base64url, means
 *   the key was there; what to hide then is the whole base64 run around it (see `base64Run…`).
 */

/** Shorter "keys" would match ordinary text; placeholders like `x` are not secrets. */
const MIN_KEY_CHARS = 4;
/** A shorter core could turn up in unrelated base64 by chance. */
const MIN_CORE_CHARS = 8;
/** Backslashes before a JSON-escaped `"` or `/`: one level of escaping, or two. */
const MAX_ESCAPE_BACKSLASHES = 3;
/** The same for `\` itself, which doubles at each level. */
const MAX_BACKSLASH_RUN = 4;

/** Where the key (or the core of its base64) was found. */
export interface KeyMatch {
  start: number;
  end: number;
  /** A base64 core: the run around it is to be hidden, not only the match. */
  base64: boolean;
}

export interface KeyMatcher {
  /** The first match starting at or after `from`. */
  next(text: string, from: number): KeyMatch | undefined;
  /** Whether `text` from `at` to its end could be the beginning of a match still arriving, and of which kind. */
  couldStart(text: string, at: number): 'key' | 'base64' | undefined;
  /** The most characters one match can take (a base64 core without its run). */
  readonly maxLength: number;
}

/** One character of a pattern: the literal strings it may appear as. */
type Unit = string[];

/** The matcher for `apiKey`, or undefined when the key is too short to be a secret. */
export function createKeyMatcher(apiKey: string): KeyMatcher | undefined {
  if (apiKey.length < MIN_KEY_CHARS) return undefined;
  const key = [...apiKey].map((char) => unitFor(char));
  const cores = base64Cores(apiKey).map((core) => [...core].map((char) => unitFor(char, true)));
  const all = [key, ...cores];
  // The key in group 1; a core otherwise. A short key has no cores, and then no second branch (an empty one would match everywhere).
  const find = new RegExp([`(${sequence(key)})`, ...cores.map(sequence)].join('|'), 'g');
  const keyPrefix = new RegExp(`^(?:${prefixOf(key)})$`);
  const corePrefix = cores.length ? new RegExp(`^(?:${cores.map(prefixOf).join('|')})$`) : undefined;
  const starts = new Set(all.flatMap((units) => units[0]!.map((alt) => alt[0]!)));
  const maxLength = Math.max(...all.map((units) => units.reduce((sum, unit) => sum + unit[0]!.length, 0)));
  return {
    next(text, from) {
      find.lastIndex = from;
      const found = find.exec(text);
      if (!found) return undefined;
      return { start: found.index, end: found.index + found[0].length, base64: found[1] === undefined };
    },
    couldStart(text, at) {
      if (!starts.has(text[at]!)) return undefined;
      const tail = text.slice(at);
      if (keyPrefix.test(tail)) return 'key';
      return corePrefix?.test(tail) ? 'base64' : undefined;
    },
    maxLength,
  };
}

/**
 * For each offset 0–2: base64 of (offset filler bytes + key), less the leading characters the
 * filler touches and the characters of the last, incomplete group (they depend on what follows).
 */
function base64Cores(apiKey: string): string[] {
  // Base64 of a JSON text holds the key JSON-escaped: for a key with `"` or `\`, other bytes.
  const escaped = JSON.stringify(apiKey).slice(1, -1);
  return [...new Set([apiKey, escaped].flatMap(coresOf))];
}

function coresOf(text: string): string[] {
  const key = Buffer.from(text, 'utf8');
  const cores: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), key]).toString('base64');
    const core = encoded.slice(Math.ceil((offset * 8) / 6), Math.floor((offset + key.length) / 3) * 4);
    if (core.length >= MIN_CORE_CHARS) cores.push(core);
  }
  return cores;
}

/** The ways one character may be written; longest first, so a match takes the whole escape. */
function unitFor(char: string, base64 = false): Unit {
  if (/^[A-Za-z0-9]$/.test(char)) return [char];
  const alternatives = new Set([char]);
  const hex = [...Buffer.from(char, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
  alternatives.add(hex.toUpperCase()).add(hex.toLowerCase());
  if (char === '\\') for (let n = 2; n <= MAX_BACKSLASH_RUN; n++) alternatives.add('\\'.repeat(n));
  if (char === '"' || char === '/')
    for (let n = 1; n <= MAX_ESCAPE_BACKSLASHES; n++) alternatives.add('\\'.repeat(n) + char);
  if (char === ' ') alternatives.add('+');
  if (base64 && char === '+') alternatives.add('-');
  if (base64 && char === '/') alternatives.add('_');
  return [...alternatives].sort((a, b) => b.length - a.length);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

function alternation(unit: Unit): string {
  return unit.length === 1 ? escapeRegExp(unit[0]!) : `(?:${unit.map(escapeRegExp).join('|')})`;
}

function sequence(units: Unit[]): string {
  return units.map(alternation).join('');
}

/** A pattern for any non-empty beginning of a match: whole units, then maybe part of the next. */
function prefixOf(units: Unit[]): string {
  let source = '';
  for (let i = units.length - 1; i >= 0; i--) {
    const unit = units[i]!;
    const partial = [
      ...new Set(unit.flatMap((alt) => Array.from({ length: alt.length - 1 }, (_, n) => alt.slice(0, n + 1)))),
    ];
    const whole = alternation(unit) + (source ? `(?:${source})?` : '');
    source = partial.length ? `(?:${partial.map(escapeRegExp).join('|')}|${whole})` : whole;
  }
  return source;
}

// ---------- the base64 run around a core ----------

const BASE64_CHAR = /[A-Za-z0-9+/_-]/;
const ESCAPED_BASE64_CHAR = /^%2[BbFf]$/;
const ESCAPED_PADDING = /^%3[Dd]$/;

/**
 * Where the base64 run that reaches `at` from the left begins, not before `floor`. Padding
 * only ends a run, so `=` stops the walk (`key=c2st…` keeps `key=`).
 */
export function base64RunStart(text: string, at: number, floor: number): number {
  let i = at;
  while (i > floor) {
    const char = text[i - 1]!;
    if (BASE64_CHAR.test(char)) {
      i--;
      // A JSON-escaped slash: `\/`, or `\\/` one level deeper.
      for (let n = 0; char === '/' && n < MAX_ESCAPE_BACKSLASHES && i > floor && text[i - 1] === '\\'; n++) i--;
    } else if (i - 3 >= floor && ESCAPED_BASE64_CHAR.test(text.slice(i - 3, i))) i -= 3;
    else break;
  }
  return i;
}

/** Where a base64 run ends, and whether the text ended inside it (so the run may go on). */
export interface RunEnd {
  end: number;
  open: boolean;
  /** Padding has begun: only more padding may follow. */
  padding: boolean;
}

/**
 * Where the base64 run going on at `from` ends. When the text ends inside an escape that may
 * still be one (`%2`, `\`), the run ends before it, open.
 */
export function base64RunEnd(text: string, from: number, padding: boolean): RunEnd {
  let i = from;
  while (i < text.length) {
    const char = text[i]!;
    if (!padding && BASE64_CHAR.test(char)) i++;
    else if (char === '=') {
      padding = true;
      i++;
    } else if (char === '\\' && !padding) {
      let j = i;
      while (j < text.length && j - i < MAX_ESCAPE_BACKSLASHES && text[j] === '\\') j++;
      if (j === text.length) return { end: i, open: true, padding };
      if (text[j] !== '/') break;
      i = j + 1;
    } else if (char === '%') {
      const escape = text.slice(i, i + 3);
      if (escape.length < 3 && i + escape.length === text.length && /^%[23]?$/.test(escape))
        return { end: i, open: true, padding };
      if (!padding && ESCAPED_BASE64_CHAR.test(escape)) i += 3;
      else if (ESCAPED_PADDING.test(escape)) {
        padding = true;
        i += 3;
      } else break;
    } else break;
  }
  return { end: i, open: i === text.length, padding };
}
