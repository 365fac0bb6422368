import { z } from 'zod';
import { say, type Lang } from '../i18n.js';
import { defineTool, type Tool } from './tool.js';
import { ToolError } from '../contract/tool-error.js';
import { ForecastResponse, GeoPlace, GeoResponse, weatherCard, weatherReport } from './weather-report.js';

const WEATHER_TIMEOUT_MS = 10_000;
/** Days of forecast asked for: today and the six after it, enough for 「下周一」 asked on a Tuesday. */
const FORECAST_DAYS = 7;
/** The longest place names are under 100 characters. */
const MAX_CITY_CHARS = 100;

const CURRENT_VARS =
  'temperature_2m,apparent_temperature,relative_humidity_2m,weather_code,wind_speed_10m,precipitation';
const DAILY_VARS = 'temperature_2m_max,temperature_2m_min,precipitation_probability_max,uv_index_max,weather_code';

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

export function createWeatherTool(deps: WeatherToolDeps): Tool {
  // The global fetch is looked up at the call: touching it loads undici, ~10 ms of every start otherwise.
  const fetchFn: typeof fetch = deps.fetch ?? ((input, init) => fetch(input, init));
  const timeoutMs = deps.timeoutMs ?? WEATHER_TIMEOUT_MS;

  return defineTool({
    name: 'weather',
    annotations: { readOnly: true, openWorld: true },
    description:
      'Current weather and a 7-day forecast for a city. Current conditions first (temperature and feels-like, ' +
      "humidity, wind), then today's low/high, chance of rain and UV index with a line of advice (umbrella, " +
      'sunscreen, coat), then one line per coming day: local date, weekday, conditions, low/high, chance of rain. ' +
      'Give a plain city name; use the dated lines to answer about tomorrow, the weekend or a weekday.',
    parameters: WeatherArgs,
    async execute({ city }, ctx) {
      const name = city.trim();
      if (!name) {
        throw new ToolError(
          say(ctx.lang, '请告诉我要查哪个城市的天气。', 'Please tell me which city to check the weather for.'),
        );
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
      forecastUrl.searchParams.set('forecast_days', String(FORECAST_DAYS));
      const forecast = ForecastResponse.safeParse(await getJson(forecastUrl, request));
      if (!forecast.success) throw serviceError(ctx.lang, 'bad');

      return {
        ...weatherReport(place.data, forecast.data, ctx.lang),
        ...weatherCard(place.data, forecast.data, ctx.lang),
      };
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
