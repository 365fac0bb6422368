import { describe, expect, it } from 'vitest';
import { createCurrentTimeTool } from './current-time.js';
import type { Lang } from '../i18n.js';
import { outputText, type ToolContext } from './tool.js';
import { ToolError } from '../contract/tool-error.js';

const MONDAY = new Date('2026-11-30T05:15:00Z');
// Sunday 11:00 in Tokyo, still Saturday 21:00 in New York.
const SPLIT_WEEKEND = new Date('2026-11-29T02:00:00Z');

function ctx(lang: Lang): ToolContext {
  return {
    sessionId: 's1',
    turnId: 't1',
    callId: 'c1',
    workspace: '/tmp',
    signal: new AbortController().signal,
    lang,
    ask: async (r) => (r.insideSandbox ? 'allow' : 'deny'),
    progress: () => {},
  };
}

async function run(at: Date, lang: Lang, timezone?: string, defaultTimeZone = 'Asia/Shanghai'): Promise<string> {
  const tool = createCurrentTimeTool({ now: () => at, defaultTimeZone });
  return outputText(await tool.execute(timezone === undefined ? {} : { timezone }, ctx(lang)));
}

async function failure(at: Date, lang: Lang, timezone: string): Promise<string> {
  const err = await run(at, lang, timezone).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ToolError);
  return (err as ToolError).message;
}

