import { Decimal } from 'decimal.js';
import { z } from 'zod';
import { parseExpression, type BinaryOp, type CalcNode } from './calculator-parse.js';
import { say, type Lang } from '../i18n.js';
import { defineTool } from './tool.js';
import { ToolError } from '../contract/tool-error.js';

/** Working precision in significant digits: far beyond what is shown, so rounding never reaches the printed digits. */
const WORKING_DIGITS = 50;
/** Significant digits shown for a non-integer result (what a double can honestly claim). */
const SHOWN_DIGITS = 15;
/** Largest |exponent| accepted by a power. */
const MAX_EXPONENT = 1000;
/** Results whose magnitude exceeds 10^this are refused (the range of a double). */
const MAX_MAGNITUDE_LOG10 = 308;
/** Integers below this print every digit; at and beyond it they switch to exponent notation like JavaScript. */
const EXACT_INTEGER_LIMIT = '1e21';

// A private constructor, so the global Decimal configuration other modules may rely on stays untouched.
// ROUND_FLOOR modulo gives the remainder the divisor's sign, as Python's % does (-7 % 3 = 2).
const Calc = Decimal.clone({
  precision: WORKING_DIGITS,
  rounding: Decimal.ROUND_HALF_EVEN,
  modulo: Decimal.ROUND_FLOOR,
  toExpNeg: -7,
  toExpPos: 21,
});
const MAX_MAGNITUDE = new Calc(10).pow(MAX_MAGNITUDE_LOG10);

function evalMessages(lang: Lang) {
  const err = (zh: string, en: string) => new ToolError(say(lang, zh, en));
  return {
    divisionByZero: () => err('除数不能为零', 'Division by zero'),
    exponentTooLarge: (exponent: string) =>
      err(
        `指数太大（最多 ${MAX_EXPONENT}），这里是 ${exponent}`,
        `Cannot compute: exponent too large (at most ${MAX_EXPONENT}), got ${exponent}`,
      ),
    powerTooLarge: (exponent: string, digits: string) =>
      err(
        `指数 ${exponent} 对这个底数太大：结果约有 ${digits} 位数，超过上限 1e${MAX_MAGNITUDE_LOG10}`,
        `Exponent ${exponent} is too large for this base: the result would have about ${digits} digits (limit 1e${MAX_MAGNITUDE_LOG10})`,
      ),
    resultTooLarge: () =>
      err(
        `结果太大（绝对值超过 1e${MAX_MAGNITUDE_LOG10}）`,
        `Result too large (magnitude beyond 1e${MAX_MAGNITUDE_LOG10})`,
      ),
    notReal: () =>
      err(
        '结果不是实数：负数不能开平方，也不能取小数次方',
        'The result is not a real number: a negative number has no real square root or fractional power',
      ),
  };
}

type EvalMessages = ReturnType<typeof evalMessages>;

/**
 * Prints a result the way a person expects: integers in full (below 1e21), other values to
 * 15 significant digits without trailing zeros, exponent notation only beyond 1e21 or below 1e-7.
 */
export function formatResult(value: Decimal): string {
  if (value.isZero()) return '0'; // also -0
  const exact = value.isInteger() && value.abs().lt(EXACT_INTEGER_LIMIT);
  return (exact ? value : value.toSignificantDigits(SHOWN_DIGITS)).toString();
}

function checked(value: Decimal, m: EvalMessages): Decimal {
  if (value.isNaN()) throw m.notReal();
  if (!value.isFinite() || value.abs().gt(MAX_MAGNITUDE)) throw m.resultTooLarge();
  return value;
}

function nonZero(divisor: Decimal, m: EvalMessages): Decimal {
  if (divisor.isZero()) throw m.divisionByZero();
  return divisor;
}

/** Refuses a power from its size estimate before computing it, so 9**999 costs nothing. */
function power(base: Decimal, exponent: Decimal, m: EvalMessages): Decimal {
  if (exponent.abs().gt(MAX_EXPONENT)) throw m.exponentTooLarge(formatResult(exponent));
  if (base.isZero()) {
    if (exponent.lt(0)) throw m.divisionByZero();
    return new Calc(exponent.isZero() ? 1 : 0);
  }
  if (base.lt(0) && !exponent.isInteger()) throw m.notReal();
  if (!base.abs().eq(1)) {
    const log10 = exponent.times(base.abs().log(10));
    if (log10.gt(MAX_MAGNITUDE_LOG10)) {
      throw m.powerTooLarge(formatResult(exponent), log10.floor().plus(1).toFixed(0));
    }
  }
  return checked(base.pow(exponent), m);
}

function binary(op: BinaryOp, a: Decimal, b: Decimal, m: EvalMessages): Decimal {
  switch (op) {
    case '+':
      return checked(a.plus(b), m);
    case '-':
      return checked(a.minus(b), m);
    case '*':
      return checked(a.times(b), m);
    case '/':
      return checked(a.div(nonZero(b, m)), m);
    case '//':
      // Floor division from the floored remainder: exact, and -7 // 2 = -4 as in Python.
      return checked(
        a
          .minus(a.mod(nonZero(b, m)))
          .div(b)
          .round(),
        m,
      );
    case '%':
      return a.mod(nonZero(b, m));
    case '**':
      return power(a, b, m);
  }
}

function evaluate(node: CalcNode, m: EvalMessages): Decimal {
  switch (node.kind) {
    case 'num':
      return checked(new Calc(node.text), m);
    case 'neg':
      return evaluate(node.arg, m).neg();
    case 'sqrt': {
      const value = evaluate(node.arg, m);
      if (value.lt(0)) throw m.notReal();
      return value.sqrt();
    }
    case 'bin':
      return binary(node.op, evaluate(node.left, m), evaluate(node.right, m), m);
  }
}

/**
 * Computes an arithmetic expression exactly in decimal and returns the printed result ("16", "0.3").
 * Throws a ToolError, written in `lang`, that says why when the input is not arithmetic or has no
 * representable result. The input is parsed completely before any arithmetic starts.
 */
export function evaluateExpression(expression: string, lang: Lang): string {
  const tree = parseExpression(expression, lang);
  return formatResult(evaluate(tree, evalMessages(lang)));
}

export const calculatorTool = defineTool({
  name: 'calculator',
  annotations: { readOnly: true },
  description:
    'Computes an arithmetic expression exactly (decimal arithmetic, so 0.1+0.2 is 0.3) and returns only the result, e.g. "16". ' +
    'Use it for any arithmetic instead of working it out yourself. Supports + - * / , // (floor division), % (modulo), ' +
    '** or ^ (power, exponent at most 1000), parentheses, scientific notation (1e3), full-width characters and Chinese ' +
    'operator words (加 减 乘以 除以, 2的10次方, 3的平方, 根号2). No variables, functions or other letters; ' +
    'results beyond 1e308 are refused with the reason.',
  parameters: z.object({
    expression: z
      .string()
      .describe('The arithmetic expression to compute, e.g. "(3+5)*12", "2**10", "7 // 2", "2的10次方"'),
  }),
  execute: ({ expression }, ctx) => {
    const result = evaluateExpression(expression, ctx.lang);
    const shown = expression.trim();
    return { output: result, title: `${shown} = ${result}`, metadata: { expression: shown, result } };
  },
});
