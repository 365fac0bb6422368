/**
 * Weather questions as people type them, answered offline through the real weather tool over real
 * HTTP (a local Open-Meteo stand-in): which cities are looked up, and that the reply speaks of the
 * day asked about — from the forecast's dated lines, or saying plainly that the day is not there.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectLang } from '../../i18n.js';
import { outputText, type ToolContext } from '../../tools/tool.js';
import { createWeatherTool } from '../../tools/weather.js';
import type { ChatMessage } from '../types.js';
import { createOfflinePlanner } from './planner.js';
import { memoryPrefs, step, turn, type ScriptedOutput } from './testing.js';

const FIXTURES = path.resolve(fileURLToPath(new URL('../../..', import.meta.url)), 'test', 'fixtures', 'weather');
const fixture = (name: string): string => readFileSync(path.join(FIXTURES, name), 'utf8');
/** Constructed in Open-Meteo's shape: Beijing, 7 days from Wednesday 29 July 2026. */
const SEVEN_DAYS = JSON.parse(fixture('open-meteo-forecast-daily-7d.json'));
/** The same days, a few degrees cooler: what the stand-in answers for cities whose name starts with 上 or L (and 老 or Old get the recorded current-only one). */
const COOLER = {
  ...SEVEN_DAYS,
  current: { ...SEVEN_DAYS.current, temperature_2m: 25.1 },
  daily: {
    ...SEVEN_DAYS.daily,
    temperature_2m_max: [30.0, 28.0, 26.0, 27.0, 29.0, 31.0, 30.5],
    temperature_2m_min: [22, 21, 20, 20, 21, 22, 23],
  },
};
/** Recorded: current conditions only, no daily section. */
const CURRENT_ONLY = fixture('open-meteo-forecast-current-subset.json');
const GEO = JSON.parse(fixture('open-meteo-geocoding-enschede.json'));

// Wednesday 29 July 2026, 09:00 in Shanghai: the 7-day forecast's first day.
const WED = new Date('2026-07-29T01:00:00Z');

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    res.setHeader('content-type', 'application/json');
    if (url.pathname === '/geo') {
      // Any name is found; its latitude says which forecast it gets.
      const name = url.searchParams.get('name') ?? '';
      const latitude = /^(?:Old|老)/.test(name) ? 1 : /^(?:上|L)/.test(name) ? 2 : 3;
      res.end(
        JSON.stringify({
          ...GEO,
          results: [{ ...GEO.results[0], name, admin1: undefined, country: undefined, latitude }],
        }),
      );
      return;
    }
    const latitude = url.searchParams.get('latitude');
    res.end(latitude === '1' ? CURRENT_ONLY : JSON.stringify(latitude === '2' ? COOLER : SEVEN_DAYS));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const ctx = (text: string): ToolContext => ({
  sessionId: 's',
  turnId: 't',
  callId: 'c',
  workspace: '/nonexistent',
  signal: new AbortController().signal,
  lang: detectLang(text),
  ask: async () => 'deny',
  progress: () => {},
});

/**
 * One turn through the weather tool, answered twice: with the result's data, as the agent loop hands
 * it over, and with its text alone (a result stored before results carried data). Both must read the same.
 */
async function ask(text: string, history: ChatMessage[] = []) {
  const weather = createWeatherTool({ geocodingUrl: `${base}/geo`, forecastUrl: `${base}/forecast` });
  const answer = (withData: boolean) =>
    turn(
      createOfflinePlanner({ prefs: memoryPrefs(), now: () => WED, timeZone: 'Asia/Shanghai' }),
      history,
      text,
      async (c): Promise<ScriptedOutput> => {
        try {
          const out = await weather.execute(JSON.parse(c.arguments), ctx(text));
          if (!withData || typeof out === 'string') return outputText(out);
          return { content: out.output, result: { ok: true, ...(out.data ? { data: out.data } : {}) } };
        } catch (err) {
          const content = `Error: ${(err as Error).message}`;
          return withData ? { content, result: { ok: false, error: 'failed' } } : content;
        }
      },
    );
  const [data, prose] = [await answer(true), await answer(false)];
  expect(prose.reply).toBe(data.reply);
  return data;
}

const planned = async (text: string) =>
  (await step(createOfflinePlanner({ prefs: memoryPrefs() }), [{ role: 'user', content: text }])).parsed.map(
    (c) => c.args.city,
  );

