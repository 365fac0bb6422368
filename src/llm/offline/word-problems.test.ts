/**
 * Word problems whose question says what to compute, and unit conversions: what the calculator
 * answers for the expression the planner hands it.
 */
import { describe, expect, it } from 'vitest';
import { evaluateExpression } from '../../tools/calculator.js';
import { createOfflinePlanner } from './planner.js';
import { memoryPrefs, step, turn } from './testing.js';

const planner = () => createOfflinePlanner({ prefs: memoryPrefs() });

async function answer(text: string): Promise<string> {
  const r = await step(planner(), [{ role: 'user', content: text }]);
  const calc = r.parsed.filter((c) => c.name === 'calculator');
  if (calc.length !== 1 || r.parsed.length !== 1)
    return `not one calculation (${r.parsed.map((c) => c.name).join(',') || r.text})`;
  return evaluateExpression(String(calc[0].args.expression), 'en');
}

const CASES: Array<[string, string]> = [
  // percent change and shares of a whole
  ['从 80 涨到 100 涨了百分之几', '25'],
  ['股票从50跌到40，跌了多少百分比', '20'],
  ['went from 200 to 250, what percent increase', '25'],
  ['去年收入12万今年15万增长率多少', '25'],
  ['今年15万，去年12万，增长了百分之多少', '25'],
  ['price dropped from 80 to 60, what is the percentage decrease', '25'],
  ['原价200现价150，便宜了百分之几', '25'],
  ['30是50的百分之几', '60'],
  ['what percent of 80 is 20', '25'],
  ['15 is what percent of 60', '25'],
  ['工资8千5，房租占三分之一，房租多少', '2833.33333333333'],
  ['月收入一万，房租占30%，房租多少钱', '3000'],
  ['含税价106元，税率6%，不含税多少', '100'],
  // sums of ranges, offers
  ['1到100加起来是多少', '5050'],
  ['从1加到50等于多少', '1275'],
  ['sum of the numbers from 1 to 10', '55'],
  ['满200减30，我买了260的东西要付多少', '230'],
  ['每满100减15，买了350要付多少', '305'],
  ['满300减50，买了280付多少', '280'],
  // the price of one, rates over periods
  ['5斤苹果30块，一斤多少钱', '6'],
  ['3 pounds of apples cost 7.5, how much per pound', '2.5'],
  ['12瓶水36元，每瓶多少钱', '3'],
  ['每月存1500，一年存多少', '18000'],
  ['一年365天，每天读20页，一年读多少页', '7300'],
  ['每天走8000步，一周走多少步', '56000'],
  ['时薪每小时25元，干了8小时，一共多少', '200'],
  ['I save 200 a week, how much in a year', '10400'],
  ['20 pages a day, how many pages in 2 weeks', '280'],
  // unit conversions
  ['1小时45分钟是多少分钟', '105'],
  ['3.5小时是多少分钟', '210'],
  ['150分钟是几小时', '2.5'],
  ['一天有多少小时', '24'],
  ['how many minutes in 3.5 hours', '210'],
  ['72 km/h 是每秒多少米', '20'],
  ['5 miles in km', '8.04672'],
  ['2公斤是几斤', '4'],
  ['how many grams is 2.5 kg', '2500'],
  ['30摄氏度是多少华氏度', '86'],
  ['convert 212 F to C', '100'],
  ['3周是几天', '21'],
  // operations worded around the numbers
  ['120块减30是多少', '90'],
  ['3乘5再加2', '17'],
  ['20% of 50 plus 10', '20'],
  ['10 squared plus 5 squared', '125'],
  ['负五加三', '-2'],
  ['10的负2次方', '0.01'],
  ['3的阶乘', '6'],
  ['5!', '120'],
  ['factorial of 6', '720'],
  ['100 mod 7', '2'],
  ['100除以7的余数', '2'],
  ['what is the remainder when 100 is divided by 7', '2'],
  ['π乘以2', '6.28318530717959'],
  // prices: several items, coupons, back to the price before, taxes taken off, tips on their own
  ['一杯奶茶18块，买了3杯，用了5块优惠券，一共付多少', '49'],
  ['买3件T恤每件59，打九折后多少', '159.3'],
  ['优惠了20%后是160，原价多少', '200'],
  ['打完八折是240，原价多少', '300'],
  ['after 25% off it costs 60, what was the original price', '80'],
  ['我月薪1万，扣税10%，到手多少', '9000'],
  ['年终奖3万，扣20%个税后多少', '24000'],
  ['税后多少？税前8000，税率3%', '7760'],
  ['税前工资8000，税率3%，到手多少', '7760'],
  ['100块用了20块优惠券还要付多少', '80'],
  // speed, averages over a period, how long a total takes
  ['平均每天花多少，一周花了420', '60'],
  ['I spent 420 this week, how much per day on average', '60'],
  ['average speed if I drove 150 km in 2 hours', '75'],
  ['跑了10公里用了50分钟，时速多少', '12'],
  ['一共120页，每天看15页，几天看完', '8'],
  // areas and perimeters
  ['圆的半径是5，面积是多少', '78.5398163397448'],
  ['直径10的圆面积', '78.5398163397448'],
  ['半径3厘米的圆周长', '18.8495559215388'],
  ['长8米宽5米的房间面积', '40'],
  ['a 12 by 10 room, what is the area', '120'],
  ['长方形长6宽4，周长多少', '20'],
  ['边长5的正方形面积', '25'],
  ['三角形底6高4面积是多少', '12'],
  // money in 块 and 毛, colloquial operations, percentages of a fraction
  ['一个苹果3块5，买6个多少钱', '21'],
  ['2毛5加3毛', '0.55'],
  ['8除2等于几', '4'],
  ['100块打个对折', '50'],
  ["what's 3/8 in percent", '37.5'],
  ['7/8 是百分之多少', '87.5'],
  ['convert 0.75 to a percentage', '75'],
  ['how much is 3 apples at 2.5 each plus 2 oranges at 3 each', '13.5'],
  // everyday sums
  ['一斤苹果6块，买3斤半多少钱', '21'],
  ['买了两件衣服，一件199，一件299，一共多少', '498'],
  ['我这个月工资6500，房租2000，吃饭1500，还剩多少', '3000'],
  ['复利：本金1万，年利率5%，3年后多少', '11576.25'],
  ['1万块存3年定期利率2.75%到期多少', '10825'],
  ['打车起步价13，每公里2.3，坐了10公里多少钱', '36'],
  ['12个月分期，总价6000，每月还多少', '500'],
  ['身高175体重70 BMI多少', '22.8571428571429'],
  ['a car goes 60 mph for 2.5 hours, how far', '150'],
  ['油价7.5一升，加了40升多少钱', '300'],
  ['how many seconds in a day', '86400'],
  ['0.1 + 0.2 是不是 0.3', '0.3'],
  // order of a discount and an amount off, decimals said many ways, commas as separators
  ['原价200先减30再打九折', '153'],
  ['原价200打九折再减30', '150'],
  ['1000 增加 20% 再减少 20%', '960'],
  ['去掉20%还剩多少，总数450', '360'],
  ['原价 1280，现价 960，打了几折', '7.5'],
  ['was 80, now 60, what percent off', '25'],
  ['how much should I tip on a 120 bill at 15%', '18'],
  ['mean of 4,8,15,16,23,42', '18'],
  ['divide 100 by 4 people', '25'],
  ['3 to the 4th', '81'],
  ['10 to the power of -2', '0.01'],
  ['每人分多少，500块5个人', '100'],
  ['500/5 each person', '100'],
  // what a discount saves, one discount over several prices, prices per unit with a slash, a share of a total
  ['一台电脑原价6999，现在打85折，便宜了多少钱', '1049.85'],
  ['a 1200 dollar laptop is 15% off, how much do I save', '180'],
  ['shirt costs $25, pants cost $40, with 10% off everything', '58.5'],
  ['price with 8% sales tax: 50', '54'],
  ['3.5元/斤，买了4斤', '14'],
  ['$2.50/lb, 3 lbs', '7.5'],
  ['20%的人是多少人，总共150人', '30'],
  ['3万5的月薪，扣掉五险一金12%，到手多少', '30800'],
  // a bill changed by a tip, a fee or a discount, then shared
  ['吃饭花了520，加10%服务费，4个人AA每人多少', '143'],
  ['dinner was 240 plus 15% tip split between 4 people', '69'],
  ['总价800打八折后4个人平分', '160'],
  ['three of us split a 90 dollar bill with 20% tip', '36'],
  ['打完九折后 4 个人平摊 200 元', '45'],
  ['360/4人', '90'],
  // Chinese and English in one sum
  ['100 USD 的 20% 是多少', '20'],
  ['一共 3 items，每个 $12.5，total？', '37.5'],
  ['2的3次方 plus 5', '13'],
  ['帮我 calculate 一下 25% of 80', '20'],
  ['15 squared minus 5 squared', '200'],
  // money at a rate the user gives
  ['汇率7.2，100美元是多少人民币', '720'],
  ['100美元按7.1换算成人民币', '710'],
  ['700人民币换多少美元，汇率7', '100'],
  ['1 dollar = 7.2 yuan, 50 dollars is how many yuan', '360'],
];

