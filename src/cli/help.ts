const HELP_EN = `知行 Zhixing — a personal assistant that talks and acts

Usage:
  zhixing                      chat (REPL) in the most recent session
  zhixing "<message>"          one turn: prints the reply and exits
  zhixing ask "<message>"      the same
  cmd | zhixing "<message>"    the message, then what cmd printed (up to 96,000 characters)
  cmd | zhixing                what cmd printed is the message
  zhixing chat                 the REPL, also with lines piped in
  zhixing sessions [--json]    the sessions, most recent first, numbered for --session N
  zhixing config [--json]      the settings in effect and where each comes from (key masked)
  zhixing undo [--session ID|N] [--json]
                               put the workspace back as it was before the last turn
                               (of the most recent session) that changed files
  zhixing serve [--port 4317] [--host 127.0.0.1]
                               the HTTP API (docs at /docs); Ctrl-C stops it
  zhixing mcp add NAME -- CMD [ARGS…]   (-e K=V; --transport http NAME URL, -H "K: V")
  zhixing mcp list [--json] · mcp remove|enable|disable NAME
                               the MCP servers whose tools Zhixing uses, with their state

Options for a turn:
  --json            print one JSON object: {session, mode, reply, actions}
  --show-actions    print a line for every tool call
  --session ID|N    continue that session (N as zhixing sessions numbers them)
  --new             start a new session
  --model NAME      use this model for this run only (nothing is saved)
  --offline         use the offline planner even if a model is configured
  -y, --yes         approve permission asks without prompting (refusals still stand)
  --mcp             run the built-in tools through a zhixing mcp serve child (same results)
  -h, --help        this help
  -v, --version     the version

Piped input is read when it comes; a pipe that sends nothing for 2 s is left out
(add < /dev/null to skip the wait).

In the REPL: /help /sessions /new [title] /switch N /history [N] /delete N /rename T /model [NAME] /permissions /mcp /undo /exit
(Alt+Enter or Ctrl-J: new line; """ opens and closes a block; Up/Down and Ctrl-R: earlier entries)

Model (environment, ./.env, $ZHIXING_HOME/.env or $ZHIXING_HOME/config.json):
  ZHIXING_PROVIDER   openai | deepseek | qwen | zhipu | moonshot | openrouter | ollama
  ZHIXING_BASE_URL   any OpenAI-compatible endpoint, e.g. http://127.0.0.1:11434/v1
  ZHIXING_API_KEY    the key (never printed or stored in history)
  ZHIXING_MODEL      the model name
  ZHIXING_TURN_TIMEOUT_MS     the most one turn may take (default 600000, 10 min)
  ZHIXING_REQUEST_TIMEOUT_MS  the longest silence of a model request (default 120000)
  ZHIXING_MAX_RETRIES         retries of a failed model request (default 3)
  With no base URL and no key, Zhixing runs offline on its rule-based planner.
  ZHIXING_HOME (default ~/.zhixing) holds the database, config and the file workspace.
  zhixing config shows what is in effect.

Examples:
  zhixing "帮我算一下 (3+5)*2"
  zhixing "记一下 周五前交周报"
  zhixing "what's the weather in Paris"
  git diff | zhixing "review this"

Exit codes: 0 done, 1 internal or model error, 2 bad usage.
`;

const HELP_ZH = `知行 Zhixing —— 能聊天、也能动手的个人助手

用法：
  zhixing                      在最近的会话里聊天（REPL）
  zhixing "<消息>"             说一句，打印回复后退出
  zhixing ask "<消息>"         同上
  命令 | zhixing "<消息>"      发送消息，后面附上命令的输出（最多 96,000 个字符）
  命令 | zhixing               命令的输出就是消息
  zhixing chat                 REPL，管道传入的行也当作输入
  zhixing sessions [--json]    列出会话，最近的在前，编号可用于 --session N
  zhixing config [--json]      显示生效的设置及其来源（密钥已遮盖）
  zhixing undo [--session ID|N] [--json]
                               把工作区恢复到（最近会话中）上一轮改动文件之前的样子
  zhixing serve [--port 4317] [--host 127.0.0.1]
                               启动 HTTP API（文档在 /docs），Ctrl-C 停止
  zhixing mcp add 名称 -- 命令 [参数…]   （-e K=V；--transport http 名称 URL，-H "K: V"）
  zhixing mcp list [--json] · mcp remove|enable|disable 名称
                               知行使用其工具的 MCP 服务器，以及它们的状态

单次对话的选项：
  --json            输出一个 JSON 对象：{session, mode, reply, actions}
  --show-actions    每次调用工具都打印一行
  --session ID|N    继续指定的会话（N 是 zhixing sessions 里的编号）
  --new             开一个新会话
  --model 名称      只在这一次使用这个模型（不会保存）
  --offline         即使配置了模型，也使用离线规划器
  -y, --yes         自动同意权限询问（拒绝的规则依然有效）
  --mcp             通过 zhixing mcp serve 子进程调用内置工具（结果相同）
  -h, --help        显示本帮助
  -v, --version     显示版本

管道输入一到就读；2 秒内什么也没发来的管道会被略过（加上 < /dev/null 可跳过等待）。

REPL 里的命令：/help /sessions /new [标题] /switch N /history [N] /delete N /rename 标题 /model [名称] /permissions /mcp /undo /exit
（Alt+Enter 或 Ctrl-J 换行；""" 开始和结束多行块；↑/↓ 和 Ctrl-R 找以前输入的内容）

模型（环境变量、./.env、$ZHIXING_HOME/.env 或 $ZHIXING_HOME/config.json）：
  ZHIXING_PROVIDER   openai | deepseek | qwen | zhipu | moonshot | openrouter | ollama
  ZHIXING_BASE_URL   任何兼容 OpenAI 的接口地址，例如 http://127.0.0.1:11434/v1
  ZHIXING_API_KEY    密钥（不会被打印，也不会写进历史）
  ZHIXING_MODEL      模型名
  ZHIXING_TURN_TIMEOUT_MS     一轮对话最长用时（默认 600000，即 10 分钟）
  ZHIXING_REQUEST_TIMEOUT_MS  模型请求最长的无响应时间（默认 120000）
  ZHIXING_MAX_RETRIES         模型请求失败后的重试次数（默认 3）
  既没有接口地址也没有密钥时，知行使用内置的规则规划器离线运行。
  ZHIXING_HOME（默认 ~/.zhixing）存放数据库、配置和文件工作区。
  zhixing config 显示当前生效的设置。

例子：
  zhixing "帮我算一下 (3+5)*2"
  zhixing "记一下 周五前交周报"
  zhixing "北京天气怎么样"
  git diff | zhixing "帮我看看这些改动"

退出码：0 完成，1 内部或模型错误，2 用法错误。
`;

export const helpText = (lang: 'zh' | 'en'): string => (lang === 'zh' ? HELP_ZH : HELP_EN);
