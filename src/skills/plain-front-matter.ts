/**
 * The front matter nearly every SKILL.md has, `key: text` lines, read without the YAML library: it is
 * some 50 modules, and loading it would add a noticeable share to every one-shot's start. Only lines
 * whose meaning is certain are read here, so the result is exactly what YAML would give; anything
 * else (quotes, block scalars, lists, nesting, values YAML reads as numbers or booleans) is left to
 * the YAML parser.
 */

/** `key: value` with a plain key at the start of the line and one or more spaces after the colon. */
const FIELD = /^([A-Za-z_][A-Za-z0-9_-]*):( +)(.*)$/;
/** Characters that give a plain scalar's first character another meaning in YAML. */
const INDICATOR_START = /^[-?:,[\]{}#&*!|>'"%@`]/;
/** A comment (` #`), a nested mapping (`: `), a trailing colon, control characters, or characters YAML may treat as breaks or marks. */
const UNSURE = /\s#|:\s|:$|[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]/;
/** What YAML 1.2's core schema reads as null, a boolean, an integer or a float rather than text. */
const NOT_TEXT = [
  /^(?:~|null|Null|NULL)$/,
  /^(?:true|True|TRUE|false|False|FALSE)$/,
  /^[-+]?[0-9]+$/,
  /^0o[0-7]+$/,
  /^0x[0-9a-fA-F]+$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/,
  /^[-+]?\.(?:inf|Inf|INF)$/,
  /^\.(?:nan|NaN|NAN)$/,
];

/** The fields of a front matter made only of `key: plain text` lines (and comments), or undefined when YAML must read it. */
export function parsePlainFrontMatter(yaml: string): Record<string, string> | undefined {
  const fields: Record<string, string> = {};
  for (const raw of yaml.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (/^ *$/.test(line) || line.startsWith('#')) continue;
    const m = FIELD.exec(line);
    if (!m) return undefined;
    const [, key, , rawValue] = m as unknown as [string, string, string, string];
    const value = rawValue.replace(/ +$/, '');
    if (value === '' || INDICATOR_START.test(value) || UNSURE.test(value) || NOT_TEXT.some((p) => p.test(value)))
      return undefined;
    if (Object.hasOwn(fields, key) || key === '__proto__') return undefined;
    fields[key] = value;
  }
  return Object.keys(fields).length > 0 ? fields : undefined;
}
