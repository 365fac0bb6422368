/**
 * Questions about days and clocks, as people type them, answered offline through the real clock
 * tool at a pinned moment: the planner must call the tool (with the place asked about) and answer
 * with the date and the weekday worked out from what the tool reported.
 */
import { describe, expect, it } from 'vitest';
import { detectLang } from '../../i18n.js';
import { createCurrentTimeTool } from '../../tools/current-time.js';
import { outputText, type ToolContext } from '../../tools/tool.js';
import type { ChatMessage } from '../types.js';
import { createOfflinePlanner } from './planner.js';
import { memoryPrefs, turn } from './testing.js';

// Wednesday 29 July 2026, 09:00 in Shanghai.
const WED = new Date('2026-07-29T01:00:00Z');
// Saturday 26 December 2026, 23:30 in Shanghai: already Sunday in Tokyo, still Saturday morning in New York.
const SAT = new Date('2026-12-26T15:30:00Z');

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

async function ask(at: Date, text: string, history: ChatMessage[] = []) {
  const llm = createOfflinePlanner({ prefs: memoryPrefs(), now: () => at, timeZone: 'Asia/Shanghai' });
  const clock = createCurrentTimeTool({ now: () => at, defaultTimeZone: 'Asia/Shanghai' });
  return turn(llm, history, text, async (c) => {
    try {
      return outputText(await clock.execute(JSON.parse(c.arguments), ctx(text)));
    } catch (err) {
      return `Error: ${(err as Error).message}`;
    }
  });
}

/** [what the user says, what the reply must contain (each a regex)] at WED. */
const WHICH_DAY: Array<[string, RegExp[]]> = [
  ['明天几号', [/明天是 7月30日，星期四/]],
  ['明天星期几？', [/7月30日，星期四/]],
  ['后儿个星期几', [/后天是 7月31日，星期五/]],
  ['大后天是几号啊', [/8月1日，星期六/]],
  ['3天后是几号', [/3天后是 8月1日，星期六/]],
  ['十天以后是几月几号', [/8月8日，星期六/]],
  ['再过两天是星期几', [/7月31日，星期五/]],
  ['下礼拜一几号', [/下周一是 8月3日/]],
  ['下周三是几号', [/8月5日/]],
  ['这周五几号', [/7月31日/]],
  ['周日是几号', [/8月2日，星期日/]],
  ['星期天几号', [/8月2日/]],
  ['上周五几号来着', [/7月24日，星期五/]],
  ['昨天几号', [/昨天是 7月28日，星期二/]],
  ['前天星期几', [/7月27日，星期一/]],
  ['下个月1号星期几', [/8月1日是星期六/]],
  ['8月20日是星期几', [/8月20日是星期四/]],
  ['8.20是周几', [/8月20日是星期四/]],
  ['2026年10月1日是星期几', [/星期四/]],
  ['明年元旦是星期几', [/2027年1月1日，星期五/]],
  ['中秋节是哪天', [/中秋节是 9月25日，星期五（还有 58 天）/]],
  ['一周后是几号', [/8月5日，星期三/]],
  ["what's tomorrow's date", [/Tomorrow is Thursday, July 30/]],
  ['tmrw date?', [/Thursday, July 30/]],
  ['what day is August 20', [/August 20 is a Thursday/]],
  ['what day of the week is 8/20', [/Thursday/]],
  ["what's the date next Tue", [/Next Tuesday is August 4/]],
  ['day after tomorrow is what day', [/Friday, July 31/]],
  ['in 10 days what date will it be', [/In 10 days it will be Saturday, August 8/]],
  ['what was the date 3 days ago', [/3 days ago it was Sunday, July 26/]],
  ['what date is this Friday', [/This Friday is July 31/]],
  ['when is next saturday', [/Next Saturday is August 8/]],
  ['what date is thanksgiving this year', [/Thursday, November 26/]],
  ['明天是几号，后天星期几', [/7月30日，星期四/, /7月31日，星期五/]],
  ['2027年春节是几号', [/2027年2月6日，星期六/]],
  ['去年圣诞节是星期几', [/2025年12月25日，星期四/]],
  ['when is easter 2027', [/Sunday, March 28, 2027/]],
  ['离高考还有多少天', [/高考（2027年6月7日，星期一）还有 313 天/]],
  ['what day of the week was July 4 1976', [/July 4, 1976 was a Sunday/]],
];

