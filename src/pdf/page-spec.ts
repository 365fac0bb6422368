import { say, type Lang } from '../i18n.js';

/** A spec longer than this is not a list of pages someone typed. */
const MAX_SPEC_CHARS = 200;

/** Why a page spec was refused, in the user's language, naming how many pages the document has. */
export class PageSpecError extends Error {
  override name = 'PageSpecError';
}

/**
 * Turns `"1-3,5"` into the sorted, distinct page numbers it names (1-based). Open ranges `"4-"`
 * run to the last page. Every page must exist: a number past the end is refused, not silently
 * dropped, so the model learns how long the document is instead of reading less than it asked for.
 */
export function parsePageSpec(spec: string | undefined, pageCount: number, lang: Lang): number[] {
  if (spec === undefined || spec.trim() === '') return Array.from({ length: pageCount }, (_, i) => i + 1);
  const bad = (why: string, whyEn: string): PageSpecError =>
    new PageSpecError(
      say(
        lang,
        `页码“${spec.slice(0, 40)}”无效：${why}。这份 PDF 共 ${pageCount} 页；请写成 "1-3,5" 这样的形式，页码从 1 到 ${pageCount}。`,
        `The pages "${spec.slice(0, 40)}" are not valid: ${whyEn}. This PDF has ${pageCount} page${pageCount === 1 ? '' : 's'}; write them like "1-3,5", numbered 1 to ${pageCount}.`,
      ),
    );
  if (spec.length > MAX_SPEC_CHARS) throw bad('太长了', 'the list is too long');
  const pages = new Set<number>();
  // Full-width digits and dashes, as Chinese and Japanese keyboards type them: １-３.
  const plain = spec.replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0)).replace(/[－—]/g, '-');
  for (const raw of plain.split(/[,，、;]/)) {
    const part = raw.trim();
    if (part === '') continue;
    const m = /^(\d+)\s*(?:[-–~～]\s*(\d*))?$/.exec(part);
    if (!m) throw bad(`“${part}”不是页码或页码范围`, `"${part}" is not a page number or range`);
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : m[2] === '' ? pageCount : Number(m[2]);
    if (from < 1 || to < 1) throw bad('页码从 1 开始', 'pages are numbered from 1');
    if (from > to) throw bad(`范围 ${part} 是倒过来的`, `the range ${part} runs backwards`);
    if (to > pageCount) throw bad(`第 ${to} 页不存在`, `there is no page ${to}`);
    for (let n = from; n <= to; n++) pages.add(n);
  }
  if (pages.size === 0) throw bad('没有写任何页码', 'no page is named');
  return [...pages].sort((a, b) => a - b);
}

/** `[1,2,3,5]` → `"1-3, 5"`: how the pages read are shown to the user and the model. */
export function formatPages(pages: number[]): string {
  const out: string[] = [];
  for (let i = 0; i < pages.length; i++) {
    let j = i;
    while (j + 1 < pages.length && pages[j + 1] === pages[j] + 1) j++;
    out.push(j === i ? String(pages[i]) : `${pages[i]}-${pages[j]}`);
    i = j;
  }
  return out.join(', ');
}
