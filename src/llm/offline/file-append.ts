/**
 * Appending to a file: 「把…追加到 notes.txt」, "add a line to todo.md". file_write takes only the
 * whole new content, so an append is two steps: file_read first, then file_write of the old text
 * with the new line after it. A file that does not exist yet is simply created.
 */
import { posix } from 'node:path';
import { say, type Lang } from '../../i18n.js';
import type { ToolResultData } from '../../contract/tool-data.js';
import { failed, failureText } from './tool-results.js';

/** What an append adds, carried on the planned file_read until the write can be made. */
export interface Append {
  /** The words to add, as the user said them. */
  text: string;
  /** Set on the second step's write: the file did not exist, so it was created. */
  created?: boolean;
  /** The message also asks to read the file: that read follows the write, to show the new text. */
  thenRead?: boolean;
  /** 「在 a.txt 开头加一行」 "add X at the top of a.txt": before the old text, not after it. */
  atStart?: boolean;
}

/** The second step of an append: the write to make, or why none is made. */
export type AppendStep =
  { kind: 'write'; content: string; created: boolean } | { kind: 'stop'; say: (lang: Lang) => string };

// file_read's own sentences, in either language, for the cases where its output is not the text.
// (MISSING only for a result without data: a result with data says not_found.)
const MISSING = /没有这个文件或文件夹|there is no such file or folder/;
const EMPTY = (path: string, output: string): boolean =>
  [path, posix.normalize(path)].some((p) => output === `${p} 是空文件。` || output === `${p} is empty.`);
/** What the tool registry adds when it cuts a long output: the rest of the file was never seen. */
const CUT = /\n… \[\d+ more characters cut\]$/;

/** A file's text from what file_read said: '' for an empty file, undefined when the output was cut short. */
export function fileText(path: string, readOutput: string): string | undefined {
  if (CUT.test(readOutput)) return undefined;
  return EMPTY(path, readOutput) ? '' : readOutput;
}

/** The text with the new line after it (or before it, `atStart`), in the file's own line endings. */
export function appended(old: string, text: string, atStart = false): string {
  const nl = old.includes('\r\n') ? '\r\n' : '\n';
  if (!old) return text + nl;
  if (atStart) return text + nl + old;
  const sep = /\n$/.test(old) ? '' : nl;
  return old + sep + text + (sep ? '' : nl);
}

/**
 * After file_read of `path`: what to write. `before` is what an earlier append in the same message
 * already made of this file, so two appends to one file keep both lines.
 */
export function appendStep(
  path: string,
  append: Append,
  readOutput: string | undefined,
  before?: string,
  result?: ToolResultData,
): AppendStep {
  if (before !== undefined)
    return { kind: 'write', content: appended(before, append.text, append.atStart), created: false };
  if (readOutput === undefined)
    return {
      kind: 'stop',
      say: (lang) =>
        say(lang, `没能读取 ${path}，没有追加任何内容。`, `I couldn't read ${path}, so nothing was appended.`),
    };
  if (failed(readOutput, result)) {
    if (result ? result.error === 'not_found' : MISSING.test(readOutput))
      return { kind: 'write', content: appended('', append.text, append.atStart), created: true };
    const why = failureText(readOutput);
    return {
      kind: 'stop',
      say: (lang) =>
        say(
          lang,
          `抱歉，没能追加到 ${path}：${why}没有写入任何内容。`,
          `Sorry, I couldn't append to ${path}: ${why} Nothing was written.`,
        ),
    };
  }
  if (CUT.test(readOutput)) {
    return {
      kind: 'stop',
      say: (lang) =>
        say(
          lang,
          `${path} 太长，我离线时没法在不丢内容的情况下追加，没有写入任何内容。`,
          `${path} is too long for me to append to offline without losing part of it, so nothing was written.`,
        ),
    };
  }
  const old = EMPTY(path, readOutput) ? '' : readOutput;
  return { kind: 'write', content: appended(old, append.text, append.atStart), created: false };
}

/** How a finished append is said; `where` is the file's absolute path when known. */
export function appendWording(lang: Lang, path: string, append: Append, where: string | undefined): string {
  const at = where ? say(lang, `\n文件位置：${where}`, `\nIt is at ${where}`) : '';
  return append.created
    ? say(
        lang,
        `好的，${path} 原来不存在，已新建并写入：${append.text}${at}`,
        `Done. ${path} did not exist, so I created it with: ${append.text}${at}`,
      )
    : append.atStart
      ? say(
          lang,
          `好的，已加到 ${path} 开头：${append.text}${at}`,
          `Done. Added to the top of ${path}: ${append.text}${at}`,
        )
      : say(
          lang,
          `好的，已追加到 ${path} 末尾：${append.text}${at}`,
          `Done. Appended to the end of ${path}: ${append.text}${at}`,
        );
}
