/** Rules for the todo tools: add (keeping the user's wording), list, done and delete by number. */
import { dueOf, looksLikeFile, PATH, restore, todoId, trimClause, unquote, type Utterance } from './extract.js';
import { call, PRIORITY, reply, type Intent, type Outcome, type ToolRules } from './intent.js';
import { say, type Lang } from '../../i18n.js';
import { lookupIn } from './todo-lookup.js';

const TODO_WORD = /待办|代办|todo|to-do|to do list|任务清单|任务列表|待做事项|我的清单|\btasks?\b|\bmy list\b|reminders/i;
const LIST_WORD = /看|查|显示|列|哪些|什么|多少|几条|\b(?:show|list|what|which|how many|see|view|display)\b/i;

const ADD_MARKERS_ZH =
  /记一下|记下来|记下|记个|记录一下|记录下|记(?=\s*[:：])|(?:添加|加|新建|新增|创建|建)(?:一[条个项]|个)?(?:待办|todo)(?:事项)?|提醒我(?:一下)?|记住(?!我(?:叫|的名字|是|名字))(?:一下)?/i;
// The content starts and ends with a non-space, so the spaces around it are matched in one way only
// (`\s*(.+?)\s*` is retried for every split of a long run of spaces).
const ADD_INTO_ZH = /^(?:帮我|请|麻烦你?|给我)?\s*(?:把\s*)?(\S.*?)(?<!\s)\s*(?:加到|加入|添加到|放到|放进|记到|写到|写进|记进)(?:我的)?(?:待办|todo)/di;
const ADD_MARKERS_EN: RegExp[] = [
  /\b(?:add|create|make|new|set)\s+(?:(?:a|an|new|another)\s+)*(?:todo|to-do|task|reminder)(?:\s+item)?\b\s*(?:[:\-]|to\b|that\b|saying\b|for\b)?/i,
  /\b(?:remind me to|note down|jot down)\b/i,
  /^(?:todo|to-do)\s*:/i,
];
const ADD_INTO_EN = /^(?:please\s+)?(?:add|put)\s+(\S.*?)(?<!\s)\s+(?:to|on|in|into)\s+(?:my\s+|the\s+)?(?:todo|to-do|task)s?(?:\s+list)?\b/di;

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
  // 「谢谢你帮我记下来」 has the marker but asks for nothing new.
  if (!text) return u.norm.length <= BARE_MARKER_CHARS ? reply({ kind: 'askTodoContent' }) : null;
  const due = dueOf(text) ?? dueOf(before);
  // All of a long message goes to the tool, which says how long is too long.
  const whole = restore(u, text);
  return call('todo_add', due ? { content: whole, due } : { content: whole });
}

/** "remind me on Friday to call the bank": the day sits between the marker and the content. */
const REMIND_WHEN_EN = /\bremind me\s+((?:on|at|by|this|next|tomorrow|tonight|today)\b.*?)\s+to\b/i;

const todoAdd: Intent = {
  id: 'todo_add',
  priority: PRIORITY.todoAdd,
  match(u) {
    const when = REMIND_WHEN_EN.exec(u.norm);
    if (when) return addOutcome(u, u.raw.slice(when.index + when[0].length), when[1]);
    const into = ADD_INTO_ZH.exec(u.norm) ?? ADD_INTO_EN.exec(u.norm);
    if (into?.indices?.[1]) return addOutcome(u, u.raw.slice(...into.indices[1]));
    for (const marker of [ADD_MARKERS_ZH, ...ADD_MARKERS_EN]) {
      const m = marker.exec(u.norm);
      if (m) return addOutcome(u, u.raw.slice(m.index + m[0].length), u.raw.slice(0, m.index));
    }
    return null;
  },
};

const DONE_VERB = /完成|做完|搞定|弄完|办完|干完|勾掉|打勾|打钩|划掉|\b(?:done|complete|completed|finish|finished|mark|(?:check|tick|cross)(?:ed)? (?:it |that |this )?off)\b/i;
const DELETE_VERB = /删除|删掉|删了|删去|去掉|移除|移走|不要了|清除|取消|不用.{1,16}?了|\b(?:delete|remove|drop|cancel|erase|scratch|forget about|get rid of|strike)\b/i;
const FILE_TOKEN = new RegExp(`(?:^|[\\s:：,，])(${PATH})`, 'g');

/** A message that names a file is about files, whatever its verbs: 「删除 notes/2.txt」 is not todo 2. */
function mentionsFile(u: Utterance): boolean {
  return [...u.norm.matchAll(FILE_TOKEN)].some((m) => looksLikeFile(m[1]));
}

function byNumber(tool: 'todo_done' | 'todo_delete', verb: RegExp): Intent {
  return {
    id: tool,
    priority: tool === 'todo_delete' ? PRIORITY.todoDelete : PRIORITY.todoDone,
    match(u) {
      if (!verb.test(u.norm) || mentionsFile(u)) return null;
      const id = todoId(u.norm);
      if (id !== undefined) return call(tool, { id });
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
const PENDING = /未完成|没完成|没做完|待完成|还没|没做|没干|没办|还剩|\b(?:pending|open|unfinished|remaining|left|still)\b/i;
const DONE = /已完成|已经完成|完成了的|完成的|做完的|\b(?:done|completed|finished)\b/i;
const ALL = /全部|所有|一切|\b(?:all|every)\b/i;
const WHAT_TO_DO =
  /(?:有|要)(?:什么|哪些|啥)(?:事|要做|没做|要干)|\bwhat do i have on my (?:plate|list|agenda)\b|还有(?:什么|哪些|啥|多少|几件)(?:事)?(?:没做|没干|没办|要做|要干|没完成|没弄)|还剩(?:什么|哪些|啥|几件)(?:事)?|(?:今天|明天|这周|最近)?(?:要|得)做(?:些)?(?:什么|啥|哪些)|\bwhat(?:'s| is| do i have)? (?:still )?(?:left|pending|open|remaining)\b|\bwhat do i (?:still )?(?:have|need|got) to do\b|\bwhat(?:'s| is) (?:on my (?:list|plate|agenda)|still to do)\b|\banything (?:left|else) (?:to do|on my list)\b|\bmy to-?dos?\b/i;

const todoList: Intent = {
  id: 'todo_list',
  priority: PRIORITY.todoList,
  match(u) {
    if ((!TODO_WORD.test(u.norm) && !WHAT_TO_DO.test(u.norm)) || mentionsFile(u)) return null; // not notes/todo.md
    const status = PENDING.test(u.norm) ? 'pending' : DONE.test(u.norm) ? 'done' : ALL.test(u.norm) ? 'all' : undefined;
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
