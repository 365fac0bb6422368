import { describe, expect, it } from 'vitest';
import { findExpression } from './expression.js';
import { dueOf, parseNumber, todoId, utterance } from './extract.js';
import { placeEn, placeZh } from './places.js';

describe('argument extraction', () => {
  it('keeps raw and normalized text the same length, so indices carry over', () => {
    const u = utterance('  帮我创建文件 ｎｏｔｅｓ.txt，内容是：你好，世界  ');
    expect(u.norm).toBe('帮我创建文件 notes.txt,内容是:你好,世界');
    expect(u.raw.length).toBe(u.norm.length);
    expect(u.raw.slice(u.norm.indexOf(':') + 1)).toBe('你好，世界');
  });

  it('reads Chinese numerals', () => {
    expect([
      parseNumber('一'),
      parseNumber('两'),
      parseNumber('十'),
      parseNumber('十一'),
      parseNumber('二十三'),
      parseNumber('一百零五'),
    ]).toEqual([1, 2, 10, 11, 23, 105]);
    expect(parseNumber('第')).toBeUndefined();
  });

  it('finds the todo number, but not a quantity', () => {
    expect(todoId('删掉第二个待办')).toBe(2);
    expect(todoId('把第1条标记为完成')).toBe(1);
    expect(todoId('#7 done')).toBe(7);
    expect(todoId('delete the third todo')).toBe(3);
    expect(todoId('done 4')).toBe(4);
    expect(todoId('我完成了 3 个报告')).toBeUndefined();
  });

  it('takes the due date as said, leaving the content whole', () => {
    expect(dueOf('周五前交周报')).toBe('周五');
    expect(dueOf('明天 9 点交软件工程作业')).toBe('明天 9 点');
    expect(dueOf('下周三下午3点半开会')).toBe('下周三下午3点半');
    expect(dueOf('call mom tomorrow at 5pm')).toBe('tomorrow at 5pm');
    expect(dueOf('买牛奶')).toBeUndefined();
  });

  it('extracts arithmetic without swallowing words', () => {
    expect(findExpression('计算 12*(3+4) 的结果')?.expression).toBe('12*(3+4)');
    expect(findExpression('(3+5)*12 等于多少')?.expression).toBe('(3+5)*12');
    expect(findExpression('算下 2 的 8 次方')?.expression).toBe('2 的 8 次方');
    expect(findExpression('what is 6 divided by 3')?.expression).toBe('6 / 3');
    expect(findExpression('（比如 1+1）')?.expression).toBe('1+1');
    expect(findExpression('明天 9 点交作业')).toBeUndefined();
    expect(findExpression('3.14')).toBeUndefined();
  });

  it('finds places, never a time word or a pronoun', () => {
    expect(placeZh('帮我查一下北京的')).toBe('北京');
    expect(placeZh('上海明天会')).toBe('上海');
    expect(placeZh('深圳市明天的')).toBe('深圳');
    for (const notPlace of ['今天', '明天', '现在', '这里', '我这里', '了'])
      expect(placeZh(notPlace), notPlace).toBeUndefined();
    expect(placeEn('New York today?')).toBe('New York');
    expect(placeEn("what's the")).toBeUndefined();
    expect(placeEn('my area')).toBeUndefined();
  });
});
