/** Rules for the file tools. Paths are passed as the user wrote them: the tools decide what is allowed. */
import { cleanPath, looksLikeFile, PATH, restore, trimEndOf, unquote, type Utterance } from './extract.js';
import { resolve } from 'node:path';
import { appendWording } from './file-append.js';
import { findExpression } from './expression.js';
import { fileAppend } from './intents-file-append.js';
import { FILE_READ_INTENTS } from './intents-file-read.js';
import { FOLDER_MADE, INSIDE_IT } from './plan-parts.js';
import { call, PRIORITY, reply, str, type Intent, type Outcome, type PlannedCall, type ToolRules } from './intent.js';
import { say, type Lang } from '../../i18n.js';
import { fenced } from '../../markdown-fence.js';

const P = `(?<path>${PATH})`;
// `s`: file content may run over several lines (a pasted text), and `.` should take it all.
const re = (source: string): RegExp => new RegExp(source, 'dis');
/**
 * Content up to the word that ends it: it starts and ends with a non-space, so the spaces around it
 * are matched in one way only. `\s*(?<content>.+?)\s*` lets both sides take the same spaces and is
 * retried for every split of a long run of them.
 */
const CONTENT_BEFORE = '(?<content>\\S.*?)(?<!\\s)';

// Rules of thumb for the patterns below: never two `\s*` with only optional words between them
// (`\s*(?:文件)?\s*`), but `\s*(?:文件\s*)?`, which matches the same text in one way only.

