/**
 * What a message's parts mean together: a part that points back to the one before (「…，然后读一下
 * 这个文件」「东京现在几点，那边天气怎么样」), several places in one request (「上海和北京的天气」), the same
 * question asked twice, and a read of a file that an append before it changes, which must wait for it.
 */
import { PATH, utterance, type Utterance } from './extract.js';
import { KEEP_AS_TODO, str, type Outcome, type PlannedCall } from './intent.js';

const FILE_TOOLS = new Set(['file_read', 'file_write', 'file_list']);
/** Words that stand for the file just named. */
const THAT_FILE = /这个文件|这份文件|该文件|此文件|那个文件|刚才的?文件|这文件|它|\b(?:this|that|the) file\b|\bit\b/i;
/** A folder asked for before the file: 「建个文件夹 notes」 "make a folder called notes". */
export const FOLDER_MADE = new RegExp(
  `(?:建|创建|新建|建立)\\s*(?:一个|个)?\\s*(?:新的?)?(?:文件夹|目录)\\s*(?:(?:叫做|叫|名为|名叫)\\s*)?(?<made>${PATH})|\\b(?:create|make)\\s+(?:a\\s+|the\\s+|new\\s+)*(?:folder|directory)\\s+(?:called\\s+|named\\s+)?(?<made2>${PATH})`,
  'i',
);
export const INSIDE_IT =
  /(?:在|到)(?:它|那个文件夹|这个文件夹|该文件夹)?(?:里面|里头|其中|里)|\b(?:in|inside) (?:it|there|that folder)\b/i;
/** What can only be said of a file, so a part saying it is about the file even if it reads as something else. */
const STRONG_FILE_CUE =
  /这个文件|这份文件|该文件|此文件|那个文件|刚才的?文件|这文件|末尾|结尾|最后面|尾部|内容|\b(?:this|that|the) file\b/i;
/** Where in a file, said without the file: 「在末尾」「后面」. */
const FILE_END = /末尾|结尾|最后面|最后|后面|尾部/;
/** Words that stand for the place just named: 「那边」「当地」 "there". */
const THAT_PLACE = /^(?:那边|那里|那儿|当地|该地|这个城市|那个城市|there|that city|the city)$/i;
const THERE = /那边|那里|那儿|当地|\bthere\b|\blocal\b/i;
/** Tools that only read, where asking twice in one message means asking once. */
const READ_ONLY = new Set(['calculator', 'current_time', 'weather', 'todo_list', 'file_list', 'file_read']);
/** Between places named together: 「上海和北京」「北京、上海」 "Paris and London". */
const PLACE_JOIN = /\s*(?:和|与|跟|及|以及|还有|、|,|，|&|\band\b)\s*/i;

/** The part again with the file it points to named: 「读一下这个文件」 → 「读一下 notes.txt」, 「把内容改成…」 → 「把 a.txt 的内容改成…」. */
function namingFile(part: Utterance, path: string): Utterance | undefined {
  if (THAT_FILE.test(part.raw)) return utterance(part.raw.replace(THAT_FILE, ` ${path} `));
  if (/内容/.test(part.raw)) return utterance(part.raw.replace('内容', ` ${path} 的内容`));
  // 「再在末尾加一句 完成」 "add a line at the end": the end of that file.
  const end = FILE_END.exec(part.raw);
  if (end) return utterance(`${part.raw.slice(0, end.index)} ${path} ${part.raw.slice(end.index)}`);
  return undefined;
}

/**
 * What a part means given the call before it, when it points back to that call's subject; undefined
 * when it does not. `classify` reads a text as a message of its own.
 */
export function pointingBack(
  part: Utterance,
  o: Outcome,
  last: PlannedCall,
  classify: (u: Utterance) => Outcome,
): Outcome | undefined {
  const path = str(last.args.path);
  // A part that names no file but speaks of one (「这个文件」「内容」「末尾」) is about the file just named,
  // whatever else it could be read as: 「在末尾加一句 完成」 is no todo done.
  const namesFile = /[\w\u4e00-\u9fff]\.[A-Za-z][A-Za-z0-9]{0,9}\b|[/\\]/.test(part.norm);
  const misread =
    o.kind === 'reply' || (o.kind === 'call' && !FILE_TOOLS.has(o.call.name) && STRONG_FILE_CUE.test(part.raw));
  if (path && FILE_TOOLS.has(last.name) && !namesFile && misread) {
    const named = namingFile(part, path);
    const again = named && classify(named);
    return again?.kind === 'call' && (o.kind === 'reply' || FILE_TOOLS.has(again.call.name)) ? again : undefined;
  }
  const place =
    last.name === 'weather' ? str(last.args.city) : last.name === 'current_time' ? str(last.args.timezone) : '';
  if (!place) return undefined;
  // 「东京现在几点，那边天气怎么样」: the weather there.
  if (
    (o.kind === 'reply' && o.reply.kind === 'askCity') ||
    (o.kind === 'call' && o.call.name === 'weather' && THAT_PLACE.test(str(o.call.args.city)))
  ) {
    return { kind: 'call', call: { name: 'weather', args: { city: place } } };
  }
  // 「北京天气怎么样，那边现在几点」: the time there.
  if (o.kind === 'call' && o.call.name === 'current_time' && !o.call.args.timezone && THERE.test(part.norm)) {
    return { kind: 'call', call: { name: 'current_time', args: { timezone: place } } };
  }
  return undefined;
}

