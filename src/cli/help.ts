const HELP_EN = `知行 Zhixing — a personal assistant that talks and acts

Usage:
  zhixing                      chat (REPL) in the most recent session
  zhixing "<message>"          one turn: prints the reply and exits
  zhixing ask "<message>"      the same
  zhixing serve [--port 4317] [--host 127.0.0.1]
                               the HTTP API (docs at /docs); Ctrl-C stops it

Options for a turn:
  --json            print one JSON object: {session, mode, reply, actions}
  --show-actions    print a line for every tool call
  --session ID      continue that session
  --new             start a new session
  --offline         use the offline planner even if a model is configured
  -y, --yes         approve permission asks without prompting (refusals still stand)
  -h, --help        this help
  -v, --version     the version

In the REPL: /help /sessions /new [title] /switch N /history [N] /delete N /rename T /model /exit

Model (environment, ./.env, $ZHIXING_HOME/.env or $ZHIXING_HOME/config.json):
  ZHIXING_PROVIDER   openai | deepseek | qwen | zhipu | moonshot | openrouter | ollama
  ZHIXING_BASE_URL   any OpenAI-compatible endpoint, e.g. http://127.0.0.1:11434/v1
  ZHIXING_API_KEY    the key (never printed or stored in history)
  ZHIXING_MODEL      the model name
  With no base URL and no key, Zhixing runs offline on its rule-based planner.
  ZHIXING_HOME (default ~/.zhixing) holds the database, config and the file workspace.

Examples:
  zhixing "帮我算一下 (3+5)*2"
  zhixing "记一下 周五前交周报"
  zhixing "what's the weather in Paris"

Exit codes: 0 done, 1 internal or model error, 2 bad usage.
`;

const HELP_ZH = `知行 Zhixing —— 能聊天、也能动手的个人助手

用法：
  zhixing                      在最近的会话里聊天（REPL）
  zhixing "<消息>"             说一句，打印回复后退出
  zhixing ask "<消息>"         同上
  zhixing serve [--port 4317] [--host 127.0.0.1]
                               启动 HTTP API（文档在 /docs），Ctrl-C 停止

单次对话的选项：
  --json            输出一个 JSON 对象：{session, mode, reply, actions}
  --show-actions    每次调用工具都打印一行
  --session ID      继续指定的会话
  --new             开一个新会话
  --offline         即使配置了模型，也使用离线规划器
  -y, --yes         自动同意权限询问（拒绝的规则依然有效）
  -h, --help        显示本帮助
  -v, --version     显示版本

REPL 里的命令：/help /sessions /new [标题] /switch N /history [N] /delete N /rename 标题 /model /exit

模型（环境变量、./.env、$ZHIXING_HOME/.env 或 $ZHIXING_HOME/config.json）：
  ZHIXING_PROVIDER   openai | deepseek | qwen | zhipu | moonshot | openrouter | ollama
  ZHIXING_BASE_URL   任何兼容 OpenAI 的接口地址，例如 http://127.0.0.1:11434/v1
  ZHIXING_API_KEY    密钥（不会被打印，也不会写进历史）
  ZHIXING_MODEL      模型名
  既没有接口地址也没有密钥时，知行使用内置的规则规划器离线运行。
  ZHIXING_HOME（默认 ~/.zhixing）存放数据库、配置和文件工作区。

例子：
  zhixing "帮我算一下 (3+5)*2"
  zhixing "记一下 周五前交周报"
  zhixing "北京天气怎么样"

退出码：0 完成，1 内部或模型错误，2 用法错误。
`;

export const helpText = (lang: 'zh' | 'en'): string => (lang === 'zh' ? HELP_ZH : HELP_EN);
