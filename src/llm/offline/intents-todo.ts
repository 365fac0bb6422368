/** Rules for the todo tools: add (keeping the user's wording), list, done and delete by number. */
import { looksLikeFile, PATH, todoId, todoIds, type Utterance } from './extract.js';
import { todoAdd } from './intents-todo-add.js';
import { call, PRIORITY, reply, str, type Intent, type ToolRules } from './intent.js';
import { say, type Lang } from '../../i18n.js';
import { lookupIn } from './todo-lookup.js';

const TODO_WORD =
  /待办|代办|todo|to-do|to do list|任务清单|任务列表|待做事项|我的清单|\btasks?\b|\bmy list\b|reminders/i;
const LIST_WORD =
  /看|查|显示|列|哪些|什么|多少|几条|包括|连同|\bincluding\b|\b(?:show|list|what|which|how many|see|view|display)\b/i;

const DONE_VERB =
  /完成|做完|搞定|弄完|办完|干完|做好|弄好|办好|[写看读洗吃背跑打扫练学交]完(?:了)?[。!！~～啦]*$|勾掉|勾上|勾选|打勾|打钩|打上勾|划掉|(?:交|买|付|缴|还|寄|取|拿|办|洗|修|订)(?:好|完)?了[。!！~～啦]*$|\b(?:done|complete|completed|finish|finished|mark|(?:check|tick|cross)(?:ed)? (?:it |that |this )?off)\b/i;
