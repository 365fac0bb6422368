import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { Lang } from '../i18n.js';
import { outputText, type ToolContext } from './tool.js';
import { ToolError } from '../contract/tool-error.js';
import { createWeatherTool } from './weather.js';

// Real Open-Meteo responses, kept in the repository with their licence.
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES = path.resolve(REPO_ROOT, 'test', 'fixtures', 'weather');
const fixture = (name: string): string => readFileSync(path.join(FIXTURES, name), 'utf8');

const GEO_ENSCHEDE = fixture('open-meteo-geocoding-enschede.json');
const FORECAST_MINIMAL = fixture('open-meteo-forecast-minimal.json');
const FORECAST_SUBSET = fixture('open-meteo-forecast-current-subset.json');
// What Open-Meteo sends when nothing matches: no `results` key at all.
const GEO_NONE = JSON.stringify({ generationtime_ms: 0.3 });
// Composed (no zh recording exists): same shape, localized field values.
const GEO_BEIJING_ZH = JSON.stringify({
  results: [
    {
      id: 1816670,
      name: '北京市',
      latitude: 39.9075,
      longitude: 116.39723,
      country: '中国',
      admin1: '北京',
      timezone: 'Asia/Shanghai',
    },
  ],
  generationtime_ms: 0.5,
});

/** A forecast in Open-Meteo's shape with both `current` and `daily` sections. */
function forecastBody(current: Record<string, number | null>, daily: Record<string, number | null>): string {
  return JSON.stringify({
    latitude: 52.22,
    longitude: 6.9,
    generationtime_ms: 0.1,
    utc_offset_seconds: 3600,
    timezone: 'Europe/Amsterdam',
    timezone_abbreviation: 'GMT+1',
    elevation: 45,
    current_units: {
      time: 'iso8601',
      interval: 'seconds',
      temperature_2m: '°C',
      apparent_temperature: '°C',
      relative_humidity_2m: '%',
      weather_code: 'wmo code',
      wind_speed_10m: 'km/h',
      precipitation: 'mm',
    },
    current: { time: '2026-11-30T06:15', interval: 900, ...current },
    daily_units: {
      time: 'iso8601',
      temperature_2m_max: '°C',
      temperature_2m_min: '°C',
      precipitation_probability_max: '%',
      uv_index_max: '',
      weather_code: 'wmo code',
    },
    daily: { time: ['2026-11-30'], ...Object.fromEntries(Object.entries(daily).map(([k, v]) => [k, [v]])) },
  });
}

const RAINY = forecastBody(
  {
    temperature_2m: 8.3,
    apparent_temperature: 5.1,
    relative_humidity_2m: 91,
    weather_code: 61,
    wind_speed_10m: 17.2,
    precipitation: 0.4,
  },
  {
    temperature_2m_max: 9.4,
    temperature_2m_min: 4.2,
    precipitation_probability_max: 85,
    uv_index_max: 0.9,
    weather_code: 63,
  },
);
const HOT_SUNNY = forecastBody(
  {
    temperature_2m: 31.6,
    apparent_temperature: 35.04,
    relative_humidity_2m: 40,
    weather_code: 0,
    wind_speed_10m: 6.1,
    precipitation: 0,
  },
  {
    temperature_2m_max: 34.2,
    temperature_2m_min: 24.9,
    precipitation_probability_max: 5,
    uv_index_max: 8.35,
    weather_code: 1,
  },
);
const MILD = forecastBody(
  {
    temperature_2m: 18,
    apparent_temperature: 17.5,
    relative_humidity_2m: 60,
    weather_code: 2,
    wind_speed_10m: 9,
    precipitation: 0,
  },
  {
    temperature_2m_max: 21,
    temperature_2m_min: 12,
    precipitation_probability_max: 10,
    uv_index_max: 3,
    weather_code: 3,
  },
);
const WITH_NULLS = forecastBody(
  {
    temperature_2m: 12.5,
    apparent_temperature: null,
    relative_humidity_2m: null,
    weather_code: null,
    wind_speed_10m: 4,
    precipitation: null,
  },
  {
    temperature_2m_max: null,
    temperature_2m_min: 7,
    precipitation_probability_max: null,
    uv_index_max: null,
    weather_code: null,
  },
);

type Reply = { status?: number; body: string } | 'hang';
interface TestServer {
  base: string;
  requests: URL[];
}

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

