/**
 * Everything the offline planner says, in Chinese and English: replies without a tool, and the
 * final answer built from tool results (which the tools already wrote in the user's language).
 */
import { resolve } from 'node:path';
import {
  str,
  type FailureWording,
  type PlannedCall,
  type Reply,
  type SuccessWording,
  type WordingContext,
} from './intent.js';
import { RULES } from './intents.js';
import { say, type Lang } from '../../i18n.js';
import { nearestOffer } from './out-of-scope.js';
import { failed, failureText } from './tool-results.js';
import type { ToolResultData } from '../../contract/tool-data.js';

/** What the user can ask for, one line per available group of tools. */
const CAPABILITIES: ReadonlyArray<{ tools: string[]; zh: string; en: string }> = [
  { tools: ['calculator'], zh: '算数：「算一下 (3+5)*2」', en: 'arithmetic: "calculate (3+5)*2"' },
  { tools: ['current_time'], zh: '时间和日期：「现在几点」「今天星期几」', en: 'time and date: "what time is it"' },
  {
    tools: ['todo_add', 'todo_list', 'todo_done', 'todo_delete'],
    zh: '待办：「记一下 周五前交周报」「看看待办」「完成第 1 条」',
    en: 'todos: "add a todo: buy milk", "show my todos", "mark 1 as done"',
  },
  {
    tools: ['file_write', 'file_read', 'file_list'],
    zh: '工作区文件：「把 hello 写到 notes/a.txt」「读一下 notes/a.txt」「有哪些文件」',
    en: 'workspace files: "write hello to notes/a.txt", "read notes/a.txt", "list files"',
  },
  { tools: ['weather'], zh: '天气：「北京天气怎么样」', en: 'weather: "what\'s the weather in Paris"' },
  { tools: ['web_fetch'], zh: '读网页：「打开 https://example.com」', en: 'web pages: "open https://example.com"' },
  {
    tools: ['web_search'],
    zh: '网上搜索（需配置搜索服务）：「搜索 知行合一」',
    en: 'web search (once a search service is set up): "search for Wang Yangming"',
  },
  { tools: ['pdf_read'], zh: '读 PDF：「读一下 report.pdf 第 2 页」', en: 'PDFs: "read report.pdf page 2"' },
  {
    tools: ['shell'],
    zh: '在工作区运行命令（按权限规则）：「运行 `ls -la`」',
    en: 'commands in the workspace, within the permission rules: "run `ls -la`"',
  },
];

/** Names of tools for "this is not available here". */
const TOOL_LABELS: Record<string, [zh: string, en: string]> = {
  calculator: ['计算器', 'the calculator'],
  current_time: ['时间查询', 'the clock'],
  todo_add: ['待办', 'the todo list'],
  todo_list: ['待办', 'the todo list'],
  todo_done: ['待办', 'the todo list'],
  todo_delete: ['待办', 'the todo list'],
  file_read: ['文件读取', 'reading files'],
  file_write: ['文件写入', 'writing files'],
  file_list: ['文件列表', 'listing files'],
  weather: ['天气查询', 'weather lookup'],
  web_fetch: ['网页读取', 'reading web pages'],
  web_search: ['网上搜索', 'web search'],
  pdf_read: ['PDF 读取', 'reading PDFs'],
  shell: ['命令行', 'the shell'],
};

function capabilities(lang: Lang, tools: ReadonlySet<string>): string {
  const lines = CAPABILITIES.filter((c) => c.tools.some((t) => tools.has(t))).map((c) => `- ${say(lang, c.zh, c.en)}`);
  lines.push(`- ${say(lang, '记住你的名字：「我叫小明」', 'remembering your name: "my name is Alex"')}`);
  return lines.join('\n');
}

function missing(lang: Lang, tools: string[]): string {
  const labels = [...new Set(tools.map((t) => (TOOL_LABELS[t] ?? [t, t])[lang === 'zh' ? 0 : 1]))];
  return say(
    lang,
    `抱歉，这里没有启用${labels.join('、')}功能，所以这件事我做不到。`,
    `Sorry, ${labels.join(' and ')} ${labels.length > 1 ? 'are' : 'is'} not available here, so I can't do that.`,
  );
}

