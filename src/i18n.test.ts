import { describe, expect, it } from 'vitest';
import { followingText } from './cli/messages.js';
import { languageOf } from './i18n.js';

describe('the language a user writes in', () => {
  it.each([
    ['帮我查一下天气', 'en', 'zh'],
    ['weather in Paris', 'zh', 'en'],
    ['北京 weather', 'en', 'zh'],
    ['(3+5)*2', 'zh', 'zh'],
    ['(3+5)*2', 'en', 'en'],
    ['', 'zh', 'zh'],
  ] as const)('%j after %s is %s', (text, before, lang) => expect(languageOf(text, before)).toBe(lang));

  it('the CLI follows it, slash command names aside, unless ZHIXING_LANG fixes one', () => {
    const f = followingText('en');
    const t = f.text;
    f.follow('你好');
    expect(t.noMessages).toBe('还没有消息。');
    f.follow('/sessions');
    expect(f.lang()).toBe('zh');
    f.follow('/new weekly report');
    expect(t.noMessages).toBe('No messages yet.');
    const fixed = followingText('zh', 'zh');
    fixed.follow('hello');
    expect(fixed.text.noMessages).toBe('还没有消息。');
  });
});