async function startServer(reply: (url: URL) => Reply): Promise<TestServer> {
  const requests: URL[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(url);
    const r = reply(url);
    if (r === 'hang') return; // never answer
    res.writeHead(r.status ?? 200, { 'content-type': 'application/json' });
    res.end(r.body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, requests };
}

/** Geocoding at /geo (Enschede, 北京, or nothing), the given forecast at /forecast. */
function openMeteo(forecast: string) {
  return (url: URL): Reply => {
    if (url.pathname === '/geo') {
      const name = url.searchParams.get('name');
      return { body: name === 'Enschede' ? GEO_ENSCHEDE : name === '北京' ? GEO_BEIJING_ZH : GEO_NONE };
    }
    return { body: forecast };
  };
}

function ctx(lang: Lang, signal = new AbortController().signal): ToolContext {
  return {
    sessionId: 's1',
    turnId: 't1',
    callId: 'c1',
    workspace: '/tmp',
    signal,
    lang,
    ask: async (r) => (r.insideSandbox ? 'allow' : 'deny'),
    progress: () => {},
  };
}

function tool(srv: TestServer, timeoutMs?: number) {
  const t = createWeatherTool({ geocodingUrl: `${srv.base}/geo`, forecastUrl: `${srv.base}/forecast`, timeoutMs });
  // Most tests read the text the model gets.
  return { ...t, execute: async (args: { city: string }, c: ToolContext) => outputText(await t.execute(args, c)) };
}

async function failure(run: Promise<unknown>): Promise<ToolError> {
  const err = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ToolError);
  return err as ToolError;
}

function expectClean(text: string) {
  expect(text).not.toMatch(/undefined|null|NaN/);
}

