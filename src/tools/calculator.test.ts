import { Decimal } from 'decimal.js';
import { describe, expect, it, vi } from 'vitest';
import { calculatorTool, evaluateExpression } from './calculator.js';
import type { Lang } from '../i18n.js';
import { outputText, type ToolContext } from './tool.js';
import { ToolError } from '../contract/tool-error.js';

const ctx = (lang: Lang): ToolContext => ({
  sessionId: 's1',
  turnId: 't1',
  callId: 'c1',
  workspace: '/nonexistent',
  signal: new AbortController().signal,
  lang,
  ask: async (r) => (r.insideSandbox ? 'allow' : 'deny'),
  progress: () => {},
});

/** The message of the ToolError that `expression` must raise in `lang`. */
function refusal(expression: string, lang: Lang): string {
  try {
    evaluateExpression(expression, lang);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolError);
    return (error as ToolError).message;
  }
  throw new Error(`expected ${JSON.stringify(expression)} to be refused`);
}

const nested = (depth: number) => `${'('.repeat(depth)}1${')'.repeat(depth)}`;

describe('evaluateExpression: results', () => {
  const good: Array<[string, string]> = [
    ['(3+5)*2', '16'],
    ['1+2-3+10', '10'],
    ['6*7', '42'],
    ['10/4', '2.5'],
    ['7//2', '3'],
    ['-7//2', '-4'],
    ['7.5//2', '3'],
    ['7%3', '1'],
    ['-7%3', '2'], // Python: the remainder takes the divisor's sign
    ['7%-3', '-2'],
    ['4 % 2.5', '1.5'],
    ['2**10', '1024'],
    ['2^10', '1024'],
    ['2**3**2', '512'], // right-associative
    ['2^3^2', '512'],
    ['-2**2', '-4'], // power binds tighter than a leading minus, as in Python
    ['(-2)**2', '4'],
    ['(-2)**3', '-8'],
    ['2**-1', '0.5'],
    ['4**0.5', '2'],
    ['0**0', '1'],
    ['--3', '3'],
    ['+5', '5'],
    ['-0', '0'],
    ['1-1', '0'],
    // exact decimals
    ['0.1+0.2', '0.3'],
    ['0.1*3', '0.3'],
    ['0.1+0.7', '0.8'],
    ['1.1*1.1', '1.21'],
    ['1/3', '0.333333333333333'],
    ['2/3', '0.666666666666667'],
    ['1/3*3', '1'],
    ['123456789012345678+1', '123456789012345679'],
    ['2**60', '1152921504606846976'],
    ['123456789.123456789', '123456789.123457'],
    // exponent notation only beyond 1e21 or below 1e-7
    ['2**100', '1.26765060022823e+30'],
    ['1e21', '1e+21'],
    ['10**308', '1e+308'],
    ['0.000000123', '1.23e-7'],
    ['1e-8', '1e-8'],
    ['0.0001', '0.0001'],
    ['1e3+1', '1001'],
    ['2.5e-3', '0.0025'],
    ['1E3', '1000'],
    ['.5+5.', '5.5'],
    ['1,234,567 + 1', '1234568'],
    [' 1 +   2 ', '3'],
    // other spellings of the operators
    ['8 − 3', '5'], // U+2212
    ['6×7', '42'],
    ['9÷3', '3'],
    ['（3+5）×12', '96'],
    ['（１＋２）＊３', '9'],
    ['１２３．５ ＋ ０．５', '124'],
    ['７％３', '1'],
    ['２＾１０', '1024'],
    ['１，０００－１', '999'],
    ['3²', '9'],
    ['3²²', '31381059609'],
    // Chinese words
    ['3加5', '8'],
    ['3 加上 5', '8'],
    ['10减4', '6'],
    ['5 减去 2', '3'],
    ['6乘7', '42'],
    ['6乘以7', '42'],
    ['8除以2', '4'],
    ['2的10次方', '1024'],
    ['２的１０次方', '1024'],
    ['2的10次幂', '1024'],
    ['(1+1)的(2+1)次方', '8'],
    ['2的-1次方', '0.5'],
    ['3的平方', '9'],
    ['2立方', '8'],
    ['√16', '4'],
    ['根号2', '1.4142135623731'],
    ['9开方', '3'],
    // a trailing question is tolerated
    ['(3+5)*12 等于多少', '96'],
    ['(3+5)*12等于多少？', '96'],
    ['6*7是多少', '42'],
    ['10 // 3 等于几', '3'],
    ['1+1=', '2'],
    ['1+1 =?', '2'],
    ['1+1＝？', '2'],
  ];
  it.each(good)('%s → %s', (expression, expected) => {
    expect(evaluateExpression(expression, 'en')).toBe(expected);
    expect(evaluateExpression(expression, 'zh')).toBe(expected);
  });

  it('leaves the global Decimal configuration alone', () => {
    const before = Decimal.precision;
    evaluateExpression('1/3', 'en');
    expect(Decimal.precision).toBe(before);
  });
});