/** [what the user says, the cities looked up]. */
const CITIES: Array<[string, string[]]> = [
  ['成都这两天会下雨吗', ['成都']],
  ['杭州周末天气怎么样', ['杭州']],
  ['上海明后天天气', ['上海']],
  ['深圳下周天气', ['深圳']],
  ['北京今天下午天气', ['北京']],
  ['明天去苏州，要带伞吗', ['苏州']],
  ['后天回南京，会不会下雨', ['南京']],
  ['下周一武汉天气如何', ['武汉']],
  ['大后天青岛多少度', ['青岛']],
  ['西安礼拜六下雨不', ['西安']],
  ['周末去厦门玩，天气咋样', ['厦门']],
  ['北京和上海哪个冷', ['北京', '上海']],
  ['广州跟深圳明天哪个热', ['广州', '深圳']],
  ['上海比北京冷吗', ['上海', '北京']],
  ['哪个城市更暖和，昆明还是大理', ['昆明', '大理']],
  ['北京、天津的天气', ['北京', '天津']],
  ['Berlin this weekend weather', ['Berlin']],
  ['Tokyo tmrw weather?', ['Tokyo']],
  ["what's the weather in Paris on Saturday", ['Paris']],
  ['will it rain in London next Tue', ['London']],
  ['weather for Seattle the next few days', ['Seattle']],
  ['compare the weather in London and Paris', ['London', 'Paris']],
  ['is London colder than Paris', ['London', 'Paris']],
  ['which is warmer, Rome or Madrid', ['Rome', 'Madrid']],
  ['Sydney vs Melbourne weather', ['Sydney', 'Melbourne']],
  ['明天weather in Boston', ['Boston']],
  ['周六去杭州爬山，天气怎么样', ['杭州']],
  ['国庆去西安玩天气怎么样', ['西安']],
  ['去重庆出差要带伞吗', ['重庆']],
  ['北京明天最高几度', ['北京']],
  ['紫外线强吗 深圳今天', ['深圳']],
  ['后天出门要带伞不 杭州', ['杭州']],
  ['how hot will it be in Dubai on Friday', ['Dubai']],
  ['do I need a jacket in Boston tomorrow', ['Boston']],
  ['Shanghai or Beijing, which is colder today', ['Shanghai', 'Beijing']],
  ['is it gonna rain in nyc tomorrow', ['nyc']],
  ['whats it like outside in london rn', ['london']],
  ['what should I wear in Paris tomorrow', ['Paris']],
  ['明天去北京穿什么', ['北京']],
  ['杭州周末下不下雨', ['杭州']],
  ['天津后儿个刮风不', ['天津']],
  ['Any rain in Hong Kong the day after tomorrow?', ['Hong Kong']],
  ['weather Shanghai Saturday', ['Shanghai']],
  ['上海 weather tomorrow', ['上海']],
];

describe('offline planner: the city of a weather question', () => {
  it.each(CITIES)('%s', async (text, cities) => {
    expect(await planned(text)).toEqual(cities);
  });

  it('leaves what to wear, with no city, to the reply that offers the weather', async () => {
    expect(await planned('what should I wear today')).toEqual([]);
    expect(await planned('今天穿什么')).toEqual([]);
  });

  it('keeps the city for another day asked next', async () => {
    const a = await ask('北京天气怎么样');
    for (const next of ['那明天呢', '下周一呢', 'what about saturday?']) {
      const b = await ask(next, a.messages);
      expect(b.calls).toEqual([{ name: 'weather', args: { city: '北京' } }]);
    }
  });
});

describe('offline planner: the day a weather question asks about', () => {
  it('answers tomorrow from its dated line, and the umbrella question', async () => {
    const r = await ask('明天北京会下雨吗');
    expect(r.reply).toContain('7月30日 星期四（明天）：中雨，23.9～30.2°C，降水概率 85%');
    expect(r.reply).toContain('有雨的可能，记得带伞。');
    expect(r.reply).not.toContain('8月');
  });

  it('answers the weekend, a weekday and a stretch of days', async () => {
    const weekend = await ask('北京周末天气怎么样');
    expect(weekend.reply).toContain('8月1日 星期六：小阵雨，21.8～29.8°C，降水概率 40%');
    expect(weekend.reply).toContain('8月2日 星期日：晴间少云，23～32.6°C，降水概率 10%');
    expect((await ask('下周一北京天气')).reply).toContain('8月3日 星期一：晴，24.7～34°C');
    const two = (await ask('北京这两天天气')).reply;
    expect(two).toContain('今天（7月29日 星期三）：多云，24.6～33.1°C');
    expect(two).toContain('7月30日 星期四：中雨');
    expect((await ask('北京未来几天天气')).reply.split('\n')).toHaveLength(8);
    const sat = await ask("what's the weather in Beijing on Saturday");
    expect(sat.reply).toContain('Saturday, August 1: light showers, 21.8–29.8°C, chance of rain 40%');
    expect((await ask('Beijing weather tmrw, do I need an umbrella?')).reply).toContain('take an umbrella');
    expect((await ask('will it rain in Beijing on Monday')).reply).toMatch(
      /Monday, August 3: clear.*\n.*won't need an umbrella/,
    );
  });

  it('says plainly when the forecast lacks the day, naming it, and gives the current conditions', async () => {
    const later = await ask('下周三北京天气');
    expect(later.reply).toContain('天气服务没有给出下周三（8月5日）的预报。');
    expect(later.reply).toContain('现在的天气：多云，气温 28.4°C');
    const weekend = await ask('Oldtown weather this weekend');
    expect(weekend.reply).toContain(
      'The weather service gave no forecast for this weekend (Saturday, August 1; Sunday, August 2).',
    );
    expect(weekend.reply).toContain('Right now: partly cloudy, 17.7°C');
    const umbrella = await ask('明天去老城，要带伞吗');
    expect(umbrella.reply).toContain('天气服务没有给出明天（7月30日 星期四）的预报。');
    expect(umbrella.reply).toContain('带不带伞我没法确定');
    expect((await ask('昨天北京天气')).reply).toContain('查不到昨天（7月28日 星期二）的天气');
    const sunday = await ask('is it going to be sunny in Oldham on Sunday');
    expect(sunday.reply).toContain('The weather service gave no forecast for Sunday (August 2).');
  });

  it('answers an umbrella question about today from the current conditions', async () => {
    expect((await ask('老城今晚会下雨吗')).reply.split('\n').at(-1)).toBe('看起来不会下雨，应该不用带伞。');
    expect((await ask('北京今天要带伞吗')).reply.split('\n').at(-1)).toBe('看起来不会下雨，应该不用带伞。');
  });

  it('keeps a question about today short: now, today and the advice', async () => {
    const r = await ask('北京天气怎么样');
    expect(r.reply.split('\n')).toEqual([
      '北京',
      '当前（当地 09:00）：多云，气温 28.4°C，体感 31.9°C，湿度 74%，风速 7.9 km/h',
      '今天（2026-07-29 星期三）：多云，24.6～33.1°C，降水概率 20%，紫外线指数 8.2',
      '建议：注意防晒；穿轻薄透气的衣服。',
    ]);
  });
});

