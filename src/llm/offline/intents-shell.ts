/**
 * Rules for running a command: only when the message plainly hands one over — in backticks, after
 * 「运行命令」/"run the command", after a `$ ` prompt, or after a run verb when the first word is a
 * program people run from a terminal. The command is passed as written: the shell tool's parser and
 * the permission rules decide whether it runs, never the planner.
 */
import { call, PRIORITY, str, type Intent, type ToolRules } from './intent.js';
import { say, type Lang } from '../../i18n.js';
import { fenced } from '../../markdown-fence.js';

/** Programs whose name after a run verb makes the rest a command line, not a chore (「跑一下 5 公里」). */
const PROGRAMS = new Set([
  'ls',
  'pwd',
  'cat',
  'echo',
  'printf',
  'git',
  'grep',
  'rg',
  'find',
  'wc',
  'head',
  'tail',
  'mkdir',
  'touch',
  'cp',
  'mv',
  'rm',
  'du',
  'df',
  'date',
  'cal',
  'whoami',
  'uname',
  'hostname',
  'uptime',
  'free',
  'ps',
  'env',
  'which',
  'node',
  'npm',
  'npx',
  'python',
  'python3',
  'pip',
  'pip3',
  'tree',
  'sort',
  'uniq',
  'cut',
  'tr',
  'sed',
  'awk',
  'jq',
  'tar',
  'zip',
  'unzip',
  'gzip',
  'curl',
  'wget',
  'ping',
  'make',
  'cd',
  'chmod',
  'ln',
  'file',
  'stat',
  'diff',
  'md5sum',
  'sha256sum',
  'seq',
  'bc',
  'xargs',
  'pandoc',
  'ffmpeg',
  'convert',
  'sqlite3',
  'docker',
  'cargo',
  'go',
  'java',
  'deno',
  'bun',
  'yarn',
  'pnpm',
  'bash',
  'sh',
]);

const RUN_ZH = '(?:运行|执行|跑一下|跑|敲一下|输入)';
const RUN_EN = '(?:run|execute|exec)';
const WHERE_ZH = '(?:在\\s*(?:终端|命令行|shell|bash)\\s*(?:里|中|上)?\\s*|用\\s*(?:shell|bash|终端|命令行)\\s*)?';
const POLITE_ZH = '(?:请|麻烦|帮我|给我|你)?\\s*';

/** 「运行 `ls -la`」 "run `git status` please": a command in backticks after a run verb that starts the message. */
const BACKTICKED = new RegExp(
  `^${POLITE_ZH}${WHERE_ZH}(?:${RUN_ZH}|(?:please\\s+)?(?:can you\\s+|could you\\s+)?${RUN_EN}\\b)[^\`]{0,20}\`(?<cmd>[^\`\\n]+)\``,
  'i',
);
/** 「运行命令：ls -la」「在终端执行 git status」 "run the command ls", "run this in the shell: ls". */
const NAMED = new RegExp(
  `^${POLITE_ZH}${WHERE_ZH}${RUN_ZH}\\s*(?:一下)?\\s*(?<named>(?:这个|这条|以下|下面的?)?\\s*(?:命令|指令|shell\\s*命令))?\\s*[:：]?\\s*(?<cmd>.+)$`,
  'is',
);
const NAMED_EN = new RegExp(
  `^(?:please\\s+)?(?:can you\\s+|could you\\s+)?${RUN_EN}\\s+(?<named>(?:the|this)\\s+(?:shell\\s+)?command\\s*:?|(?:shell\\s+)?command\\s*:?|in\\s+the\\s+(?:shell|terminal)\\s*:?)?\\s*(?<cmd>.+?)(?:\\s+(?:please|for me|in the (?:shell|terminal)))?[.!]?$`,
  'is',
);
/** A line typed as at a prompt: `$ ls -la`. */
const PROMPT = /^\$\s+(?<cmd>\S.*)$/s;

/** 「运行 "ls -la"」: quotes around the whole command are the message's, not the command's. */
function unquoted(cmd: string): string {
  const m = /^(["'“「])(.*)(["'”」])$/s.exec(cmd);
  const pairs: Record<string, string> = { '"': '"', "'": "'", '“': '”', '「': '」' };
  return m && pairs[m[1]!] === m[3] && !m[2]!.includes(m[1]!) ? m[2]!.trim() : cmd;
}

const firstWord = (cmd: string): string => /^[^\s;|&<>()]+/.exec(cmd)?.[0]?.replace(/^.*\//, '') ?? '';

/** The command a message hands over, if it plainly hands one over. */
export function commandIn(text: string): string | undefined {
  const raw = text.trim();
  const ticked = BACKTICKED.exec(raw)?.groups?.cmd?.trim();
  if (ticked) return ticked;
  const prompt = PROMPT.exec(raw)?.groups?.cmd?.trim();
  if (prompt) return prompt;
  for (const pattern of [NAMED, NAMED_EN]) {
    const m = pattern.exec(raw);
    const cmd = unquoted(m?.groups?.cmd?.trim() ?? '');
    if (!m || !cmd) continue;
    // Without the word "command", only a program's name makes the rest a command line.
    if (m.groups?.named || PROGRAMS.has(firstWord(cmd))) return cmd;
  }
  return undefined;
}

const shellIntent: Intent = {
  id: 'shell',
  priority: PRIORITY.shell,
  match(u) {
    const command = commandIn(u.raw);
    return command ? call('shell', { command }) : null;
  },
};

/** The shell's output starts with its exit line; the rest is what the command printed. */
function said(lang: Lang, command: string, output: string): string {
  const [status = '', ...rest] = output.split('\n');
  const body = rest.join('\n').trim();
  const head = say(lang, `运行了 \`${command}\` —— ${status}`, `Ran \`${command}\` — ${status}`);
  return body ? `${head}${say(lang, '：', ':')}\n${fenced(body)}` : head;
}

export const SHELL_RULES: ToolRules = {
  intents: [shellIntent],
  success: { shell: (lang, c, output) => said(lang, str(c.args.command), output) },
  failure: {
    shell: (lang, args, why) =>
      say(lang, `没有运行 \`${str(args.command)}\`：${why}`, `Did not run \`${str(args.command)}\`: ${why}`),
  },
};
