/**
 * Rules for adding to the end of a file: 「把…追加到 notes.txt」「在 a.txt 末尾加一行…」「往日记.md 里再添一句…」,
 * "append X to notes.txt", "add a line to todo.md: …". The call planned is the file_read that an
 * append starts with; the planner writes old text plus new once it has read it (file-append.ts).
 * Seen before the plain write: 「在 a.txt 末尾写上…」 adds, where 「往 a.txt 写入…」 replaces.
 */
import { looksLikeFile, PATH, restore, trimEndOf, unquote, type Utterance } from './extract.js';
import { PRIORITY, type Intent, type Outcome, type PlannedCall } from './intent.js';

const P = `(?<path>${PATH})`;
const re = (source: string): RegExp => new RegExp(source, 'dis');
/** Content before the words that end it; it starts and ends with a non-space (see intents-files.ts). */
const C = '(?<content>\\S.*?)(?<!\\s)';
/** Content to the end of the message. */
const REST = '(?<content>\\S.*)$';

/** Verbs that only ever add: 追加, 添, 补, 记 (jotting down more). */
const ADD_ZH = '(?:追加|添加|增加|补充|附加|加上|添上|补上|续写|记上|记下|加|添|补|记)';
/** Where in the file: its end. */
const END_ZH = '(?:末尾|结尾|最后面|最后|后面|尾部|底部|最下面)';
/** What is added, as people count it: 一行, 一句话, 一段内容. */
const UNIT_ZH = '(?:(?:一行|一句|一段|一条|一点|几句|几行|一下)\\s*(?:话|内容|文字)?\\s*)?';
/** 「文件」 and 「里」 may sit after the path, each with its spaces. */
const AFTER_PATH = '(?:文件\\s*)?';
const INSIDE = '(?:里面|里|中|内)';
const COLON = '(?:[:,]\\s*)?';

const PATTERNS: RegExp[] = [
  // 把 X 追加到 notes.txt（末尾）, 把 X 写到 a.txt 最后面
  re(
    `把\\s*${C}\\s*(?:${ADD_ZH}(?:到|进|在|入|至)|(?:写|放|存)(?:到|进|在|入)(?=\\s*(?:文件\\s*)?${PATH}\\s*${AFTER_PATH}的?${END_ZH}))\\s*(?:文件\\s*)?${P}`,
  ),
  // 在 a.txt 末尾加一行：X, 往日记.md 里再添一句 X, 给 log.txt 追加 X, 在 a.txt 后面写上 X
  re(
    `(?:往|在|向|给|于)\\s*(?:文件\\s*)?${P}\\s*${AFTER_PATH}(?:的?${END_ZH}\\s*|${INSIDE}\\s*)?(?:(?:再|接着|继续|另外)\\s*)?${ADD_ZH}\\s*${UNIT_ZH}${COLON}${REST}`,
  ),
  re(
    `(?:往|在|向|给)\\s*(?:文件\\s*)?${P}\\s*${AFTER_PATH}(?:的?${END_ZH}\\s*(?:(?:再|接着|继续)\\s*)?|(?:${INSIDE}\\s*)?(?:再|接着|继续)\\s*)(?:写上|写入|写|加)\\s*${UNIT_ZH}${COLON}${REST}`,
  ),
  // notes.txt 末尾加上 X, notes.txt 里再补一句：X
  re(
    `${P}\\s*${AFTER_PATH}(?:的?${END_ZH}\\s*|${INSIDE}\\s*)(?:(?:再|接着|继续)\\s*)?${ADD_ZH}\\s*${UNIT_ZH}${COLON}${REST}`,
  ),
  // 追加 X 到 notes.txt
  re(`(?:追加|补充|附加)\\s*${C}\\s*(?:到|进|至)\\s*(?:文件\\s*)?${P}`),
  // 追加到 notes.txt：X, 记到 notes.txt 里：X
  re(
    `(?:追加|添加|补充|加|记|添)(?:到|进|在)\\s*(?:文件\\s*)?${P}\\s*${AFTER_PATH}(?:${INSIDE}\\s*)?(?:的?${END_ZH}\\s*)?[:,]\\s*${REST}`,
  ),
  // add a line to todo.md: X, append a note to a.txt saying X
  re(
    `\\b(?:add|append|write|put)\\s+(?:(?:a|an|another|one more|this|new)\\s+)*(?:line|sentence|note|entry|row|bit)\\s+(?:to|in|into|onto|at the (?:end|bottom) of)\\s+(?:the\\s+)?(?:file\\s+)?${P}\\s*(?:[:,-]|\\bsaying\\b|\\bthat says\\b|\\bwith\\b)\\s*${REST}`,
  ),
  // add a line saying X to notes.txt
  re(
    `\\b(?:add|append)\\s+(?:a\\s+)?(?:new\\s+)?(?:line|note|sentence)\\s+(?:saying|that says|reading|with)\\s+${C}\\s+(?:to|in|into|onto)\\s+(?:the\\s+)?(?:end of\\s+)?(?:the\\s+)?(?:file\\s+)?${P}`,
  ),
  // append X to notes.txt, add X to the end of notes.txt, write X at the bottom of a.txt
  re(
    `\\bappend\\s+${C}\\s+(?:to|onto|at the (?:end|bottom) of)\\s+(?:the\\s+)?(?:(?:end|bottom) of\\s+)?(?:the\\s+)?(?:file\\s+)?${P}`,
  ),
  re(
    `\\b(?:add|write|put|tack|stick)\\s+${C}\\s+(?:on\\s+)?(?:to|at|onto)\\s+the\\s+(?:end|bottom)\\s+of\\s+(?:the\\s+)?(?:file\\s+)?${P}`,
  ),
  // append to notes.txt: X, add to a.txt: X
  re(
    `\\b(?:append|add)\\s+(?:this\\s+)?(?:to|onto)\\s+(?:the\\s+)?(?:(?:end|bottom) of\\s+)?(?:the\\s+)?(?:file\\s+)?${P}\\s*(?:[:,-]|\\bwith\\b)\\s*${REST}`,
  ),
  // add buy bread to notes.txt: a file is named, so the todo list is not meant
  re(`\\badd\\s+${C}\\s+(?:to|into|in)\\s+(?:the\\s+)?(?:file\\s+)?${P}`),
];

