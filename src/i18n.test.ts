import { describe, expect, it } from 'vitest';
import { followingText } from './cli/messages.js';
import { languageOf, errorText } from './i18n.js';
import { UserError } from './contract/user-error.js';
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

describe('errorText: the one place an error is put in the reader’s language', () => {
  it("gives a UserError's own sentence in each language, and any other error's message as it is", () => {
    const err = new UserError('busy', 'The session is busy.', '这个会话正忙。');
    expect(errorText(err, 'zh')).toBe('这个会话正忙。');
    expect(errorText(err, 'en')).toBe('The session is busy.');
    expect(err.code).toBe('busy');
    expect(errorText(new Error('ENOSPC'), 'zh')).toBe('ENOSPC');
    expect(errorText('plain', 'en')).toBe('plain');
  });

  it('every module error a person reads is a UserError, with a code and both languages', async () => {
    const { SessionError } = await import('./sessions/sessions.js');
    const { StoreError } = await import('./store/store-error.js');
    const { ConfigError } = await import('./config/config-error.js');
    const { LlmError } = await import('./llm/llm-error.js');
    for (const err of [
      new SessionError('not_found', 'No such session.', '没有这个会话。'),
      new StoreError('disk_full', 'The disk is full.', '磁盘满了。'),
      new ConfigError('Bad setting.', '设置有误。'),
      new LlmError('auth', 'The key was refused.', 401, '密钥被拒绝了。'),
    ]) {
      expect(err).toBeInstanceOf(UserError);
      expect(errorText(err, 'zh')).toMatch(/[\u4e00-\u9fff]/);
      expect(errorText(err, 'en')).toMatch(/^[A-Z]/);
    }
  });
});