describe('word problems and conversions', () => {
  it.each(CASES)('%s → %s', async (text, value) => {
    expect(await answer(text)).toBe(value);
  });

  it('says a percentage as one, and answers a trailing 多少 with the sum, not a note', async () => {
    const calc = async (c: { arguments: string }) => evaluateExpression(JSON.parse(c.arguments).expression, 'zh');
    expect((await turn(planner(), [], '从 80 涨到 100 涨了百分之几', calc)).reply).toBe('(100-80)/80*100 = 25%');
    expect((await turn(planner(), [], '这件衣服 480 七五折之后多少', calc)).reply).toBe('480*0.75 = 360');
  });

  it('keeps the decimals asked for, however they are said', async () => {
    const calc = async (c: { arguments: string }) => evaluateExpression(JSON.parse(c.arguments).expression, 'zh');
    for (const text of ['精确到0.01：10/3', '10/3 两位小数', '10/3 round to 2dp', "what's 10/3 to 2 d.p."]) {
      expect((await turn(planner(), [], text, calc)).reply, text).toBe('10/3 ≈ 3.33');
    }
  });

  it('says the bill with a tip worked out on its own', async () => {
    const calc = async (c: { arguments: string }) => evaluateExpression(JSON.parse(c.arguments).expression, 'en');
    expect((await turn(planner(), [], "my bill is 86.40, what's a 20% tip", calc)).reply).toBe(
      '86.4*20/100 = 17.28 (103.68 with it)',
    );
    expect((await turn(planner(), [], 'a 58 dollar meal plus 18% tip', calc)).reply).toBe('58*(1+18/100) = 68.44');
  });

  it('says a rate is needed for money in another currency', async () => {
    for (const text of ['100美元换人民币多少', '100 usd to cny']) {
      const r = await step(planner(), [{ role: 'user', content: text }]);
      expect(r.calls, text).toEqual([]);
      expect(r.text, text).toMatch(/100\*7\.2/);
    }
  });

  it('leaves sentences that only mention units alone', async () => {
    for (const text of [
      '我每天跑 5 公里',
      '一百米跑了多少秒',
      '还有几天到周五',
      '100 米是多少米',
      '记一下 买 2 公斤苹果',
      '三个人分一个48寸的披萨',
      '2026年有多少天',
    ]) {
      expect(await answer(text), text).toMatch(/^not one calculation/);
    }
  });
});