describe('current_time tool', () => {
  it('has an optional, described timezone parameter', () => {
    const tool = createCurrentTimeTool({});
    expect(tool.name).toBe('current_time');
    const schema = tool.spec.parameters as { properties: { timezone: { description?: string } }; required?: string[] };
    expect(schema.properties.timezone.description).toMatch(/IANA/);
    expect(schema.required ?? []).not.toContain('timezone');
  });

  it("uses the user's own zone by default, in Chinese", async () => {
    expect(await run(MONDAY, 'zh')).toBe(
      [
        '现在是 2026年11月30日 星期一 13:15:00',
        '时区：Asia/Shanghai（UTC+08:00）',
        '距离周末（星期六）还有 5 天。',
      ].join('\n'),
    );
  });

  it('answers in English', async () => {
    expect(await run(MONDAY, 'en', 'Asia/Tokyo')).toBe(
      [
        'It is Monday, November 30, 2026, 14:15:00',
        'Time zone: Asia/Tokyo (UTC+09:00)',
        '5 days until the weekend (Saturday).',
      ].join('\n'),
    );
  });

  it('treats an empty timezone like no timezone', async () => {
    expect(await run(MONDAY, 'en', '  ', 'Europe/London')).toContain('Time zone: Europe/London (UTC+00:00)');
  });

  it('shows negative offsets and daylight saving time', async () => {
    expect(await run(MONDAY, 'en', 'America/New_York')).toContain('It is Monday, November 30, 2026, 00:15:00');
    expect(await run(MONDAY, 'en', 'America/New_York')).toContain('(UTC-05:00)');
    expect(await run(new Date('2026-07-01T12:00:00Z'), 'en', 'America/New_York')).toContain('(UTC-04:00)');
    expect(await run(MONDAY, 'en', 'Asia/Kolkata')).toContain('10:45:00');
    expect(await run(MONDAY, 'en', 'Asia/Kolkata')).toContain('(UTC+05:30)');
  });

  it('gives the weekday of each zone for the same moment', async () => {
    const tokyo = await run(SPLIT_WEEKEND, 'zh', 'Asia/Tokyo');
    expect(tokyo).toContain('现在是 2026年11月29日 星期日 11:00:00');
    expect(tokyo).toContain('今天是周末。');
    const newYork = await run(SPLIT_WEEKEND, 'en', 'America/New_York');
    expect(newYork).toContain('It is Saturday, November 28, 2026, 21:00:00');
    expect(newYork).toContain("It's the weekend.");
  });

  it('counts the days until Saturday', async () => {
    const at = (iso: string) => run(new Date(iso), 'en', 'UTC');
    expect(await at('2026-12-01T12:00:00Z')).toContain('Tuesday'); // sanity
    expect(await at('2026-12-01T12:00:00Z')).toContain('4 days until the weekend (Saturday).');
    expect(await at('2026-12-04T12:00:00Z')).toContain('The weekend starts tomorrow (Saturday).');
    expect(await run(new Date('2026-12-04T12:00:00Z'), 'zh', 'UTC')).toContain('明天（星期六）就是周末了。');
    expect(await at('2026-12-05T23:59:59Z')).toContain("It's the weekend.");
    // Friday 23:30 in UTC is already Saturday in Shanghai.
    expect(await run(new Date('2026-12-04T23:30:00Z'), 'zh', 'Asia/Shanghai')).toContain('星期六 07:30:00\n时区');
  });

  it('prints midnight as 00, not 24', async () => {
    expect(await run(new Date('2026-12-01T00:00:00Z'), 'en', 'UTC')).toContain('December 1, 2026, 00:00:00');
  });

  it('accepts common city words', async () => {
    const zoneOf = async (word: string) => (await run(MONDAY, 'en', word)).split('\n')[1];
    expect(await zoneOf('北京')).toBe('Time zone: Asia/Shanghai (UTC+08:00)');
    expect(await zoneOf('上海市')).toBe('Time zone: Asia/Shanghai (UTC+08:00)');
    expect(await zoneOf('Beijing')).toBe('Time zone: Asia/Shanghai (UTC+08:00)');
    expect(await zoneOf('东京')).toBe('Time zone: Asia/Tokyo (UTC+09:00)');
    expect(await zoneOf('tokyo')).toBe('Time zone: Asia/Tokyo (UTC+09:00)');
    expect(await zoneOf('纽约')).toBe('Time zone: America/New_York (UTC-05:00)');
    expect(await zoneOf('New York')).toBe('Time zone: America/New_York (UTC-05:00)');
    expect(await zoneOf('伦敦')).toBe('Time zone: Europe/London (UTC+00:00)');
    expect(await zoneOf('Paris')).toBe('Time zone: Europe/Paris (UTC+01:00)');
    expect(await zoneOf('utc')).toBe('Time zone: UTC (UTC+00:00)');
  });

  it('knows many more places, in Chinese and English, and names the zone by its current name', async () => {
    const zoneOf = async (word: string) => (await run(MONDAY, 'en', word)).split('\n')[1];
    expect(await zoneOf('洛杉矶')).toBe('Time zone: America/Los_Angeles (UTC-08:00)');
    expect(await zoneOf('Mumbai')).toBe('Time zone: Asia/Kolkata (UTC+05:30)');
    expect(await zoneOf('新德里')).toBe('Time zone: Asia/Kolkata (UTC+05:30)');
    expect(await zoneOf('河内')).toBe('Time zone: Asia/Ho_Chi_Minh (UTC+07:00)');
    expect(await zoneOf('悉尼')).toBe('Time zone: Australia/Sydney (UTC+11:00)');
    expect(await zoneOf('檀香山')).toBe('Time zone: Pacific/Honolulu (UTC-10:00)');
    expect(await zoneOf('东京时间')).toBe('Time zone: Asia/Tokyo (UTC+09:00)');
  });

  it('finds any other city that names a zone', async () => {
    expect(await run(MONDAY, 'en', 'Reykjavik')).toContain('Time zone: Atlantic/Reykjavik (UTC+00:00)');
    expect(await run(MONDAY, 'en', 'kathmandu')).toContain('(UTC+05:45)');
    expect(await run(MONDAY, 'en', 'Buenos Aires')).toContain('(UTC-03:00)');
  });

  it('takes an offset from UTC, whole hours or not', async () => {
    expect(await run(MONDAY, 'en', 'UTC+8')).toContain('Time zone: Etc/GMT-8 (UTC+08:00)');
    expect(await run(MONDAY, 'en', 'gmt-5')).toContain('(UTC-05:00)');
    expect(await run(MONDAY, 'en', 'UTC+5:30')).toContain('Time zone: Asia/Kolkata (UTC+05:30)');
    expect(await run(MONDAY, 'en', 'UTC+0')).toContain('Time zone: UTC (UTC+00:00)');
    expect(await failure(MONDAY, 'en', 'UTC+5:17')).toMatch(/not a time zone I know/);
  });

  it('keeps an IANA name as IANA spells it', async () => {
    expect(await run(MONDAY, 'en', 'Asia/Kolkata')).toContain('Time zone: Asia/Kolkata (UTC+05:30)');
  });

  it('accepts IANA names in any case', async () => {
    expect(await run(MONDAY, 'en', 'asia/tokyo')).toContain('Time zone: Asia/Tokyo (UTC+09:00)');
  });

  it('names an unknown zone and gives an example', async () => {
    expect(await failure(MONDAY, 'zh', 'Mars/Olympus')).toBe(
      '无法识别时区「Mars/Olympus」，请使用 IANA 时区名，例如 Asia/Shanghai 或 America/New_York。',
    );
    expect(await failure(MONDAY, 'en', 'Atlantis')).toBe(
      '"Atlantis" is not a time zone I know. Use an IANA name such as Asia/Shanghai or America/New_York.',
    );
  });

  it('gives its card the date, time and zone as the title, and the time as ISO 8601 with the facts the text states', async () => {
    const tool = createCurrentTimeTool({ now: () => MONDAY, defaultTimeZone: 'Asia/Shanghai' });
    expect(await tool.execute({}, ctx('en'))).toEqual({
      output: expect.stringContaining('It is Monday, November 30, 2026, 13:15:00'),
      title: '2026-11-30 13:15:00 Asia/Shanghai',
      metadata: {
        timeZone: 'Asia/Shanghai',
        iso: '2026-11-30T13:15:00+08:00',
        utcOffset: 'UTC+08:00',
        weekday: 'Monday',
        daysUntilWeekend: 5,
      },
    });
  });
});
