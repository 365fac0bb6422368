/**
 * The shape of a rule. An intent looks at one user message and either proposes a tool call or a
 * reply by kind; it never words a reply itself (replies.ts does, in the user's language), so one rule
 * serves Chinese and English.
 * Adding a tool is one new module exporting its `ToolRules` — its intents (each with a PRIORITY), and
 * how its results and failures are said — listed in intents.ts's RULES.
 */
import type { Utterance } from './extract.js';
import type { Lang } from '../../i18n.js';
import type { Nearest } from './out-of-scope.js';
import type { Lookup } from './todo-lookup.js';
import type { Day } from './calendar.js';
import type { Append } from './file-append.js';
import type { ToolResultData } from '../../contract/tool-data.js';

/** A `saveTo` that is no file: 「把结果记到待办里」 keeps the result as a todo. A path never starts with ':'. */
export const KEEP_AS_TODO = ':todo';

/** A tool call the planner wants to make, before it gets an id. */
export interface PlannedCall {
  name: string;
  args: Record<string, unknown>;
  /** A todo named by content: this call lists the todos, and the item found there is then finished or deleted. */
  lookup?: Lookup;
  /** An append: this call reads the file, and the write of the old text plus this follows. */
  append?: Append;
  /** 「…，然后把结果保存到 a.txt」: once this call is done, its result is written to this file (or, KEEP_AS_TODO, added as a todo). */
  saveTo?: string;
  /** 「读一下 readme」: this call lists the workspace, and the entry this name fits is then read. */
  findFile?: string;
}

/**
 * The second step of a call that takes two (a todo named by content, an append): once the first
 * step's output is in, the calls to make, or what to say instead.
 */
export type Second =
  /** `keep`: the first call's own result is said too, before the second's (a result saved to a file). */
  { kind: 'calls'; calls: PlannedCall[]; keep?: boolean } | { kind: 'note'; note: string; keep?: boolean };

/** A reply without a tool, by kind; replies.ts renders it in the user's language. */
export type Reply =
  | { kind: 'greeting' }
  | { kind: 'help' }
  | { kind: 'thanks' }
  | { kind: 'ack' }
  | { kind: 'bye' }
  | { kind: 'mood' }
  | { kind: 'nameSaved'; name: string }
  | { kind: 'nameRecall' }
  | { kind: 'askCity' }
  | { kind: 'askExpression' }
  | { kind: 'askTodoContent' }
  | { kind: 'askTodoId'; action: 'done' | 'delete' }
  /** A todo cannot be changed in place; deleting and adding again can. */
  | { kind: 'cannotEditTodo' }
  | { kind: 'missing'; tools: string[] }
  | { kind: 'codeRefusal' }
  /** Undo is not done by a turn (a turn cannot undo while it runs): where to find it. */
  | { kind: 'undoHint' }
  /** Where files are kept; `path` is a file the latest step wrote, to say where that one is. */
  | { kind: 'workspace'; path?: string }
  | { kind: 'cannot'; near?: Nearest };

export type Outcome =
  /** `also`: more calls the same request needs, made after `call` (「北京和上海哪个冷」 looks up both cities; 「把 a.txt 和 b.txt 都读一下」 reads both). */
  { kind: 'call'; call: PlannedCall; also?: PlannedCall[] } | { kind: 'reply'; reply: Reply };

/** What came before, as far as a follow-up needs it: the latest step's calls, or a question we asked. */
export type Previous = { kind: 'calls'; calls: PlannedCall[] } | { kind: 'asked'; reply: Reply };

/** What a rule may read besides the message. Read-only: the planner applies effects. */
export interface PlanContext {
  prefs: { get(key: string): string | undefined };
  previous?: Previous;
}

/** One rule. Rules are tried by priority, highest first; the first that returns an outcome wins. */
export interface Intent {
  id: string;
  /** From PRIORITY: which rules see a message before this one. */
  priority: number;
  match(u: Utterance, ctx: PlanContext): Outcome | null;
}

/**
 * Which rule sees a message first, highest first; rules of equal priority keep their table order.
 * Specific rules come before broad ones, so 「创建文件 notes.txt，内容是：今天也要加油」 is a write
 * although it says 今天, and 「记一下 明天 9 点…」 is a todo although it says 9 点.
 */