describe('evaluateExpression: refusals say why, in the turn language', () => {
  // [input, phrase in the Chinese message, phrase in the English message]
  const bad: Array<[string, string, string]> = [
    ['1/0', '除数不能为零', 'Division by zero'],
    ['5//0', '除数不能为零', 'Division by zero'],
    ['5%0', '除数不能为零', 'Division by zero'],
    ['0**-1', '除数不能为零', 'Division by zero'],
    ['2**1001', '指数太大（最多 1000）', 'exponent too large (at most 1000)'],
    ['2**-1001', '指数太大（最多 1000）', 'exponent too large (at most 1000)'],
    ['2**2**2**2**2', '指数太大（最多 1000）', 'exponent too large (at most 1000), got 65536'],
    [
      '9**999',
      '指数 999 对这个底数太大：结果约有 954 位数',
      'Exponent 999 is too large for this base: the result would have about 954 digits',
    ],
    ['10**309', '结果约有 310 位数', 'about 310 digits'],
    ['1e300*1e300', '结果太大', 'Result too large (magnitude beyond 1e308)'],
    ['1e309', '结果太大', 'Result too large'],
    ['(-8)**0.5', '结果不是实数', 'not a real number'],
    ['(-8)**(1/3)', '结果不是实数', 'not a real number'],
    ['√(-4)', '结果不是实数', 'not a real number'],
    ['', '表达式为空', 'Empty expression'],
    ['   ', '表达式为空', 'Empty expression'],
    ['=', '表达式为空', 'Empty expression'],
    ['(3+5', '缺少右括号“)”，第 1 个字符的左括号没有闭合', "missing closing parenthesis ')' for the '(' at position 1"],
    ['3+5)', '第 4 个字符的右括号“)”没有对应的左括号', "unmatched ')' at position 4"],
    ['3+', '表达式不完整', 'ends too early'],
    ['3 + * 4', '第 5 个字符处不应出现“*”', "Syntax error: unexpected '*' at position 5"],
    ['1 2', '第 3 个字符处不应出现“2”', "unexpected '2' at position 3"],
    ['()', '第 2 个字符处不应出现“)”', "unexpected ')' at position 2"],
    ['2(3)', '第 2 个字符处不应出现“(”', "unexpected '(' at position 2"],
    ['3 # 4', '第 3 个字符“#”无法识别', "Syntax error: unexpected character '#' at position 3"],
    ['5!', '第 2 个字符“!”无法识别', "unexpected character '!' at position 2"],
    ['abc', '第 1 个字符处的“abc”不是数字或运算符', "unknown word 'abc' at position 1"],
    ['3x4', '乘号请写 * 或 ×', "unknown word 'x' at position 2"],
    ['2e', '第 2 个字符处的“e”不是数字或运算符', "unknown word 'e' at position 2"],
    ['计算3加5', '“计算”不是数字或运算符', "unknown word '计算' at position 1"],
    ['1.2.3', '数字“1.2.3”格式不对', "malformed number '1.2.3' at position 1"],
    ['1,23', '数字“1,23”格式不对', "malformed number '1,23' at position 1"],
    ['6除2', '“除”有歧义', "'除' at position 2 is ambiguous"],
    ['2的10', '应为“次方”', "expected '次方'"],
    [
      '1'.repeat(1001),
      '表达式太长（1001 个字符，最多 1000 个）',
      'Expression too long (1001 characters, at most 1000)',
    ],
    [nested(250), '嵌套太深', 'Nested too deeply (at most 200 levels'],
    [`${'-'.repeat(400)}1`, '嵌套太深', 'Nested too deeply'],
  ];
  it.each(bad)('%s', (expression, zh, en) => {
    expect(refusal(expression, 'zh')).toContain(zh);
    expect(refusal(expression, 'en')).toContain(en);
  });

  it('positions count the characters the user typed, full-width included', () => {
    expect(refusal('（１＋）', 'en')).toBe("Syntax error: unexpected ')' at position 4");
    expect(refusal('３ ＃', 'en')).toBe("Syntax error: unexpected character '#' at position 3");
  });

  it('accepts nesting just under the limits', () => {
    expect(evaluateExpression(nested(150), 'en')).toBe('1');
    expect(evaluateExpression('1+'.repeat(499) + '1', 'en')).toBe('500');
  });

  it('refuses 9**999 from an estimate instead of computing it', () => {
    const started = performance.now();
    for (let i = 0; i < 20; i++) expect(refusal('9**999', 'en')).toContain('about 954 digits');
    expect(performance.now() - started).toBeLessThan(5_000); // generous: only catches a real computation
  });
});

