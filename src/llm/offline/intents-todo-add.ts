/**
 * Adding a todo, keeping the user's wording: a marker before the words (「记一下…」「提醒我…」 "add a
 * todo: …"), after them (「…，帮我记一下」 "…, add it to my list"), around them (「把…加到待办」), or
 * 记得/别忘了 said to the assistant. A due date said apart from the task (「截止日期是明天」 ", due
 * Friday") becomes the due date and leaves the words.
 */
import { dueOf, restore, trimClause, unquote, type Utterance } from './extract.js';
import { call, PRIORITY, reply, type Intent, type Outcome, type PlannedCall } from './intent.js';

const ADD_MARKERS_ZH =
  /记一下|记下来|记下|记个事(?:情|儿)?|记一件事|记个|记录一下|记录下|记(?:录)?(?=\s*[:：])|(?:添加|加|新增|记)(?:一[条个项]|个)(?=\s*[:：])|(?:设|定|建|加|弄)(?:一)?个提醒(?:吧)?|(?:再|还要)?(?:加|添加|新增)一[条项个](?![\d一二三四五六七八九十])|(?:添加|加|新建|新增|创建|建|记)(?:一[条个项]|个)?(?:待办|todo|任务)(?:事项)?|^(?:待办|todo)(?=\s*[:：])|待办\s*\+\s*1|\+1\s*待办|新(?:的)?待办|提醒(?=\s*[:：])|(?:todo ?list|to-do list|待办(?:清单|列表)?|清单)\s*(?:里|中|上)?\s*(?:加|添加|新增|加上|添上)(?:一[个条项]|个|条)?|提醒我(?:一下)?|记住(?!我(?:叫|的名字|是|名字))(?:一下)?/i;
// The content starts and ends with a non-space, so the spaces around it are matched in one way only
// (`\s*(.+?)\s*` is retried for every split of a long run of spaces).
const ADD_INTO_ZH =
  /^(?:帮我|请|麻烦你?|给我)?\s*(?:把\s*)?(\S.*?)(?<!\s)\s*(?:加到|加入|添加到|放到|放进|记到|写到|写进|记进)(?:我的)?(?:待办|todo)/di;
const ADD_MARKERS_EN: RegExp[] = [
  /\b(?:add|create|make|new|set)\s+(?:(?:a|an|new|another)\s+)*(?:todo|to-do|task|reminder)(?:\s+item)?\b\s*(?:[:-]|to\b|that\b|saying\b|for\b)?/i,
  /\badd\s+(?:this\s+)?to\s+(?:my\s+|the\s+)?(?:(?:todo|to-do|task)s?(?:\s+list)?|list)\s*[:,-]/i,
  /\b(?:remind me (?:to|about|of)|note down|jot down)\b/i,
  /^(?:todo|to-do|note to self|reminder)\s*:/i,
  /\bnew (?:todo|to-do|task)\b\s*:?/i,
];
const ADD_INTO_EN =
  /^(?:please\s+)?(?:can you\s+|could you\s+)?(?:add|put|stick|throw)\s+(\S.*?)(?<!\s)\s+(?:to|on|in|into|onto)\s+(?:my\s+|the\s+)?(?:(?:todo|to-do|to do|task)s?(?:\s+list)?|list)\b/di;
/** The marker after the content: 「明天要交实验报告，帮我记一下」「周五之前把 PPT 做完 记下来」. */
const ADD_AFTER_ZH =
  /^(\S.*?)(?<![\s,，])[\s,，]*(?:(?:请|帮我|麻烦你?|给我)\s*)?(?:记一下|记下来|记下|记上|加到待办(?:里)?|加进待办|加个待办|加入待办|添加到待办|放进待办)(?:吧|哈|啊|呀|哦|一下)?[。!！~～]*$/d;
/** "I have to finish the lab report by Monday, add it to my list". */
const ADD_AFTER_EN =
  /^(\S.*?)(?<![\s,.;])[\s,.;]*(?:(?:please|so|can you|could you)\s+)?(?:add|put) (?:it|that|this) (?:to|on|onto) (?:my|the) (?:(?:todo|to-do|to do|task)s?\s*)?(?:list)?\s*(?:please)?[.!]*$/di;
