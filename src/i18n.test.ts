import { describe, expect, it } from 'vitest';
import { followingText } from './cli/messages.js';
import { languageOf } from './i18n.js';
import { toStoreError } from './store/store-error.js';

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

describe('storage failures', () => {
  it.each(['SQLITE_FULL', 'SQLITE_READONLY', 'SQLITE_BUSY', 'SQLITE_CORRUPT', 'EIO'])(
    '%s is said in Chinese too',
    (code) => {
      const err = toStoreError(Object.assign(new Error(code), { code }), '/home/u/.zhixing/zhixing.db');
      expect(err.zh).toMatch(/[\u4e00-\u9fff]/);
      expect(err.zh).toContain('/home/u/.zhixing/zhixing.db');
    },
  );
});