describe('offline planner: weather beside other requests', () => {
  it('keeps the days another request names out of the weather', async () => {
    const llm = createOfflinePlanner({ prefs: memoryPrefs(), now: () => WED, timeZone: 'Asia/Shanghai' });
    const weather = createWeatherTool({ geocodingUrl: `${base}/geo`, forecastUrl: `${base}/forecast` });
    const outputs = async (c: { name: string; arguments: string }, text: string) =>
      c.name === 'weather' ? outputText(await weather.execute(JSON.parse(c.arguments), ctx(text))) : 'ok';
    const text = '记一下周五交报告，然后看看上海周末天气';
    const r = await turn(llm, [], text, (c) => outputs(c, text));
    expect(r.calls.map((c) => c.name)).toEqual(['todo_add', 'weather']);
    expect(r.reply).toContain('8月1日 星期六');
    expect(r.reply).not.toMatch(/7月31日|周五/);
    const en = "what's the weather in Beijing and what day is it tomorrow";
    const e = await turn(llm, [], en, (c) => outputs(c, en));
    expect(e.reply).toContain('Today (2026-07-29 Wednesday)');
    expect(e.reply).not.toContain('July 30');
  });

  it('does not take another request for a second city', async () => {
    const r = await step(createOfflinePlanner({ prefs: memoryPrefs() }), [
      { role: 'user', content: 'weather in Tokyo and the time in London' },
    ]);
    expect(r.parsed).toEqual([
      { name: 'weather', args: { city: 'Tokyo' } },
      { name: 'current_time', args: { timezone: 'London' } },
    ]);
  });
});

describe('offline planner: two cities compared', () => {
  it('gives each city and says which is colder now', async () => {
    const r = await ask('北京和上海哪个冷');
    expect(r.calls.map((c) => c.args.city)).toEqual(['北京', '上海']);
    expect(r.reply.split('\n')).toEqual([
      '北京：多云，气温 28.4°C，体感 31.9°C，湿度 74%，风速 7.9 km/h',
      '上海：多云，气温 25.1°C，体感 31.9°C，湿度 74%，风速 7.9 km/h',
      '北京现在 28.4°C，上海 25.1°C，上海更冷，低 3.3°C。',
    ]);
  });

  it('compares the highs of the day asked', async () => {
    const r = await ask('广州跟上海明天哪个热');
    expect(r.reply).toContain('广州明天（7月30日）最高 30.2°C，上海 28°C，广州更热，高 2.2°C。');
    const en = await ask('is London colder than Paris tomorrow');
    expect(en.reply).toContain("Tomorrow's low (July 30): London 21°C, Paris 23.9°C: London is colder by 2.9°C.");
  });

  it('asks both cities again for another day', async () => {
    const a = await ask('北京和上海哪个冷');
    const b = await ask('那周六呢', a.messages);
    expect(b.calls.map((c) => c.args.city)).toEqual(['北京', '上海']);
    expect(b.reply).toContain('8月1日 星期六：小阵雨');
  });

  it('falls back to the current temperatures, and says why, when the day is missing', async () => {
    const r = await ask('老城和老镇后天哪个热');
    expect(r.reply).toContain('现在 17.7°C');
    expect(r.reply).toContain('两地一样');
    expect(r.reply).toContain('天气服务没有给出后天（7月31日 星期五）的预报，所以按现在的气温比');
  });
});
