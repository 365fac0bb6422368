import { say, type Lang } from '../i18n.js';
import { ToolError } from '../contract/tool-error.js';

/** Longer input is refused before it is read: nobody types a thousand characters of arithmetic. */
export const MAX_EXPRESSION_CHARS = 1000;
/** Parentheses, signs and powers nested deeper than this are refused, so input cannot exhaust the stack. */
export const MAX_NESTING_DEPTH = 200;

export type BinaryOp = '+' | '-' | '*' | '/' | '//' | '%' | '**';

/** The parsed expression. Evaluation only walks this tree: nothing in the input is ever executed. */
export type CalcNode =
  | { kind: 'num'; text: string }
  | { kind: 'neg'; arg: CalcNode }
  | { kind: 'sqrt'; arg: CalcNode }
  | { kind: 'bin'; op: BinaryOp; left: CalcNode; right: CalcNode };

type TokenType = BinaryOp | '(' | ')' | 'num' | 'sqrt' | 'de' | 'cifang' | 'square' | 'cube' | 'end';

interface Token {
  type: TokenType;
  /** As written (after NFKC), for error messages. */
  text: string;
  /** 1-based character position in the caller's original string. */
  col: number;
}

/** Operators as symbols and Chinese words; a longer spelling comes before any prefix of it. */
const OPERATORS: ReadonlyArray<readonly [string, TokenType]> = [
  ['**', '**'],
  ['^', '**'],
  ['//', '//'],
  ['*', '*'],
  ['×', '*'],
  ['·', '*'],
  ['⋅', '*'],
  ['/', '/'],
  ['÷', '/'],
  ['+', '+'],
  ['-', '-'],
  ['−', '-'],
  ['–', '-'],
  ['%', '%'],
  ['(', '('],
  [')', ')'],
  ['√', 'sqrt'],
  ['乘以', '*'],
  ['乘上', '*'],
  ['乘', '*'],
  ['除以', '/'],
  ['加上', '+'],
  ['加', '+'],
  ['减去', '-'],
  ['减', '-'],
  ['次方', 'cifang'],
  ['次幂', 'cifang'],
  ['平方', 'square'],
  ['立方', 'cube'],
  ['开平方', 'sqrt'],
  ['开方', 'sqrt'],
  ['根号', 'sqrt'],
  ['的', 'de'],
];

