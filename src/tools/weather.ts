import { z } from 'zod';
import { say, type Lang } from '../i18n.js';
import { defineTool, ToolError, type Tool } from './tool.js';

const WEATHER_TIMEOUT_MS = 10_000;
/** Chance of rain (%) from which we suggest an umbrella. */
const UMBRELLA_RAIN_CHANCE_PCT = 50;
const SUNSCREEN_UV_INDEX = 6;
const COAT_MAX_TEMP_C = 10;
/** The longest place names are under 100 characters. */
const MAX_CITY_CHARS = 100;
const HOT_TEMP_C = 30;

const CURRENT_VARS = 'temperature_2m,apparent_temperature,relative_humidity_2m,weather_code,wind_speed_10m,precipitation';
const DAILY_VARS = 'temperature_2m_max,temperature_2m_min,precipitation_probability_max,uv_index_max,weather_code';

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

/** Dependencies of the weather tool; URLs point at Open-Meteo-shaped services. */
export interface WeatherToolDeps {
  /** e.g. `https://geocoding-api.open-meteo.com/v1/search` (ZHIXING_GEOCODING_URL) */
  geocodingUrl: string;
  /** e.g. `https://api.open-meteo.com/v1/forecast` (ZHIXING_WEATHER_URL) */
  forecastUrl: string;
  fetch?: typeof fetch;
  /** Deadline for the whole lookup (geocoding + forecast). Default 10 s. */
  timeoutMs?: number;
}

const WeatherArgs = z.object({
  city: z.string().max(MAX_CITY_CHARS).describe('City or place name, e.g. 北京, Shanghai, Enschede'),
});

// Only the fields we use; the services send many more and omit empty ones.
const GeoPlace = z.object({
  name: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  country: z.string().optional(),
  admin1: z.string().optional(),
  timezone: z.string().optional(),
});
type GeoPlace = z.infer<typeof GeoPlace>;
const GeoResponse = z.object({ results: z.array(z.unknown()).optional() });

const Section = z.record(z.string(), z.unknown()).nullish();
const ForecastResponse = z.object({
  current: Section,
  current_units: Section,
  daily: Section,
  daily_units: Section,
});
type ForecastResponse = z.infer<typeof ForecastResponse>;
type SectionData = z.infer<typeof Section>;

export function createWeatherTool(deps: WeatherToolDeps): Tool {
  const fetchFn = deps.fetch ?? fetch;
  const timeoutMs = deps.timeoutMs ?? WEATHER_TIMEOUT_MS;

  return defineTool({
    name: 'weather',
    annotations: { readOnly: true, openWorld: true },
    description:
      'Current weather and today\'s forecast for a city: conditions, temperature and feels-like, humidity, wind, ' +
      'today\'s low/high, chance of rain, and a line of advice (umbrella, sunscreen, coat). Give a plain city name.',
    parameters: WeatherArgs,
    async execute({ city }, ctx) {
      const name = city.trim();
      if (!name) {
        throw new ToolError(say(ctx.lang, '请告诉我要查哪个城市的天气。', 'Please tell me which city to check the weather for.'));
      }
      const timeout = AbortSignal.timeout(timeoutMs);
      const request = { fetchFn, lang: ctx.lang, ctxSignal: ctx.signal, timeout };

      const geoUrl = new URL(deps.geocodingUrl);
      geoUrl.searchParams.set('name', name);
      geoUrl.searchParams.set('count', '1');
      geoUrl.searchParams.set('language', ctx.lang);
      geoUrl.searchParams.set('format', 'json');
      const geo = GeoResponse.safeParse(await getJson(geoUrl, request));
      if (!geo.success) throw serviceError(ctx.lang, 'bad');
      const first = geo.data.results?.[0];
      if (first === undefined) {
        throw new ToolError(
          say(
            ctx.lang,
            `找不到城市「${name}」，请换个写法或给出更完整的地名再试。`,
            `I couldn't find a place called "${name}". Try another spelling or a nearby larger city.`,
          ),
        );
      }
      const place = GeoPlace.safeParse(first);
      if (!place.success) throw serviceError(ctx.lang, 'bad');

      const forecastUrl = new URL(deps.forecastUrl);
      forecastUrl.searchParams.set('latitude', String(place.data.latitude));
      forecastUrl.searchParams.set('longitude', String(place.data.longitude));
      forecastUrl.searchParams.set('current', CURRENT_VARS);
      forecastUrl.searchParams.set('daily', DAILY_VARS);
      forecastUrl.searchParams.set('timezone', 'auto');
      forecastUrl.searchParams.set('forecast_days', '1');
      const forecast = ForecastResponse.safeParse(await getJson(forecastUrl, request));
      if (!forecast.success) throw serviceError(ctx.lang, 'bad');

      return { output: formatWeather(place.data, forecast.data, ctx.lang), ...weatherCard(place.data, forecast.data, ctx.lang) };
    },
  });
}

interface JsonRequest {
  fetchFn: typeof fetch;
  lang: Lang;
  ctxSignal: AbortSignal;
  timeout: AbortSignal;
}

type FailureKind = 'timeout' | 'network' | 'bad' | number;

/** Fetch and parse JSON; every failure becomes one plain sentence, never a URL or stack. */
async function getJson(url: URL, req: JsonRequest): Promise<unknown> {
  const signal = AbortSignal.any([req.ctxSignal, req.timeout]);
  try {
    const res = await req.fetchFn(url, { signal, headers: { accept: 'application/json' } });
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      throw serviceError(req.lang, res.status);
    }
    return await res.json();
  } catch (err) {
    if (err instanceof ToolError) throw err;
    if (req.ctxSignal.aborted) {
      throw new ToolError(say(req.lang, '天气查询已取消。', 'The weather lookup was cancelled.'));
    }
    if (req.timeout.aborted) throw serviceError(req.lang, 'timeout');
    throw serviceError(req.lang, err instanceof SyntaxError ? 'bad' : 'network');
  }
}

