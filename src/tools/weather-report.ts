/**
 * The weather tool's answer, for the model (and, offline, the user) to read: the place, the current
 * conditions first, today's forecast and a line of advice, then a compact line for each coming day
 * (date, weekday, conditions, low/high, chance of rain). The card carries the same figures as numbers.
 */
import { z } from 'zod';
import { say, type Lang } from '../i18n.js';
import type { WeatherData, WeatherFiguresData } from '../contract/tool-data.js';

/** Chance of rain (%) from which we suggest an umbrella. */
const UMBRELLA_RAIN_CHANCE_PCT = 50;
const SUNSCREEN_UV_INDEX = 6;
const COAT_MAX_TEMP_C = 10;
const HOT_TEMP_C = 30;

const WEEKDAYS_ZH = ['星期日', '星期一', '星期二', '星期三', '星期四', '星期五', '星期六'];
const WEEKDAYS_EN = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** WMO weather interpretation codes as Open-Meteo documents them: [zh, en]. */
const WMO_WORDS: Record<number, readonly [string, string]> = {
  0: ['晴', 'clear'],
  1: ['晴间少云', 'mainly clear'],
  2: ['多云', 'partly cloudy'],
  3: ['阴', 'overcast'],
  45: ['雾', 'fog'],
  48: ['雾凇', 'freezing fog'],
  51: ['小毛毛雨', 'light drizzle'],
  53: ['毛毛雨', 'drizzle'],
  55: ['浓毛毛雨', 'dense drizzle'],
  56: ['冻毛毛雨', 'light freezing drizzle'],
  57: ['强冻毛毛雨', 'dense freezing drizzle'],
  61: ['小雨', 'light rain'],
  63: ['中雨', 'moderate rain'],
  65: ['大雨', 'heavy rain'],
  66: ['小冻雨', 'light freezing rain'],
  67: ['冻雨', 'heavy freezing rain'],
  71: ['小雪', 'light snow'],
  73: ['中雪', 'moderate snow'],
  75: ['大雪', 'heavy snow'],
  77: ['米雪', 'snow grains'],
  80: ['小阵雨', 'light showers'],
  81: ['阵雨', 'showers'],
  82: ['强阵雨', 'violent showers'],
  85: ['小阵雪', 'light snow showers'],
  86: ['阵雪', 'heavy snow showers'],
  95: ['雷阵雨', 'thunderstorm'],
  96: ['雷阵雨伴小冰雹', 'thunderstorm with light hail'],
  99: ['雷阵雨伴冰雹', 'thunderstorm with heavy hail'],
};

// Only the fields we use; the services send many more and omit empty ones.
export const GeoPlace = z.object({
  name: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  country: z.string().optional(),
  admin1: z.string().optional(),
  timezone: z.string().optional(),
});
export type GeoPlace = z.infer<typeof GeoPlace>;
export const GeoResponse = z.object({ results: z.array(z.unknown()).optional() });

const Section = z.record(z.string(), z.unknown()).nullish();
export const ForecastResponse = z.object({
  current: Section,
  current_units: Section,
  daily: Section,
  daily_units: Section,
});
export type ForecastResponse = z.infer<typeof ForecastResponse>;
type SectionData = z.infer<typeof Section>;

/** A finite number, or undefined for missing/null/garbage values. */
function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Day `i`'s value from a daily array. */
function dayValue(daily: SectionData, key: string, i: number): number | undefined {
  const values = daily?.[key];
  return Array.isArray(values) ? num(values[i]) : undefined;
}

function unit(units: SectionData, key: string, fallback: string): string {
  const u = units?.[key];
  // Open-Meteo reports "undefined" as the unit of a variable it has no data for.
  return typeof u === 'string' && u !== '' && u !== 'undefined' ? u : fallback;
}

/** One decimal at most, without float noise (17.700000001 → 17.7). */
const fmt = (n: number): string => String(Math.round(n * 10) / 10);

