/**
 * A page as the model reads it: title, URL and the accessibility tree in Playwright's "ai" mode,
 * where every element the model may act on carries a ref (`- button "Send" [ref=e12]`) that
 * `page.getByRef` resolves against the latest snapshot. Made compact: unnamed `generic` wrappers
 * (the page's div soup) are folded into their children, and cursor hints dropped.
 */
import type { Page } from 'playwright-core';
import { say, type Lang } from '../i18n.js';

/** The tree sent to the model is cut here, on a line boundary: a long page costs tokens, not a turn. */
export const MAX_SNAPSHOT_CHARS = 15_000;
const SNAPSHOT_TIMEOUT_MS = 10_000;

/** A line that is only an unnamed wrapper: `- generic [ref=e3]:` (possibly `[active]`). */
const WRAPPER = /^- generic(?: \[(?:active|ref=[\w-]+)\])*:$/;

/** Folds unnamed wrappers into their children and drops cursor hints. */
export function compactSnapshot(yaml: string): string {
  const out: string[] = [];
  const folded: number[] = [];
  for (const line of yaml.split('\n')) {
    if (!line.trim()) continue;
    const indent = line.length - line.trimStart().length;
    while (folded.length && indent <= folded.at(-1)!) folded.pop();
    const text = line.trim();
    if (WRAPPER.test(text)) {
      folded.push(indent);
      continue;
    }
    out.push(' '.repeat(Math.max(0, indent - folded.length * 2)) + text.replace(/ \[cursor=pointer\]/g, ''));
  }
  return out.join('\n');
}

/** Cuts `text` at a line boundary under `max` characters, saying so. */
export function cutSnapshot(text: string, max: number, lang: Lang): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf('\n', max);
  const kept = text.slice(0, cut > 0 ? cut : max);
  return `${kept}\n${say(lang, `…（页面很长，只显示了前 ${kept.length} / ${text.length} 个字符）`, `… (a long page: showing the first ${kept.length} of ${text.length} characters)`)}`;
}

export interface PageView {
  title: string;
  url: string;
  /** The compact tree, cut to size. */
  tree: string;
}

/** What the page shows now. Taking it makes its refs the ones the next click or type resolves. */
export async function viewPage(page: Page, lang: Lang): Promise<PageView> {
  const url = page.url();
  const title = await page.title().catch(() => '');
  if (url === 'about:blank')
    return {
      title,
      url,
      tree: say(
        lang,
        '（空白标签页：用 browser_navigate 打开一个网址）',
        '(an empty tab: open a URL with browser_navigate)',
      ),
    };
  const raw = await page.ariaSnapshot({ mode: 'ai', timeout: SNAPSHOT_TIMEOUT_MS });
  return { title, url, tree: cutSnapshot(compactSnapshot(raw), MAX_SNAPSHOT_CHARS, lang) };
}

/** The view as text for the untrusted fence: everything in it came from the page. */
export function viewText(view: PageView, lang: Lang): string {
  return `${say(lang, '标题', 'Title')}: ${view.title || say(lang, '（无）', '(none)')}\nURL: ${view.url}\n\n${view.tree}`;
}
