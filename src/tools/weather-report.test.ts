import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ForecastResponse, formatWeather, weatherCard, weatherReport, type GeoPlace } from './weather-report.js';

// Constructed in Open-Meteo's real shape (no recording with daily arrays exists): 7 days from Wednesday 29 July 2026.
const FIXTURES = path.resolve(fileURLToPath(new URL('../..', import.meta.url)), 'test', 'fixtures', 'weather');
const SEVEN_DAYS = ForecastResponse.parse(
  JSON.parse(readFileSync(path.join(FIXTURES, 'open-meteo-forecast-daily-7d.json'), 'utf8')),
);
const BEIJING: GeoPlace = { name: '北京市', latitude: 39.9075, longitude: 116.39723, country: '中国', admin1: '北京' };

describe('weather report', () => {
  it('says the current conditions first, then today and the advice, then a dated line for each coming day', () => {
    expect(formatWeather(BEIJING, SEVEN_DAYS, 'zh')).toBe(
      [
        '北京市（北京，中国）',
        '当前（当地 09:00）：多云，气温 28.4°C，体感 31.9°C，湿度 74%，风速 7.9 km/h',
        '今天（2026-07-29 星期三）：多云，24.6～33.1°C，降水概率 20%，紫外线指数 8.2',
        '建议：注意防晒；穿轻薄透气的衣服。',
        '未来几天：',
        '2026-07-30 星期四：中雨，23.9～30.2°C，降水概率 85%',
        '2026-07-31 星期五：雷阵雨，22.1～27.5°C，降水概率 95%',
        '2026-08-01 星期六：小阵雨，21.8～29.8°C，降水概率 40%',
        '2026-08-02 星期日：晴间少云，23～32.6°C，降水概率 10%',
        '2026-08-03 星期一：晴，24.7～34°C，降水概率 5%',
        '2026-08-04 星期二：阴，25.2～33.3°C',
      ].join('\n'),
    );
    const en = formatWeather(BEIJING, SEVEN_DAYS, 'en');
    expect(en).toContain('Today (2026-07-29 Wednesday): partly cloudy, 24.6–33.1°C, chance of rain 20%, UV index 8.2');
    expect(en).toContain('Coming days:\n2026-07-30 Thursday: moderate rain, 23.9–30.2°C, chance of rain 85%');
    expect(en.split('\n').at(-1)).toBe('2026-08-04 Tuesday: overcast, 25.2–33.3°C');
  });

  it('gives the same report as data: the place, now, today and each coming day with its words and figures', () => {
    const { output, data } = weatherReport(BEIJING, SEVEN_DAYS, 'zh');
    expect(output).toBe(formatWeather(BEIJING, SEVEN_DAYS, 'zh'));
    expect(data.place).toBe('北京市（北京，中国）');
    expect(data.now).toEqual({
      text: '多云，气温 28.4°C，体感 31.9°C，湿度 74%，风速 7.9 km/h',
      line: '当前（当地 09:00）：多云，气温 28.4°C，体感 31.9°C，湿度 74%，风速 7.9 km/h',
      temp: 28.4,
      wet: false,
    });
    expect(data.today).toMatchObject({ date: '2026-07-29', min: 24.6, max: 33.1, rainChance: 20, wet: false });
    expect(data.advice).toBe('建议：注意防晒；穿轻薄透气的衣服。');
    expect(data.days.map((d) => d.date)).toEqual([
      '2026-07-30',
      '2026-07-31',
      '2026-08-01',
      '2026-08-02',
      '2026-08-03',
      '2026-08-04',
    ]);
    expect(data.days[0]).toEqual({
      date: '2026-07-30',
      text: '中雨，23.9～30.2°C，降水概率 85%',
      min: 23.9,
      max: 30.2,
      rainChance: 85,
      wet: true,
    });
    expect(data.days.at(-1)).toMatchObject({ min: 25.2, max: 33.3, rainChance: undefined, wet: false });
  });

  it('does not call a first day today when the current time says another day', () => {
    const late = { ...SEVEN_DAYS, current: { ...SEVEN_DAYS.current, time: '2026-07-30T00:15' } };
    const text = formatWeather(BEIJING, late, 'en');
    expect(text).not.toContain('Today');
    expect(text).toContain('Coming days:\n2026-07-29 Wednesday: partly cloudy');
  });

  it('puts the coming days on its card as numbers', () => {
    const daily = weatherCard(BEIJING, SEVEN_DAYS, 'en').metadata.daily as Array<Record<string, unknown>>;
    expect(daily).toHaveLength(7);
    expect(daily[1]).toEqual({
      date: '2026-07-30',
      conditions: 'moderate rain',
      weatherCode: 63,
      minC: 23.9,
      maxC: 30.2,
      rainChancePct: 85,
    });
    expect(daily[6]).toMatchObject({ date: '2026-08-04', rainChancePct: undefined });
    expect(weatherCard(BEIJING, { current: SEVEN_DAYS.current }, 'en').metadata.daily).toBeUndefined();
  });
});