describe('evaluateExpression: long runs of spaces cost no time', () => {
  // The tool is synchronous, so nothing could interrupt a slow parse: each must finish at once.
  const BUDGET_MS = 200; // generous: a backtracking blowup takes seconds
  const spaces = ' '.repeat(900);
  const cases: Array<[string, string, string]> = [
    ['spaces in the middle', `1${spaces}+2`, '3'],
    ['spaces at the end', `1+2${spaces}`, '3'],
    ['spaces in the middle and at the end', `1${' '.repeat(450)}+2${' '.repeat(450)}`, '3'],
    ['spaces before 等于多少', `(3+5)*12${spaces}等于多少`, '96'],
    [
      'spaces between every part of the question',
      `6*7${' '.repeat(300)}=${' '.repeat(300)}几${' '.repeat(300)}?`,
      '42',
    ],
    ['full-width spaces before ＝？', `1+1${'\u3000'.repeat(900)}＝？`, '2'],
  ];
  it.each(cases)('%s', (_name, expression, expected) => {
    expect(expression.length).toBeLessThanOrEqual(1000);
    const started = performance.now();
    expect(evaluateExpression(expression, 'en')).toBe(expected);
    expect(performance.now() - started).toBeLessThan(BUDGET_MS);
  });

  it('refuses quickly when the spaces lead nowhere', () => {
    const started = performance.now();
    expect(refusal(`1${' '.repeat(900)}+`, 'en')).toContain('ends too early');
    expect(refusal(`1${' '.repeat(900)}#`, 'en')).toContain("unexpected character '#' at position 902");
    expect(refusal(`${' '.repeat(900)}等于多少`, 'en')).toContain('Empty expression');
    expect(performance.now() - started).toBeLessThan(BUDGET_MS);
  });
});

describe('evaluateExpression: hostile input runs nothing', () => {
  const hostile = [
    '__import__("os").system("dir")',
    'process.exit()',
    "require('fs')",
    'constructor.constructor("globalThis.pwned = 1")()',
    '1;globalThis.pwned=1',
    '(()=>1)()',
    'this',
    'Infinity',
    'NaN',
    '0x10',
    '`${1}`',
    '1+1; while(true){}',
  ];
  it.each(hostile)('%s', (expression) => {
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    try {
      expect(refusal(expression, 'en')).toMatch(/^Syntax error: /);
      expect(refusal(expression, 'zh')).toMatch(/^语法错误：/);
      expect(exit).not.toHaveBeenCalled();
      expect((globalThis as { pwned?: unknown }).pwned).toBeUndefined();
    } finally {
      exit.mockRestore();
    }
  });
});

describe('calculatorTool', () => {
  it('publishes a JSON Schema with a described expression', () => {
    expect(calculatorTool.spec.name).toBe('calculator');
    expect(calculatorTool.spec.description).toMatch(/arithmetic/);
    const parameters = calculatorTool.spec.parameters as {
      type: string;
      properties: { expression: { type: string; description?: string } };
      required: string[];
    };
    expect(parameters.type).toBe('object');
    expect(parameters.required).toEqual(['expression']);
    expect(parameters.properties.expression.type).toBe('string');
    expect(parameters.properties.expression.description).toMatch(/\(3\+5\)\*12/);
  });

  it('returns only the result', async () => {
    expect(outputText(await calculatorTool.execute({ expression: '(3+5)*2' }, ctx('zh')))).toBe('16');
    expect(outputText(await calculatorTool.execute({ expression: '2的10次方' }, ctx('en')))).toBe('1024');
  });

  it('gives its card the sum as the title and the expression and result as metadata', async () => {
    expect(await calculatorTool.execute({ expression: ' (3+5)*2 ' }, ctx('en'))).toEqual({
      output: '16',
      title: '(3+5)*2 = 16',
      metadata: { expression: '(3+5)*2', result: '16' },
    });
  });

  it('fails with a ToolError in the turn language', () => {
    expect(() => calculatorTool.execute({ expression: '1/0' }, ctx('zh'))).toThrow(new ToolError('除数不能为零'));
    expect(() => calculatorTool.execute({ expression: '1/0' }, ctx('en'))).toThrow(new ToolError('Division by zero'));
  });
});
