/**
 * Todos named by their content: 「把交电费那条删掉」, "I'm done with the dentist". The planner keeps no
 * state, so it looks first (todo_list, all items), finds the item in what the list says, and only then
 * calls todo_done or todo_delete with the number the list shows — the number the user saw.
 */
import { say, type Lang } from '../../i18n.js';
import type { Utterance } from './extract.js';
import type { ToolResultData } from '../../contract/tool-data.js';
import { dataOf } from './tool-results.js';

export interface Lookup {
  action: 'todo_done' | 'todo_delete';
  /** The words that name the item, as the user said them. */
  query: string;
  /** 「清空已完成的待办」: every item that is done (or every item), not one named by its words. */
  every?: 'done' | 'all';
  /** 「第一个和第三个都完成了」: these numbers, as the user saw them. */
  ids?: number[];
}

const CUE_ZH =
  /(?:删了|删掉|去掉|划掉|勾掉|不要了|不用了|不需要了|用不着了|取消掉?)(?:吧|啦|了)?[。!！~～]*$|不用.{1,16}?了|那条|那个|那项|那件|这条|这个|这项|这件|^(?:请|帮我|麻烦你?|给我)?\s*(?:把|将|删除|删掉|去掉|划掉|勾掉|取消掉?|移除)|待办|清单/;
const DONE_AT_END_ZH =
  /^[^\d]{2,16}?(?:已经|总算|终于)?(?:做完|搞定|弄完|办完|完成|干完|做好|办好|弄好|[写看读洗吃背跑打扫练学]完|(?:交|买|付|缴|还|寄|取|拿|办|洗|修|订)(?:好|完)?了)(?:了|啦|咯|喽|哒)?[。!！~～]*$/;
/** 「我做完作业了」: the deed first, then what it was done to. */
const DONE_FIRST_ZH =
  /^(?:我)?(?:已经|总算|终于)?(?:做完|写完|搞定|弄完|办完|完成|交完|看完|读完|背完)(?:了)?[^\d]{1,16}?(?:了|啦)?[。!！~～]*$/;
const CUE_EN =
  /^(?:please\s+)?(?:remove|delete|scratch|drop|cancel|forget about|get rid of|strike)\s+\S|^done\s*:|\b(?:already|just|finally|i'?ve|i have)\s+(?:already\s+|just\s+|finally\s+)?(?:paid|bought|sent|called|submitted|handed in|picked up|did|returned|renewed|booked|cleaned|fixed|emailed|mailed|got)\b|\b(?:(?:don'?t|do not|no longer) (?:need|have) to|no need to)\b|\S\s+(?:done|finished|completed|搞定)\s*[.!]*$|\b(?:tick|check|cross)(?:ed)? (?:it |that |this )?off\b|\b(?:done with|finished with|finished|completed?|cross(?:ed)? off|tick(?:ed)? off|check(?:ed)? off|todo|to-do|task|item|one|reminder|is done|are done|from (?:my|the) (?:list|todos?))\b|\bmark\b.*\bdone\b/i;

const QUESTION = /没|未|什么|啥|哪|吗|么|\?|\b(?:what|which|how many|did i|have i)\b/i;
const FILLER_ZH =
  /不用了|不需要了|用不着了|不用|不需要|做好|办好|弄好|[写看读洗吃背跑打扫练学交]完|勾上|勾选|打上勾|(?:交|买|付|缴|还|寄|取|拿|办|洗|修|订)(?:好|完)?(?=了)|请|帮我|麻烦你?|给我|把|将|的?那条|的?那个|的?那项|的?那件|这条|这个|这项|这件|待办(?:事项)?(?:里|中|清单)?的?|清单(?:里|中)?的?|列表(?:里|中)?的?|已经|总算|终于|都|我|了|吧|啦|啊|呀|哦|一下|标记为?|成|删除|删掉|删了|删去|去掉|移除|移走|不要了|清除|取消|完成|做完|搞定|弄完|办完|干完|勾掉|打勾|打钩|划掉|办好|弄好|掉/g;