/** Patterns whose match holds both the path and the content. */
const WRITE_WHOLE: RegExp[] = [
  re(
    `把\\s*${CONTENT_BEFORE}\\s*(?:写到|写入|写进|写在|写成|保存到|保存为|保存进|保存在|存到|存入|存为|存进|存在|放到|放进|放在)\\s*(?:文件\\s*)?${P}`,
  ),
  // 把 a.txt 改成 X, 把 a.txt 的内容换成 X: the whole file replaced
  re(
    `把\\s*(?:文件\\s*)?${P}\\s*(?:文件\\s*)?(?:的\\s*)?(?:内容\\s*)?(?:改成|改为|换成|替换成|替换为|更新为|更新成|覆盖为|覆盖成)\\s*(?::\\s*)?(?<content>\\S.*)$`,
  ),
  re(
    `(?:往|在|向|给)\\s*(?:文件\\s*)?${P}\\s*(?:文件\\s*)?(?:(?:里面|里|中|内)\\s*)?(?:写入|写上|写)\\s*(?::\\s*)?(?<content>.+)$`,
  ),
  re(`(?:写入|写到|保存到|存到)\\s*(?:文件\\s*)?${P}\\s*(?:[:,]|的?内容(?:是|为)?\\s*[:：]?)\\s*(?<content>.+)$`),
  // 保存 '你好世界' 到 hello.txt
  re(`(?:保存|存|写)\\s*${CONTENT_BEFORE}\\s*(?:到|进|至)\\s*(?:文件\\s*)?${P}\\s*[。.!]?$`),
  re(`${P}\\s*的?内容(?:改成|改为|写成|设为|设置为|换成|替换成|更新为|是|为)\\s*(?::\\s*)?(?<content>(?!什么|啥).+?)$`),
  re(`\\b(?:write|save|put|store)\\s+${CONTENT_BEFORE}\\s+(?:to|into|in)\\s+(?:the\\s+)?(?:file\\s+)?${P}\\s*[.!]?$`),
  re(`\\b(?:write|save)\\s+to\\s+(?:the\\s+)?(?:file\\s+)?${P}\\s*:\\s*(?<content>.+)$`),
  re(`\\bsave\\s+${CONTENT_BEFORE}\\s+as\\s+(?:a\\s+file\\s+(?:called\\s+|named\\s+)?)?${P}\\s*[.!]?$`),
  // replace the contents of a.txt with X, overwrite a.txt with X, update notes.txt to say X
  re(
    `\\b(?:replace|overwrite)\\s+(?:(?:the|all)\\s+)*(?:(?:contents?|text)\\s+(?:of|in)\\s+)?(?:the\\s+)?(?:file\\s+)?${P}\\s+with\\s*:?\\s*(?<content>\\S.*)$`,
  ),
  re(
    `\\b(?:update|change|edit|set)\\s+(?:the\\s+)?(?:(?:contents?|text)\\s+of\\s+)?(?:the\\s+)?(?:file\\s+)?${P}\\s+(?:so (?:that )?it (?:says|reads)|to (?:say|read)|to)\\s*:?\\s*(?<content>\\S.*)$`,
  ),
  re(
    `^(?:in|into)\\s+(?:the\\s+)?(?:file\\s+)?${P}\\s*,?\\s*(?:please\\s+)?(?:write|put|type)\\s*:?\\s*(?<content>.+)$`,
  ),
];
/** "Create a file" patterns: the content, if any, follows the path. `named`: the word 文件/file was said. */
const CREATE: RegExp[] = [
  re(
    `(?:创建|新建|建立|建|写|生成|弄)\\s*(?:一个|个)?(?:新的?|空白?的?)?(?:文本)?(?<named>文件)\\s*(?:(?:叫做|叫|名为|名叫|名字是|:)\\s*)?${P}`,
  ),
  re(`(?:创建|新建|建立|建|生成)\\s*(?:一个|个)?(?:新的?)?\\s*(?:(?:叫做|叫|名为|名叫)\\s*)?${P}`),
  re(
    `\\b(?:create|make|write|start)\\s+(?:(?:a|an|new|the|empty|blank)\\s+)*(?:text\\s+)?(?<named>file)\\s+(?:called\\s+|named\\s+)?${P}`,
  ),
  re(`\\b(?:create|make|start)\\s+(?:(?:a|an|new|the)\\s+)*(?:(?:called|named)\\s+)?${P}`),
];
/** 「在 docs 文件夹里建一个…」: the folder named before the verb (or before the file, the verb between). */
const FOLDER_BEFORE = re(
  `(?:在|到|往)\\s*(?<dir>${PATH})\\s*(?:(?:文件夹|目录)\\s*(?:里面|里|下面|下|中|内)?|(?:里面|里|下面|下|中|内))\\s*(?:(?:帮我|给我|再)\\s*)?(?:(?:新建|创建|建立|建|生成|写)\\s*(?:一个|个)?\\s*(?:新的?\\s*)?(?:文本\\s*)?(?:文件\\s*)?(?:(?:叫做|叫|名为|名叫)\\s*)?)?$`,
);
/** "… in the reports folder containing …": the folder named right after the file. */
const FOLDER_AFTER_NAME = re(
  `^\\s*,?\\s*(?:in|inside|under|into)\\s+(?:the\\s+|my\\s+)?(?:(?<dir>${PATH})\\s+(?:folder|directory|dir)\\b|(?:folder|directory)\\s+(?<dir2>${PATH}))|^\\s*,?\\s*(?:in|inside)\\s+(?:it|there|that folder)\\b|^\\s*(?:放在|放到|存在|存到|在)\\s*(?<dir3>${PATH})\\s*(?:文件夹|目录)?\\s*(?:里面|里|下面|下|中)?`,
);
const CREATE_CONTENT = re(
  `^\\s*(?:,\\s*)?(?:(?:它的|的)?内容(?:是|为|写)?|里面(?:写|是)(?:上|着)?|写上|写入|写着|写|with(?:\\s+the)?\\s+(?:content|text|words?)s?|containing|that says|saying|with)\\s*(?::\\s*)?(?<content>.*)$|^\\s*:\\s*(?<content2>.+)$`,
);

const NOT_A_PATH = /^(?:todos?|to-do|it|this|that|me|my|with|for|about|of|in|to|from|containing|and|called|named)$/i;
/** Content that only points at text said after it: 「把这句话存到 a.txt：…」 "save this to a.txt: …". */
const POINTS_AHEAD =
  /^(?:这句话|这段话|这段文字|这些话|这些|这个|下面的?(?:内容|话|文字)?|以下(?:内容)?|如下(?:内容)?|this|this text|the following|these lines)$/i;

function groupText(u: Utterance, m: RegExpExecArray, name: string): string | undefined {
  const at = m.indices?.groups?.[name];
  return at ? u.raw.slice(at[0], at[1]) : undefined;
}

const NOT_A_FOLDER = /^(?:the|my|workspace|files?|folder|directory|here)$/i;
const RENAMING = /改成|改为|换成|替换成|\b(?:change|update)\b/i;

/** The file inside the folder named for it, unless its own path already starts there. */
function inFolder(dir: string | undefined, name: string): string {
  const folder = dir && trimEndOf(cleanPath(dir), /[/\\]/);
  if (!folder || NOT_A_FOLDER.test(folder) || name.startsWith(`${folder}/`)) return name;
  return `${folder}/${name}`;
}

