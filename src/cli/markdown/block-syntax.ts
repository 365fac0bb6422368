/**
 * How a Markdown line starts: the markers of quotes, list items, headings, rules, fences and task
 * boxes, as `blocks.ts` reads them, and which incomplete lines are already certain to be text.
 */

const TAB_STOP = 4;

export const QUOTE = /^ *> ?/;
const BULLET_ITEM = /^( *)([-*+])( +|$)/;
const ORDERED_ITEM = /^( *)(\d{1,9})([.)])( +|$)/;
export const HR = /^ *([-*_])(?: *\1){2,} *$/;
export const HEADING = /^ *(#{1,6})(?: +(.*))?$/;
export const FENCE_OPEN = /^( *)(`{3,}|~{3,})(.*)$/;
export const TASK = /^\[([ xX])\] +/;

export function expandTabs(line: string): string {
  if (!line.includes('\t')) return line;
  let out = '';
  for (const ch of line) out += ch === '\t' ? ' '.repeat(TAB_STOP - (out.length % TAB_STOP)) : ch;
  return out;
}

export const leadingSpaces = (s: string) => s.length - s.trimStart().length;
export const isBlank = (s: string) => !s.trim();

export interface Marker {
  ordered: boolean;
  delim: string;
  start: number;
  indent: number;
  empty: boolean;
  content: string;
}

export function listMarker(s: string): Marker | undefined {
  const m = BULLET_ITEM.exec(s) ?? ORDERED_ITEM.exec(s);
  if (!m) return undefined;
  const ordered = m.length === 5;
  const [lead, mark, delim, gap] = ordered ? [m[1]!, m[2]! + m[3]!, m[3]!, m[4]!] : [m[1]!, m[2]!, m[2]!, m[3]!];
  const empty = !s.slice(m[0].length).trim();
  // Five spaces or more after the marker: the content starts one space in (CommonMark).
  const gapUsed = empty || gap.length > 4 ? 1 : gap.length;
  const indent = lead.length + mark.length + gapUsed;
  return {
    ordered,
    delim,
    start: ordered ? Number(m[2]) : 0,
    indent,
    empty,
    content: s.slice(Math.min(s.length, indent)),
  };
}

/** Whether a line begins some block other than paragraph text (so it is no lazy continuation). */
export function startsBlock(s: string): boolean {
  return (
    QUOTE.test(s) ||
    HR.test(s) ||
    HEADING.test(s) ||
    FENCE_OPEN.test(s) ||
    s.trimStart().startsWith('|') ||
    Boolean(listMarker(s) && !listMarker(s)!.empty)
  );
}

/**
 * Whether an incomplete line is certainly paragraph text, whatever follows: it cannot become a
 * heading, quote, list item, rule, fence or table row.
 */
export function certainlyText(s: string): boolean {
  const t = s.trimStart();
  const c = t[0];
  if (!c || c === '>' || c === '|') return false;
  // "**Note", "-5", "__init__": no list marker (no space after it), and not a rule (a letter in it).
  if ('-*+_'.includes(c)) return t.length > 1 && t[1] !== ' ' && /[^-*_ ]/.test(t);
  if (c === '#') return !/^#{1,6}(?: |$)/.test(t) && /[^#]/.test(t);
  if (c === '`' || c === '~') return /^(?:`{1,2}[^`]|~{1,2}[^~])/.test(t);
  if (/\d/.test(c)) return /^\d+[^\d.)]/.test(t) || /^\d+[.)]\S/.test(t) || /^\d{10}/.test(t);
  return true;
}

/** The fence that closes `open`, if `line` is one. */
export function closesFence(line: string, fence: string): boolean {
  const m = /^ *(`{3,}|~{3,}) *$/.exec(line);
  return Boolean(m && m[1]![0] === fence[0] && m[1]!.length >= fence.length);
}
