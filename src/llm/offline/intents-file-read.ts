/**
 * Rules for looking at files: reading one or several, listing a folder, and where files are kept.
 * Paths are passed as the user wrote them: the tools decide what is allowed.
 */
import { cleanPath, looksLikeFile, PATH, type Utterance } from './extract.js';
import { call, PRIORITY, reply, str, type Intent, type Outcome, type PlannedCall } from './intent.js';

const P = `(?<path>${PATH})`;
const re = (source: string): RegExp => new RegExp(source, 'dis');
const NOT_A_PATH = /^(?:todos?|to-do|it|this|that|me|my)$/i;

// A verb of looking, doubled or softened as people say it: 看看, 看下, 看一看, 瞧瞧, 打开一下, 查看.
const READ_VERB_ZH = '读取|读读|读|打开|查看|查阅|看看|看|瞧瞧|瞧|显示|展示|输出|cat';
const READ: RegExp[] = [
  re(`(?<verb>${READ_VERB_ZH})\\s*(?:(?:一下|一看|下)\\s*)?(?:(?<file>文件)\\s*)?${P}`),
  re(
    `${P}\\s*(?:(?<file>文件)\\s*)?(?:(?:里面|里|中)\\s*)?(?:(?:写了|写的|有|的内容是|的内容)(?:什么|啥|些什么)?|是(?:什么|啥))`,
  ),
  re(`\\bwhat does\\s+(?:(?:the|(?<file>file))\\s+)*${P}\\s+(?:say|contain|have in it)\\b`),
  re(`\\bwhat(?:'s| is)\\s+(?:written|inside)\\s+(?:in\\s+)?(?:(?:the|(?<file>file))\\s+)*${P}`),
  re(`\\b(?<verb>read)\\s+me\\s+(?:(?:the|(?<file>file))\\s+)*${P}`),
  re(
    `\\b(?<verb>read|open(?:\\s+up)?|show(?:\\s+me)?|cat|display|print|view|look\\s+at|check|see)\\s+(?:(?:the|(?<file>file)|contents?\\s+of|what'?s\\s+in)\\s+)*${P}`,
  ),
  re(`\\bwhat(?:'s|\\s+is)\\s+in\\s+(?:(?:the|(?<file>file))\\s+)*${P}`),
  // 「把 a.txt 和 b.txt 都读一下」「把 notes.md 打开看看」
  re(`把\\s*(?:(?<file>文件)\\s*)?${P}[^。]{0,40}?(?:都|也|给我)?\\s*(?:读|看|打开|显示|展示)(?:一下|下|一遍|看|出来)`),
];
const ANY_PATH = new RegExp(PATH, 'g');
/** Between files named together: 「a.txt 和 b.txt」「a.md、b.md」 "a.txt and b.txt". */
const FILE_JOIN = /^\s*(?:和|与|跟|、|,|以及|还有|and|&)\s*$/i;

/** The other files named together with `path`, in order. */
function filesWith(u: Utterance, path: string): string[] {
  const found = [...u.norm.matchAll(ANY_PATH)].filter((m) => looksLikeFile(cleanPath(m[0])));
  const at = found.findIndex((m) => cleanPath(m[0]) === path);
  if (at < 0) return [];
  const out: string[] = [];
  for (let i = at + 1; i < found.length; i++) {
    const gap = u.norm.slice((found[i - 1].index ?? 0) + found[i - 1][0].length, found[i].index);
    if (!FILE_JOIN.test(gap)) break;
    out.push(cleanPath(found[i][0]));
  }
  return out;
}

/** Verbs that only ever mean reading a file, so 「读取 notes」 needs no extension. */
const STRONG_READ = /^(?:读取|cat)$/i;
const FOLDER_AFTER = /^\s*(?:目录|文件夹|folder\b|directory\b)/i;

const fileRead: Intent = {
  id: 'file_read',
  priority: PRIORITY.fileRead,
  match(u) {
    for (const pattern of READ) {
      const m = pattern.exec(u.norm);
      const path = m?.groups?.path && cleanPath(m.groups.path);
      if (!m || !path || NOT_A_PATH.test(path)) continue;
      // 「看看 notes/」「打开 docs 目录」: a folder is listed, not read.
      const after = u.norm.slice(m.indices?.groups?.path?.[1] ?? u.norm.length);
      if (FOLDER_AFTER.test(after) || /[/\\]$/.test(path)) return call('file_list', { path });
      const named = m.groups?.file !== undefined || STRONG_READ.test(m.groups?.verb ?? '');
      // 「读一下 readme」: a bare name is looked for among the files, then read.
      if (!looksLikeFile(path) && BY_NAME_VERB.test(m.groups?.verb ?? '') && isName(path)) return findFile(path);
      if (!looksLikeFile(path) && !named) continue;
      // 「把 a.txt 和 b.txt 都读一下」: each file named with it.
      const also = filesWith(u, path).map((p): PlannedCall => ({ name: 'file_read', args: { path: p } }));
      return also.length
        ? { kind: 'call', call: { name: 'file_read', args: { path } }, also }
        : call('file_read', { path });
    }
    const bare = BARE_NAME_ZH.exec(u.norm) ?? BARE_NAME_EN.exec(u.norm);
    const name = bare?.groups?.name;
    return name && isName(name) ? findFile(name) : null;
  },
};