const codeWords = (code: number | undefined, lang: Lang): string | undefined => {
  const words = code === undefined ? undefined : WMO_WORDS[code];
  return words ? say(lang, words[0], words[1]) : undefined;
};

/** Drizzle, rain, snow, showers and thunderstorms are all 51..99. */
const isWet = (code: number | undefined): boolean => code !== undefined && code >= 51 && code <= 99;
const isClear = (code: number | undefined): boolean => code === 0 || code === 1;

/** One day of the daily section. */
interface DailyDay {
  /** YYYY-MM-DD, the place's local date; absent when the service sent no dates. */
  date?: string;
  code?: number;
  min?: number;
  max?: number;
  rainChance?: number;
  uv?: number;
}

function dailyDays(daily: SectionData): DailyDay[] {
  const times = Array.isArray(daily?.time) ? daily.time : undefined;
  const keys = [
    'weather_code',
    'temperature_2m_min',
    'temperature_2m_max',
    'precipitation_probability_max',
    'uv_index_max',
  ];
  const count =
    times?.length ?? Math.max(0, ...keys.map((k) => (Array.isArray(daily?.[k]) ? (daily[k] as unknown[]).length : 0)));
  return Array.from({ length: count }, (_, i) => ({
    date:
      typeof times?.[i] === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(times[i] as string)
        ? (times[i] as string)
        : undefined,
    code: dayValue(daily, 'weather_code', i),
    min: dayValue(daily, 'temperature_2m_min', i),
    max: dayValue(daily, 'temperature_2m_max', i),
    rainChance: dayValue(daily, 'precipitation_probability_max', i),
    uv: dayValue(daily, 'uv_index_max', i),
  }));
}

const weekdayOf = (isoDate: string): number => new Date(`${isoDate}T00:00:00Z`).getUTCDay();
const dayName = (isoDate: string, lang: Lang): string =>
  `${isoDate} ${(lang === 'zh' ? WEEKDAYS_ZH : WEEKDAYS_EN)[weekdayOf(isoDate)]}`;

/** A figure as the text shows it (one decimal at most). */
const shownNumber = (n: number | undefined): number | undefined => (n === undefined ? undefined : Number(fmt(n)));

/** A day's figures as data: what its words say, as numbers. Wet only when its words name rain, snow or a storm. */
function dayData(d: DailyDay, text: string, lang: Lang): WeatherFiguresData {
  return {
    text,
    min: shownNumber(d.min),
    max: shownNumber(d.max),
    rainChance: shownNumber(d.rainChance),
    wet: codeWords(d.code, lang) !== undefined && isWet(d.code),
  };
}

/** 「中雨，4.2～9.4°C，降水概率 85%」, with the UV index only when asked for (today's line). */
function dayFigures(d: DailyDay, lang: Lang, tUnit: string, withUv: boolean): string[] {
  const out: string[] = [];
  const words = codeWords(d.code, lang);
  if (words) out.push(words);
  if (d.min !== undefined && d.max !== undefined) out.push(`${fmt(d.min)}${say(lang, '～', '–')}${fmt(d.max)}${tUnit}`);
  else if (d.max !== undefined) out.push(say(lang, `最高 ${fmt(d.max)}`, `high ${fmt(d.max)}`) + tUnit);
  else if (d.min !== undefined) out.push(say(lang, `最低 ${fmt(d.min)}`, `low ${fmt(d.min)}`) + tUnit);
  if (d.rainChance !== undefined)
    out.push(say(lang, `降水概率 ${fmt(d.rainChance)}%`, `chance of rain ${fmt(d.rainChance)}%`));
  if (withUv && d.uv !== undefined) out.push(say(lang, `紫外线指数 ${fmt(d.uv)}`, `UV index ${fmt(d.uv)}`));
  return out;
}