/** Where files are kept: the workspace, and the file just written if there was one. */
function whereFiles(lang: Lang, workspace: string | undefined, file: string | undefined): string {
  if (!workspace) {
    return say(
      lang,
      '文件都保存在工作区里，路径都相对于工作区。说「有哪些文件」可以看看里面有什么。',
      'Files are kept in the workspace; paths are relative to it. Say "list files" to see what is there.',
    );
  }
  const at = file
    ? say(lang, `${file} 保存在：${resolve(workspace, file)}\n`, `${file} is saved at ${resolve(workspace, file)}\n`)
    : '';
  return (
    at +
    say(
      lang,
      `你的文件都保存在工作区：${workspace}\n说「有哪些文件」可以看看里面有什么。`,
      `Your files are kept in the workspace: ${workspace}\nSay "list files" to see what is there.`,
    )
  );
}

const MODEL_HINT_ZH =
  '配置一个模型（设置 ZHIXING_BASE_URL / ZHIXING_API_KEY，或 ZHIXING_PROVIDER）后，我能听懂更多说法、回答开放的问题。';
const MODEL_HINT_EN =
  'Configure a model (ZHIXING_BASE_URL / ZHIXING_API_KEY, or ZHIXING_PROVIDER) and I can understand much more and answer open questions.';

/** What the renderer needs besides the reply itself. */
export interface ReplyContext {
  lang: Lang;
  tools: ReadonlySet<string>;
  name?: string;
  /** The workspace's absolute path, if the planner was told it. */
  workspace?: string;
}

/** A reply without a tool, in the user's language. */
export function renderReply(r: Reply, { lang, tools, name, workspace }: ReplyContext): string {
  switch (r.kind) {
    case 'greeting':
      return (
        say(
          lang,
          `你好呀${name ? `，${name}` : ''}！我是知行，现在在离线模式下运行。我可以帮你：\n`,
          `Hi${name ? ` ${name}` : ''}! I'm Zhixing, running in offline mode. I can help with:\n`,
        ) + capabilities(lang, tools)
      );
    case 'help':
      return (
        say(
          lang,
          '我是知行，你的个人助手。现在是离线模式，我用规则理解你的话，能做这些：\n',
          "I'm Zhixing, your personal assistant. I'm in offline mode, following rules, and I can do this:\n",
        ) +
        capabilities(lang, tools) +
        '\n' +
        say(lang, MODEL_HINT_ZH, MODEL_HINT_EN)
      );
    case 'thanks':
      return say(lang, '不客气！还有什么需要帮忙的吗？', "You're welcome! Anything else?");
    case 'ack':
      return say(lang, '好的。还有什么需要我做的吗？', 'OK. Anything else I can do?');
    case 'bye':
      return say(lang, '再见，回头见！', 'Bye, see you soon!');
    case 'undoHint':
      return say(
        lang,
        '撤销不在对话里做：在命令行运行 zhixing undo，在 REPL 里输入 /undo，或在网页上点那一轮的「撤销」按钮，就会把文件恢复到上一轮改动之前的样子。',
        'Undo is not something I do in a reply: run `zhixing undo`, type /undo in the REPL, or press Undo on that turn in the web app, and the files go back to how they were before the last turn that changed them.',
      );
    case 'mood':
      return say(
        lang,
        '听到你心情不好，抱歉。我只是个离线的小助手，没法真正体会你的感受，但可以陪你把手头的事理一理，比如：\n' +
          capabilities(lang, tools) +
          '\n如果一直很难受，找信任的朋友或家人聊聊会有帮助。',
        "I'm sorry you're feeling down. I'm only an offline helper and can't truly understand how you feel, but I can help you sort out what's on your plate:\n" +
          capabilities(lang, tools) +
          '\nIf it keeps weighing on you, talking to someone you trust can help.',
      );
    case 'nameSaved':
      return say(
        lang,
        `好的，${r.name}，我记住你的名字了。有什么可以帮你的？`,
        `Nice to meet you, ${r.name}! I'll remember your name.`,
      );
    case 'nameRecall':
      return name
        ? say(lang, `你叫${name}。`, `Your name is ${name}.`)
        : say(
            lang,
            '你还没告诉我你的名字呢。说「我叫……」，我就会记住。',
            `You haven't told me your name yet. Say "my name is …" and I'll remember it.`,
          );
    case 'askCity':
      return say(
        lang,
        '你想查哪个城市的天气？比如「北京天气怎么样」。',
        'Which city? For example: "weather in Paris".',
      );
    case 'askExpression':
      return say(
        lang,
        '请告诉我要算的式子，比如「算一下 (3+5)*2」。',
        'Tell me what to calculate, e.g. "calculate (3+5)*2".',
      );
    case 'askTodoContent':
      return say(
        lang,
        '要记什么呢？比如「记一下 周五前交周报」。',
        'What should I add? For example: "add a todo: buy milk".',
      );
    case 'askTodoId':
      return r.action === 'done'
        ? say(
            lang,
            '要完成第几条？可以先说「看看待办」查看编号。',
            'Which item number is done? Say "show my todos" to see the numbers.',
          )
        : say(
            lang,
            '要删除第几条？可以先说「看看待办」查看编号。',
            'Which item number should I delete? Say "show my todos" to see the numbers.',
          );
    case 'cannotEditTodo':
      return say(
        lang,
        '待办还不能直接修改。可以先删掉那条（比如「删除第 2 条」），再记一条新的（比如「记一下 明天交报告」）。',
        'Todos cannot be changed in place yet. Delete it (e.g. "delete 2") and add the new one (e.g. "add a todo: report due tomorrow").',
      );
    case 'codeRefusal':
      return say(
        lang,
        '这看起来是一段代码，我不会执行它。计算器只算由数字和运算符组成的式子，比如 (3+5)*2。',
        "That looks like code, and I won't run it. The calculator only takes arithmetic such as (3+5)*2.",
      );
    case 'missing':
      return missing(lang, r.tools);
    case 'workspace':
      return whereFiles(lang, workspace, r.path);
    case 'cannot':
      // One sentence and the nearest thing that works; the whole list is for "help".
      return (
        say(lang, '抱歉，这个我在离线模式下做不到。', "Sorry, I can't do that in offline mode.") +
        say(lang, '', ' ') +
        nearestOffer(lang, r.near, tools)
      );
  }
}

