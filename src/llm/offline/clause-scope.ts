/**
 * The part of a message a result answers. In 「记一下周五交报告，然后看看上海周末天气」 the weather
 * is asked for 周末, not 周五: the days another request names stay with that request.
 */

/** Where a message's requests part: sentence marks and the words that join requests. */
const CLAUSE_GAP =
  /[,，。；;！!？?\n]|然后|顺便|另外|并且|同时|\b(?:and then|then|also)\b|\band\s+(?=(?:what|what's|how|tell|when|is|are|do|does|show|check)\b)/i;
/** Requests for other tools: todos, sums, files. */
const OTHER_TOOL =
  /记一下|记下|记得|提醒|待办|备忘|\btodo\b|\bto-do\b|\bremind\b|算一下|计算|等于多少|\bcalculate\b|\d\s*[-+*/×÷]\s*\d|文件|\bfile\b|\.(?:txt|md|json|csv)\b/i;

/**
 * The clauses of `text` that are not someone else's: not another tool's request, and not `foreign`
 * (another of our tools' questions) unless they also say `own`. The whole text when nothing is left.
 */
export function scopeOf(text: string, own: RegExp, foreign: RegExp): string {
  const clauses = text.split(CLAUSE_GAP).filter((c) => c.trim());
  if (clauses.length < 2) return text;
  const kept = clauses.filter((c) => own.test(c) || !(OTHER_TOOL.test(c) || foreign.test(c)));
  return kept.length ? kept.join('，') : text;
}