const TODO_LIST_NAMED =
  /^(?:我的)?(?:待办|待办事项|待办清单|待办列表|任务清单)(?:列表|清单)?$|^(?:my |the )?(?:todo|to-do) ?list$|^(?:my |all my )?(?:todos|to-dos|tasks)$/i;
const FILE_LIST_NAMED = /^(?:文件列表|文件清单|(?:the )?(?:file list|list of files))$/i;
const RESULT_NAMED = /^(?:(?<zh>.+?)\s*的?(?:计算)?(?:结果|答案)|(?:the )?(?:result|answer) (?:of|to) (?<en>.+))$/i;

/** A tool's result named where file content would be: the todo list, the files, the result of a sum. */
function resultNamed(content: string): PlannedCall | undefined {
  const text = content.trim();
  if (TODO_LIST_NAMED.test(text)) return { name: 'todo_list', args: {} };
  if (FILE_LIST_NAMED.test(text)) return { name: 'file_list', args: {} };
  const m = RESULT_NAMED.exec(text);
  const sum = m && findExpression(m.groups?.zh ?? m.groups?.en ?? '');
  return sum ? { name: 'calculator', args: { expression: sum.expression } } : undefined;
}

/** 「把 a.txt 复制到 b.txt」「另存为」 "copy a.txt to b.txt": read one, write its text to the other. */
const D = `(?<dest>${PATH})`;
const COPY: RegExp[] = [
  re(`(?:把|将)\\s*(?:文件\\s*)?${P}\\s*(?:复制|拷贝|另存|备份)(?:一份)?\\s*(?:到|为|成)\\s*(?:文件\\s*)?${D}`),
  re(`(?:复制|拷贝|备份)\\s*(?:一下\\s*)?(?:文件\\s*)?${P}\\s*(?:到|为|成)\\s*(?:文件\\s*)?${D}`),
  re(
    `\\b(?:copy|duplicate|back up|save)\\s+(?:the\\s+)?(?:file\\s+)?${P}\\s+(?:to|as|into)\\s+(?:a\\s+new\\s+file\\s+)?(?:the\\s+)?(?:file\\s+)?${D}`,
  ),
];

const fileCopy: Intent = {
  id: 'file_copy',
  priority: PRIORITY.fileAppend,
  match(u): Outcome | null {
    for (const pattern of COPY) {
      const m = pattern.exec(u.norm);
      const [from, to] = [m?.groups?.path && cleanPath(m.groups.path), m?.groups?.dest && cleanPath(m.groups.dest)];
      if (from && to && looksLikeFile(from) && looksLikeFile(to))
        return { kind: 'call', call: { name: 'file_read', args: { path: from }, saveTo: to } };
    }
    return null;
  },
};

const fileWrite: Intent = {
  id: 'file_write',
  priority: PRIORITY.fileWrite,
  match(u) {
    for (const pattern of WRITE_WHOLE) {
      const m = pattern.exec(u.norm);
      const path = m?.groups?.path && cleanPath(m.groups.path);
      if (!m || !path || NOT_A_PATH.test(path)) continue;
      // 「把 a.txt 改成 b.txt」 renames, which no tool does: never write the new name into the file.
      if (RENAMING.test(m[0]) && /^\S+\.[A-Za-z][A-Za-z0-9]{0,9}$/.test(groupText(u, m, 'content')?.trim() ?? ''))
        return reply({ kind: 'cannot', near: 'fileDelete' });
      const dir = FOLDER_BEFORE.exec(u.norm.slice(0, m.index))?.groups?.dir;
      let content = restore(u, unquote(groupText(u, m, 'content') ?? ''));
      // 「把这句话存到 quotes.txt：知行合一」: the words after the colon are what goes in.
      const ahead = /^\s*[:：]\s*(\S[\s\S]*)$/.exec(u.raw.slice(m.indices?.[0][1] ?? u.raw.length));
      if (POINTS_AHEAD.test(content.trim()) && ahead) content = restore(u, unquote(ahead[1]));
      const target = inFolder(dir, path);
      // 「把待办清单存到 todo.txt」「把 25*4 的结果写到 a.txt」: what a tool says, not these words, goes in.
      const source = resultNamed(content);
      return source
        ? { kind: 'call', call: { ...source, saveTo: target } }
        : call('file_write', { path: target, content });
    }
    for (const pattern of CREATE) {
      const m = pattern.exec(u.norm);
      const name = m?.groups?.path && cleanPath(m.groups.path);
      if (!m?.indices || !name || NOT_A_PATH.test(name)) continue;
      // Without the word 文件/file only a name with an extension or a folder is a file: 「新建一个计划」 is not.
      if (m.groups?.named === undefined && !looksLikeFile(name)) continue;
      let end = m.indices[0][1];
      const after = FOLDER_AFTER_NAME.exec(u.norm.slice(end));
      const before = FOLDER_BEFORE.exec(u.norm.slice(0, m.index));
      // 「建个文件夹 notes，然后在里面建 a.txt」: the folder made just before, pointed back to.
      const made = INSIDE_IT.test(u.norm) ? FOLDER_MADE.exec(u.norm.slice(0, m.index)) : null;
      const dir =
        after?.groups?.dir ??
        after?.groups?.dir2 ??
        after?.groups?.dir3 ??
        before?.groups?.dir ??
        made?.groups?.made ??
        made?.groups?.made2;
      if (after) end += after[0].length;
      const rest = CREATE_CONTENT.exec(u.norm.slice(end));
      const at = rest?.indices?.groups?.content ?? rest?.indices?.groups?.content2;
      const content = at ? restore(u, unquote(u.raw.slice(end + at[0], end + at[1]))) : '';
      return call('file_write', { path: inFolder(dir, name), content });
    }
    return null;
  },
};

