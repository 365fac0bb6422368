/**
 * Rules for the memory tools: 「记住：我喜欢喝美式咖啡」 saves a memory, 「我喜欢喝什么」 searches
 * them, and the user's name is an ordinary memory (「我叫刘浩彬」, 「我叫什么」). A task to do
 * (「记一下明天买牛奶」, "remind me to …") stays a todo: only a statement about the user is saved here.
 */
import { detectLang, say } from '../../i18n.js';
import { nameFrom } from './extract.js';
import { call, PRIORITY, str, type Intent, type ToolRules } from './intent.js';
import { NAME_RECALL, NAME_SET, saveAnswer, searchAnswer } from './memory-wording.js';

/** The marker, then what to keep: 「记住：…」「帮我记一下…」「请记着…」. */
const SAVE_ZH =
  /^(?:(?:请|你|帮我|麻烦你?|给我)\s*)?(?:要)?(?:记住|记一下|记下来|记下|记着|记好)(?:了|一下)?\s*[:：,，]?\s*/;
/** "remember that …", "remember: …", "please remember I …"; never "remember to …" (a todo). */
const SAVE_EN = /^(?:please\s+)?(?:remember|keep in mind|note)(?:\s+that\b|\s*:|,?\s+(?=(?:i|i'm|my)\b))\s*/i;
/** A statement about the user: what they like, cannot eat, are allergic to, where they live, who they are. */
const ABOUT_USER_ZH =
  /^我.{0,40}?(?:喜欢|爱(?:喝|吃|听|看|玩)|讨厌|不(?:能)?(?:吃|喝)|过敏|生日|住在|家在|老家|来自|是.{1,10}人|血型|素食|忌口|偏好|习惯|口味|名字|叫)/;
/** …not a task: 「记一下我明天要交报告」 is a todo. */
const TASK_ZH = /明天|后天|今天|今晚|下周|这周|周[一二三四五六日天末]|\d+\s*点|要去|要交|得去|提醒|待办/;
const PREFERENCE =
  /喜欢|爱(?:喝|吃|听|看|玩)|讨厌|偏好|口味|不(?:能)?(?:吃|喝)|\b(?:like|likes|love|loves|prefer|prefers|hate|hates|dislike|dislikes|enjoy|enjoys|favou?rite)\b/i;
const TRAILING = /[\s。.!！~～]+$/;

/** 「我喜欢喝什么」「我对什么过敏」「你还记得…吗」 "what do I like to drink?" "do you remember …". */
const RECALL_ZH =
  /我(?:最|平时|一般|比较)?(?:喜欢|爱|不喜欢|讨厌)(?:喝|吃|听|看|玩|去)?(?:什么|啥|哪)|我对(?:什么|啥|哪些?)(?:东西)?过敏|我(?:有)?(?:什么|啥)(?:过敏|忌口)|我(?:的)?(?:生日|血型|老家|家乡|口味|偏好)(?:是)?(?:什么|啥|哪|几|多少)|我(?:住|家)在哪|我不(?:能)?(?:吃|喝)(?:什么|啥)|^(?:你)?(?:还)?记得.{1,30}[吗么]|我(?:之前|以前|上次)?(?:跟你|和你|对你)?(?:说|讲|提)过(?:什么|啥)/;
const RECALL_EN =
  /\bwhat (?:do|did) i (?:like|love|prefer|hate|enjoy|drink|eat|usually)\b|\bwhat am i allergic to\b|\bam i allergic\b|\bwhat(?:'s| is) my (?:favou?rite|birthday|blood type|hometown)\b|\bdo you remember\b|\bwhere do i live\b|\bwhat did i tell you\b/i;

const memorySave: Intent = {
  id: 'memory_save',
  priority: PRIORITY.memorySave,
  match(u) {
    const zh = SAVE_ZH.exec(u.norm);
    const en = zh ? null : SAVE_EN.exec(u.norm);
    const marker = zh ?? en;
    if (!marker) return null;
    const content = u.raw
      .slice(marker[0].length)
      .replace(/^这个\s*[:：,，]?\s*/, '')
      .replace(TRAILING, '')
      .trim();
    if (!content) return null;
    // 「记住」 said out loud keeps whatever follows (a plate number, where the passport is); the softer
    // 「记一下」 keeps only what is about the user, since 「帮我记一下 买菜」 is a todo. A task is a todo either way.
    const explicit = zh && zh[0].includes('记住');
    if (zh && (TASK_ZH.test(content) || (!explicit && !ABOUT_USER_ZH.test(content)))) return null;
    return call('memory_save', { content, kind: PREFERENCE.test(content) ? 'preference' : 'fact' });
  },
};

/** 「我叫刘浩彬」: an ordinary memory, tagged so 「我叫什么」 finds it first. */
const nameSet: Intent = {
  id: 'name_set',
  priority: PRIORITY.name,
  match(u) {
    const m = NAME_SET.exec(u.norm);
    const name = m ? nameFrom(u.raw.slice(m.index + m[0].length)) : undefined;
    if (!name) return null;
    const content = say(detectLang(u.raw), `我叫${name}`, `My name is ${name}`);
    return call('memory_save', { content, kind: 'fact', tags: ['name'] });
  },
};

/** Like every memory, the name is the session's: another session learns it only when told. */
const nameRecall: Intent = {
  id: 'name_recall',
  priority: PRIORITY.name,
  match: (u) => (NAME_RECALL.test(u.norm) ? call('memory_search', { query: '我叫 名字 name' }) : null),
};

const memoryRecall: Intent = {
  id: 'memory_recall',
  priority: PRIORITY.memoryRecall,
  match: (u) =>
    RECALL_ZH.test(u.norm) || RECALL_EN.test(u.norm)
      ? call('memory_search', { query: u.raw.replace(TRAILING, '') })
      : null,
};

export const MEMORY_RULES: ToolRules = {
  intents: [memorySave, nameRecall, nameSet, memoryRecall],
  failure: {
    memory_save: (lang, _args, why) => say(lang, `没能记下来：${why}`, `I couldn't save that: ${why}`),
    memory_search: (lang, _args, why) =>
      say(lang, `没能查找记忆：${why}`, `I couldn't look through my memories: ${why}`),
  },
  success: {
    memory_save: (lang, c) => saveAnswer(lang, str(c.args.content), c.args.tags),
    memory_search: (lang, _c, output, ctx) => searchAnswer(lang, output, ctx.userText),
  },
};
