import { describe, expect, it } from 'vitest';
import { ToolError } from '../contract/tool-error.js';
import { checkSelector, siteOf, type FrameLike } from './actions.js';

/** A frame and its ancestors, innermost first. */
function frames(...urls: string[]): FrameLike {
  let parent: FrameLike | null = null;
  for (const url of [...urls].reverse()) {
    const up: FrameLike | null = parent;
    parent = { url: () => url, parentFrame: () => up };
  }
  return parent!;
}

describe('checkSelector', () => {
  it('lets plain CSS through, combinators and quoted text included', () => {
    for (const css of ['#b', 'form > input[name="q"]', 'a:not([target])', 'li + li ~ li', 'button:has-text("Go")']) {
      expect(() => checkSelector(css, 'en'), css).not.toThrow();
    }
  });

  it('refuses any `>>`, where Playwright hands the rest to its other engines, in both languages', () => {
    for (const chained of [
      'button >> _react=Cart[pin="PIN-4455"]',
      'div>>_vue=x',
      '#a >> text=4455',
      // Inside quotes Playwright keeps it CSS, but no quoting rule is worth trusting for this.
      'a[title=">>"]',
    ]) {
      expect(() => checkSelector(chained, 'en'), chained).toThrow(ToolError);
    }
    expect(() => checkSelector('a >> b', 'zh')).toThrow(/只接受纯 CSS 选择器/);
  });
});

/** A parent that reaches into every frame's document: each inherits its parent's origin. */
const sameOrigin = async () => true;

describe('siteOf', () => {
  it("counts an about:blank frame its parent cannot reach into as no named site: another site's document made it", async () => {
    // Another site's frame that turned itself into about:blank keeps that site's origin.
    expect(await siteOf(frames('about:blank', 'http://a.test/'), async () => false)).toBe('about:blank');
    expect(await siteOf(frames('about:srcdoc', 'http://a.test/'), async () => false)).toBe('about:blank');
    // Reached one level up but not the next: the nearer page made it, and is itself no named site.
    let calls = 0;
    expect(await siteOf(frames('about:blank', 'about:blank', 'http://a.test/'), async () => ++calls === 1)).toBe(
      'about:blank',
    );
  });

  it("is a frame's own URL, or for about:blank and about:srcdoc its nearest ancestor's with one", async () => {
    expect(await siteOf(frames('http://b.test/frame', 'http://a.test/'), sameOrigin)).toBe('http://b.test/frame');
    expect(await siteOf(frames('about:srcdoc', 'http://b.test/frame', 'http://a.test/'), sameOrigin)).toBe(
      'http://b.test/frame',
    );
    expect(await siteOf(frames('about:blank', 'about:srcdoc', 'http://a.test/'), sameOrigin)).toBe('http://a.test/');
    expect(await siteOf(frames('about:blank#x', 'http://a.test/'), sameOrigin)).toBe('http://a.test/');
    expect(await siteOf(frames('about:blank'), sameOrigin)).toBe('about:blank');
    // Not an inheriting document: a page that merely starts with the same letters.
    expect(await siteOf(frames('about:blankety', 'http://a.test/'), sameOrigin)).toBe('about:blankety');
  });

  it('keeps data: and blob: frames as they are, never their parent: their content is no site the user named', async () => {
    expect(await siteOf(frames('data:text/html,<input>', 'http://a.test/'), sameOrigin)).toBe('data:text/html,<input>');
    expect(await siteOf(frames('blob:http://a.test/5f0c', 'http://a.test/'), sameOrigin)).toBe(
      'blob:http://a.test/5f0c',
    );
    expect(await siteOf(frames('', 'http://a.test/'), sameOrigin)).toBe('about:blank');
  });
});
