// What counts as right for a held-out case: the matchers and the check of one turn (see README.md).
// Pure functions over plain data, so they can be tested on their own.

/** Thursday 12 March 2026, 10:00 in Shanghai: the "now" every case runs at. */
export const NOW_ISO = '2026-03-12T10:00:00+08:00';
export const NOW_ZONE = 'Asia/Shanghai';
/** The calendar date of now in NOW_ZONE. */
const NOW_DATE = { year: 2026, month: 3, day: 12 };

const asText = (v) =>
  v === undefined || v === null
    ? ''
    : typeof v === 'string'
      ? v
      : typeof v === 'object'
        ? JSON.stringify(v)
        : String(v);

/**
 * Every number written in the text; `2.8万` counts as 28000 (and as 2.8), `1,200` as 1200. Dates and
 * clock times (2026-03-12, 2026年3月12日, 10:00:02) are not numbers the user asked for, so they are left out.
 */
export function numbersIn(text) {
  const out = [];
  const plain = text
    .replace(/\d{4}\s*[-/年]\s*\d{1,2}\s*[-/月]\s*\d{1,2}\s*日?/g, ' ')
    .replace(/\d{1,2}\s*月\s*\d{1,2}\s*[日号]/g, ' ')
    .replace(/\d{1,2}:\d{2}(?::\d{2})?/g, ' ');
  const re = /(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s*(万|千)?/g;
  for (const m of plain.matchAll(re)) {
    const n = Number(m[1].replace(/,/g, ''));
    out.push(n);
    if (m[2] === '万') out.push(n * 10_000);
    if (m[2] === '千') out.push(n * 1_000);
  }
  return out;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const WEEKDAYS_EN = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const WEEKDAYS_ZH = ['日', '一', '二', '三', '四', '五', '六'];

/** The calendar date `days` after now. */
export function dateAfter(days) {
  const d = new Date(Date.UTC(NOW_DATE.year, NOW_DATE.month - 1, NOW_DATE.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), weekday: d.getUTCDay() };
}

/** The date `days` after now, as people and programs write it. */
export function dateRegex(days) {
  const { year, month, day } = dateAfter(days);
  const mon = MONTHS[month - 1];
  const months = `${mon}|${mon.slice(0, 3)}\\.?`;
  const m = `0?${month}`;
  const d = `0?${day}`;
  return new RegExp(
    [
      `${year}\\s*[-/.年]\\s*${m}\\s*[-/.月]\\s*${d}(?!\\d)`, // 2026-03-13, 2026/3/13, 2026年3月13日
      `(?<!\\d)${m}\\s*月\\s*${d}(?!\\d)`, // 3月13日, 3月13号
      `(?<![\\d月/.-])${day}\\s*[号日]`, // 13号
      `\\b(?:${months})\\s+${d}(?:st|nd|rd|th)?\\b`, // March 13, Mar 13th
      `\\b${day}(?:st|nd|rd|th)?\\s+(?:of\\s+)?(?:${months})(?![a-z])`, // 13 March, 13th of Mar
      `(?<![\\d/])${m}/${d}(?![\\d/])`, // 3/13
    ].join('|'),
    'i',
  );
}

/** The weekday `days` after now: 星期五, 周五, 礼拜五, Friday, Fri. */
export function weekdayRegex(days) {
  const w = dateAfter(days).weekday;
  const zh = WEEKDAYS_ZH[w] + (w === 0 ? '|天' : '');
  const en = WEEKDAYS_EN[w];
  return new RegExp(`(?:星期|周|礼拜)(?:${zh})|\\b${en}\\b|\\b${en.slice(0, 3)}\\b`, 'i');
}

/** Does matcher `m` hold for `value`? `env.workspaces` serves `workspacePath`. */
export function matches(m, value, env = { workspaces: [] }) {
  if (m === null || typeof m !== 'object') {
    if (typeof m === 'number') return value !== undefined && value !== null && value !== '' && Number(value) === m;
    if (typeof m === 'boolean') return value === m;
    return typeof value === 'string' || typeof value === 'number'
      ? String(value).trim().toLowerCase() === String(m).trim().toLowerCase()
      : false;
  }
  const text = asText(value);
  if ('not' in m) return !matches(m.not, value, env);
  if ('any' in m) return m.any.some((x) => matches(x, value, env));
  if ('all' in m) return m.all.every((x) => matches(x, value, env));
  if ('contains' in m) return text.toLowerCase().includes(m.contains.toLowerCase());
  if ('inOrder' in m) {
    const lower = text.toLowerCase();
    let at = 0;
    for (const part of m.inOrder) {
      const i = lower.indexOf(part.toLowerCase(), at);
      if (i < 0) return false;
      at = i + part.length;
    }
    return true;
  }
  if ('regex' in m) return new RegExp(m.regex, m.flags ?? '').test(text);
  if ('number' in m) {
    const tol = m.tol ?? 1e-9;
    if (typeof value === 'number') return Math.abs(value - m.number) <= tol;
    return numbersIn(text).some((n) => Math.abs(n - m.number) <= tol);
  }
  if ('relativeDate' in m) return dateRegex(m.relativeDate).test(text);
  if ('weekday' in m) return weekdayRegex(m.weekday).test(text);
  if ('maxChars' in m) return [...text].length <= m.maxChars;
  if ('maxLines' in m) return text.trim().split('\n').length <= m.maxLines;
  if ('workspacePath' in m) return env.workspaces.some((w) => text.includes(w));
  throw new Error(`unknown matcher ${JSON.stringify(m)}`);
}

const show = (m) => JSON.stringify(m);

/**
 * The reasons a turn missed its case; none when it hit. `turn` is `{reply, actions}` (actions as the
 * CLI's --json lists them), `state` is `{todos: [{content, due, done}], files: {path: content}}`.
 */
export function check(c, turn, state, env) {
  const reasons = [];
  const e = c.expect;
  const actions = turn.actions;

  if (e.noCalls && actions.length > 0)
    reasons.push(`expected no tool call, got ${actions.map((a) => a.tool).join(', ')}`);

  if (e.calls) {
    let from = 0;
    for (const want of e.calls) {
      const i = actions.findIndex(
        (a, k) =>
          k >= from &&
          a.tool === want.tool &&
          a.ok &&
          Object.entries(want.input ?? {}).every(([field, m]) => matches(m, a.input?.[field], env)) &&
          (want.output === undefined || matches(want.output, a.output, env)),
      );
      if (i < 0) {
        const detail = [want.input ? `input ${show(want.input)}` : '', want.output ? `output ${show(want.output)}` : '']
          .filter(Boolean)
          .join(', ');
        reasons.push(
          `expected call ${want.tool}${detail ? ` (${detail})` : ''}${from > 0 ? ' after the ones before it' : ''}`,
        );
        break;
      }
      from = i + 1;
    }
  }

  for (const m of e.reply ?? []) if (!matches(m, turn.reply, env)) reasons.push(`reply fails ${show(m)}`);

  if (e.todos) {
    const rows = state.todos;
    const has = e.todos.has ?? [];
    const rowMatches = (want, row) =>
      (want.content === undefined || matches(want.content, row.content, env)) &&
      (want.due === undefined || matches(want.due, row.due ?? '', env)) &&
      (want.done === undefined || Boolean(row.done) === want.done);
    // Each wanted item must be a different row: a small backtracking assignment.
    const assign = (k, used) =>
      k === has.length ||
      rows.some((row, r) => !used.has(r) && rowMatches(has[k], row) && assign(k + 1, new Set([...used, r])));
    if (!assign(0, new Set())) {
      const unmatched = has.filter((want) => !rows.some((row) => rowMatches(want, row)));
      for (const want of unmatched) reasons.push(`no todo matches ${show(want)}`);
      if (unmatched.length === 0) reasons.push(`todos do not match ${show(has)} as different items`);
    }
    for (const m of e.todos.lacks ?? []) {
      const hit = rows.find((row) => matches(m, row.content, env));
      if (hit) reasons.push(`todo "${hit.content}" should be gone`);
    }
    if (e.todos.count !== undefined && rows.length !== e.todos.count)
      reasons.push(`expected ${e.todos.count} todos, there are ${rows.length}`);
  }

  for (const [path, m] of Object.entries(e.files ?? {})) {
    const content = state.files[path];
    if (m === null) {
      if (content !== undefined) reasons.push(`${path} should not exist`);
    } else if (content === undefined) reasons.push(`${path} does not exist`);
    else if (!matches(m, content, env)) reasons.push(`${path} fails ${show(m)}`);
  }
  return reasons;
}
