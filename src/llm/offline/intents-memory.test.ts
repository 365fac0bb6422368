import { describe, expect, it } from 'vitest';
import { plan } from './intents.js';
import { foundIn, searchAnswer, toSecondPerson } from './memory-wording.js';
import { memoryPrefs } from './testing.js';

const callsFor = (text: string) => {
  const p = plan(text, { prefs: memoryPrefs() });
  return p.kind === 'calls' ? p.calls.map((c) => ({ name: c.name, args: c.args })) : [];
};

describe('memory rules', () => {
  it('save a statement about the user, a like or dislike as a preference', () => {
    expect(callsFor('记住：我喜欢喝美式咖啡')).toEqual([
      { name: 'memory_save', args: { content: '我喜欢喝美式咖啡', kind: 'preference' } },
    ]);
    expect(callsFor('帮我记一下我对花生过敏。')).toEqual([
      { name: 'memory_save', args: { content: '我对花生过敏', kind: 'fact' } },
    ]);
    expect(callsFor('请记住我不吃香菜')).toEqual([
      { name: 'memory_save', args: { content: '我不吃香菜', kind: 'preference' } },
    ]);
    expect(callsFor('remember that my birthday is May 3')).toEqual([
      { name: 'memory_save', args: { content: 'my birthday is May 3', kind: 'fact' } },
    ]);
    expect(callsFor('Please remember I prefer tea')).toEqual([
      { name: 'memory_save', args: { content: 'I prefer tea', kind: 'preference' } },
    ]);
  });

  it('leave tasks to the todo list', () => {
    for (const text of [
      '记得买牛奶',
      '帮我记一下 买菜',
      '记一下明天交报告',
      '记住明天 9 点开会',
      '提醒我下午三点开会',
      'remind me to buy milk',
      'remember to call mom',
      '记一下我明天要交报告',
    ]) {
      expect(
        callsFor(text).map((c) => c.name),
        text,
      ).toEqual(['todo_add']);
    }
  });

  it('search the memory for questions about the user', () => {
    for (const text of [
      '我喜欢喝什么',
      '我对什么过敏',
      '我喜欢吃什么？',
      '你还记得我的生日吗',
      'what do I like to drink?',
      'what am I allergic to',
      'do you remember where I live?',
    ]) {
      expect(
        callsFor(text).map((c) => c.name),
        text,
      ).toEqual(['memory_search']);
    }
    expect(callsFor('我喜欢喝什么')[0]!.args).toEqual({ query: '我喜欢喝什么' });
    expect(callsFor('我叫什么')[0]!.args).toEqual({ query: '我叫 名字 name' });
  });
});

describe('answers from memory_search', () => {
  it('reads numbered lines or JSON, and says the memories back in the second person', () => {
    expect(foundIn('1. [preference #饮品] 我喜欢喝美式咖啡\n2. [fact] 我对花生过敏')).toEqual([
      { content: '我喜欢喝美式咖啡', labels: 'preference #饮品' },
      { content: '我对花生过敏', labels: 'fact' },
    ]);
    expect(foundIn(JSON.stringify({ hits: [{ content: 'My name is Alex', kind: 'fact', tags: ['name'] }] }))).toEqual([
      { content: 'My name is Alex', labels: 'fact name' },
    ]);
    expect(toSecondPerson("I'm allergic to my cat", 'en')).toBe("you're allergic to your cat");
    expect(searchAnswer('zh', '1. [fact] 我对花生过敏\n2. [fact] 我对猫毛过敏', '我对什么过敏')).toBe(
      '我记得这些：\n- 你对花生过敏。\n- 你对猫毛过敏。',
    );
    expect(searchAnswer('en', 'No memory matches.', 'what do I like?')).toBe(
      'I have nothing saved about that. To have me keep something, say "remember that …".',
    );
    expect(searchAnswer('en', '1. [fact #name] My name is Alex', "what's my name")).toBe('Your name is Alex.');
  });
});
