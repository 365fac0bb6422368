export const HELP = `知行 Zhixing — a personal assistant that talks and acts

Usage:
  zhixing                      chat (REPL) in the most recent session
  zhixing "<message>"          one turn: prints the reply and exits
  zhixing ask "<message>"      the same

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
