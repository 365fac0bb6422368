import { describe, expect, it } from 'vitest';
import { evaluateExpression } from '../../tools/calculator.js';
import { decimalsAsked, spellAmounts } from './arithmetic-words.js';
import { createOfflinePlanner } from './planner.js';
import { memoryPrefs, step, turn } from './testing.js';

const planner = () => createOfflinePlanner({ prefs: memoryPrefs() });

/** What the calculator would answer for the planner's expression, or why there is none. */
async function answer(text: string): Promise<string> {
  const r = await step(planner(), [{ role: 'user', content: text }]);
  const calc = r.parsed.find((c) => c.name === 'calculator');
  if (!calc) return `no calculation (${r.parsed.map((c) => c.name).join(',') || r.text})`;
  return evaluateExpression(String(calc.args.expression), 'en');
}

/** [what the user says, the value it asks for] */
const CASES: Array<[string, string]> = [
  // discounts
  ['这件外套 300 块，打七折多少钱', '210'],
  ['原价 299 打八五折是多少', '254.15'],
  ['480 元的鞋子打个 75 折', '360'],
  ['1200 打 8.5 折后多少', '1020'],
  ['200块半价是多少', '100'],
  ['a jacket is 80 dollars with 20% off, how much is it', '64'],
  ['what is 20 percent off 150', '120'],
  ['250 with a discount of 10%', '225'],
  ['工资 8000 涨了 5% 是多少', '8400'],
  ['a 60 dollar meal plus 15% tip', '69'],
  // amounts with 万/千
  ['3万5 乘以 12 是多少', '420000'],
  ['1.2万除以4等于多少', '3000'],
  ['两千三加一千七等于多少', '4000'],
  ['月薪 1万2 一年多少，算一下 1万2*12', '144000'],
  ['5k + 2.5k 等于多少', '7500'],
  // averages and splits
  ['我们4个人吃饭花了360，平均每人多少', '90'],
  ['晚饭 450 块，三个人 AA 每人多少', '150'],
  ['split 90 between 4', '22.5'],
  ['split the 120 dollar bill among 3 friends', '40'],
  ['三次考试 85 90 95，平均分是多少', '90'],
  ['average of 3, 5 and 10', '6'],
  ['what is the mean of 2 4 6 8', '5'],
  ['这三天花了 30+25+35，平均每天多少', '30'],
  ['30+25+35 的平均数是多少', '30'],
  ['4 people share 100 equally, how much each', '25'],
  // powers and roots in words
  ['16开根号是多少', '4'],
  ['根号2等于多少', '1.4142135623731'],
  ['81的平方根', '9'],
  ['27的立方根是多少', '3'],
  ['5的平方是多少', '25'],
  ['3的立方等于几', '27'],
  ['what is the square root of 144', '12'],
  ['what is 7 squared', '49'],
  ['what is 4 cubed', '64'],
  ['2 to the power of 8', '256'],
  ['what is 2 to the 10th power', '1024'],
  ['cube root of 64', '4'],
  // shares
  ['what is 15 percent of 80', '12'],
  ['80 的 15% 是多少', '12'],
  ['25% of 360', '90'],
  ['百分之二十的 50 是多少', '10'],
  ['half of 90', '45'],
  ['what is a third of 90', '30'],
  ['a quarter of 200', '50'],
  ['three quarters of 80', '60'],
  ['90的一半是多少', '45'],
  ['90的三分之一是多少', '30'],
  ['45的两倍是多少', '90'],
  ['算一下 (1+5%)*200', '210'],
  ['(100-20%)*3 等于多少', '240'],
  ['200+10% 是多少', '220'],
  ['一件T恤120元打九折多少钱', '108'],
  ['两百块打八折', '160'],
  ['what is 120 minus 15%', '102'],
  ['(200+300)*(1-15%) 是多少', '425'],
  ['三百六十块钱四个人平分', '90'],
  ['总共 1,250 元，5 个人 AA', '250'],
  ['split a 200 bill 4 ways', '50'],
  ['divide 100 among 8 people', '12.5'],
  ['平均一下 12 15 18', '15'],
  ['12万的3%是多少', '3600'],
  ['1.5万 加 3千 等于多少', '18000'],
  ['根号下 225', '15'],
  ['5 to the power 3', '125'],
  ['100的四分之一', '25'],
  ['我们五个人吃火锅一共花了 640 元，人均多少', '128'],
  ['原价 80，打 75 折，再减 10 块是多少', '50'],
  ['100块的东西打8折再打9折', '72'],
  ['一共 3 人，车费 156，每人出多少', '52'],
  ['考了 88、92、79 和 95，平均多少分', '88.5'],
  ['开根号 81', '9'],
  ['3的平方加4的平方再开根号', '5'],
  ['twenty percent of 50', '10'],
  ['what is twenty five plus seventeen', '42'],
  ['1/4 of 100', '25'],
  ['3/4 of 200', '150'],
  ['5万块钱的5%', '2500'],
  ['tip 18% on 45', '53.1'],
  ['3.5k*12', '42000'],
  ['一万二的一半', '6000'],
  ['200的八折是多少', '160'],
  ['一百块打八折', '80'],
  ['八折以后 350 元的东西多少钱', '280'],
  ['what is 30% off 59.99', '41.993'],
  ['9开方', '3'],
  ['what is the average of 7 and 10', '8.5'],
  ['seven squared', '49'],
  ['我买了3本书每本25元一共多少', '75'],
  ['五斤苹果，每斤 6.5 元，一共多少钱', '32.5'],
  ['4 tickets at 12 each, how much in total', '48'],
  // interest
  ['1000块存一年利率3%，利息多少', '30'],
  ['10000 存 3 年，年利率 2%，利息是多少', '600'],
  ['5000 at 4% interest for 2 years', '400'],
  // what is left
  ['我有100块花了30还剩多少', '70'],
  ['钱包里 500，买菜花了 120，打车用了 45，还剩多少', '335'],
  ['I had 80 dollars and spent 25, how much is left', '55'],
];

