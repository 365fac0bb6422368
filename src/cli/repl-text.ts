import type { Lang } from '../i18n.js';

/** What the REPL's input side says (help, questions, notes about input), in both languages. */
export function replText(lang: Lang) {
  const zh = lang === 'zh';
  return {
    help: (turns: number) =>
      zh
        ? `/help            显示这份说明
/sessions        列出会话（当前会话标 *）
/new [标题]      新建会话
/switch N        切换到 /sessions 里的第 N 个会话（也可以是会话 id 或它的开头）
/history [N]     显示最近 N 轮对话（默认 ${turns}）
/delete N        删除第 N 个会话及其记录（会先确认）
/rename 标题     给当前会话改名
/model [名称]    列出可用的模型；给出名称则在这次 REPL 里换用它
/permissions     列出权限规则和记住的回答；/permissions allow|ask|deny 工具 [模式]
                 设置一条，/permissions remove 工具 [模式] 删除，/permissions forget N 忘记回答
/mcp             列出 MCP 服务器和它们的状态；/mcp reconnect|enable|disable 名称
/memory          列出这个会话记住的内容；/memory all 全部会话的，/memory search 关键词 搜索，
                 /memory edit N 新内容 修改，/memory delete N 删除（会先确认）
/prefs           列出长期指示（每次对话都遵守）；/prefs add 内容，/prefs remove N，/prefs clear
/undo            把工作区恢复到上一轮改动文件之前（再用一次就再往前一轮）
/exit            退出（也可按 Ctrl-D）

Enter 发送；Alt+Enter 或 Ctrl-J 换行；单独一行 """ 开始多行块，再一行 """ 结束；粘贴多行文本算一条消息。
↑/↓ 翻看以前输入的内容（重启后仍在），Ctrl-R 搜索（再按 Ctrl-R 找更早的，Enter 发送，方向键取来编辑，Esc 取消）；Tab 补全命令。
回答进行中按 Ctrl-C 停下；有输入时 Ctrl-C 清空这一行；在空提示符处连按两次 Ctrl-C 退出。`
        : `/help            this list
/sessions        list sessions (the current one is marked *)
/new [title]     start a new session
/switch N        switch to session N from /sessions (or its id, or the start of it)
/history [N]     show the last N exchanges (default ${turns})
/delete N        delete session N and its history (asks first)
/rename T        rename the current session
/model [NAME]    list the models to choose from; with a name, use that one in this REPL
/permissions     list the permission rules and remembered answers; /permissions allow|ask|deny TOOL
                 [PATTERN] sets one, /permissions remove TOOL [PATTERN] removes it, /permissions forget N
/mcp             list the MCP servers with their state; /mcp reconnect|enable|disable NAME
/memory          list what this session remembers; /memory all for every session's, /memory search QUERY,
                 /memory edit N TEXT, /memory delete N (asks first)
/prefs           list your standing instructions (followed in every reply); /prefs add TEXT, /prefs remove N, /prefs clear
/undo            put the workspace back as it was before the last turn that changed files (again: one more back)
/exit            quit (also Ctrl-D)

Enter sends; Alt+Enter or Ctrl-J starts a new line; """ on a line of its own opens a block that another """ closes; pasted lines are one message.
Up/Down recall earlier entries (kept across runs); Ctrl-R searches them (Ctrl-R again for older, Enter sends it, an arrow key takes it for editing, Esc cancels); Tab completes commands.
Ctrl-C stops a running answer, or clears the line; at an empty prompt, press it twice to quit.`,
    searchLabel: (query: string, failed: boolean) =>
      zh
        ? `（${failed ? '没找到' : '搜索历史'}）「${query}」：`
        : `(${failed ? 'failed ' : ''}reverse-i-search)'${query}': `,
    confirmDelete: (title: string, messages: number) =>
      zh
        ? `删除会话「${title}」和它的 ${messages} 条消息（连同它的记忆）吗？[y/N] `
        : `Delete "${title}" and its ${messages} message${messages === 1 ? '' : 's'} (and its memories)? [y/N] `,
    notDeleted: zh ? '没有删除。' : 'Not deleted.',
    noSuchSessionNumber: (n: number, count: number) =>
      zh
        ? `没有第 ${n} 个会话（${count ? `一共 ${count} 个` : '还没有会话'}），请用 /sessions 查看。`
        : `There is no session number ${n} (${count ? `there ${count === 1 ? 'is 1' : `are ${count}`}` : 'there are none yet'}). See /sessions.`,
    ambiguousSession: (arg: string, count: number) =>
      zh
        ? `有 ${count} 个会话的 id 以「${arg}」开头，请多给几个字符。`
        : `${count} sessions have an id starting "${arg}": give more of it.`,
    sessionUsage: (cmd: string) =>
      zh
        ? `用法：/${cmd} N，N 是 /sessions 里的编号（或会话 id）。`
        : `Usage: /${cmd} N, N a number from /sessions (or a session id).`,
    modelsUnlisted: zh
      ? '（模型服务没有列出它的模型；用 /model 名称 可以换用它提供的任何模型。）'
      : '(The provider did not list its models; /model NAME switches to any model it serves.)',
    modelSwitched: (name: string) =>
      zh
        ? `这次 REPL 改用模型 ${name}（配置没有改动）。`
        : `Now using ${name} in this REPL (the configuration is unchanged).`,
    modelFixed: (name: string) => (zh ? `模型 ${name} 在这里不能更换。` : `The model ${name} cannot be switched here.`),
    offlineNoSwitch: zh
      ? '离线模式（内置的规则规划器）没有可以更换的模型。设置 ZHIXING_BASE_URL / ZHIXING_API_KEY 或 ZHIXING_PROVIDER 后重新启动即可接入模型。'
      : 'Offline mode (the rule-based planner) has no model to switch. Set ZHIXING_BASE_URL / ZHIXING_API_KEY or ZHIXING_PROVIDER and start again to use one.',
    badModelName: (problem: string) =>
      zh ? `这不是一个模型名称（${problem}）。` : `That is not a model name (${problem}).`,
    historyUnsaved: (why: string) =>
      zh
        ? `输入历史无法保存（${why}）：这次输入的内容只在本次运行中可以翻看。`
        : `The input history cannot be saved (${why}): this run's entries can be recalled in this run only.`,
    blockUnclosed: zh
      ? '输入在 """ 块结束前就结束了：块里的内容照样发送。'
      : 'Input ended inside a """ block: what it holds is sent as it is.',
  };
}
export type ReplText = ReturnType<typeof replText>;
