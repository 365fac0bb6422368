import { describe, expect, it } from 'vitest';
import { findExpression } from './expression.js';
import { chineseNumeral } from './numerals.js';
import { rewritePercent } from './percent.js';

describe('chineseNumeral', () => {
  it.each([
    ['零', '0'],
    ['一', '1'],
    ['两', '2'],
    ['十', '10'],
    ['十五', '15'],
    ['二十', '20'],
    ['一百', '100'],
    ['一百零五', '105'],
    ['一百一十', '110'],
    ['两百五', '250'],
    ['一千零五', '1005'],
    ['一千二', '1200'],
    ['三万五千', '35000'],
    ['一万二', '12000'],
    ['一万零二', '10002'],
    ['十万', '100000'],
    ['一亿两千万', '120000000'],
    ['二零二六', '2026'],
    ['三点五', '3.5'],
    ['零点零五', '0.05'],
    ['十二点二五', '12.25'],
  ])('%s → %s', (text, digits) => {
    expect(chineseNumeral(text)).toBe(digits);
  });

  it('refuses what is not one numeral', () => {
    for (const text of ['万', '第一', '十百', '一二十', '三点', '点五', '一点二点三', '']) {
      expect(chineseNumeral(text), text).toBeUndefined();
    }
  });
});

describe('rewritePercent', () => {
  it.each([
    ['15% 的 200', '15/100*200'],
    ['15%的200', '15/100*200'],
    ['200 的 15%', '200*15/100'],
    ['百分之二十的 50', '20/100*50'],
    ['二百的百分之十五', '200*15/100'],
    ['三分之一的九十', '1/3*90'],
    ['千分之五的 2000', '5/1000*2000'],
    ['15 percent of 200', '15/100*200'],
    ['12.5% of 80', '12.5/100*80'],
    ['200 × 15%', '200 × (15/100)'],
    ['三分之一加一', '(1/3)加一'],
  ])('%s → %s', (text, rewritten) => {
    expect(rewritePercent(text)).toBe(rewritten);
  });

  it('leaves modulo and plain text alone', () => {
    for (const text of ['7%3', '7 % 3', '(7)%(3)', '10 % 4 等于几', '电量还剩 15%', '2的10次方']) {
      expect(rewritePercent(text), text).toBe(text);
    }
  });
});

describe('findExpression with Chinese numerals', () => {
  it.each([
    ['一百加二十', '100+20'],
    ['一百 加 二十 等于多少', '100+20'],
    ['三点五乘以二', '3.5*2'],
    ['一千零五减五', '1005-5'],
    ['两百五乘以四', '250*4'],
    ['一万二除以三', '12000/3'],
    ['(一加二)乘三', '(1+2)*3'],
    ['3 加 二十', '3+20'],
    ['二的十次方', '2的10次方'],
    ['三的平方是多少', '3的平方'],
    ['根号二', '根号2'],
    ['帮忙算下 15% 的 200 是多少', '15/100*200'],
  ])('%s → %s', (text, expression) => {
    expect(findExpression(text)?.expression).toBe(expression);
  });

  it('reads numerals only inside arithmetic', () => {
    for (const text of [
      '第一条完成了',
      '一个苹果',
      '星期一加班',
      '五一加班吗',
      '一加油',
      '九九乘法表',
      '一百平方米多少钱',
      '三点开会',
      '3二十加五',
    ]) {
      expect(findExpression(text), text).toBeUndefined();
    }
    // Digits keep the user's own spelling, as before.
    expect(findExpression('算算 3 加 5')?.expression).toBe('3 加 5');
    expect(findExpression('7%3')?.expression).toBe('7%3');
  });
});