/**
 * The card: the place and the figures the text gives, as numbers. The request keeps Open-Meteo's
 * default units (°C, km/h, mm), which the field names say; a figure the service left out is absent.
 */
export function weatherCard(
  place: GeoPlace,
  data: ForecastResponse,
  lang: Lang,
): { title: string; metadata: Record<string, unknown> } {
  const { current } = data;
  const days = dailyDays(data.daily);
  const today = days[0];
  const code = num(current?.weather_code);
  const temperatureC = num(current?.temperature_2m);
  const conditions = codeWords(code, lang);
  const now = [conditions, temperatureC === undefined ? undefined : `${fmt(temperatureC)}°C`].filter(
    (s): s is string => !!s,
  );
  const dated = days.filter((d) => d.date);
  return {
    title: now.length ? `${place.name}${say(lang, '：', ': ')}${now.join(say(lang, '，', ', '))}` : place.name,
    metadata: {
      city: place.name,
      region: place.admin1,
      country: place.country,
      latitude: place.latitude,
      longitude: place.longitude,
      localTime: typeof current?.time === 'string' ? current.time : undefined,
      conditions,
      weatherCode: code,
      temperatureC,
      feelsLikeC: num(current?.apparent_temperature),
      humidityPct: num(current?.relative_humidity_2m),
      windKmh: num(current?.wind_speed_10m),
      precipitationMm: num(current?.precipitation),
      todayMinC: today?.min,
      todayMaxC: today?.max,
      rainChancePct: today?.rainChance,
      uvIndex: today?.uv,
      daily: dated.length
        ? dated.map((d) => ({
            date: d.date,
            conditions: codeWords(d.code, lang),
            weatherCode: d.code,
            minC: d.min,
            maxC: d.max,
            rainChancePct: d.rainChance,
          }))
        : undefined,
    },
  };
}

export function formatWeather(place: GeoPlace, data: ForecastResponse, lang: Lang): string {
  return weatherReport(place, data, lang).output;
}