/** The folder a part only asks to make (「建个文件夹 notes」), if that is all it asks. */
export function folderMade(part: Utterance): string | undefined {
  const m = FOLDER_MADE.exec(part.norm);
  return m && part.norm.slice(m.index + m[0].length).trim() === '' ? (m.groups?.made ?? m.groups?.made2) : undefined;
}

/** A write into the folder made earlier in the message, when the part says so (「在里面」 "inside it"). */
export function intoFolder(o: Outcome, part: Utterance, folder: string | undefined): Outcome {
  if (!folder || o.kind !== 'call' || o.call.name !== 'file_write' || !INSIDE_IT.test(part.norm)) return o;
  const path = str(o.call.args.path);
  return path.includes('/') ? o : { ...o, call: { ...o.call, args: { ...o.call.args, path: `${folder}/${path}` } } };
}

/** 「上海和北京」 as two places; one place as itself. */
function places(name: string): string[] {
  const parts = name
    .split(PLACE_JOIN)
    .map((p) => p.trim())
    .filter(Boolean);
  return parts.length > 1 && parts.every((p) => p.length <= 40) ? parts : [name];
}

/** 「把结果写到 a.txt」 "save the result to a.txt": the part that asks to keep what came before. */
const SAVE_RESULT =
  /^(?:(?:请|帮我|再)\s*)?(?:把|将)\s*(?:计算|这个|那个|上面的|刚才的)?(?:结果|答案|它们|它|这些|那些|列表|清单)\s*(?:都\s*)?(?:写|存|保存|记|放|导出|输出)(?:到|进|在|入|成)\s*(?:文件\s*)?(?<path>[^\s。!]+?)\s*(?:里|中|文件)?[。.!]*$|^(?:save|write|put|store|export)\s+(?:the\s+|that\s+|this\s+)?(?:result|answer|it|that|them|output|list)\s+(?:to|in|into|as)\s+(?:a\s+file\s+(?:called\s+)?|the\s+file\s+)?(?<path2>\S+?)[.!]*$/i;

/** 「把结果记到待办里」 "add the result to my todos": kept as a todo. */
const RESULT_AS_TODO =
  /^(?:(?:请|帮我|再)\s*)?(?:把|将)\s*(?:计算|这个|那个|上面的|刚才的)?(?:结果|答案|它)\s*(?:记|加|写|放|添加)(?:到|进|在|入)\s*(?:我的)?(?:待办|清单)(?:里|中)?[。.!]*$|^(?:add|put|save)\s+(?:the\s+)?(?:result|answer|it|that)\s+(?:to|on|in)\s+(?:my\s+)?(?:todos?|to-do list|todo list|list)[.!]*$/i;

/** The file a part asks the result before it to be kept in (or KEEP_AS_TODO), if it asks that. */
export function savingTo(part: Utterance): string | undefined {
  if (RESULT_AS_TODO.test(part.norm.trim())) return KEEP_AS_TODO;
  const m = SAVE_RESULT.exec(part.norm.trim());
  const path = m?.groups?.path ?? m?.groups?.path2;
  return path && /\.[A-Za-z][A-Za-z0-9]{0,9}$|[/\\]/.test(path) ? path : undefined;
}

/** The calls of a plan made ready to run: several places fanned out, repeats dropped, reads after appends. */
export function planned(calls: PlannedCall[]): { kind: 'calls'; calls: PlannedCall[] } {
  const out: PlannedCall[] = [];
  for (const c of calls) {
    const key = c.name === 'weather' ? 'city' : c.name === 'current_time' ? 'timezone' : undefined;
    const spread =
      key && typeof c.args[key] === 'string'
        ? places(c.args[key] as string).map((p) => ({ ...c, args: { ...c.args, [key]: p } }))
        : [c];
    for (const one of spread) {
      // 「现在几点，今天几号」 asks the clock once.
      if (
        READ_ONLY.has(one.name) &&
        !one.lookup &&
        !one.append &&
        out.some((o) => !o.append && o.name === one.name && JSON.stringify(o.args) === JSON.stringify(one.args))
      )
        continue;
      // A read of a file an earlier part appends to comes after that append's write.
      const at =
        one.name === 'file_read' && !one.append ? out.findIndex((o) => o.append && o.args.path === one.args.path) : -1;
      if (at >= 0) {
        out[at] = { ...out[at], append: { ...out[at].append!, thenRead: true } };
        continue;
      }
      out.push(one);
    }
  }
  return { kind: 'calls', calls: out };
}
