import { describe, expect, it } from 'vitest';
import { clockIn, conversionLine } from './time-convert.js';

const at = (text: string) => {
  const c = clockIn(text);
  return c && `${String(Math.floor(c.minutes / 60)).padStart(2, '0')}:${String(c.minutes % 60).padStart(2, '0')}`;
};

describe('clock times people say', () => {
  it.each([
    ['晚上8点', '20:00'],
    ['早上九点半', '09:30'],
    ['下午3点一刻', '15:15'],
    ['中午12点', '12:00'],
    ['中午1点', '13:00'],
    ['凌晨12点', '00:00'],
    ['10:45', '10:45'],
    ['十点二十分', '10:20'],
    ['9am', '09:00'],
    ['9:30 PM', '21:30'],
    ['12 a.m.', '00:00'],
    ['12pm', '12:00'],
    ['noon', '12:00'],
    ['midnight', '00:00'],
  ])('%s', (text, time) => {
    expect(at(text)).toBe(time);
  });

  it('reads no clock where there is none', () => {
    expect(clockIn('what time is it')).toBeUndefined();
    expect(clockIn('13pm')).toBeUndefined();
    expect(clockIn('30点')).toBeUndefined();
  });

  it('says the converted time and which day it falls on', () => {
    const beijing = { name: '北京', offsetMinutes: 480 };
    const newYork = { name: '纽约', offsetMinutes: -240 };
    expect(conversionLine('zh', 20 * 60, beijing, newYork)).toBe('北京 20:00 是纽约 08:00（同一天）。');
    expect(conversionLine('zh', 6 * 60, beijing, newYork)).toBe('北京 06:00 是纽约 18:00（前一天）。');
    expect(
      conversionLine('en', 22 * 60, { name: 'New York', offsetMinutes: -240 }, { name: 'Beijing', offsetMinutes: 480 }),
    ).toBe('22:00 in New York is 10:00 in Beijing, the next day.');
    expect(
      conversionLine(
        'en',
        9 * 60,
        { name: 'Mumbai', offsetMinutes: 330 },
        { name: 'x', offsetMinutes: 480, local: true },
      ),
    ).toBe('09:00 in Mumbai is 11:30 your time, the same day.');
  });
});