describe('arithmetic in words', () => {
  it.each(CASES)('%s → %s', async (text, value) => {
    expect(await answer(text)).toBe(value);
  });

  it('leaves what is no calculation alone', async () => {
    for (const text of ['记一下 周五买打折的牛奶', '我有 3 个苹果', '每天跑 5 公里']) {
      expect(await answer(text), text).toMatch(/^no calculation/);
    }
  });
});

describe('amounts and decimals', () => {
  it.each([
    ['3万5', '35000'],
    ['1.2万', '12000'],
    ['3万5千', '35000'],
    ['2千', '2000'],
    ['5k', '5000'],
    ['5千米', '5千米'],
    ['100千克', '100千克'],
  ])('%s → %s', (text, out) => expect(spellAmounts(text)).toBe(out));

  it.each([
    ['保留两位小数', 2],
    ['保留2位小数', 2],
    ['精确到小数点后三位', 3],
    ['四舍五入取整', 0],
    ['round to two decimal places', 2],
    ['to 3 decimals', 3],
    ['rounded to the nearest whole number', 0],
    ['to the nearest cent', 2],
    ['keep one decimal', 1],
  ] as const)('%s → %d places', (text, places) => expect(decimalsAsked(`10/3 ${text}`)?.places).toBe(places));

  const calculator = async (call: { arguments: string }) =>
    evaluateExpression(JSON.parse(call.arguments).expression, 'zh');

  it('honours the decimals asked for in the reply', async () => {
    expect((await turn(planner(), [], '10 除以 3，保留两位小数', calculator)).reply).toBe('10 除以 3 ≈ 3.33');
    expect((await turn(planner(), [], 'what is 2/3 to 3 decimal places', calculator)).reply).toBe('2/3 ≈ 0.667');
    expect((await turn(planner(), [], '100 除以 7 四舍五入取整', calculator)).reply).toBe('100 除以 7 ≈ 14');
    expect((await turn(planner(), [], '9 除以 4 保留 3 位小数', calculator)).reply).toBe('9 除以 4 = 2.250');
    expect((await turn(planner(), [], '原价 299 打八五折，保留一位小数', calculator)).reply).toMatch(/≈ 254\.2$/);
    expect((await turn(planner(), [], '123.456 保留一位小数', calculator)).reply).toBe('123.456 ≈ 123.5');
    expect((await turn(planner(), [], 'square root of 2 to 3 decimal places', calculator)).reply).toBe('√2 ≈ 1.414');
  });
});
