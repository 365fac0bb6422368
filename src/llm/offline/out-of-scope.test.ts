import { describe, expect, it } from 'vitest';
import { createOfflinePlanner } from './planner.js';
import { memoryPrefs, specsFor, step } from './testing.js';

const first = (text: string, tools = specsFor()) =>
  step(createOfflinePlanner({ prefs: memoryPrefs() }), [{ role: 'user', content: text }], tools);

/** [what the user says, what the short reply must offer] */
const MISSES: Array<[string, RegExp]> = [
  ['帮我定个早上七点的闹钟', /做不到。.*待办/],
  ['下午三点的会议帮我放进日历', /做不到。.*待办/],
  ['帮我订一张去上海的火车票', /做不到。.*待办/],
  ['给老板发一封邮件说我请假', /做不到。.*文件/],
  ['帮我发微信给妈妈', /做不到。.*文件/],
  ['100美元现在的汇率是多少', /做不到。.*算一下/],
  ['设一个十分钟的倒计时', /做不到。.*几点/],
  ['今天出门穿什么好', /做不到。.*天气/],
  ['把 old.txt 这个文件删除掉', /做不到。|读、写和列出/],
  ['明天早上六点叫醒我', /做不到。.*待办/],
  ['把这个发到我邮箱', /做不到。.*文件/],
  ['给我讲个笑话', /^抱歉，这个我在离线模式下做不到。说「你能做什么」/],
  ['翻译一下这句话', /你能做什么/],
  ['set an alarm for 7am', /^Sorry, I can't do that in offline mode\. The closest .*todo/],
  ['put the dentist appointment in my calendar', /todo/],
  ['send an email to my boss', /workspace file/],
  ["what's the exchange rate for euros", /arithmetic/],
  ['start a 5 minute timer', /time here/],
  ['what should I wear today', /weather/],
  ['write me a poem about autumn', /^Sorry, I can't do that in offline mode\. Say "help"/],
  ['who won the world cup', /help/],
  ['把这段话翻译成英文：今天天气很好', /^抱歉，这个我在离线模式下做不到。/],
  ['translate "what time is it" into Spanish', /^Sorry, I can't do that in offline mode\./],
  ['帮我删除 notes.txt', /读、写和列出/],
  ['notes.txt 删掉吧', /读、写和列出/],
  ['rename a.txt to b.txt', /read, write and list/],
  ['给我妈打个电话', /^抱歉，这个我在离线模式下做不到。/],
  ['play some music from 2020', /^Sorry, I can't do that in offline mode\./],
  ['帮我订一张明天去北京的机票，三点的', /待办/],
  ['帮我叫个车', /^抱歉，这个我在离线模式下做不到。/],
  ['新建文件夹 docs', /文件/],
  ['帮我订明天下午3点的会议室', /待办/],
];

describe('out of scope: one short sentence and the nearest thing', () => {
  it.each(MISSES)('%s', async (text, expected) => {
    const r = await first(text);
    expect(r.calls).toEqual([]);
    expect(r.text).toMatch(expected);
    // Short: no capability list, at most two sentences on one line.
    expect(r.text).not.toContain('\n');
    expect(r.text.length).toBeLessThan(140);
  });

  it('leaves requests with the same words to their tools', async () => {
    expect((await first('记一下 给妈妈打电话')).parsed.map((c) => c.name)).toEqual(['todo_add']);
    expect((await first('把翻译好的稿子写到 a.txt')).parsed.map((c) => c.name)).toEqual(['file_write']);
    expect((await first('打开 notes.txt')).parsed.map((c) => c.name)).toEqual(['file_read']);
  });

  it('answers in the language of the message', async () => {
    expect((await first('帮我写一首诗')).text).toMatch(/[\u4e00-\u9fff]/);
    expect((await first('sing me a song')).text).not.toMatch(/[\u4e00-\u9fff]/);
  });

  it('does not offer a tool that is not there', async () => {
    const r = await first('帮我定个闹钟', specsFor(['calculator']));
    expect(r.text).not.toContain('待办');
    expect(r.text).toContain('你能做什么');
  });

  it('keeps the full list for an explicit help', async () => {
    for (const text of ['你能做什么', 'help', 'what can you do']) {
      const r = await first(text);
      expect(r.text.split('\n').length, text).toBeGreaterThan(4);
    }
  });
});