/** The workspace's place, as a line after what a tool said. */
const whereLine = (lang: Lang, workspace: string | undefined): string =>
  workspace ? say(lang, `\n工作区位置：${workspace}`, `\nThe workspace is at ${workspace}`) : '';

const NOT_FOUND = /没有这个文件或文件夹|there is no such file or folder/;
const EMPTY_FOLDER = /是空文件夹。$|is an empty folder\.$/;

/** Whether a listing is of the workspace's top. */
const isRoot = (path: unknown): boolean => path === undefined || path === '' || path === '.' || path === './';

export const FILE_RULES: ToolRules = {
  intents: [fileCopy, fileAppend, fileWrite, ...FILE_READ_INTENTS],
  failure: {
    file_write: (lang, _args, why, path, reason) => {
      const said = /没有写入|没有做任何改动|未写入|nothing was (?:written|changed)/i.test(reason);
      return say(
        lang,
        `抱歉，没能写入${path && ` ${path}`}：${why}${said ? '' : '没有写入任何内容。'}`,
        `Sorry, I couldn't write ${path || 'the file'}: ${why}${said ? '' : ' Nothing was written.'}`,
      );
    },
    // A file or folder not found: where the workspace is, so the user can look for it themselves.
    file_read: (lang, _args, why, path, reason, { workspace }) =>
      say(lang, `抱歉，没能读取${path && ` ${path}`}：${why}`, `Sorry, I couldn't read ${path || 'the file'}: ${why}`) +
      (NOT_FOUND.test(reason) ? whereLine(lang, workspace) : ''),
    file_list: (lang, _args, why, _path, reason, { workspace }) =>
      say(lang, `抱歉，没能列出文件：${why}`, `Sorry, I couldn't list the files: ${why}`) +
      (NOT_FOUND.test(reason) ? whereLine(lang, workspace) : ''),
  },
  success: {
    file_write: (lang, { args, append }, output, { workspace }) => {
      const where = workspace ? resolve(workspace, str(args.path)) : undefined;
      if (append) return appendWording(lang, str(args.path), append, where);
      const at = where ? say(lang, `\n文件位置：${where}`, `\nIt is at ${where}`) : '';
      return say(lang, `好的，${output}。`, `Done. ${output}.`).replace(/([。.])[。.]$/, '$1') + at;
    },
    // The top of the workspace is listed with where it is: an empty one most of all, or the user has nothing to go on.
    file_list: (lang, { args }, output, { workspace }) =>
      isRoot(args.path) || EMPTY_FOLDER.test(output) ? output + whereLine(lang, workspace) : output,
    // file_read returns the bare text (or a sentence when the file is empty): say whose text it is,
    // fenced, so a terminal that renders Markdown shows the file as it is (「# TODO」, a*b*c).
    file_read: (lang, { args }, output) =>
      /是空文件。$|is empty\.$/.test(output)
        ? output
        : say(
            lang,
            `${str(args.path)} 的内容：\n${fenced(output)}`,
            `Contents of ${str(args.path)}:\n${fenced(output)}`,
          ),
  },
};