/** The report's text, and the same report as data: the place, now, today, the advice and each coming day. */
export function weatherReport(
  place: GeoPlace,
  data: ForecastResponse,
  lang: Lang,
): { output: string; data: WeatherData } {
  const { current, current_units: cu, daily_units: du } = data;
  const sep = say(lang, '，', ', ');
  const lines: string[] = [];

  const region = [place.admin1, place.country].filter((s): s is string => !!s && s !== place.name);
  const uniqueRegion = [...new Set(region)];
  lines.push(
    uniqueRegion.length
      ? `${place.name}${say(lang, '（', ' (')}${uniqueRegion.join(sep)}${say(lang, '）', ')')}`
      : place.name,
  );

  const code = num(current?.weather_code);
  const temp = num(current?.temperature_2m);
  const feels = num(current?.apparent_temperature);
  const humidity = num(current?.relative_humidity_2m);
  const wind = num(current?.wind_speed_10m);
  const precip = num(current?.precipitation);
  const tUnit = unit(cu, 'temperature_2m', '°C');

  const now: string[] = [];
  const words = codeWords(code, lang);
  if (words) now.push(words);
  if (temp !== undefined) now.push(say(lang, `气温 ${fmt(temp)}${tUnit}`, `${fmt(temp)}${tUnit}`));
  if (feels !== undefined) {
    now.push(say(lang, `体感 ${fmt(feels)}`, `feels like ${fmt(feels)}`) + unit(cu, 'apparent_temperature', '°C'));
  }
  if (humidity !== undefined) {
    now.push(say(lang, '湿度 ', 'humidity ') + fmt(humidity) + unit(cu, 'relative_humidity_2m', '%'));
  }
  if (wind !== undefined) now.push(say(lang, '风速 ', 'wind ') + `${fmt(wind)} ${unit(cu, 'wind_speed_10m', 'km/h')}`);
  if (precip !== undefined && precip > 0) {
    now.push(say(lang, '降水 ', 'precipitation ') + `${fmt(precip)} ${unit(cu, 'precipitation', 'mm')}`);
  }
  const localTime = typeof current?.time === 'string' ? current.time : undefined;
  const report: WeatherData = { kind: 'weather', place: lines[0], days: [] };
  if (now.length) {
    const time = localTime?.split('T')[1];
    const label = time ? say(lang, `当前（当地 ${time}）：`, `Now (${time} local): `) : say(lang, '当前：', 'Now: ');
    const text = now.join(sep);
    lines.push(label + text);
    report.now = {
      text,
      line: label + text,
      temp: shownNumber(temp),
      wet: words !== undefined && isWet(code),
    };
  }

  const dUnit = unit(du, 'temperature_2m_max', '°C');
  const days = dailyDays(data.daily);
  // The first day is today where the service says so (its date is the current time's), or says nothing about it.
  const first = days[0];
  const firstIsToday = !!first && (!first.date || !localTime || localTime.startsWith(first.date));
  const today = firstIsToday ? first : undefined;
  const todayFigures = today ? dayFigures(today, lang, dUnit, true) : [];
  if (todayFigures.length) {
    const label = today!.date
      ? say(lang, `今天（${dayName(today!.date, lang)}）：`, `Today (${dayName(today!.date, lang)}): `)
      : say(lang, '今天：', 'Today: ');
    const text = todayFigures.join(sep);
    lines.push(label + text);
    report.today = { ...dayData(today!, text, lang), line: label + text, date: today!.date };
  }

  const coming = days.slice(firstIsToday ? 1 : 0).flatMap((d) => {
    const figures = d.date ? dayFigures(d, lang, dUnit, false) : [];
    if (!figures.length) return [];
    const text = figures.join(sep);
    report.days.push({ ...dayData(d, text, lang), date: d.date! });
    return [`${dayName(d.date!, lang)}${say(lang, '：', ': ')}${text}`];
  });

  if (!now.length && !todayFigures.length && !coming.length) {
    lines.push(
      say(
        lang,
        '天气服务暂时没有给出这里的详细数据。',
        'The weather service returned no details for this place right now.',
      ),
    );
    return { output: lines.join('\n'), data: report };
  }

  if (now.length || todayFigures.length) {
    report.advice = advice(lang, code, temp, today);
    lines.push(report.advice);
  }
  if (coming.length) lines.push(say(lang, '未来几天：', 'Coming days:'), ...coming);
  return { output: lines.join('\n'), data: report };
}

/** What to take or wear today: today's high decides, else the current temperature. */
function advice(lang: Lang, code: number | undefined, temp: number | undefined, today: DailyDay | undefined): string {
  const warmest = today?.max ?? temp;
  const hot = warmest !== undefined && warmest >= HOT_TEMP_C;
  const tips: Array<readonly [string, string]> = [];
  if (
    (today?.rainChance !== undefined && today.rainChance >= UMBRELLA_RAIN_CHANCE_PCT) ||
    isWet(code) ||
    isWet(today?.code)
  ) {
    tips.push(['记得带伞', 'take an umbrella']);
  }
  if ((today?.uv !== undefined && today.uv >= SUNSCREEN_UV_INDEX) || ((isClear(code) || isClear(today?.code)) && hot)) {
    tips.push(['注意防晒', 'wear sunscreen']);
  }
  if (warmest !== undefined && warmest <= COAT_MAX_TEMP_C) tips.push(['穿件厚外套', 'wear a warm coat']);
  if (hot) tips.push(['穿轻薄透气的衣服', 'dress light']);
  const text = tips.length
    ? tips.map((t) => say(lang, t[0], t[1])).join(say(lang, '；', '; '))
    : say(lang, '天气平稳，照常出门即可', 'nothing special to prepare');
  return say(lang, `建议：${text}。`, `Advice: ${text}.`);
}