/** Where the text goes at the top of the file instead: 「开头」「最前面」 "the top of". */
const START_ZH = '(?:开头|开始|最前面|最上面|顶部|第一行|前面)';
const PREPEND: RegExp[] = [
  // 在 a.txt 开头加一行：X, 往 a.txt 最前面插入 X
  re(
    `(?:往|在|向|给)\\s*(?:文件\\s*)?${P}\\s*${AFTER_PATH}的?${START_ZH}\\s*(?:(?:再|先)\\s*)?(?:${ADD_ZH}|插入|写上|写)\\s*${UNIT_ZH}${COLON}${REST}`,
  ),
  // 把 X 加到 a.txt 开头
  re(`把\\s*${C}\\s*(?:${ADD_ZH}|插入|放|写)(?:到|在|进)\\s*(?:文件\\s*)?${P}\\s*${AFTER_PATH}的?${START_ZH}`),
  // prepend X to a.txt, add X at the top of a.txt
  re(`\\bprepend\\s+${C}\\s+(?:to|onto)\\s+(?:the\\s+)?(?:file\\s+)?${P}`),
  re(
    `\\b(?:add|put|insert|write)\\s+${C}\\s+(?:to|at|on)\\s+the\\s+(?:top|beginning|start)\\s+of\\s+(?:the\\s+)?(?:file\\s+)?${P}`,
  ),
];

/** Where text asked to be kept goes when no file is named. */
export const DEFAULT_NOTES = 'notes.md';
/** 「把会议记录保存一下：…」「记录到文件：…」 "save this note: …": text to keep, no file named. */
const KEEP_UNNAMED: RegExp[] = [
  re(
    `(?:保存|存|记录|记|写)(?:一下|下来|进去)?\\s*(?:到|进|在)\\s*(?:文件|笔记|文档|记事本)(?:里|中)?\\s*[:：]\\s*${REST}`,
  ),
  re(`^(?:(?:帮我|请|麻烦你?)\\s*)?(?:把\\s*[^:：]{1,30}?\\s*)?(?:保存|存)(?:一下|下来|起来)\\s*[:：]\\s*${REST}`),
  re(
    `\\b(?:save|store|keep|write down|jot down)\\s+(?:this|that|a|the|my)?\\s*(?:note|text|list|memo)?\\s*(?:(?:to|in) (?:a |my )?(?:file|notes))?\\s*[:\\-]\\s*${REST}`,
  ),
  re(`\\bwrite (?:a|an) (?:file|note) (?:with|containing)\\s+[^:]{0,40}?:\\s*${REST}`),
];

const NOT_TEXT = /^(?:a |an |the )?(?:line|sentence|note|this|it|that)$/i;

function groupText(u: Utterance, m: RegExpExecArray, name: string): string | undefined {
  const at = m.indices?.groups?.[name];
  return at ? u.raw.slice(at[0], at[1]) : undefined;
}

/** Content as added: quotes that only mark it dropped, and the full stop that ends the request. */
const cleanText = (u: Utterance, text: string): string => restore(u, unquote(trimEndOf(text.trim(), /[。]/)));

export const fileAppend: Intent = {
  id: 'file_append',
  priority: PRIORITY.fileAppend,
  match(u): Outcome | null {
    for (const pattern of PREPEND) {
      const found = appendOf(u, pattern);
      if (found) return { kind: 'call', call: { ...found, append: { ...found.append!, atStart: true } } };
    }
    for (const pattern of PATTERNS) {
      const found = appendOf(u, pattern);
      if (found) return { kind: 'call', call: found };
    }
    // No file named: the text is kept in the notes file, and the reply says where.
    for (const pattern of KEEP_UNNAMED) {
      const m = pattern.exec(u.norm);
      const text = m ? cleanText(u, groupText(u, m, 'content') ?? '') : '';
      if (text && !/\.[A-Za-z][A-Za-z0-9]{0,9}\s*$/.test(u.norm.slice(0, m!.index))) {
        return { kind: 'call', call: { name: 'file_read', args: { path: DEFAULT_NOTES }, append: { text } } };
      }
    }
    return null;
  },
};

/** The read an append starts with, if the pattern holds a file and some text for it. */
function appendOf(u: Utterance, pattern: RegExp): PlannedCall | undefined {
  const m = pattern.exec(u.norm);
  const path = m?.groups?.path && trimEndOf(m.groups.path, /[.,]/);
  if (!m || !path || !looksLikeFile(path)) return undefined;
  const text = cleanText(u, groupText(u, m, 'content') ?? '');
  if (!text || NOT_TEXT.test(text)) return undefined;
  return { name: 'file_read', args: { path }, append: { text } };
}
