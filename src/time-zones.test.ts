import { describe, expect, it } from 'vitest';
import { placesIn, zoneOfPlace } from './time-zones.js';

describe('place names for time zones', () => {
  it('maps Chinese and English names, in any case and spacing, with 市 or 时间 after them', () => {
    expect(zoneOfPlace('东京')).toBe('Asia/Tokyo');
    expect(zoneOfPlace('上海市')).toBe('Asia/Shanghai');
    expect(zoneOfPlace('纽约时间')).toBe('America/New_York');
    expect(zoneOfPlace('New  York')).toBe('America/New_York');
    expect(zoneOfPlace('los_angeles')).toBe('America/Los_Angeles');
    expect(zoneOfPlace('SAO PAULO')).toBe('America/Sao_Paulo');
    expect(zoneOfPlace('Mumbai')).toBe('Asia/Kolkata');
    expect(zoneOfPlace('奥克兰')).toBe('Pacific/Auckland');
    expect(zoneOfPlace('Atlantis')).toBeUndefined();
  });

  it('knows the cities people ask about most', () => {
    const names = [
      '洛杉矶',
      '旧金山',
      '西雅图',
      '芝加哥',
      '温哥华',
      '多伦多',
      '墨西哥城',
      '圣保罗',
      '莫斯科',
      '迪拜',
      '伊斯坦布尔',
      '开罗',
      '曼谷',
      '雅加达',
      '吉隆坡',
      '马尼拉',
      '河内',
      '新德里',
      '孟买',
      '首尔',
      '大阪',
      '新加坡',
      '柏林',
      '罗马',
      '马德里',
      '阿姆斯特丹',
      '苏黎世',
      '维也纳',
      '墨尔本',
      '奥克兰',
      '檀香山',
      'Los Angeles',
      'San Francisco',
      'Seattle',
      'Chicago',
      'Vancouver',
      'Toronto',
      'Mexico City',
      'Moscow',
      'Dubai',
      'Istanbul',
      'Cairo',
      'Bangkok',
      'Jakarta',
      'Kuala Lumpur',
      'Manila',
      'Hanoi',
      'New Delhi',
      'Seoul',
      'Osaka',
      'Rome',
      'Madrid',
      'Amsterdam',
      'Zurich',
      'Vienna',
      'Melbourne',
      'Auckland',
      'Honolulu',
    ];
    for (const name of names) expect(zoneOfPlace(name), name).toBeDefined();
  });

  it('finds the places in a message, longest name first, English ones only as whole words', () => {
    expect(placesIn('东京和北京差几个小时').map((p) => [p.text, p.zone])).toEqual([
      ['东京', 'Asia/Tokyo'],
      ['北京', 'Asia/Shanghai'],
    ]);
    expect(placesIn('印度尼西亚现在几点').map((p) => p.zone)).toEqual(['Asia/Jakarta']);
    expect(placesIn('time difference between new york and LONDON').map((p) => p.text)).toEqual(['new york', 'LONDON']);
    expect(placesIn('turkeys and romeo')).toEqual([]);
  });
});