export const PRIORITY = {
  /** Before everything: a command handed over in backticks or after 「运行命令」 is run as written, whatever words it holds. */
  shell: 110,
  /** Before the plain write: 「在 a.txt 末尾写上…」 adds to the file, 「往 a.txt 写入…」 replaces it. */
  fileAppend: 101,
  /** Carries free text (内容是：…), so it must see the message before anything reads words in it. */
  fileWrite: 100,
  /**
   * Before adding a todo: 「记住：我喜欢喝美式咖啡」 keeps a statement about the user, where
   * 「记住明天开会」 (a task, which the rule leaves alone) is still a todo.
   */
  memorySave: 95,
  /** A todo's words are free text too. */
  todoAdd: 94,
  /** Before done: 「删除已完成的第 2 条」 deletes. */
  todoDelete: 93,
  todoDone: 92,
  /** After done and delete: 「看看完成的待办」 lists, but only once no change was asked for. */
  todoList: 91,
  /** A web address in the message is what it is about: 「打开 https://…」 is no file named https. */
  webFetch: 85,
  /** Before the plain read: 「读一下 report.pdf」 reads the document's text, not its bytes. */
  pdfRead: 81,
  fileRead: 80,
  name: 70,
  /** After the name: 「你还记得我叫什么吗」 asks for the name. Before out-of-scope and weather: 「我喜欢什么天气」 asks the memory. */
  memoryRecall: 69,
  /** Before out-of-scope: 「搜索 …」 is a search once web_search is there. */
  webSearch: 66,
  /** Before weather and time: 「把这段话翻译成英文：今天天气很好」 asks for a translation. */
  outOfScope: 65,
  /** Before time: 「现在天气怎么样」 is about weather. */
  weather: 61,
  time: 60,
  /** Before the calculator: code is refused, never computed. */
  code: 50,
  calculator: 40,
  chat: 30,
  /** After chat: 「你好」 after "which city?" is a greeting, not a city. */
  followUp: 10,
} as const;

/**
 * How a tool's failure is said, kept beside the rules that call the tool: `why` is the tool's own
 * reason as a sentence, `path` the path it was given when the reason does not already name it.
 */
export type FailureWording = (
  lang: Lang,
  args: Record<string, unknown>,
  why: string,
  path: string,
  reason: string,
  ctx: WordingContext,
) => string;

/** What a success wording may read besides the call and its output. */
export interface WordingContext {
  /** Decimal places the user asked for (「保留两位小数」), if any. */
  decimals?: number;
  /** The user's message, for wording that answers what was asked of the result. */
  userText: string;
  /** Today in the user's own zone, for days the user names (明天, "on Saturday") when no tool said what today is. */
  today?: Day;
  /** The workspace's absolute path, when the planner was told it: where written files are. */
  workspace?: string;
}

/** How a tool's output becomes a line of the reply; without one, the output is said as it is. `result` holds its data. */
export type SuccessWording = (
  lang: Lang,
  call: PlannedCall,
  output: string,
  ctx: WordingContext,
  result?: ToolResultData,
) => string;

/**
 * Everything the planner knows about one tool or group of tools, in one module: the rules that call
 * it and how its results and failures are said. intents.ts collects the rules, replies.ts the wording.
 */
export interface ToolRules {
  intents: Intent[];
  failure: Record<string, FailureWording>;
  success?: Record<string, SuccessWording>;
  /** A line said after all of a turn's results, from them together (how far apart two clocks are), if any. */
  together?: (
    lang: Lang,
    results: ReadonlyArray<{ call: PlannedCall; output: string | undefined; result?: ToolResultData }>,
    ctx: WordingContext,
  ) => string | undefined;
}

/** An argument as text, for wording. */
export const str = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');

/** Preference key under which the user's name is kept. */
export const NAME_KEY = 'user.name';

export const call = (name: string, args: Record<string, unknown> = {}): Outcome => ({
  kind: 'call',
  call: { name, args },
});
/** Several calls for one request, in the order they are said. */
export const calls = (first: PlannedCall, ...also: PlannedCall[]): Outcome =>
  also.length ? { kind: 'call', call: first, also } : { kind: 'call', call: first };
/** Every call an outcome makes, in order. */
export const callsOf = (o: Outcome): PlannedCall[] => (o.kind === 'call' ? [o.call, ...(o.also ?? [])] : []);
export const reply = (r: Reply): Outcome => ({ kind: 'reply', reply: r });

/** Tool-call arguments as an object; anything unparsable counts as none. */
export function parseArgs(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
