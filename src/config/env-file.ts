import { parse } from 'dotenv';
import { UserError } from '../contract/user-error.js';
import { hasControlChars } from './control-chars.js';
import { readSettingsFile, SettingsFileError } from './settings-file.js';

/** How much of a line that is not a setting may be echoed back, so the user can find it. */
const MAX_ECHO_CHARS = 20;

const BOM = '\uFEFF';
const COMMENT_OR_BLANK = /^\s*(#.*)?$/;
// `[export ]NAME=value`, names as dotenv reads them; the value as written, spaces after = included.
const SETTING = /^\s*(?:export\s+)?([\w.-]+)\s*=(.*)$/;
const QUOTES = new Set(['"', "'", '`']);
// The names Zhixing reads. Another tool may read a project's `PASSWORD=a#b` whole: that value is the project's business.
const OWN_NAME = /^(?:ZHIXING|OPENAI)_/;

/** A .env file the user must fix; the message names the file and line and says what to do. */
export class EnvFileError extends UserError<'env_file'> {
  override name = 'EnvFileError';
  constructor(message: string, zh: string) {
    super('env_file', message, zh);
  }
}

/**
 * Where the quoted value starting at `text[open]` closes: the first matching quote not escaped by
 * a backslash, the way dotenv reads it. -1 when it never closes.
 */
function closingQuote(text: string, open: number): number {
  const quote = text[open]!;
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === quote) return i;
  }
  return -1;
}

/**
 * The start of a bad line, when it cannot be a pasted key (keys are long and have digits) and
 * cannot drive the terminal.
 */
function echo(line: string): { en: string; zh: string } {
  const start = line.split('=')[0]!.trim();
  if (hasControlChars(start)) return { en: ' (it contains control characters)', zh: '（其中有控制字符）' };
  return start.length > 0 && start.length <= MAX_ECHO_CHARS && !/\d/.test(start)
    ? { en: `: "${start}"`, zh: `：「${start}」` }
    : { en: '', zh: '' };
}

/**
 * Refuses what dotenv would skip without a word: a line that is not blank, a `#` comment or a
 * `[export ]NAME=value` setting (whose quoted value may run over several lines). A skipped line is
 * how a setting silently goes missing, so it is an error here.
 */
function check(text: string, path: string): void {
  const lines = text.split(/\r\n|\r|\n/);
  const fix = 'Write it as NAME=value, or start it with # to keep it as a comment.';
  const zhFix = '请写成 NAME=value，或在行首加 # 作为注释。';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (COMMENT_OR_BLANK.test(line)) continue;
    const setting = SETTING.exec(line);
    if (!setting) {
      const shown = echo(line);
      throw new EnvFileError(
        `${path} line ${i + 1}${shown.en} is not a NAME=value setting. ${fix}`,
        `${path} 第 ${i + 1} 行${shown.zh}不是 NAME=value 形式的设置。${zhFix}`,
      );
    }
    const [, name, written] = setting;
    const value = written.trimStart();
    if (!QUOTES.has(value[0])) {
      // dotenv ends an unquoted value at its first #. After whitespace that is the comment meant; right
      // after the value's own characters (a key like abc#def) it silently cuts the value short.
      const hash = written.indexOf('#');
      if (hash >= 0 && !/\s/.test(written[hash - 1] ?? '') && OWN_NAME.test(name)) {
        throw new EnvFileError(
          `${path} line ${i + 1}: the value of "${name}" contains #, which starts a comment there; put the value in quotes. (For a comment, put a space before the #.)`,
          `${path} 第 ${i + 1} 行：「${name}」的值里有 #，在那里 # 会开始一段注释；请给值加上引号。（要写注释，请在 # 前加一个空格。）`,
        );
      }
      continue;
    }
    // The rest of the file from the opening quote on, so a value may close on a later line.
    const rest = [value, ...lines.slice(i + 1)].join('\n');
    const close = closingQuote(rest, 0);
    if (close < 0)
      throw new EnvFileError(
        `${path} line ${i + 1}: the quoted value of "${name}" is never closed. End it with ${value[0]}.`,
        `${path} 第 ${i + 1} 行：「${name}」带引号的值没有结束。请用 ${value[0]} 结束它。`,
      );
    i += rest.slice(0, close).split('\n').length - 1;
    if (!COMMENT_OR_BLANK.test(rest.slice(close + 1).split('\n')[0]!)) {
      throw new EnvFileError(
        `${path} line ${i + 1}: there is text after the closing quote of "${name}". Quote the whole value, or put # before a comment.`,
        `${path} 第 ${i + 1} 行：「${name}」的引号结束后还有文字。请把整个值放进引号里，或在注释前加 #。`,
      );
    }
  }
}

/**
 * The settings in a .env file, or `undefined` when there is none. Throws EnvFileError for a line it
 * cannot read, and SettingsFileError for a file that is not a regular one or is too large.
 */
export function readEnvFile(path: string): Record<string, string> | undefined {
  let text: string | undefined;
  try {
    text = readSettingsFile(path);
    if (text === undefined) return undefined;
  } catch (err) {
    if (err instanceof SettingsFileError) throw err;
    throw new EnvFileError(
      `Could not read ${path}: ${(err as NodeJS.ErrnoException).code ?? 'unknown error'}. Check that it is a file you can read.`,
      `无法读取 ${path}：${(err as NodeJS.ErrnoException).code ?? '未知错误'}。请确认它是你能读取的文件。`,
    );
  }
  // Editors on Windows may start the file with a byte-order mark, which would hide the first name.
  if (text.startsWith(BOM)) text = text.slice(BOM.length);
  check(text, path);
  return parse(text);
}