function serviceError(lang: Lang, kind: FailureKind): ToolError {
  const reason =
    kind === 'timeout'
      ? say(lang, '请求超时', 'timed out')
      : kind === 'network'
        ? say(lang, '网络错误', 'network error')
        : kind === 'bad'
          ? say(lang, '返回的数据无法识别', 'unexpected response')
          : `HTTP ${kind}`;
  return new ToolError(
    say(
      lang,
      `天气服务暂时连不上（${reason}），请稍后再试。`,
      `The weather service could not be reached (${reason}). Please try again later.`,
    ),
  );
}

/** A finite number, or undefined for missing/null/garbage values. */
function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Today's value from a daily array. */
function today(daily: SectionData, key: string): number | undefined {
  const values = daily?.[key];
  return Array.isArray(values) ? num(values[0]) : undefined;
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

/**
 * The card: the place and the figures the text gives, as numbers. The request keeps Open-Meteo's
 * default units (°C, km/h, mm), which the field names say; a figure the service left out is absent.
 */
function weatherCard(place: GeoPlace, data: ForecastResponse, lang: Lang): { title: string; metadata: Record<string, unknown> } {
  const { current, daily } = data;
  const code = num(current?.weather_code);
  const temperatureC = num(current?.temperature_2m);
  const conditions = codeWords(code, lang);
  const now = [conditions, temperatureC === undefined ? undefined : `${fmt(temperatureC)}°C`].filter((s): s is string => !!s);
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
      todayMinC: today(daily, 'temperature_2m_min'),
      todayMaxC: today(daily, 'temperature_2m_max'),
      rainChancePct: today(daily, 'precipitation_probability_max'),
      uvIndex: today(daily, 'uv_index_max'),
    },
  };
}

function formatWeather(place: GeoPlace, data: ForecastResponse, lang: Lang): string {
  const { current, current_units: cu, daily, daily_units: du } = data;
  const sep = say(lang, '，', ', ');
  const lines: string[] = [];

  const region = [place.admin1, place.country].filter((s): s is string => !!s && s !== place.name);
  const uniqueRegion = [...new Set(region)];
  lines.push(uniqueRegion.length ? `${place.name}${say(lang, '（', ' (')}${uniqueRegion.join(sep)}${say(lang, '）', ')')}` : place.name);

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
  if (now.length) {
    const time = typeof current?.time === 'string' ? current.time.split('T')[1] : undefined;
    const label = time ? say(lang, `当前（当地 ${time}）：`, `Now (${time} local): `) : say(lang, '当前：', 'Now: ');
    lines.push(label + now.join(sep));
  }

  const dayCode = today(daily, 'weather_code');
  const max = today(daily, 'temperature_2m_max');
  const min = today(daily, 'temperature_2m_min');
  const rainChance = today(daily, 'precipitation_probability_max');
  const uv = today(daily, 'uv_index_max');
  const dUnit = unit(du, 'temperature_2m_max', '°C');

  const day: string[] = [];
  const dayWords = codeWords(dayCode, lang);
  if (dayWords) day.push(dayWords);
  if (min !== undefined && max !== undefined) day.push(`${fmt(min)}${say(lang, '～', '–')}${fmt(max)}${dUnit}`);
  else if (max !== undefined) day.push(say(lang, `最高 ${fmt(max)}`, `high ${fmt(max)}`) + dUnit);
  else if (min !== undefined) day.push(say(lang, `最低 ${fmt(min)}`, `low ${fmt(min)}`) + dUnit);
  if (rainChance !== undefined) day.push(say(lang, `降水概率 ${fmt(rainChance)}%`, `chance of rain ${fmt(rainChance)}%`));
  if (uv !== undefined) day.push(say(lang, `紫外线指数 ${fmt(uv)}`, `UV index ${fmt(uv)}`));
  if (day.length) lines.push(say(lang, '今天：', 'Today: ') + day.join(sep));

  if (!now.length && !day.length) {
    lines.push(say(lang, '天气服务暂时没有给出这里的详细数据。', 'The weather service returned no details for this place right now.'));
    return lines.join('\n');
  }

  // Today's high decides what to wear; fall back to the current temperature when the daily part is missing.
  const warmest = max ?? temp;
  const hot = warmest !== undefined && warmest >= HOT_TEMP_C;
  const tips: Array<readonly [string, string]> = [];
  if ((rainChance !== undefined && rainChance >= UMBRELLA_RAIN_CHANCE_PCT) || isWet(code) || isWet(dayCode)) {
    tips.push(['记得带伞', 'take an umbrella']);
  }
  if ((uv !== undefined && uv >= SUNSCREEN_UV_INDEX) || ((isClear(code) || isClear(dayCode)) && hot)) {
    tips.push(['注意防晒', 'wear sunscreen']);
  }
  if (warmest !== undefined && warmest <= COAT_MAX_TEMP_C) tips.push(['穿件厚外套', 'wear a warm coat']);
  if (hot) tips.push(['穿轻薄透气的衣服', 'dress light']);

  const advice = tips.length
    ? tips.map((t) => say(lang, t[0], t[1])).join(say(lang, '；', '; '))
    : say(lang, '天气平稳，照常出门即可', 'nothing special to prepare');
  lines.push(say(lang, `建议：${advice}。`, `Advice: ${advice}.`));
  return lines.join('\n');
}
