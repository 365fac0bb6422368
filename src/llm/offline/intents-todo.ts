/** Rules for the todo tools: add (keeping the user's wording), list, done and delete by number. */
import { dueOf, looksLikeFile, PATH, restore, todoId, todoIds, trimClause, unquote, type Utterance } from './extract.js';
import { call, PRIORITY, reply, type Intent, type Outcome, type ToolRules } from './intent.js';
import { say, type Lang } from '../../i18n.js';
import { lookupIn } from './todo-lookup.js';

const TODO_WORD = /待办|代办|todo|to-do|to do list|任务清单|任务列表|待做事项|我的清单|\btasks?\b|\bmy list\b|reminders/i;
const LIST_WORD = /看|查|显示|列|哪些|什么|多少|几条|\b(?:show|list|what|which|how many|see|view|display)\b/i;

const ADD_MARKERS_ZH =
  /记一下|记下来|记下|记个|记录一下|记录下|记(?=\s*[:：])|(?:添加|加|新增|记)(?:一[条个项]|个)(?=\s*[:：])|(?:设|定|建|加|弄)(?:一)?个提醒(?:吧)?|(?:添加|加|新建|新增|创建|建)(?:一[条个项]|个)?(?:待办|todo)(?:事项)?|提醒我(?:一下)?|记住(?!我(?:叫|的名字|是|名字))(?:一下)?/i;
// The content starts and ends with a non-space, so the spaces around it are matched in one way only
// (`\s*(.+?)\s*` is retried for every split of a long run of spaces).
const ADD_INTO_ZH = /^(?:帮我|请|麻烦你?|给我)?\s*(?:把\s*)?(\S.*?)(?<!\s)\s*(?:加到|加入|添加到|放到|放进|记到|写到|写进|记进)(?:我的)?(?:待办|todo)/di;
const ADD_MARKERS_EN: RegExp[] = [
  /\b(?:add|create|make|new|set)\s+(?:(?:a|an|new|another)\s+)*(?:todo|to-do|task|reminder)(?:\s+item)?\b\s*(?:[:\-]|to\b|that\b|saying\b|for\b)?/i,
  /\b(?:remind me to|note down|jot down)\b/i,
  /^(?:todo|to-do|note to self|reminder)\s*:/i,
];
const ADD_INTO_EN =
  /^(?:please\s+)?(?:can you\s+|could you\s+)?(?:add|put|stick|throw)\s+(\S.*?)(?<!\s)\s+(?:to|on|in|into|onto)\s+(?:my\s+|the\s+)?(?:(?:todo|to-do|to do|task)s?(?:\s+list)?|list)\b/di;