describe('going on from the last result', () => {
  const calc = async (c: { arguments: string }) => evaluateExpression(JSON.parse(c.arguments).expression, 'zh');

  it.each([
    ['算一下 100*3', '再加50', '(100*3)+50', '350'],
    ['100*3 等于多少', '结果除以 4', '(100*3)/4', '75'],
    ['算一下 1200+300', '再打个八折', '(1200+300)*0.8', '1200'],
    ['算一下 1200+300', '那一半呢', '(1200+300)/2', '750'],
    ["what's 25*8", 'then divide that by 4', '(25*8)/4', '50'],
    ["what's 25*8", 'double it', '(25*8)*2', '400'],
  ])('%s, then %s', async (first, then, expression, value) => {
    const a = await turn(planner(), [], first, calc);
    const b = await turn(planner(), a.messages, then, calc);
    expect(b.calls).toEqual([{ name: 'calculator', args: { expression } }]);
    expect(b.reply).toContain(value);
  });

  it('takes a sum further within one message as one calculation', async () => {
    expect(await answer('算一下 100*3，再除以4')).toBe('75');
  });

  it('does not go on from a calculation when the message is something else', async () => {
    const a = await turn(planner(), [], '算一下 2*2', calc);
    const b = await step(planner(), [...a.messages, { role: 'user', content: '记一下 加50块话费' }]);
    expect(b.parsed.map((c) => c.name)).toEqual(['todo_add']);
  });
});