/** "1,234,567.5", "12.5", ".5", "5.", "1e3"; separators only in whole 3-digit groups. */
const NUMBER = /^(?:(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?/i;
/** What may follow a number only if the number is malformed: "1.2.3", "1,23". */
const NUMBER_TAIL = /^(?:[\d.]|,\d)[\d.,]*/;
const WORD_CHAR = /[\p{L}_$]/u;
const SPACE = /\s/;
const SUPERSCRIPT_DIGITS = '⁰¹²³⁴⁵⁶⁷⁸⁹';
/**
 * The parts of the trailing question people append ("=", "=?", "等于多少", "是多少", "等于几"), last
 * part first. Each is optional, with spaces around it. ？ is not listed: NFKC has made it ?.
 */
const QUESTION_PARTS: ReadonlyArray<readonly string[]> = [['?'], ['多少', '几'], ['=', '等于', '是']];

function parseMessages(lang: Lang) {
  const err = (zh: string, en: string) => new ToolError(say(lang, zh, en));
  return {
    tooLong: (n: number) =>
      err(
        `表达式太长（${n} 个字符，最多 ${MAX_EXPRESSION_CHARS} 个）`,
        `Expression too long (${n} characters, at most ${MAX_EXPRESSION_CHARS})`,
      ),
    empty: () =>
      err(
        '表达式为空：请给出要计算的算式，例如 (3+5)*12',
        'Empty expression: give something to compute, e.g. (3+5)*12',
      ),
    tooDeep: () =>
      err(
        `嵌套太深（括号、正负号或乘方最多 ${MAX_NESTING_DEPTH} 层）`,
        `Nested too deeply (at most ${MAX_NESTING_DEPTH} levels of parentheses, signs or powers)`,
      ),
    unexpectedChar: (ch: string, col: number) =>
      err(`语法错误：第 ${col} 个字符“${ch}”无法识别`, `Syntax error: unexpected character '${ch}' at position ${col}`),
    unknownWord: (word: string, col: number) => {
      const times = /^[xX]$/.test(word);
      return err(
        `语法错误：第 ${col} 个字符处的“${word}”不是数字或运算符（只能用数字、运算符和括号${times ? '；乘号请写 * 或 ×' : ''}）`,
        `Syntax error: unknown word '${word}' at position ${col} (only numbers, operators and parentheses are allowed${times ? '; write * or × to multiply' : ''})`,
      );
    },
    badNumber: (text: string, col: number) =>
      err(
        `语法错误：第 ${col} 个字符处的数字“${text}”格式不对`,
        `Syntax error: malformed number '${text}' at position ${col}`,
      ),
    unexpectedToken: (text: string, col: number) =>
      err(`语法错误：第 ${col} 个字符处不应出现“${text}”`, `Syntax error: unexpected '${text}' at position ${col}`),
    unexpectedEnd: () =>
      err(
        '语法错误：表达式不完整，末尾缺少数字',
        'Syntax error: the expression ends too early (a number is missing at the end)',
      ),
    missingParen: (col: number) =>
      err(
        `语法错误：缺少右括号“)”，第 ${col} 个字符的左括号没有闭合`,
        `Syntax error: missing closing parenthesis ')' for the '(' at position ${col}`,
      ),
    unmatchedParen: (col: number) =>
      err(`语法错误：第 ${col} 个字符的右括号“)”没有对应的左括号`, `Syntax error: unmatched ')' at position ${col}`),
    missingCifang: (col: number) =>
      err(
        `语法错误：第 ${col} 个字符处应为“次方”（例如 2的10次方）`,
        `Syntax error: expected '次方' at position ${col} (as in 2的10次方)`,
      ),
    // "a 除 b" is b ÷ a in textbook Chinese but a ÷ b in everyday speech: guessing would give wrong answers.
    ambiguousDivide: (col: number) =>
      err(
        `第 ${col} 个字符的“除”有歧义（“a除b”在数学上表示 b÷a）：请写“除以”或“/”`,
        `'除' at position ${col} is ambiguous ("a 除 b" formally means b ÷ a): write 除以 or /`,
      ),
  };
}

type ParseMessages = ReturnType<typeof parseMessages>;

/**
 * Where the trailing question starts (the text's length if there is none). The parts are peeled off
 * the end one at a time: a single regex with optional parts between runs of `\s*` backtracks over
 * long runs of spaces for seconds, and this tool is synchronous, so no timeout could stop it.
 */
function questionStart(text: string): number {
  let end = text.trimEnd().length;
  for (const spellings of QUESTION_PARTS) {
    const part = spellings.find((s) => end >= s.length && text.startsWith(s, end - s.length));
    if (part) end = text.slice(0, end - part.length).trimEnd().length;
  }
  return end;
}

/**
 * NFKC per character (full-width digits, operators and parentheses become ASCII) while remembering
 * which original character each output unit came from, so errors point at what the user typed.
 * Superscript digits are turned into a power first, since NFKC would read 3² as 32.
 */
function normalize(raw: string): { text: string; cols: number[] } {
  let text = '';
  const cols: number[] = [];
  let col = 0;
  let inSuperscript = false;
  for (const ch of raw) {
    col++;
    const digit = SUPERSCRIPT_DIGITS.indexOf(ch);
    const out = digit >= 0 ? `${inSuperscript ? '' : '^'}${digit}` : ch.normalize('NFKC');
    inSuperscript = digit >= 0;
    text += out;
    for (let k = 0; k < out.length; k++) cols.push(col);
  }
  return { text, cols };
}

function operatorAt(text: string, i: number): readonly [string, TokenType] | undefined {
  return OPERATORS.find(([spelling]) => text.startsWith(spelling, i));
}

function tokenize(text: string, cols: number[], m: ParseMessages): Token[] {
  const colAt = (i: number) => cols[i] ?? (cols.length > 0 ? cols[cols.length - 1] + 1 : 1);
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (SPACE.test(ch)) {
      i++;
      continue;
    }
    const num = NUMBER.exec(text.slice(i));
    if (num) {
      const end = i + num[0].length;
      const tail = NUMBER_TAIL.exec(text.slice(end));
      if (tail) throw m.badNumber(num[0] + tail[0], colAt(i));
      tokens.push({ type: 'num', text: num[0].replaceAll(',', ''), col: colAt(i) });
      i = end;
      continue;
    }
    const op = operatorAt(text, i);
    if (op) {
      tokens.push({ type: op[1], text: op[0], col: colAt(i) });
      i += op[0].length;
      continue;
    }
    if (ch === '除') throw m.ambiguousDivide(colAt(i));
    if (WORD_CHAR.test(ch)) {
      let j = i + 1;
      while (j < text.length && WORD_CHAR.test(text[j]) && !operatorAt(text, j) && text[j] !== '除') j++;
      throw m.unknownWord(text.slice(i, j), colAt(i));
    }
    throw m.unexpectedChar(String.fromCodePoint(text.codePointAt(i) ?? 0), colAt(i));
  }
  tokens.push({ type: 'end', text: '', col: colAt(text.length) });
  return tokens;
}

const isPostfixSqrt = (t: Token) => t.type === 'sqrt' && t.text.startsWith('开'); // "9开方"; √ and 根号 only lead

/**
 * Reads an arithmetic expression into a tree, refusing anything else with a localized ToolError
 * that says what is wrong and where. Grammar (Python's precedence; ^ is **):
 *   expr := term (('+'|'-') term)*          term := unary (('*'|'/'|'//'|'%') unary)*
 *   unary := ('-'|'+') unary | postfix ('**' unary)?     so -2**2 = -4 and 2**3**2 = 512
 *   postfix := primary ('的' unary '次方' | '的'? ('平方'|'立方'|'开方'))*
 *   primary := number | '(' expr ')' | ('√'|'根号'|'开方') unary
 */
export function parseExpression(expression: string, lang: Lang): CalcNode {
  const m = parseMessages(lang);
  const length = [...expression].length;
  if (length > MAX_EXPRESSION_CHARS) throw m.tooLong(length);
  const { text, cols } = normalize(expression);
  const body = text.slice(0, questionStart(text));
  const tokens = tokenize(body, cols, m);
  if (tokens.length === 1) throw m.empty();

  let at = 0;
  let depth = 0;
  const peek = () => tokens[at];
  const next = () => tokens[at++];
  const bin = (op: BinaryOp, left: CalcNode, right: CalcNode): CalcNode => ({ kind: 'bin', op, left, right });
  const unexpected = (t: Token) => (t.type === 'end' ? m.unexpectedEnd() : m.unexpectedToken(t.text, t.col));

  function expr(): CalcNode {
    let left = term();
    for (let t = peek(); t.type === '+' || t.type === '-'; t = peek()) {
      next();
      left = bin(t.type, left, term());
    }
    return left;
  }

  function term(): CalcNode {
    let left = unary();
    for (let t = peek(); t.type === '*' || t.type === '/' || t.type === '//' || t.type === '%'; t = peek()) {
      next();
      left = bin(t.type, left, unary());
    }
    return left;
  }

  // Every nested construct passes through here, so this one counter bounds the recursion.
  function unary(): CalcNode {
    if (++depth > MAX_NESTING_DEPTH) throw m.tooDeep();
    try {
      const t = peek();
      if (t.type === '-') {
        next();
        return { kind: 'neg', arg: unary() };
      }
      if (t.type === '+') {
        next();
        return unary();
      }
      const base = postfix();
      if (peek().type !== '**') return base;
      next();
      return bin('**', base, unary());
    } finally {
      depth--;
    }
  }

  function postfix(): CalcNode {
    let node = primary();
    for (;;) {
      const t = peek();
      if (t.type === 'square' || t.type === 'cube') {
        next();
        node = bin('**', node, { kind: 'num', text: t.type === 'square' ? '2' : '3' });
      } else if (isPostfixSqrt(t)) {
        next();
        node = { kind: 'sqrt', arg: node };
      } else if (t.type === 'de') {
        next();
        const after = peek();
        if (after.type === 'square' || after.type === 'cube' || isPostfixSqrt(after)) continue;
        const exponent = unary();
        const close = next();
        if (close.type !== 'cifang') throw m.missingCifang(close.col);
        node = bin('**', node, exponent);
      } else {
        return node;
      }
    }
  }

  function primary(): CalcNode {
    const t = next();
    if (t.type === 'num') return { kind: 'num', text: t.text };
    if (t.type === 'sqrt') return { kind: 'sqrt', arg: unary() };
    if (t.type !== '(') throw unexpected(t);
    const inner = expr();
    const close = next();
    if (close.type === ')') return inner;
    throw close.type === 'end' ? m.missingParen(t.col) : m.unexpectedToken(close.text, close.col);
  }

  const tree = expr();
  const rest = peek();
  if (rest.type === ')') throw m.unmatchedParen(rest.col);
  if (rest.type !== 'end') throw unexpected(rest);
  return tree;
}