/** Days until, since and between, at WED. */
const HOW_MANY: Array<[string, RegExp[]]> = [
  ['离周五还有几天', [/离周五（7月31日，星期五）还有 2 天/]],
  ['周末还有几天', [/还有 3 天/, /8月1日/]],
  ['离周末还有几天啊', [/离周末（8月1日，星期六）还有 3 天/]],
  ['距离10月1日还有多少天', [/离10月1日（星期四）还有 64 天/]],
  ['离国庆还有多少天', [/国庆节（10月1日，星期四）还有 64 天/]],
  ['还有几天到下周一', [/5 天/, /8月3日/]],
  ['离圣诞节还有多久', [/149 天/]],
  ['how many days until Saturday', [/3 days until Saturday \(Saturday, August 1\)/]],
  ['how long until the weekend?', [/3 days until the weekend \(Saturday, August 1\)/]],
  ['days until christmas', [/149 days until Christmas \(Friday, December 25\)/]],
  ['how many days till next friday', [/9 days/, /August 7/]],
  ['how many days between March 1 and March 20', [/19 days/]],
  ['3月1日到3月20日有多少天', [/相隔 19 天/]],
  ['how many days since new year', [/209 days have passed since New Year's Day \(Thursday, January 1\)/]],
  ['元旦到现在过了多少天', [/已经过去 209 天/]],
  ['这个月还剩几天', [/月底（7月31日，星期五）还有 2 天/]],
  ['今年还剩多少天', [/还有 155 天/]],
  ['今天是今年的第几天', [/第 210 天/]],
  ['这周是今年第几周', [/第 31 周/]],
  ['is it the weekend yet', [/Today \(Wednesday, July 29\) is a weekday/, /in 3 days/]],
  ['今天是工作日吗', [/今天（7月29日，星期三）是工作日/, /没有算法定节假日/]],
  ['周六要上班吗', [/周六（8月1日，星期六）是周末/]],
  ['is tomorrow a weekday', [/Tomorrow \(Thursday, July 30\) is a weekday/]],
  ['明天是周四吗', [/是的，明天（7月30日）是星期四。/]],
  ['后天是不是周六', [/不是，后天（7月31日）是星期五，不是星期六。/]],
  ['is it friday tomorrow', [/No: Tomorrow \(July 30\) is a Thursday, not a Friday\./]],
  ['tomorrow is thursday, right?', [/Yes: Tomorrow \(July 30\) is a Thursday\./]],
  ['is next monday the 3rd', [/Yes: Next Monday is Monday, August 3\./]],
  ['下周一是4号吗', [/不是，下周一是 8月3日，星期一。/]],
  ['8月20日是星期四吗', [/是的，8月20日是星期四。/]],
];

describe('offline planner: which day a day is', () => {
  it.each([...WHICH_DAY, ...HOW_MANY])('%s', async (text, wanted) => {
    const r = await ask(WED, text);
    expect(r.calls.map((c) => c.name)).toEqual(['current_time']);
    expect(r.calls[0].args).toEqual({});
    for (const w of wanted) expect(r.reply).toMatch(w);
  });

  it('answers the day asked of it, not the day of a weather request beside it', async () => {
    const r = await ask(WED, '北京明天天气怎么样，另外今天星期几');
    expect(r.reply).toContain('现在是 2026年7月29日 星期三');
    expect(r.reply).not.toContain('7月30日');
    const d = await ask(WED, '记一下周五交报告，再告诉我明天几号');
    expect(d.reply).toContain('明天是 7月30日，星期四。');
    expect(d.reply).not.toContain('7月31日');
  });

  it('answers today with the clock itself', async () => {
    const r = await ask(WED, '今天几号');
    expect(r.reply).toContain('现在是 2026年7月29日 星期三 09:00:00');
  });

  it('follows a day with another', async () => {
    const a = await ask(WED, '明天几号');
    const b = await ask(WED, '那后天呢', a.messages);
    expect(b.calls).toEqual([{ name: 'current_time', args: {} }]);
    expect(b.reply).toBe('后天是 7月31日，星期五。');
    const c = await ask(WED, 'what about next friday?', b.messages);
    expect(c.reply).toContain('August 7');
  });

  it('counts from the day where the question is asked, across a year end', async () => {
    expect((await ask(SAT, '明天几号')).reply).toBe('明天是 12月27日，星期日。');
    expect((await ask(SAT, '离周末还有几天')).reply).toContain('已经是周末了');
    expect((await ask(SAT, 'what date is it in 10 days')).reply).toContain('Tuesday, January 5, 2027');
    expect((await ask(SAT, '离元旦还有几天')).reply).toContain('还有 6 天');
    expect((await ask(SAT, 'days until christmas')).reply).toContain('364 days');
    expect((await ask(SAT, '这周五是几号')).reply).toContain('12月25日');
    const tokyo = await ask(SAT, '东京明天是几号');
    expect(tokyo.calls).toEqual([{ name: 'current_time', args: { timezone: '东京' } }]);
    expect(tokyo.reply).toContain('明天是 12月28日，星期一');
    const newYork = await ask(SAT, "what's the date tomorrow in New York");
    expect(newYork.calls).toEqual([{ name: 'current_time', args: { timezone: 'New York' } }]);
    expect(newYork.reply).toContain('Sunday, December 27');
    expect((await ask(SAT, '东京今天星期几')).reply).toContain('星期日');
  });
});

/** [what the user says, the place the call must carry]. */
const PLACES: Array<[string, string]> = [
  ['东京现在几点', '东京'],
  ['纽约那边几点了', '纽约'],
  ['现在伦敦是几号', '伦敦'],
  ['what time is it in Sydney right now', 'Sydney'],
  ['首尔时间', '首尔'],
  ['迪拜现在几点钟', '迪拜'],
  ['whats the time in los angeles', 'los angeles'],
  ['莫斯科几点了', '莫斯科'],
  ['温哥华那边现在几点', '温哥华'],
  ['Berlin time now?', 'Berlin'],
  ['现在巴黎几点', '巴黎'],
  ['what time is it in Mexico City', 'Mexico City'],
  ['新加坡现在几点', '新加坡'],
  ['帮我看下曼谷现在几点', '曼谷'],
  ['time in sao paulo', 'sao paulo'],
  ['现在旧金山是几点', '旧金山'],
  ['开罗现在是几号', '开罗'],
  ['what time is it in Reykjavik', 'Reykjavik'],
  ["what's the current time in GMT+8", 'GMT+8'],
  ['UTC+5:30现在几点', 'UTC+5:30'],
  ['Asia/Kolkata time', 'Asia/Kolkata'],
  ['美国现在几点', '美国'],
  ['现在几点？我在纽约', '纽约'],
];

describe('offline planner: the time in a place', () => {
  it.each(PLACES)('%s', async (text, place) => {
    const r = await ask(WED, text);
    expect(r.calls).toEqual([{ name: 'current_time', args: { timezone: place } }]);
    expect(r.reply).not.toMatch(/抱歉|Sorry/);
  });

  it.each<[string, string[], RegExp]>([
    ['东京和北京差几个小时', ['东京', '北京'], /东京比北京快 1 小时。/],
    ['纽约比北京晚几个小时', ['纽约', '北京'], /纽约比北京慢 12 小时。/],
    ['time difference between London and Shanghai', ['London', 'Shanghai'], /London is 7 hours behind Shanghai\./],
    ['孟买跟北京时差多少', ['孟买', '北京'], /孟买比北京慢 2 小时 30 分钟。/],
    ['how many hours ahead is Tokyo', ['Tokyo'], /Tokyo is 1 hour ahead of your time\./],
    ['我这边和巴黎差几个小时', ['巴黎'], /巴黎比你这里慢 6 小时。/],
  ])('%s: two clocks and how far apart', async (text, places, line) => {
    const r = await ask(WED, text);
    expect(r.calls.map((c) => c.args.timezone).filter(Boolean)).toEqual(places);
    expect(r.calls).toHaveLength(2);
    expect(r.reply).toMatch(line);
  });

  it.each<[string, Array<string | undefined>, RegExp]>([
    ['北京时间晚上8点是纽约几点', ['北京时间', '纽约'], /北京时间 20:00 是纽约 08:00（同一天）。/],
    ['如果伦敦是早上9点，北京是几点', ['伦敦', '北京'], /伦敦 09:00 是北京 16:00（同一天）。/],
    ['东京上午10点是北京几点', ['东京', '北京'], /东京 10:00 是北京 09:00（同一天）。/],
    ['下午3点东京是几点', [undefined, '东京'], /你这里 15:00 是东京 16:00（同一天）。/],
    ['我这边晚上十点半，洛杉矶是几点', [undefined, '洛杉矶'], /你这里 22:30 是洛杉矶 07:30（同一天）。/],
    [
      "what time is it in London when it's 9am in Tokyo",
      ['Tokyo', 'London'],
      /09:00 in Tokyo is 01:00 in London, the same day\./,
    ],
    ['what time is 3pm EST in Shanghai', ['EST', 'Shanghai'], /15:00 in EST is 03:00 in Shanghai, the next day\./],
    ['what time is 6pm London time here', ['London', undefined], /18:00 in London is 01:00 your time, the next day\./],
    ['9am Beijing time in Paris?', ['Beijing', 'Paris'], /09:00 in Beijing is 03:00 in Paris, the same day\./],
  ])('%s: a time said in one place, in another', async (text, places, line) => {
    const r = await ask(WED, text);
    expect(r.calls.map((c) => c.args.timezone)).toEqual(places);
    expect(r.reply).toMatch(line);
  });

  it('gives both clocks when two places are asked at once', async () => {
    const r = await ask(WED, 'what time is it in Tokyo and London');
    expect(r.calls.map((c) => c.args.timezone)).toEqual(['Tokyo', 'London']);
    expect(r.reply.split('\n')).toEqual([
      'Tokyo: Wednesday, July 29, 10:00 (Asia/Tokyo, UTC+09:00)',
      'London: Wednesday, July 29, 02:00 (Europe/London, UTC+01:00)',
      'Tokyo is 8 hours ahead of London.',
    ]);
    expect((await ask(WED, '加州现在几点')).calls).toEqual([{ name: 'current_time', args: { timezone: '加州' } }]);
  });

  it('keeps the clock’s own answer for a plain time question', async () => {
    const r = await ask(WED, 'what time is it in Tokyo');
    expect(r.reply).toBe(
      [
        'It is Wednesday, July 29, 2026, 10:00:00',
        'Time zone: Asia/Tokyo (UTC+09:00)',
        '3 days until the weekend (Saturday).',
      ].join('\n'),
    );
  });
});