const FILLER_EN =
  /\b(?:(?:don'?t|do not|no longer) (?:need|have) to|no need to|anymore|any more|i'?m|i am|i'?ve|i have|i|we|just|already|finally|please|can you|could you|done with|finished with|finished|completed?|mark(?:ed)?|as|is|are|was|done|delete|remove|drop|cancel|erase|(?:cross|tick|check)(?:ed)? off|cross(?:ed)?|tick(?:ed)?|scratch|forget about|get rid of|strike|paid|bought|sent|submitted|handed in|picked up|did|returned|booked|emailed|mailed|got|the|my|a|an|from|off|out|of|on|list|todos?|to-dos?|tasks?|items?|one|reminders?|it|that|thing|about|for)\b/gi;

/** The words naming a todo in a message that says to finish or delete one without a number, if it reads that way. */
export function lookupIn(u: Utterance, action: Lookup['action']): Lookup | undefined {
  const zh = /[\u4e00-\u9fff]/.test(u.norm);
  // 「买牛奶 done」: English words in a Chinese message are cues too.
  if (
    zh
      ? !(
          CUE_ZH.test(u.norm) ||
          DONE_AT_END_ZH.test(u.norm.trim()) ||
          DONE_FIRST_ZH.test(u.norm.trim()) ||
          CUE_EN.test(u.norm)
        )
      : !CUE_EN.test(u.norm)
  )
    return undefined;
  if (QUESTION.test(u.norm)) return undefined; // 「还有什么没做完」 asks for the list
  const query = (zh ? u.norm.replace(FILLER_ZH, ' ') : u.norm)
    .replace(FILLER_EN, ' ')
    .replace(/[,.!?;:，。！？；：、"'“”‘’「」]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^(?:关于|有关)|(?:相关)?的$/g, '') // 「关于交电费的」
    .trim();
  if (query.replace(/\s/g, '').length < 2) return undefined;
  return { action, query };
}

interface Item {
  number: number;
  done: boolean;
  content: string;
}

/** The items todo_list gave: its data, else (a result without data) what its text lists, in either language. */
export function itemsOf(listOutput: string, result?: ToolResultData): Item[] {
  const data = dataOf(result, 'todo_list');
  if (data) return data.items.map(({ number, done, content }) => ({ number, done, content }));
  const items: Item[] = [];
  for (const line of listOutput.split('\n')) {
    const m = /^(\d+)\. \[( |x)\] (.*)$/.exec(line.trim());
    if (!m) continue;
    const content = m[3].replace(/（截止：[^）]*）$| \(due [^)]*\)$/, '');
    items.push({ number: Number(m[1]), done: m[2] === 'x', content });
  }
  return items;
}

const STOP_EN = new Set(['the', 'and', 'for', 'with', 'to', 'my', 'a', 'an', 'at', 'on', 'in', 'of']);
const squash = (text: string): string => text.toLowerCase().replace(/[\s\p{P}]/gu, '');
const words = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^a-z0-9\u4e00-\u9fff]+/)
    .filter((w) => w.length > 2 && !STOP_EN.has(w));
const bigrams = (text: string): string[] => {
  const t = squash(text);
  return [...t].slice(0, -1).map((ch, i) => ch + t[i + 1]);
};
/** English words match by stem: dentist ~ dentist's, call ~ calling. */
const stem = (w: string): string => w.replace(/(?:'s|s|ing|ed)$/, '');

/** How well an item's content answers the query: 0 not at all, 3 it contains the query. */
function score(content: string, query: string): number {
  const [c, q] = [squash(content), squash(query)];
  if (!q || !c) return 0;
  if (c.includes(q)) return 3;
  if (q.includes(c)) return 2;
  const qWords = words(query).map(stem);
  if (qWords.length) {
    const cWords = new Set(words(content).map(stem));
    const hit = qWords.filter((w) => cWords.has(w)).length;
    if (hit) return hit / qWords.length >= 0.5 ? 1.5 : 1;
  }
  const qb = bigrams(query);
  if (qb.length) {
    const hit = qb.filter((b) => c.includes(b)).length / qb.length;
    if (hit >= 0.5) return 1 + hit / 2;
  }
  return 0;
}

export type Found = { kind: 'one'; number: number } | { kind: 'none' } | { kind: 'several'; items: Item[] };

/** The item the query names in the list; for "done", one still open is preferred. */
export function findTodo(listOutput: string, lookup: Lookup, result?: ToolResultData): Found {
  const scored = itemsOf(listOutput, result)
    .map((item) => ({ item, s: score(item.content, lookup.query) }))
    .filter((x) => x.s > 0);
  if (!scored.length) return { kind: 'none' };
  const best = Math.max(...scored.map((x) => x.s));
  let top = scored.filter((x) => x.s === best).map((x) => x.item);
  if (lookup.action === 'todo_done' && top.some((t) => !t.done)) top = top.filter((t) => !t.done);
  return top.length === 1 ? { kind: 'one', number: top[0].number } : { kind: 'several', items: top };
}

/** Between items named together: 「买牛奶和交电费」「A、B」 "the milk and the electricity ones". */
const ITEM_JOIN = /\s*(?:和|与|跟|及|以及|还有|、|,|，|\band\b|&)\s*/i;

/** The second step of a lookup: the calls on the item (or items) found, or what to say instead. */
export type LookupStep =
  { kind: 'calls'; calls: { name: Lookup['action']; args: { id: number } }[] } | { kind: 'note'; note: string };

/** After the list: the calls on the item (or items) the lookup names, or what to say instead. */
export function lookupNext(listOutput: string, lookup: Lookup, lang: Lang, result?: ToolResultData): LookupStep {
  // Numbers the list does not have are still tried: the tool says which numbers exist.
  if (lookup.ids) return { kind: 'calls', calls: lookup.ids.map((id) => ({ name: lookup.action, args: { id } })) };
  if (lookup.every) {
    // Deleting takes what is done (or all); finishing takes what is still open.
    const items = itemsOf(listOutput, result).filter((t) =>
      lookup.action === 'todo_done' ? !t.done : lookup.every === 'all' || t.done,
    );
    if (items.length)
      return { kind: 'calls', calls: items.map((t) => ({ name: lookup.action, args: { id: t.number } })) };
    const note =
      lookup.action === 'todo_done'
        ? say(lang, '没有未完成的待办，没有做任何改动。', 'Nothing is left to finish, so nothing was changed.')
        : lookup.every === 'done'
          ? say(lang, '还没有已完成的待办，没有删除任何内容。', 'Nothing is done yet, so nothing was deleted.')
          : say(lang, '待办清单本来就是空的。', 'The todo list is already empty.');
    return { kind: 'note', note };
  }
  // 「把买牛奶和交电费都删掉」: several items named together, each found on its own.
  // In Chinese the 、 between them is a space by now.
  const join = /[\u4e00-\u9fff]/.test(lookup.query) ? new RegExp(`${ITEM_JOIN.source}|\\s+`, 'i') : ITEM_JOIN;
  const each = lookup.query
    .split(join)
    .map((q) => q.trim())
    .filter((q) => q.replace(/\s/g, '').length >= 2);
  if (each.length > 1) {
    const found = each.map((query) => findTodo(listOutput, { ...lookup, query }, result));
    const numbers = found.flatMap((f) => (f.kind === 'one' ? [f.number] : []));
    if (numbers.length === each.length && new Set(numbers).size === numbers.length) {
      return { kind: 'calls', calls: numbers.map((id) => ({ name: lookup.action, args: { id } })) };
    }
  }
  const f = findTodo(listOutput, lookup, result);
  return f.kind === 'one'
    ? { kind: 'calls', calls: [{ name: lookup.action, args: { id: f.number } }] }
    : { kind: 'note', note: notFound(lang, lookup, f) };
}

/** What to say when the words name no single item. */
export function notFound(lang: Lang, lookup: Lookup, found: Found): string {
  if (found.kind === 'several') {
    const list = found.items.map((t) => `${t.number}. ${t.content}`).join('\n');
    return say(
      lang,
      `有几条待办都像「${lookup.query}」，是哪一条？说「完成第 N 条」或「删除第 N 条」：\n${list}`,
      `Several todos match "${lookup.query}". Which one? Say "done N" or "delete N":\n${list}`,
    );
  }
  return say(
    lang,
    `待办里没有找到「${lookup.query}」，没有做任何改动。说「看看待办」可以查看全部。`,
    `I found no todo about "${lookup.query}", so nothing was changed. Say "show my todos" to see them all.`,
  );
}