/** What goes before a task said as one's own duty: "I have to …", 「我得…」. */
const DUTY_LEAD = /^(?:i (?:have|need|got) to|i'?ve got to|i must|i gotta|i should)\s+/i;
/** 「记得下周三去体检」「别忘了明天交房租」: said to the assistant, a thing to remember to do. */
const ADD_LEAD_ZH =
  /^(?:(?:请|帮我|你)\s*)?(?:记得|别忘了|别忘记|不要忘了|不要忘记)(?!我(?:叫|是|的名字))(?:\s*(?:提醒我|叫我|告诉我)(?:一下)?)?/;
/** "don't let me forget to …", "wake me up at 7" (there is no alarm: a todo is the honest nearest). */
const ADD_LEAD_EN =
  /^(?:please\s+)?(?:don'?t let me forget (?:to\s+)?|(?:can you\s+)?help me (?:to )?remember(?: to)?\s+|make sure i (?:remember to\s+)?|i (?:need|have|must|should) (?:to )?remember to\s+|remember to\s+|(?=wake me up\b))/i;
/** A due date said apart from the task, at its end: ", due Friday", 「，截止日期是明天」. */
const DUE_CLAUSE =
  /[,，;；]\s*(?:(?:it'?s\s+)?due(?:\s+(?:date|on|by))?|deadline(?:\s+is)?|by|截止(?:日期|时间)?|期限|到期(?:日|时间)?)\s*(?:是|为|在|到)?\s*[:：]?\s*(\S[^,，;；]{0,40})$/i;

const WHEN_FIRST = /^(?:for|on|at|by)?\s*([^:：]{1,30}?)\s*[:：]\s*(\S.*)$/i;

/** Strips what sits between the marker and the content: 「一下：」「一条待办」「待办事项:」「内容是」. */
function cleanContent(text: string): string {
  let t = trimClause(text);
  for (;;) {
    const next = trimClause(
      t.replace(
        /^(?:一下|下来|一[条个项]|个)?\s*(?:(?:待办(?:事项)?|todo)\s*)?(?:(?:的)?内容(?:是|为)|事(?:情|儿)?(?=\s*[:：]))?\s*[:：,，]?/i,
        '',
      ),
    );
    if (next === t) return t;
    t = next;
  }
}

/** Below this a message that is only the marker ("记一下", "add a todo") asks what to add. */
const BARE_MARKER_CHARS = 12;

/**
 * The todo call for `content`; `before` is what preceded the marker (「明天提醒我交作业」 puts the due
 * day there), `after` what followed the words (", due April 15").
 */
function addOutcome(u: Utterance, content: string, before = '', after = ''): Outcome | null {
  let text = unquote(cleanContent(content)); // 把 "明天开会" 加到待办: the quotes only mark the content
  // 「好的记下了」「记下啦」: the user saying "noted", not a todo called 了.
  if (/^(?:了|啦|吧|哦|呀|啊|哈)+$/.test(text)) return reply({ kind: 'ack' });
  // 「谢谢你帮我记下来」 has the marker but asks for nothing new.
  if (!text) return u.norm.length <= BARE_MARKER_CHARS ? reply({ kind: 'askTodoContent' }) : null;
  // "add a todo for 3pm tomorrow: team meeting": the day before the colon, the task after it.
  const when = WHEN_FIRST.exec(text);
  if (when && dueOf(when[1]))
    return call('todo_add', { content: restore(u, trimClause(when[2])), due: dueOf(when[1])! });
  const clause = DUE_CLAUSE.exec(text) ?? DUE_CLAUSE.exec(after);
  let due = dueOf(text) ?? dueOf(before);
  if (clause && (dueOf(clause[1]) || !due)) {
    if (clause.input === text) text = trimClause(text.slice(0, clause.index));
    due = dueOf(clause[1]) ?? trimClause(clause[1]);
  }
  // All of a long message goes to the tool, which says how long is too long.
  const whole = restore(u, text);
  return call('todo_add', due ? { content: whole, due } : { content: whole });
}

/** 「明天交报告，帮我记一下」, unless what comes before the marker is no task: 「谢谢你帮我记下来」. */
function afterContent(u: Utterance): RegExpExecArray | null {
  const m = ADD_AFTER_ZH.exec(u.norm);
  if (m) return !/^(?:请|帮我|麻烦你?|给我|你|帮忙|好的?|嗯|谢谢|多谢|感谢)/.test(m[1]) ? m : null;
  const en = ADD_AFTER_EN.exec(u.norm);
  if (!en?.indices?.[1]) return null;
  // "I have to finish the report" is the task "finish the report".
  const lead = DUTY_LEAD.exec(en[1]);
  if (lead) en.indices[1] = [en.indices[1][0] + lead[0].length, en.indices[1][1]];
  return en;
}

/** 「记两个待办：买菜、洗衣服」 "add these todos: buy eggs, call the bank": a list of todos after a colon. */
const SEVERAL_ZH =
  /^(?:(?:帮我|请|给我)\s*)?(?:记|加|添加|新建|建|新增)(?:一下)?\s*(两|三|四|五|六|几|\d)\s*(?:个|条|项|件)\s*(?:待办|todo|任务|事)(?:事项|情)?\s*[:：]/i;
const SEVERAL_EN =
  /^(?:please\s+)?(?:add|create|make|put)\s+(?:these|the following|(?:two|three|four|five|six|\d))\s+(?:todos?|to-dos?|tasks?|items?)(?:\s+(?:to|on)\s+my\s+(?:list|todos?))?\s*:/i;
/** 「我要做三件事：买菜、做饭、洗碗，帮我都记下来」: the list first, the marker after it. */
const SEVERAL_AFTER_ZH =
  /([两三四五六几\d])\s*(?:件事|个待办|项|样)(?:情)?\s*[:：]\s*(\S.*?)(?<![\s,，])[\s,，]*(?:(?:帮我|请)\s*)?(?:都|全|分别)?(?:记下来|记一下|记下|加到待办|加进待办|添加到待办)(?:吧)?[。!！]*$/d;
const ITEM_SEP = /\s*(?:[、,，;；]|\band\b|以及|还有)\s*/;
/** 「和」 also joins the words of one item (「买牛奶和鸡蛋」): split there only when a count says so. */
const ITEM_SEP_AND = /\s*(?:[、,，;；]|\band\b|以及|还有|和)\s*/;
const COUNT_WORDS: Readonly<Record<string, number>> = {
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
};

/** 「记一下：买牛奶、交房租、取快递」: no count, but 、 only ever lists things. */
const LISTED_ZH = /^(?:(?:帮我|请|给我)\s*)?(?:记|加|添加)(?:一下|下)?\s*(?:到?待办(?:里|中)?)?\s*[:：]\s*(?=[^、]+、)/;
/** `add "water plants" and "pay rent" to my todos`: each quoted item is a todo. */
const QUOTED_EN =
  /^(?:please\s+)?(?:add|put)\s+((?:"[^"\n]{1,200}"|“[^”\n]{1,200}”)(?:\s*(?:,|\band\b|&)\s*(?:"[^"\n]{1,200}"|“[^”\n]{1,200}”))+)\s+(?:to|on|in)\s+(?:my\s+)?(?:todos?|to-?dos?|to-?do list|list)\b/i;

const asTodos = (items: string[]): PlannedCall[] =>
  items.map((content) => {
    const due = dueOf(content);
    return { name: 'todo_add', args: due ? { content, due } : { content } };
  });

/** One todo_add for each item of a list of todos, or undefined when the message is no such list. */
export function severalTodos(u: Utterance): PlannedCall[] | undefined {
  const quoted = QUOTED_EN.exec(u.norm);
  if (quoted) {
    // Positions found in the normalized text; the words taken from what the user typed.
    const at = quoted[0].indexOf(quoted[1]);
    const items = [...quoted[1].matchAll(/"[^"]+"|“[^”]+”/g)].map((m) =>
      trimClause(restore(u, u.raw.slice(at + m.index + 1, at + m.index + m[0].length - 1))),
    );
    return asTodos(items.filter(Boolean));
  }
  const listed = LISTED_ZH.exec(u.norm);
  // 「讨论 A、B 两个方案」 lists letters inside one task.
  if (listed && !/[A-Za-z0-9]\s*、\s*[A-Za-z0-9]/.test(u.norm)) {
    const items = restore(u, u.raw.slice(listed[0].length))
      .split('、')
      .map((t) => trimClause(t))
      .filter(Boolean);
    if (items.length >= 2) return asTodos(items);
  }
  const head = SEVERAL_ZH.exec(u.norm) ?? SEVERAL_EN.exec(u.norm);
  const after = head ? null : SEVERAL_AFTER_ZH.exec(u.norm);
  if (!head && !after?.indices?.[2]) return undefined;
  const said = /(?:两|三|四|五|六|two|three|four|five|six|\d)/i.exec(head ? head[0] : after![1])?.[0].toLowerCase();
  const count = said ? (COUNT_WORDS[said] ?? Number(said)) : undefined;
  const rest = restore(u, head ? u.raw.slice(head[0].length) : u.raw.slice(...after!.indices![2]));
  let items = rest
    .split(ITEM_SEP)
    .map((t) => trimClause(t))
    .filter(Boolean);
  if (count !== undefined && items.length < count)
    items = rest
      .split(ITEM_SEP_AND)
      .map((t) => trimClause(t))
      .filter(Boolean);
  if (items.length < 2) return undefined;
  return asTodos(items);
}

/** "remind me on Friday to call the bank": the day sits between the marker and the content. */
const REMIND_WHEN_EN =
  /\b(?:remind me|set (?:a|an) (?:reminder|alarm))\s+((?:on|at|by|for|in|this|next|tomorrow|tonight|today)\b.*?)\s+(?:to|about|of)\b/i;

export const todoAdd: Intent = {
  id: 'todo_add',
  priority: PRIORITY.todoAdd,
  match(u) {
    const when = REMIND_WHEN_EN.exec(u.norm);
    if (when) return addOutcome(u, u.raw.slice(when.index + when[0].length), when[1]);
    const into = ADD_INTO_ZH.exec(u.norm) ?? ADD_INTO_EN.exec(u.norm) ?? afterContent(u);
    if (into?.indices?.[1]) return addOutcome(u, u.raw.slice(...into.indices[1]), '', u.raw.slice(into.indices[0][1]));
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
