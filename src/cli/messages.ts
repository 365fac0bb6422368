import { languageOf, type Lang } from '../i18n.js';

/** Every sentence the CLI itself says, in both languages. */
export function cliText(lang: Lang) {
  const zh = lang === 'zh';
  return {
    usageHint: zh ? '运行 zhixing --help 查看用法。' : 'Run zhixing --help for usage.',
    jsonNeedsMessage: zh
      ? '--json 需要一条消息：zhixing --json "<消息>"。'
      : '--json needs a message: zhixing --json "<message>".',
    noSessionId: (id: string) =>
      zh ? `没有会话「${id}」。用 zhixing sessions 查看。` : `There is no session "${id}". See zhixing sessions.`,
    ambiguousSession: (count: number, prefix: string) =>
      zh
        ? `有 ${count} 个会话的 id 以「${prefix}」开头：请多给几个字符。用 zhixing sessions 查看。`
        : `${count} sessions have an id starting "${prefix}": give more of it. See zhixing sessions.`,
    /** A date and time as the user's language writes them: 2025年1月3日 14:05 · Jan 3, 2025, 2:05 PM. */
    dateTime: (ms: number) =>
      new Intl.DateTimeFormat(zh ? 'zh-CN' : 'en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(ms),
    unavailable: (name: string) =>
      zh
        ? `「${name}」在这个版本里还没有。运行 zhixing --help 查看可用的命令。`
        : `"${name}" is not available in this version yet. Run zhixing --help for what is.`,
    internalError: (m: string) => (zh ? `内部错误：${m}` : `internal error: ${m}`),
    retry: (attempt: number, max: number, why: string, delayMs?: number) => {
      const wait = delayMs ? (zh ? `${Math.ceil(delayMs / 1000)} 秒后` : ` in ${Math.ceil(delayMs / 1000)} s`) : '';
      return zh
        ? `模型服务暂时不可用（${why}），${wait}重试（${attempt}/${max}）…`
        : `The model service is unavailable for now (${why}); retrying${wait} (${attempt}/${max})…`;
    },
    waitingForSession: (pid: number) =>
      zh
        ? `这个会话正在另一个知行进程${pid ? `（pid ${pid}）` : ''}中回答，等它完成…`
        : `This session is busy in another Zhixing process${pid ? ` (pid ${pid})` : ''}; waiting for it to finish…`,
    stoppedWaiting: zh ? '已停止等待；这条消息没有发送。' : 'Stopped waiting; the message was not sent.',
    startedNewSession: (id: string) =>
      zh
        ? `最近的会话正在另一个知行进程中回答，这条消息开始了一个新会话（${id}）。`
        : `The most recent session is busy in another Zhixing process; this message starts a new session (${id}).`,
    waiting: (elapsedMs: number) => {
      const s = Math.round(elapsedMs / 1000);
      return zh ? `正在等待模型服务响应（${s} 秒）…` : `Waiting for the model service (${s} s)…`;
    },
    /** The spinner's words while the model thinks. */
    thinking: (elapsedMs: number) => {
      const s = Math.floor(elapsedMs / 1000);
      return zh ? `思考中…${s ? ` ${s} 秒` : ''}` : `Thinking…${s ? ` ${s} s` : ''}`;
    },
    /** How long a tool call took, after its line. */
    took: (ms: number) => {
      if (ms < 1_000) {
        const n = ms < 1 ? '<1' : String(Math.round(ms));
        return zh ? `（${n} 毫秒）` : `(${n} ms)`;
      }
      const s = ms < 10_000 ? (ms / 1000).toFixed(1) : String(Math.round(ms / 1000));
      return zh ? `（${s} 秒）` : `(${s} s)`;
    },
    stdinSilent: (waitMs: number) =>
      zh
        ? `标准输入开着，但 ${waitMs / 1000} 秒内什么也没收到，这条消息就不带它发送了。要附上一个慢命令的输出，请先存到文件（命令 > out.txt，再 zhixing "…" < out.txt）；不想等待，请加上 < /dev/null。`
        : `Standard input is open but sent nothing within ${waitMs / 1000} s, so the message is sent without it. To include a slow command's output, save it first (command > out.txt, then zhixing "…" < out.txt); to skip the wait, add < /dev/null.`,
    stdinNothing: (waitMs?: number) => {
      const why =
        waitMs === undefined
          ? zh
            ? '标准输入是空的'
            : 'standard input was empty'
          : zh
            ? `标准输入 ${waitMs / 1000} 秒内什么也没收到`
            : `standard input sent nothing within ${waitMs / 1000} s`;
      return zh
        ? `没有可发送的内容：没有给出消息，${why}。请给出消息（zhixing "…"）。`
        : `Nothing to send: no message was given, and ${why}. Give a message (zhixing "…").`;
    },
    stdinBinary: zh
      ? '标准输入不是文本（含有 NUL 字节），什么也没有发送。请传入文本，比如命令的输出或文本文件。'
      : 'Standard input is not text (it contains NUL bytes), so nothing was sent. Pipe in text, such as the output of a command or a text file.',
    stdinCut: (sent: number, total: number, more: boolean, limit: number) => {
      const n = (x: number) => x.toLocaleString('en-US');
      return zh
        ? `标准输入太长，一条消息放不下（${more ? '超过 ' : ''}${n(total)} 个字符，一条消息最多 ${n(limit)} 个）：只发送了前 ${n(sent)} 个字符。`
        : `Standard input is too long for one message (${more ? 'over ' : ''}${n(total)} characters; a message holds ${n(limit)}): only the first ${n(sent)} were sent.`;
    },
    /** The line in the message itself where piped text was cut, so the model knows it has a part. */
    stdinCutMark: (left: number, more: boolean) => {
      const n = left.toLocaleString('en-US');
      return zh
        ? `[……输入在此截断：${more ? '至少还有' : '还有'} ${n} 个字符没有发送]`
        : `[… the input was cut here: ${more ? 'at least ' : ''}${n} more characters were not sent]`;
    },
    stdinStillReading: zh
      ? '仍在读取标准输入：它还没有结束（Ctrl-C 停止）。'
      : 'Still reading standard input: it has not ended yet (Ctrl-C stops).',
    offlineHint: zh
      ? '不连模型也能用知行：加上 --offline，或设置 ZHIXING_OFFLINE=1。'
      : 'To use Zhixing without a model service, run it with --offline or set ZHIXING_OFFLINE=1.',
    noSuchSessionNumber: (n: number, count: number) =>
      zh
        ? `没有第 ${n} 个会话（${count ? `一共 ${count} 个` : '还没有会话'}）。用 zhixing sessions 查看。`
        : `There is no session number ${n} (${count ? `there ${count === 1 ? 'is 1' : `are ${count}`}` : 'there are none yet'}). See zhixing sessions.`,
    pressAgain: zh ? '（再按一次 Ctrl-C 或输入 /exit 退出）' : '(press Ctrl-C again, or type /exit, to quit)',
    banner: (model: string, title: string) =>
      zh
        ? `知行 Zhixing · ${model} · ${title} · 输入 /help 查看命令`
        : `知行 Zhixing · ${model} · ${title} · /help for commands`,
    offline: zh ? '离线' : 'offline',
    newSessionLabel: zh ? '新会话' : 'new session',
    untitled: zh ? '（未命名）' : '(untitled)',
    messages: (n: number) => (zh ? `${n} 条消息` : `${n} msg`),
    noSessions: zh ? '还没有会话。' : 'No sessions yet.',
    newSession: (title: string) =>
      zh ? `已新建会话${title ? `：${title}` : ''}。` : `New session${title ? `: ${title}` : ''}.`,
    noSuchSession: (arg: string) =>
      zh ? `没有会话「${arg}」，请用 /sessions 查看。` : `No session "${arg}". See /sessions.`,
    goneSession: (arg: string) =>
      zh ? `会话 ${arg} 已经不存在了，请用 /sessions 查看。` : `Session ${arg} no longer exists. See /sessions.`,
    switched: (title: string) => (zh ? `已切换到：${title}。` : `Switched to ${title}.`),
    historyUsage: zh ? '用法：/history [N]，N 为正整数。' : 'Usage: /history [N], N a positive number.',
    noMessages: zh ? '还没有消息。' : 'No messages yet.',
    deleted: (title: string) => (zh ? `已删除：${title}。` : `Deleted ${title}.`),
    renameUsage: zh ? '用法：/rename <标题>' : 'Usage: /rename <title>',
    renamed: (title: string) => (zh ? `已改名为：${title}。` : `Renamed to ${title}.`),
    offlineModel: zh
      ? '离线模式：使用内置的规则规划器（设置 ZHIXING_BASE_URL / ZHIXING_API_KEY 或 ZHIXING_PROVIDER 即可接入模型）。'
      : 'Offline: the rule-based planner (set ZHIXING_BASE_URL / ZHIXING_API_KEY or ZHIXING_PROVIDER to use a model).',
    key: zh ? '密钥' : 'key',
    permissionAsk: (tool: string, target: string) =>
      zh
        ? `允许 ${tool} 操作 ${target} 吗？[y] 是，仅这一次 / [a] 总是 / [n] 否`
        : `Allow ${tool} to ${target}? [y]es once / [a]lways / [n]o`,
    needsApproval: (tool: string, target: string) =>
      zh
        ? `${tool} 操作 ${target} 需要你的批准，已拒绝。加上 --yes 重新运行即可批准。`
        : `${tool} on ${target} needs your approval, so it was refused. Re-run with --yes to approve it.`,
    /** Above the question when a command line asks: what it would run, one sub-command a line. */
    askRuns: zh ? '这条命令会运行：' : 'This runs:',
    askOpaque: (why: string) => (zh ? `无法检查它会运行什么（${why}）` : `what this runs cannot be checked (${why})`),
    askPartAsks: zh ? '需要你的回答' : 'needs your answer',
    askMust: (why: string) => (zh ? `必须询问：${why}` : `asks whatever the rules say: ${why}`),
    needsPerson: (tool: string, target: string) =>
      zh
        ? `${tool} 操作 ${target} 需要你本人批准，已拒绝。--yes 不能代替你批准：请在终端里运行，亲自回答。`
        : `${tool} on ${target} needs a person's approval, so it was refused. --yes cannot approve it: run it on a terminal and answer yourself.`,
    noInputToAnswer: zh ? '（输入已结束，无人回答，已拒绝。）' : '(Input has ended, so nobody can answer: refused.)',
    unknownCommand: (cmd: string) =>
      zh ? `没有 /${cmd} 这个命令，输入 /help 查看。` : `Unknown command /${cmd}. Type /help.`,
    replHelp: (turns: number) =>
      zh
        ? `/help            显示这份说明
/sessions        列出会话（当前会话标 *）
/new [标题]      新建会话
/switch N        切换到 /sessions 里的第 N 个会话（或会话 id）
/history [N]     显示最近 N 轮对话（默认 ${turns}）
/delete N        删除第 N 个会话及其记录
/rename 标题     给当前会话改名
/model           显示正在使用的模型
/exit            退出（也可按 Ctrl-D）
回答进行中按 Ctrl-C 可以停下；在提示符处连按两次 Ctrl-C 退出。`
        : `/help            this list
/sessions        list sessions (the current one is marked *)
/new [title]     start a new session
/switch N        switch to session N from /sessions (or an id)
/history [N]     show the last N exchanges (default ${turns})
/delete N        delete session N and its history
/rename T        rename the current session
/model           show the model in use
/exit            quit (also Ctrl-D)
Ctrl-C stops a running answer; at the prompt, press it twice to quit.`,
  };
}
export type CliText = ReturnType<typeof cliText>;

/** The CLI's words in the language the user last wrote in, unless ZHIXING_LANG fixes one. */
export interface FollowingText {
  /** Always the current language's text: hand it out once, it follows. */
  text: CliText;
  lang(): Lang;
  /** The user wrote `line`: a message, or a slash command whose arguments count, not its name. */
  follow(line: string): void;
}

/**
 * A table of words (`cliText`, the REPL's `replText`) that is always in the language `lang()` says
 * now: each entry reads the current language's table, so it can be handed out once.
 */
export function followLanguage<T extends object>(make: (lang: Lang) => T, lang: () => Lang): T {
  const tables: Partial<Record<Lang, T>> = {};
  const table = (l: Lang) => (tables[l] ??= make(l));
  const live = {} as T;
  for (const key of Object.keys(table('en')) as Array<keyof T>) {
    Object.defineProperty(live, key, { enumerable: true, get: () => table(lang())[key] });
  }
  return live;
}

export function followingText(initial: Lang, forced?: Lang): FollowingText {
  let current = forced ?? initial;
  const text = followLanguage(cliText, () => current);
  return {
    text,
    lang: () => current,
    follow(line) {
      if (forced) return;
      current = languageOf(line.trim().startsWith('/') ? line.trim().replace(/^\/\S*/, '') : line, current);
    },
  };
}