describe('weather tool', () => {
  it('describes its one parameter for the model', () => {
    const t = createWeatherTool({ geocodingUrl: 'http://127.0.0.1:1/geo', forecastUrl: 'http://127.0.0.1:1/f' });
    expect(t.name).toBe('weather');
    expect(t.spec.parameters).toMatchObject({ type: 'object', required: ['city'] });
    expect((t.spec.parameters as any).properties.city.description).toBeTruthy();
  });

  it('sends the city, language and the geocoded coordinates', async () => {
    const srv = await startServer(openMeteo(RAINY));
    await tool(srv).execute({ city: '  Enschede ' }, ctx('en'));
    const [geo, forecast] = srv.requests;
    expect(geo.pathname).toBe('/geo');
    expect(Object.fromEntries(geo.searchParams)).toEqual({
      name: 'Enschede',
      count: '1',
      language: 'en',
      format: 'json',
    });
    expect(forecast.pathname).toBe('/forecast');
    expect(forecast.searchParams.get('latitude')).toBe('52.21833');
    expect(forecast.searchParams.get('longitude')).toBe('6.89583');
    expect(forecast.searchParams.get('timezone')).toBe('auto');
    expect(forecast.searchParams.get('forecast_days')).toBe('7');
    expect(forecast.searchParams.get('current')!.split(',')).toEqual(
      expect.arrayContaining([
        'temperature_2m',
        'apparent_temperature',
        'relative_humidity_2m',
        'weather_code',
        'wind_speed_10m',
      ]),
    );
    expect(forecast.searchParams.get('daily')!.split(',')).toEqual(
      expect.arrayContaining([
        'temperature_2m_max',
        'temperature_2m_min',
        'precipitation_probability_max',
        'uv_index_max',
      ]),
    );
  });

  it('keeps query parameters already in the configured URL (e.g. an API key)', async () => {
    const srv = await startServer(openMeteo(MILD));
    const t = createWeatherTool({
      geocodingUrl: `${srv.base}/geo?apikey=k1`,
      forecastUrl: `${srv.base}/forecast?apikey=k1`,
    });
    await t.execute({ city: 'Enschede' }, ctx('en'));
    expect(srv.requests.map((u) => u.searchParams.get('apikey'))).toEqual(['k1', 'k1']);
  });

  it('reports rainy, cold weather in Chinese with umbrella and coat advice', async () => {
    const srv = await startServer(openMeteo(RAINY));
    const text = await tool(srv).execute({ city: '北京' }, ctx('zh'));
    expect(srv.requests[0].searchParams.get('language')).toBe('zh');
    expect(srv.requests[0].searchParams.get('name')).toBe('北京');
    expect(srv.requests[1].searchParams.get('latitude')).toBe('39.9075');
    expect(text).toBe(
      [
        '北京市（北京，中国）',
        '当前（当地 06:15）：小雨，气温 8.3°C，体感 5.1°C，湿度 91%，风速 17.2 km/h，降水 0.4 mm',
        '今天（2026-11-30 星期一）：中雨，4.2～9.4°C，降水概率 85%，紫外线指数 0.9',
        '建议：记得带伞；穿件厚外套。',
      ].join('\n'),
    );
  });

  it('reports the same weather in English', async () => {
    const srv = await startServer(openMeteo(RAINY));
    const text = await tool(srv).execute({ city: 'Enschede' }, ctx('en'));
    expect(text).toBe(
      [
        'Enschede (Overijssel, The Netherlands)',
        'Now (06:15 local): light rain, 8.3°C, feels like 5.1°C, humidity 91%, wind 17.2 km/h, precipitation 0.4 mm',
        'Today (2026-11-30 Monday): moderate rain, 4.2–9.4°C, chance of rain 85%, UV index 0.9',
        'Advice: take an umbrella; wear a warm coat.',
      ].join('\n'),
    );
  });

  it('suggests sunscreen and light clothes on a hot clear day', async () => {
    const srv = await startServer(openMeteo(HOT_SUNNY));
    const zh = await tool(srv).execute({ city: 'Enschede' }, ctx('zh'));
    expect(zh).toContain('当前（当地 06:15）：晴，气温 31.6°C，体感 35°C');
    expect(zh).toContain('今天（2026-11-30 星期一）：晴间少云，24.9～34.2°C，降水概率 5%，紫外线指数 8.4');
    expect(zh).toContain('建议：注意防晒；穿轻薄透气的衣服。');
    expect(zh).not.toContain('带伞');
    const en = await tool(srv).execute({ city: 'Enschede' }, ctx('en'));
    expect(en).toContain('Advice: wear sunscreen; dress light.');
  });

  it('says nothing special is needed on a mild day', async () => {
    const srv = await startServer(openMeteo(MILD));
    expect(await tool(srv).execute({ city: 'Enschede' }, ctx('zh'))).toContain('建议：天气平稳，照常出门即可。');
    expect(await tool(srv).execute({ city: 'Enschede' }, ctx('en'))).toContain('Advice: nothing special to prepare.');
  });

  it('leaves out null values instead of printing them', async () => {
    const srv = await startServer(openMeteo(WITH_NULLS));
    const text = await tool(srv).execute({ city: 'Enschede' }, ctx('en'));
    expectClean(text);
    expect(text).toContain('Now (06:15 local): 12.5°C, wind 4 km/h');
    expect(text).toContain('Today (2026-11-30 Monday): low 7°C');
    expect(text).not.toContain('feels like');
    expect(text).not.toContain('chance of rain');
  });

  it('handles the recorded current-only forecast (no daily section)', async () => {
    const srv = await startServer(openMeteo(FORECAST_SUBSET));
    const zh = await tool(srv).execute({ city: 'Enschede' }, ctx('zh'));
    expectClean(zh);
    expect(zh).toBe(
      [
        'Enschede（Overijssel，The Netherlands）',
        '当前（当地 12:30）：多云，气温 17.7°C，体感 17.6°C，湿度 66%，风速 3.6 km/h',
        '建议：天气平稳，照常出门即可。',
      ].join('\n'),
    );
    const en = await tool(srv).execute({ city: 'Enschede' }, ctx('en'));
    expect(en).toContain('Now (12:30 local): partly cloudy, 17.7°C, feels like 17.6°C, humidity 66%, wind 3.6 km/h');
    expect(en).not.toContain('Today');
  });

  it('handles the recorded forecast with no variables at all', async () => {
    const srv = await startServer(openMeteo(FORECAST_MINIMAL));
    const zh = await tool(srv).execute({ city: 'Enschede' }, ctx('zh'));
    expectClean(zh);
    expect(zh).toBe('Enschede（Overijssel，The Netherlands）\n天气服务暂时没有给出这里的详细数据。');
    const en = await tool(srv).execute({ city: 'Enschede' }, ctx('en'));
    expect(en).toBe(
      'Enschede (Overijssel, The Netherlands)\nThe weather service returned no details for this place right now.',
    );
  });

  it('refuses an empty city without calling the service', async () => {
    const srv = await startServer(openMeteo(MILD));
    expect((await failure(Promise.resolve(tool(srv).execute({ city: '   ' }, ctx('zh'))))).message).toBe(
      '请告诉我要查哪个城市的天气。',
    );
    expect((await failure(Promise.resolve(tool(srv).execute({ city: '' }, ctx('en'))))).message).toBe(
      'Please tell me which city to check the weather for.',
    );
    expect(srv.requests).toHaveLength(0);
  });

  it('says when a city is unknown, without asking for a forecast', async () => {
    const srv = await startServer(openMeteo(MILD));
    const zh = await failure(Promise.resolve(tool(srv).execute({ city: 'Atlantis' }, ctx('zh'))));
    expect(zh.message).toMatch(/^找不到城市「Atlantis」/);
    const en = await failure(Promise.resolve(tool(srv).execute({ city: 'Atlantis' }, ctx('en'))));
    expect(en.message).toMatch(/^I couldn't find a place called "Atlantis"/);
    expect(srv.requests.every((u) => u.pathname === '/geo')).toBe(true);
  });

  it('turns a server error into one plain sentence without the URL or its secrets', async () => {
    const srv = await startServer(() => ({ status: 500, body: '{"error":true,"reason":"boom"}' }));
    const t = createWeatherTool({ geocodingUrl: `${srv.base}/geo?apikey=SECRET`, forecastUrl: `${srv.base}/forecast` });
    const zh = await failure(Promise.resolve(t.execute({ city: 'Enschede' }, ctx('zh'))));
    expect(zh.message).toBe('天气服务暂时连不上（HTTP 500），请稍后再试。');
    const en = await failure(Promise.resolve(t.execute({ city: 'Enschede' }, ctx('en'))));
    expect(en.message).toBe('The weather service could not be reached (HTTP 500). Please try again later.');
    expect(en.message).not.toMatch(/SECRET|127\.0\.0\.1|\n/);
  });

  it('reports a forecast failure after a successful geocoding', async () => {
    const srv = await startServer((url) =>
      url.pathname === '/geo' ? { body: GEO_ENSCHEDE } : { status: 503, body: '' },
    );
    const err = await failure(Promise.resolve(tool(srv).execute({ city: 'Enschede' }, ctx('en'))));
    expect(err.message).toBe('The weather service could not be reached (HTTP 503). Please try again later.');
  });

  it('reports a body that is not JSON as an unexpected response', async () => {
    const srv = await startServer(() => ({ body: '<html>maintenance</html>' }));
    const err = await failure(Promise.resolve(tool(srv).execute({ city: 'Enschede' }, ctx('zh'))));
    expect(err.message).toBe('天气服务暂时连不上（返回的数据无法识别），请稍后再试。');
  });

  it('reports a refused connection', async () => {
    const srv = await startServer(openMeteo(MILD));
    const closed = servers.pop()!;
    await new Promise((resolve) => closed.close(resolve));
    const err = await failure(Promise.resolve(tool(srv).execute({ city: 'Enschede' }, ctx('en'))));
    expect(err.message).toBe('The weather service could not be reached (network error). Please try again later.');
    expect(err.message).not.toContain(srv.base);
  });

  it('gives up after its timeout when the server never answers', async () => {
    const srv = await startServer(() => 'hang');
    const started = Date.now();
    const err = await failure(Promise.resolve(tool(srv, 200).execute({ city: 'Enschede' }, ctx('zh'))));
    expect(err.message).toBe('天气服务暂时连不上（请求超时），请稍后再试。');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('stops when the turn is aborted', async () => {
    const srv = await startServer(() => 'hang');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const err = await failure(
      Promise.resolve(tool(srv, 10_000).execute({ city: 'Enschede' }, ctx('en', controller.signal))),
    );
    expect(err.message).toBe('The weather lookup was cancelled.');
    expect(srv.requests).toHaveLength(1);
  });

  it('gives its card the place and the current weather as the title, and the figures as metadata', async () => {
    const srv = await startServer(openMeteo(RAINY));
    const t = createWeatherTool({ geocodingUrl: `${srv.base}/geo`, forecastUrl: `${srv.base}/forecast` });
    const r = await t.execute({ city: 'Enschede' }, ctx('en'));
    expect(typeof r === 'string' ? r : { title: r.title, metadata: JSON.parse(JSON.stringify(r.metadata)) }).toEqual({
      title: 'Enschede: light rain, 8.3°C',
      metadata: {
        city: 'Enschede',
        region: 'Overijssel',
        country: 'The Netherlands',
        latitude: 52.21833,
        longitude: 6.89583,
        localTime: '2026-11-30T06:15',
        conditions: 'light rain',
        weatherCode: 61,
        temperatureC: 8.3,
        feelsLikeC: 5.1,
        humidityPct: 91,
        windKmh: 17.2,
        precipitationMm: 0.4,
        todayMinC: 4.2,
        todayMaxC: 9.4,
        rainChancePct: 85,
        uvIndex: 0.9,
        daily: [
          { date: '2026-11-30', conditions: 'moderate rain', weatherCode: 63, minC: 4.2, maxC: 9.4, rainChancePct: 85 },
        ],
      },
    });
    const zh = await t.execute({ city: '北京' }, ctx('zh'));
    expect(typeof zh === 'string' ? zh : zh.title).toBe('北京市：小雨，8.3°C');
  });
});