/** The marker after the content: 「明天要交实验报告，帮我记一下」「周五之前把 PPT 做完 记下来」. */
const ADD_AFTER_ZH = /^(\S.*?)(?<![\s,，])[\s,，]*(?:(?:请|帮我|麻烦你?|给我)\s*)?(?:记一下|记下来|记下|记上|加到待办(?:里)?|加进待办|加个待办|加入待办|添加到待办|放进待办)(?:吧|哈|啊|呀|哦|一下)?[。!！~～]*$/d;
/** 「记得下周三去体检」「别忘了明天交房租」: said to the assistant, a thing to remember to do. */
const ADD_LEAD_ZH = /^(?:(?:请|帮我|你)\s*)?(?:记得|别忘了|别忘记|不要忘了|不要忘记)(?!我(?:叫|是|的名字))(?:\s*(?:提醒我|叫我|告诉我)(?:一下)?)?/;
/** "don't let me forget to …", "wake me up at 7" (there is no alarm: a todo is the honest nearest). */
const ADD_LEAD_EN =
  /^(?:please\s+)?(?:don'?t let me forget (?:to\s+)?|make sure i (?:remember to\s+)?|i (?:need|have|must|should) (?:to )?remember to\s+|remember to\s+|(?=wake me up\b))/i;

/** Strips what sits between the marker and the content: 「一下：」「一条待办」「待办事项:」. */
function cleanContent(text: string): string {
  let t = trimClause(text);
  for (;;) {
    const next = trimClause(t.replace(/^(?:一下|下来|一[条个项]|个)?\s*(?:(?:待办(?:事项)?|todo)\s*)?[:：,，]?/i, ''));
    if (next === t) return t;
    t = next;
  }
}

/** Below this a message that is only the marker ("记一下", "add a todo") asks what to add. */
const BARE_MARKER_CHARS = 12;

/** `before` is what preceded the marker: 「明天提醒我交作业」 puts the due day there. */
function addOutcome(u: Utterance, content: string, before = ''): Outcome | null {
  const text = unquote(cleanContent(content)); // 把 "明天开会" 加到待办: the quotes only mark the content
  // 「好的记下了」「记下啦」: the user saying "noted", not a todo called 了.
  if (/^(?:了|啦|吧|哦|呀|啊|哈)+$/.test(text)) return reply({ kind: 'ack' });
  // 「谢谢你帮我记下来」 has the marker but asks for nothing new.
  if (!text) return u.norm.length <= BARE_MARKER_CHARS ? reply({ kind: 'askTodoContent' }) : null;
  const due = dueOf(text) ?? dueOf(before);
  // All of a long message goes to the tool, which says how long is too long.
  const whole = restore(u, text);
  return call('todo_add', due ? { content: whole, due } : { content: whole });
}

/** 「明天交报告，帮我记一下」, unless what comes before the marker is no task: 「谢谢你帮我记下来」. */
function afterContent(u: Utterance): RegExpExecArray | null {
  const m = ADD_AFTER_ZH.exec(u.norm);
  return m && !/^(?:请|帮我|麻烦你?|给我|你|帮忙|好的?|嗯|谢谢|多谢|感谢)/.test(m[1]) ? m : null;
}

/** "remind me on Friday to call the bank": the day sits between the marker and the content. */
const REMIND_WHEN_EN = /\b(?:remind me|set (?:a|an) (?:reminder|alarm))\s+((?:on|at|by|for|in|this|next|tomorrow|tonight|today)\b.*?)\s+to\b/i;

const todoAdd: Intent = {
  id: 'todo_add',
  priority: PRIORITY.todoAdd,
  match(u) {
    const when = REMIND_WHEN_EN.exec(u.norm);
    if (when) return addOutcome(u, u.raw.slice(when.index + when[0].length), when[1]);
    const into = ADD_INTO_ZH.exec(u.norm) ?? ADD_INTO_EN.exec(u.norm) ?? afterContent(u);
    if (into?.indices?.[1]) return addOutcome(u, u.raw.slice(...into.indices[1]));
    const lead = ADD_LEAD_ZH.exec(u.norm) ?? ADD_LEAD_EN.exec(u.norm);
    // 「记得我们上次说的吗」 asks something; it adds nothing.
    if (lead && !/[吗?]\s*$/.test(u.norm)) return addOutcome(u, u.raw.slice(lead[0].length));
    for (const marker of [ADD_MARKERS_ZH, ...ADD_MARKERS_EN]) {
      const m = marker.exec(u.norm);
      if (m) return addOutcome(u, u.raw.slice(m.index + m[0].length), u.raw.slice(0, m.index));
    }
    return null;
  },
};

const DONE_VERB =
  /完成|做完|搞定|弄完|办完|干完|做好|弄好|办好|勾掉|勾上|勾选|打勾|打钩|打上勾|划掉|(?:交|买|付|缴|还|寄|取|拿|办|洗|修|订)(?:好|完)?了[。!！~～啦]*$|\b(?:done|complete|completed|finish|finished|mark|(?:check|tick|cross)(?:ed)? (?:it |that |this )?off)\b/i;
/** "I've called the plumber": a past deed names a todo done, unless there are numbers (a sum to work out). */
const PAST_DONE_EN =
  /\b(?:already|just|finally|i'?ve|i have)\s+(?:already\s+|just\s+|finally\s+)?(?:paid|bought|sent|called|submitted|handed in|picked up|did|returned|renewed|booked|cleaned|fixed|emailed|mailed|got)\b/i;
const DELETE_VERB = /删除|删掉|删了|删去|删光|去掉|移除|移走|不要了|清除|清空|清理|取消|不用.{1,16}?了|\b(?:delete|remove|drop|cancel|erase|scratch|forget about|get rid of|strike|clear|purge|wipe|(?:don'?t|do not|no longer) (?:need|have) to|no need to)\b/i;
const FILE_TOKEN = new RegExp(`(?:^|[\\s:：,，])(${PATH})`, 'g');

/** A message that names a file is about files, whatever its verbs: 「删除 notes/2.txt」 is not todo 2. */
function mentionsFile(u: Utterance): boolean {
  return [...u.norm.matchAll(FILE_TOKEN)].some((m) => looksLikeFile(m[1]));
}

const CLEAR_DONE = new RegExp(
  [
    '(?:清空|清除|清理|删除|删掉|删光|去掉|移除)(?:掉)?(?:所有|全部|一下)?的?(?:已经?完成|完成了?|已?做完|打了?勾)的?(?:待办|事项|任务|那些)?',
    '(?:所有|全部)?的?(?:已经?完成|完成了?|已?做完)的?(?:待办|事项|任务|那些)?(?:都|全)?(?:删掉|删了|删除|清空|清除|清理掉?|去掉)',
    "\\b(?:clear|delete|remove|purge|clean up|get rid of)\\s+(?:out\\s+)?(?:all\\s+)?(?:(?:of\\s+)?(?:the|my)\\s+)?(?:completed|done|finished|checked(?:-off)?|ticked(?:-off)?)\\s+(?:ones|todos?|to-dos?|tasks?|items?)\\b",
    "\\b(?:clear|delete|remove|purge)\\s+(?:out\\s+)?(?:all\\s+)?(?:the\\s+)?(?:ones|todos?|tasks?|items?)\\s+(?:that are|that'?s|i'?ve|i have)\\s+(?:already\\s+)?(?:done|completed|finished)\\b",
  ].join('|'),
  'i',
);
const CLEAR_ALL = /清空(?:我的)?(?:待办|清单|任务)|(?:删除|删掉|清除)(?:所有|全部)的?待办|(?:所有|全部)(?:的)?待办(?:都|全)?(?:删掉|删了|删除|清空)|\b(?:clear|wipe|empty)\s+(?:out\s+)?(?:my|the)\s+(?:todo|to-do|task)\s*list\b|\b(?:delete|remove|clear)\s+all\s+(?:of\s+)?(?:my\s+|the\s+)?(?:todos?|to-dos?|tasks?)\b/i;

/** 「清空已完成的待办」 removes every done item; 「清空待办」 every item. */
function clearing(text: string): 'done' | 'all' | undefined {
  return CLEAR_DONE.test(text) ? 'done' : CLEAR_ALL.test(text) ? 'all' : undefined;
}

function byNumber(tool: 'todo_done' | 'todo_delete', verb: RegExp): Intent {
  return {
    id: tool,
    priority: tool === 'todo_delete' ? PRIORITY.todoDelete : PRIORITY.todoDone,
    match(u) {
      const past = tool === 'todo_done' && PAST_DONE_EN.test(u.norm) && !/\d/.test(u.norm);
      if ((!verb.test(u.norm) && !past) || mentionsFile(u)) return null;
      // 「第一个和第三个都完成了」, "delete 2 and 3": each is changed, the list first, to show which.
      const ids = todoIds(u.norm);
      if (ids.length > 1) return { kind: 'call', call: { name: 'todo_list', args: { status: 'all' }, lookup: { action: tool, query: '', ids } } };
      const id = todoId(u.norm);
      if (id !== undefined) return call(tool, { id });
      const every = tool === 'todo_delete' ? clearing(u.norm) : undefined;
      if (every) return { kind: 'call', call: { name: 'todo_list', args: { status: 'all' }, lookup: { action: tool, query: '', every } } };
      // 「把交电费那条删掉」, "I'm done with the dentist": find it in the list first.
      // 「显示已完成的待办」 asks for a list; "delete X from my list" does not.
      const listing = LIST_ASK.test(u.norm.replace(/\b(?:from|off|on) (?:my|the) (?:todo |to-do )?list\b/gi, ''));
      const lookup = listing ? undefined : lookupIn(u, tool);
      if (lookup) return { kind: 'call', call: { name: 'todo_list', args: { status: 'all' }, lookup } };
      // A verb and the todo list but no number: ask which one, unless it reads as "show the done ones".
      if (TODO_WORD.test(u.norm) && !LIST_WORD.test(u.norm)) {
        return reply({ kind: 'askTodoId', action: tool === 'todo_done' ? 'done' : 'delete' });
      }
      return null;
    },
  };
}

/** Asking to see items rather than change one; 看 inside 「把看牙医那条删掉」 is the item's words. */
const LIST_ASK = /^(?:请|帮我|给我)?\s*(?:看|查|显示|列)|哪些|什么|多少|几条|\b(?:show|list|what|which|how many|see|view|display)\b/i;
const PENDING = /未完成|没完成|没做完|待完成|还没|没做|没干|没办|还剩|还要|还得|还需要|\b(?:pending|open|unfinished|remaining|left|still|outstanding)\b/i;
const DONE = /已完成|已经完成|完成了的|完成的|做完的|(?:完成|做完|搞定|办完)了(?:哪些|什么|啥|几)|哪些(?:已经)?(?:完成|做完|搞定)了|\b(?:done|completed|finished)\b/i;
const ALL = /全部|所有|一切|\b(?:all|every)\b/i;
const WHAT_TO_DO = new RegExp(
  [
    '(?:有|要|得|该)(?:什么|哪些|啥)(?:事|要做|没做|要干|任务|安排|活)',
    '还有(?:什么|哪些|啥|多少|几件)(?:事)?(?:没做|没干|没办|要做|要干|没完成|没弄)',
    '还剩(?:什么|哪些|啥|几件)(?:事)?',
    '(?:今天|明天|这周|本周|最近|接下来)?(?:要|得|该|需要)(?:做|干)(?:些)?(?:什么|啥|哪些|嘛|吗)',
    '(?:今天|明天|这周|本周|最近|接下来)(?:要|得|该)?(?:干嘛|干啥|忙什么|忙啥|有(?:什么|啥)(?:事|安排|任务))',
    '(?:完成|做完|搞定|办完)了(?:哪些|什么|啥|几件|几条)',
    '哪些(?:已经)?(?:完成|做完|搞定)了',
    '\\bwhat do i have on my (?:plate|list|agenda)\\b',
    "\\bwhat(?:'s| is| do i have)? (?:still )?(?:left|pending|open|remaining|outstanding)\\b",
    '\\bwhat (?:do|should|must) i (?:still )?(?:have|need|got) to do\\b',
    '\\bwhat (?:(?:do|should) i )?(?:still )?(?:need|have) to do\\b',
    '\\bwhat i (?:still )?(?:need|have) to do\\b',
    "\\bwhat(?:'s| is) (?:on my (?:list|plate|agenda)|still to do|on (?:for )?today|on for tomorrow)\\b",
    '\\banything (?:left|else) (?:to do|on my list)\\b',
    '\\b(?:do|have) i (?:got |have )?anything (?:to do|on|left|planned)\\b',
    '\\bwhat (?:have i|did i) (?:already )?(?:finished|done|completed|crossed off|ticked off)\\b',
    '(?:列|看|查|显示|给我看)(?:一下|下|看|出)?(?:我的|今天的|明天的|这周的)?(?:任务|事项|安排)',
    '(?:今天|明天|这周|本周|接下来)的?(?:安排|任务|计划|日程|事情?)(?:是什么|是啥|有哪些|有什么|有啥)',
    '\\bwhat (?:do|should|must) i (?:still )?(?:need|have) to (?:do|get done|finish)\\b',
    '\\bmy to-?dos?\\b',
  ].join('|'),
  'i',
);

const todoList: Intent = {
  id: 'todo_list',
  priority: PRIORITY.todoList,
  match(u) {
    if ((!TODO_WORD.test(u.norm) && !WHAT_TO_DO.test(u.norm)) || mentionsFile(u)) return null; // not notes/todo.md
    // "what do I need to get done": the work to do, not the items done.
    const said = u.norm.replace(/\b(?:get|gets|getting|be|been) (?:done|finished|completed)\b/gi, ' ');
    const status = PENDING.test(said) ? 'pending' : DONE.test(said) ? 'done' : ALL.test(said) ? 'all' : undefined;
    return call('todo_list', status ? { status } : {});
  },
};

const done = (lang: Lang, _call: unknown, output: string): string => say(lang, `好的，${output}`, `Done. ${output}`);

export const TODO_RULES: ToolRules = {
  // Delete before done: 「删除已完成的第 2 条」 deletes.
  intents: [todoAdd, byNumber('todo_delete', DELETE_VERB), byNumber('todo_done', DONE_VERB), todoList],
  failure: {
  todo_add: (lang, _args, why) => say(lang, `抱歉，没能添加待办：${why}`, `Sorry, I couldn't add that todo: ${why}`),
  todo_list: (lang, _args, why) => say(lang, `抱歉，没能读取待办：${why}`, `Sorry, I couldn't read the todo list: ${why}`),
  todo_done: (lang, _args, why) => say(lang, `抱歉，没能标记完成：${why}`, `Sorry, I couldn't mark it as done: ${why}`),
  todo_delete: (lang, _args, why) => say(lang, `抱歉，没能删除：${why}`, `Sorry, I couldn't delete it: ${why}`),
  },
  success: { todo_add: done, todo_done: done, todo_delete: done },
};
