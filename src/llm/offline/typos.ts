/**
 * Common slips in the words rules look for, put right before the rules read a message: "calcualte",
 * "shwo my todos", "tomorow", 「算以下」 (an input-method slip for 算一下). Only words that are no
 * other word are fixed, and never inside quotes, where the user's own text is.
 */

const EN: Readonly<Record<string, string>> = {
  calcualte: 'calculate',
  caculate: 'calculate',
  calulate: 'calculate',
  calclate: 'calculate',
  claculate: 'calculate',
  shwo: 'show',
  sohw: 'show',
  lsit: 'list',
  lits: 'list',
  raed: 'read',
  reda: 'read',
  wirte: 'write',
  wrtie: 'write',
  wriet: 'write',
  remmber: 'remember',
  remeber: 'remember',
  rember: 'remember',
  remebr: 'remember',
  remnd: 'remind',
  remid: 'remind',
  reminde: 'remind',
  tomorow: 'tomorrow',
  tommorow: 'tomorrow',
  tommorrow: 'tomorrow',
  tomorrwo: 'tomorrow',
  tmrw: 'tomorrow',
  tmr: 'tomorrow',
  tmw: 'tomorrow',
  todays: "today's",
  delte: 'delete',
  delet: 'delete',
  deleet: 'delete',
  remvoe: 'remove',
  reomve: 'remove',
  weahter: 'weather',
  waether: 'weather',
  wheather: 'weather',
  weater: 'weather',
  temprature: 'temperature',
  temperture: 'temperature',
  percnet: 'percent',
  precent: 'percent',
  pecent: 'percent',
  percetn: 'percent',
  avarage: 'average',
  averge: 'average',
  avergae: 'average',
  sqaure: 'square',
  squre: 'square',
  sqare: 'square',
  multipy: 'multiply',
  mutliply: 'multiply',
  divde: 'divide',
  devide: 'divide',
  apend: 'append',
  appned: 'append',
  appedn: 'append',
  flie: 'file',
  fiel: 'file',
  fiels: 'files',
  fodler: 'folder',
  floder: 'folder',
  todso: 'todos',
  tood: 'todo',
  todolist: 'todo list',
  tsk: 'task',
  taks: 'task',
  tasls: 'tasks',
  wat: 'what',
  waht: 'what',
  whta: 'what',
  tiem: 'time',
};
const ZH: ReadonlyArray<readonly [string, string]> = [
  ['算以下|算一哈|算一吓', '算一下'],
  ['记以下|记一哈|记一吓', '记一下'],
  ['看以下|看一哈', '看一下'],
  ['删出', '删除'],
  ['待半|呆办|代半', '待办'],
];
const WORDS = `\\b(?:${Object.keys(EN).join('|')})\\b`;
/** Whether there is anything to fix at all; most messages have nothing. */
const ANY_SLIP = new RegExp(`${WORDS}|${ZH.map(([slip]) => slip).join('|')}`, 'i');
/** Quoted text, kept as typed. */
const QUOTED = /"[^"]*"|'[^']*'|“[^”]*”|‘[^’]*’|「[^」]*」|『[^』]*』/g;

function fix(text: string): string {
  let out = text.replace(new RegExp(WORDS, 'gi'), (w) => {
    const right = EN[w.toLowerCase()];
    return w[0] === w[0].toUpperCase() && w[0] !== w[0].toLowerCase() ? right[0].toUpperCase() + right.slice(1) : right;
  });
  for (const [slip, right] of ZH) out = out.replace(new RegExp(slip, 'g'), right);
  return out;
}

/** The message with slips in command words put right, quoted text untouched. */
export function fixTypos(text: string): string {
  if (!ANY_SLIP.test(text)) return text;
  let out = '';
  let at = 0;
  for (const m of text.matchAll(QUOTED)) {
    out += fix(text.slice(at, m.index)) + m[0];
    at = (m.index ?? 0) + m[0].length;
  }
  return out + fix(text.slice(at));
}