/** Verbs after which a bare word names a file: 「读一下 readme」 "open notes". */
const BY_NAME_VERB = /^(?:读取|读读|读|打开|cat|read|open(?:\s+up)?)$/i;
/** Words after those verbs that name no file. */
const NOT_A_NAME =
  /^(?:todos?|to-?do|list|it|this|that|me|my|the|a|news|email|mail|weather|time|calendar|app|youtube|music|website|web|browser|book|books|message|messages)$/i;
/** 「打开日记文件」「读一下我的笔记文件」: a name, then the word 文件. */
const BARE_NAME_ZH =
  /(?:打开|读一下|读读|读取|读|看看|看一下|看下|查看)\s*(?:我的|那个|这个)?\s*(?<name>[\u4e00-\u9fffA-Za-z0-9_-]{1,12}?)\s*(?:这个|那个)?(?:文件|文档)(?!夹)/;
/** "open my notes file", "show me the budget document". */
const BARE_NAME_EN =
  /\b(?:open|read|show(?: me)?|display)\s+(?:my|the|our)\s+(?<name>[\w-]{1,30})\s+(?:file|document|doc)\b/i;

/** A word that can be a file's name: not a number, a pointer (「这个」), a question or a common noun of other tools. */
const isName = (name: string): boolean =>
  /^[A-Za-z\u4e00-\u9fff]/.test(name) && !NOT_A_NAME.test(name) && !/[这那该此哪什啥都了吗呢我你它]/.test(name);

/** List the workspace, then read what the name fits. */
const findFile = (name: string): Outcome => ({ kind: 'call', call: { name: 'file_list', args: {}, findFile: name } });

const LIST_ZH =
  /[\w./-]\s*(?:下面|下|里面|里)(?:都|现在)?有(?:什么|哪些|啥)|(?:有哪些|有什么|有啥|列出|列一下|列举|看看|查看|显示|看一下|瞧瞧|存了|存过|保存了)[^。?]*?(?:文件|目录|文件夹)|(?:文件|目录)(?:列表|清单)|(?:工作区|目录|文件夹)(?:里|下|中)?(?:面)?(?:现在|目前|都)?(?:有(?:哪些|什么|啥|东西|文件|内容))/;
const LIST_EN =
  /\b(?:list|show|what|which|see|view|any)\b.*\bfiles?\b|\bfiles?\s+list\b|\b(?:list|show)\b.*\b(?:workspace|folder|directory)\b|^ls\b|\bwhat'?s in (?:the|my) (?:folder|directory|workspace)\b|\blist (?:the |my )?(?:folder|directory|workspace)\b|\bwhat (?:have i|did i|did you) (?:save|saved|store|stored|write|wrote)\b/i;
const LIST_PATH: RegExp[] = [
  re(`${P}\\s*(?:目录|文件夹)`),
  re(`(?:目录|文件夹)\\s*${P}`),
  re(`${P}\\s*(?:下面|下|里面|里|中)的?(?:文件|有)`),
  re(`\\b(?:in|under|inside)\\s+(?:the\\s+)?(?:folder\\s+|directory\\s+)?${P}`),
  re(`^ls\\s+${P}`),
  re(`\\b(?:folder|directory)\\s+${P}`),
];
const NOT_A_FOLDER = /^(?:the|my|workspace|files?|folder|directory|here)$/i;

const fileList: Intent = {
  id: 'file_list',
  priority: PRIORITY.fileRead,
  match(u): Outcome | null {
    if (!LIST_ZH.test(u.norm) && !LIST_EN.test(u.norm)) return null;
    for (const pattern of LIST_PATH) {
      const path = pattern.exec(u.norm)?.groups?.path;
      if (path && !NOT_A_FOLDER.test(path)) return call('file_list', { path: cleanPath(path) });
    }
    return call('file_list');
  },
};

/** Asking where files are kept: 「文件存在哪」「工作区在哪」 "where did you save it". */
const WHERE_ZH =
  /(?:存|保存|放|写|存放|搁)(?:在|到)(?:了)?(?:哪|什么地方|什么位置|什么路径|哪个(?:目录|文件夹|路径|位置|地方))|(?:工作区|工作目录|文件夹|文件)(?:是)?(?:在哪|的?(?:路径|位置|地址|目录)(?:是什么|是啥|在哪|呢|[?]|$))|(?:文件|东西|它|这个|那个)(?:都|会|是)?(?:在|存在|放在)(?:哪|什么地方)/;
const WHERE_EN =
  /\b(?:files?|saved?|stored?|kept)\b.*\bwhere\b|\bwhere (?:can|do|would|should) i find\b|\bwhere\b.*\b(?:files?|saved?|stored?|kept|keep|store|put|wrote|written|workspace|folder|directory)\b|\b(?:workspace|files?) (?:path|location|folder|directory)\b|\bwhich (?:folder|directory)\b.*\b(?:files?|saved?|stored?|kept)\b/i;

const fileWhere: Intent = {
  id: 'file_where',
  priority: PRIORITY.fileRead,
  match(u, ctx): Outcome | null {
    if (!WHERE_ZH.test(u.norm) && !WHERE_EN.test(u.norm)) return null;
    // 「notes.txt 存在哪」 names the file; "where did you save it" means the one just written.
    const named = [...u.norm.matchAll(new RegExp(PATH, 'g'))].map((m) => m[0]).find(looksLikeFile);
    const written =
      ctx.previous?.kind === 'calls' ? ctx.previous.calls.find((c) => c.name === 'file_write') : undefined;
    const path = named ? cleanPath(named) : written && str(written.args.path);
    return reply(path ? { kind: 'workspace', path } : { kind: 'workspace' });
  },
};

export const FILE_READ_INTENTS: Intent[] = [fileRead, fileList, fileWhere];