/** "I've called the plumber": a past deed names a todo done, unless there are numbers (a sum to work out). */
const PAST_DONE_EN =
  /\b(?:already|just|finally|i'?ve|i have)\s+(?:already\s+|just\s+|finally\s+)?(?:paid|bought|sent|called|submitted|handed in|picked up|did|returned|renewed|booked|cleaned|fixed|emailed|mailed|got)\b/i;
const DELETE_VERB =
  /删除|删掉|删了|删去|删光|去掉|移除|移走|不要了|不用了|不需要了|用不着了|清除|清空|清理|取消|不用.{1,16}?了|\b(?:delete|remove|drop|cancel|erase|scratch|forget about|get rid of|strike|clear|purge|wipe|(?:don'?t|do not|no longer) (?:need|have) to|no need to)\b/i;
const FILE_TOKEN = new RegExp(`(?:^|[\\s:：,，])(${PATH})`, 'g');

/** A message that names a file is about files, whatever its verbs: 「删除 notes/2.txt」 is not todo 2. */
function mentionsFile(u: Utterance): boolean {
  return [...u.norm.matchAll(FILE_TOKEN)].some((m) => looksLikeFile(m[1]));
}

const CLEAR_DONE = new RegExp(
  [
    '(?:清空|清除|清理|删除|删掉|删光|去掉|移除)(?:掉)?(?:所有|全部|一下)?的?(?:已经?完成|完成了?|已?做完|打了?勾)的?(?:待办|事项|任务|那些)?',
    '(?:所有|全部)?的?(?:已经?完成|完成了?|已?做完)的?(?:待办|事项|任务|那些)?(?:都|全)?(?:删掉|删了|删除|清空|清除|清理掉?|去掉)',
    '\\b(?:clear|delete|remove|purge|clean up|get rid of)\\s+(?:out\\s+)?(?:all\\s+)?(?:(?:of\\s+)?(?:the|my)\\s+)?(?:completed|done|finished|checked(?:-off)?|ticked(?:-off)?)\\s+(?:ones|todos?|to-dos?|tasks?|items?)\\b',
    "\\b(?:clear|delete|remove|purge)\\s+(?:out\\s+)?(?:all\\s+)?(?:the\\s+)?(?:ones|todos?|tasks?|items?)\\s+(?:that are|that'?s|i'?ve|i have)\\s+(?:already\\s+)?(?:done|completed|finished)\\b",
  ].join('|'),
  'i',
);
const CLEAR_ALL =
  /清空(?:我的)?(?:待办|清单|任务)|(?:删除|删掉|清除)(?:所有|全部)的?待办|(?:所有|全部)(?:的)?待办(?:都|全)?(?:删掉|删了|删除|清空)|\b(?:clear|wipe|empty)\s+(?:out\s+)?(?:my|the)\s+(?:todo|to-do|task)\s*list\b|\b(?:delete|remove|clear)\s+all\s+(?:of\s+)?(?:my\s+|the\s+)?(?:todos?|to-dos?|tasks?)\b/i;

/** 「把所有待办都标记为完成」 "mark everything as done": every item still open. */
const ALL_DONE =
  /(?:所有|全部)的?(?:待办|任务|事情?)?(?:都|全)?(?:标记为?|标成|改成|设为)?(?:已)?(?:完成|做完|搞定)|(?:待办|任务)(?:全|都)(?:部)?(?:完成|做完|搞定)了|\bmark (?:everything|all(?: of them| my (?:todos|tasks)| (?:todos|tasks))?) (?:as )?(?:done|complete|completed|finished)\b|\b(?:complete|finish) (?:everything|all (?:my )?(?:todos|tasks))\b/i;

/** 「清空已完成的待办」 removes every done item; 「清空待办」 every item. */
function clearing(text: string): 'done' | 'all' | undefined {
  return CLEAR_DONE.test(text) ? 'done' : CLEAR_ALL.test(text) ? 'all' : undefined;
}

const SUM_ASKED = /%|百分|多少|\bhow (?:much|many)\b|\d\s*[-+*/×÷^]\s*\d/i;
const NAMED_ID =
  /第\s*[\d一二两三四五六七八九十]+|#\s*\d|\b(?:todo|task|item|number|no\.?)\s*#?\s*\d|\d\s*号|编号|序号/i;

/** A message that names no item but the one just spoken of: 「把它删了」「搞定了」 "mark it done", "done". */
const REFERS_BACK =
  /^(?:(?:请|帮我|麻烦你?)\s*)?(?:(?:把|将)\s*)?(?:它|这个|那个|这条|那条|这项|刚才那条|刚才那个|刚加的那条)?\s*(?:删掉|删了|删除|去掉|取消掉?|不要了|不用了|完成了?|做完了?|搞定了?|弄完了?|办完了?|(?:标记为?|改成)(?:已)?完成|划掉)(?:吧|了|啦)?[。!！~～]*$|^(?:(?:mark|tick|check|cross)\s+)?(?:it|that|this)(?:\s+one)?\s+(?:as\s+)?(?:done|off|complete|completed|finished)\b|^(?:please\s+)?(?:delete|remove|cancel|scratch|drop)\s+(?:it|that|this)(?:\s+one)?\b|^(?:done|finished|completed|all done)\s*[.!]*$/i;

function byNumber(tool: 'todo_done' | 'todo_delete', verb: RegExp): Intent {
  return {
    id: tool,
    priority: tool === 'todo_delete' ? PRIORITY.todoDelete : PRIORITY.todoDone,
    match(u, ctx) {
      const past = tool === 'todo_done' && PAST_DONE_EN.test(u.norm) && !/\d/.test(u.norm);
      if ((!verb.test(u.norm) && !past) || mentionsFile(u)) return null;
      // 「把它删了」, "done" right after adding one: the item just added, found by its words.
      const added = ctx.previous?.kind === 'calls' ? ctx.previous.calls.filter((c) => c.name === 'todo_add') : [];
      if (added.length === 1 && REFERS_BACK.test(u.norm.trim())) {
        return {
          kind: 'call',
          call: {
            name: 'todo_list',
            args: { status: 'all' },
            lookup: { action: tool, query: str(added[0].args.content) },
          },
        };
      }
      // 「去掉20%还剩多少，总数450」 is arithmetic: a number there names no item unless said as one (第 2 条, #2).
      if (SUM_ASKED.test(u.norm) && !NAMED_ID.test(u.norm)) return null;
      // 「第一个和第三个都完成了」, "delete 2 and 3": each is changed, the list first, to show which.
      const ids = todoIds(u.norm);
      if (ids.length > 1)
        return {
          kind: 'call',
          call: { name: 'todo_list', args: { status: 'all' }, lookup: { action: tool, query: '', ids } },
        };
      const id = todoId(u.norm);
      if (id !== undefined) return call(tool, { id });
      const every = tool === 'todo_delete' ? clearing(u.norm) : ALL_DONE.test(u.norm) ? 'all' : undefined;
      if (every)
        return {
          kind: 'call',
          call: { name: 'todo_list', args: { status: 'all' }, lookup: { action: tool, query: '', every } },
        };
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
const LIST_ASK =
  /^(?:请|帮我|给我)?\s*(?:看|查|显示|列)|哪些|什么|多少|几条|包括|连同|\b(?:show|list|what|which|how many|see|view|display|including)\b/i;
const PENDING =
  /未完成|没完成|没做完|待完成|还没|没做|没干|没办|还剩|还要|还得|还需要|\b(?:pending|open|unfinished|remaining|left|still|outstanding)\b/i;
const DONE =
  /已完成|已经完成|完成了的|完成的|做完的|(?:完成|做完|搞定|办完)了(?:哪些|什么|啥|几)|哪些(?:已经)?(?:完成|做完|搞定)了|\b(?:done|completed|finished)\b/i;
const ALL = /全部|所有|一切|\b(?:all|every|everything)\b/i;
const INCLUDING = /包括|连同|\b(?:including|as well as|along with)\b/i;
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
    '(?:今天|明天|这周|本周|最近|接下来)(?:要|得|该|需要)(?:做|干|办)的(?:事|事情|任务)',
    '\\b(?:list|show)(?: me)? (?:everything|all)\\b.*\\b(?:done|finished|completed)\\b',
    '(?:列|看|显示|给我看)(?:一下|下|看)?(?:剩下|剩余|还剩)的',
    '\\b(?:list|show)(?: me)? (?:the )?(?:rest|remaining ones)\\b',
    '(?:今天|明天|这周|本周|下周)?(?:有|要)(?:什么|哪些|啥)(?:要|得|该)?(?:交|做|干|办|完成)的',
    "\\bwhat(?:'s| is| are| do i have)? (?:still )?due\\b|\\b(?:anything|something) due\\b|\\bdue (?:today|tomorrow|this week)\\?",
    '(?:看|查|显示|列)(?:看|一下|下)?(?:已经|已)?(?:完成|做完|搞定)(?:了)?的',
    '\\bhow many (?:things|tasks|todos|items|to-dos)\\b',
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
    // 「包括完成的」 "including finished ones": everything, though it says done.
    const status = INCLUDING.test(said)
      ? 'all'
      : PENDING.test(said)
        ? 'pending'
        : DONE.test(said)
          ? 'done'
          : ALL.test(said)
            ? 'all'
            : undefined;
    return call('todo_list', status ? { status } : {});
  },
};

const done = (lang: Lang, _call: unknown, output: string): string => say(lang, `好的，${output}`, `Done. ${output}`);

/** Changing a todo, which no tool does: 「第二条改成买酸奶」「把写报告改成明天截止」 "move the dentist to Friday". */
const EDIT_ZH =
  /(?:第\s*[\d一二两三四五六七八九十]+\s*[条项个件]?|\d+\s*号|那条|这条|那个|这个|待办).{0,12}?(?:改成|改为|改到|换成|修改为?|更新为|推迟到|延期到|延后到|提前到|挪到)|(?:改成|改为|改到|推迟到|延期到|延后到|提前到|挪到).{0,10}?(?:截止|到期)|(?:改到|推迟到|延期到|延后到|提前到|挪到)\s*(?:今天|明天|后天|大后天|下?(?:周|星期|礼拜)|\d|[一二三四五六七八九十]+[号日])/;
const EDIT_EN =
  /\b(?:change|move|reschedule|postpone|push back|rename|edit|update)\b.*\b(?:todo|to-do|task|item|#\s*\d|number \d|due date|deadline|due)\b/i;

const todoEdit: Intent = {
  id: 'todo_edit',
  priority: PRIORITY.todoDelete,
  match: (u) =>
    !mentionsFile(u) && (EDIT_ZH.test(u.norm) || EDIT_EN.test(u.norm)) ? reply({ kind: 'cannotEditTodo' }) : null,
};

export const TODO_RULES: ToolRules = {
  // Delete before done: 「删除已完成的第 2 条」 deletes.
  intents: [todoAdd, todoEdit, byNumber('todo_delete', DELETE_VERB), byNumber('todo_done', DONE_VERB), todoList],
  failure: {
    todo_add: (lang, _args, why) => say(lang, `抱歉，没能添加待办：${why}`, `Sorry, I couldn't add that todo: ${why}`),
    todo_list: (lang, _args, why) =>
      say(lang, `抱歉，没能读取待办：${why}`, `Sorry, I couldn't read the todo list: ${why}`),
    todo_done: (lang, _args, why) =>
      say(lang, `抱歉，没能标记完成：${why}`, `Sorry, I couldn't mark it as done: ${why}`),
    todo_delete: (lang, _args, why) => say(lang, `抱歉，没能删除：${why}`, `Sorry, I couldn't delete it: ${why}`),
  },
  success: { todo_add: done, todo_done: done, todo_delete: done },
};