/** One tool call and what came back; `output` is undefined when no result arrived. */
export interface CallResult {
  call: PlannedCall;
  output: string | undefined;
  /** What the result says as data, beside the output; absent for results that came without. */
  result?: ToolResultData;
  /** Said instead of the output: the call only served to look something up. */
  note?: string;
}

const sentence = (lang: Lang, text: string): string =>
  /[。！？.!?）)]$/.test(text) ? text : text + say(lang, '。', '.');

/** Each tool's wording, from the module that holds its rules. */
const FAILURES: Readonly<Record<string, FailureWording>> = Object.assign({}, ...RULES.map((r) => r.failure));
const SUCCESSES: Readonly<Record<string, SuccessWording>> = Object.assign({}, ...RULES.map((r) => r.success ?? {}));

function failure(lang: Lang, { name, args }: PlannedCall, reason: string, ctx: WordingContext): string {
  // The tools usually name the path themselves; say it once.
  const path = reason.includes(str(args.path)) ? '' : str(args.path);
  const why = sentence(lang, reason);
  const wording = FAILURES[name];
  return wording
    ? wording(lang, args, why, path, reason, ctx)
    : say(lang, `抱歉，${name} 没有成功：${why}`, `Sorry, ${name} didn't work: ${why}`);
}

/** The final reply of a turn, from the results of the calls the planner made. */
export function composeResults(lang: Lang, results: CallResult[], ctx: WordingContext): string {
  return results
    .map(({ call, output, result, note }) => {
      if (note !== undefined) return note;
      if (output === undefined) return say(lang, `（${call.name} 没有返回结果）`, `(${call.name} returned no result)`);
      const text = output.trim();
      return failed(text, result)
        ? failure(lang, call, failureText(text), ctx)
        : (SUCCESSES[call.name]?.(lang, call, text, ctx, result) ?? text);
    })
    .join('\n');
}

/** Lines said after all the results, from the tools' results taken together (two clocks' difference, two cities compared). */
export function composeTogether(lang: Lang, results: CallResult[], ctx: WordingContext): string[] {
  const ok = results.filter((r) => r.note === undefined && r.output !== undefined && !failed(r.output, r.result));
  return RULES.flatMap((rules) => {
    // A module's tools are the ones it words failures for.
    const mine = ok.filter((r) => r.call.name in rules.failure);
    const line = mine.length && rules.together ? rules.together(lang, mine, ctx) : undefined;
    return line ? [line] : [];
  });
}
