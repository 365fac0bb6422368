/**
 * `zhixing mcp add|list|remove|enable|disable`: the servers in config.json's `mcpServers`. Changes are
 * made to config.json under its lock (two `mcp add` at once both land) without starting a model or
 * needing a key; `add` and `list` then connect the servers, for a bounded time, to show what they do.
 */
import { isAbsolute, join, resolve } from 'node:path';
import { mcpPublicView } from '../contract/mcp-server.js';
import { updateConfigKey } from '../config/config-writer.js';
import type { Config } from '../config/config.js';
import { DEFAULT_MCP_TIMEOUT_MS, toServerEntry, type McpServerSettings } from '../config/mcp-settings.js';
import { CONFIG_FILE } from '../config/paths.js';
import { errorText, say, type Lang } from '../i18n.js';
import { withoutServerRules, type Rules } from '../permission/rule-edits.js';
import { serverTrusted, withDefaults } from '../permission/rules.js';
import { DEFAULT_RETRY, type RetryPolicy } from '../mcp/client/backoff.js';
import type { McpServerView } from '../mcp/types.js';
import type { McpCommand } from './command.js';
import { serverLines, shellLine, shownUrl, trustHint, whatRuns } from './mcp-view.js';
import type { CliIo } from './cli-io.js';
import { jsonLine, plainText } from './terminal-text.js';

/** How long `add` and `list` wait for servers to connect: a slow `npx` download gets this, not forever. */
export const CONNECT_WAIT_MS = 10_000;
/**
 * `add` and `list` only look: a server that exits at start or refuses the connection is said at once,
 * not tried again with backoff until the wait runs out. Zhixing itself still retries it when it runs.
 */
const ONE_LOOK_RETRY: RetryPolicy = { ...DEFAULT_RETRY, attempts: 1 };

type Entries = Record<string, unknown>;
class Usage extends Error {}

/** config.json's `mcpServers` as an object, whatever is there now (a missing key is none). */
const entriesOf = (current: unknown): Entries =>
  typeof current === 'object' && current !== null && !Array.isArray(current) ? { ...(current as Entries) } : {};

/** Connects `servers` with a manager of their own, waits at most CONNECT_WAIT_MS, and gives their views. */
async function connect(config: Config, servers: McpServerSettings[]): Promise<McpServerView[]> {
  const { createMcpManager } = await import('../mcp/manager.js');
  const { createToolRegistry } = await import('../tools/registry.js');
  const manager = createMcpManager({
    servers,
    tools: createToolRegistry([]),
    // This manager only looks: config.json is changed above, under its lock.
    saveServers: () => {},
    retry: ONE_LOOK_RETRY,
    trusted: (name) => serverTrusted(withDefaults(config.permissions), name),
  });
  try {
    manager.start();
    await manager.ready(CONNECT_WAIT_MS);
    return manager.list();
  } finally {
    await manager.close();
  }
}

export async function runMcpCommand(
  config: Config,
  cmd: Exclude<McpCommand, { action: 'serve' }>,
  io: CliIo,
): Promise<number> {
  const lang: Lang = config.uiLang;
  const path = join(config.home, CONFIG_FILE);
  const fail = (message: string, code: number) => (io.stderr(`zhixing: ${plainText(message)}\n`), code);
  try {
    if (cmd.action === 'list') return await list(config, cmd.json, lang, io);
    if (cmd.action === 'add') return await add(config, cmd, path, lang, io);
    return change(cmd.action, cmd.name, path, lang, io);
  } catch (err) {
    if (err instanceof Usage) return fail(err.message, 2);
    return fail(errorText(err, lang), 1);
  }
}

async function add(
  config: Config,
  cmd: Extract<McpCommand, { action: 'add' }>,
  path: string,
  lang: Lang,
  io: CliIo,
): Promise<number> {
  const settings: McpServerSettings = {
    name: cmd.name,
    transport: cmd.transport,
    // A path typed here (`./server.js`, `node_modules/.bin/x`) means from here: saved as such, since the
    // servers are started later from wherever zhixing runs. A bare name (`npx`) is found on PATH then.
    command:
      cmd.command !== undefined && cmd.command.includes('/') && !isAbsolute(cmd.command)
        ? resolve(cmd.command)
        : cmd.command,
    args: cmd.args,
    env: cmd.env,
    url: cmd.url,
    headers: cmd.headers,
    enabled: true,
    timeoutMs: cmd.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS,
    ...(cmd.maxTotalMs !== undefined ? { maxTotalMs: cmd.maxTotalMs } : {}),
  };
  updateConfigKey(path, 'mcpServers', (current) => {
    const entries = entriesOf(current);
    if (cmd.name in entries) {
      throw new Usage(
        say(
          lang,
          `已经有名为「${cmd.name}」的 MCP 服务器。先用 zhixing mcp remove ${cmd.name} 删除它，再添加。`,
          `There is already an MCP server "${cmd.name}". Remove it first with zhixing mcp remove ${cmd.name}, then add it again.`,
        ),
      );
    }
    entries[cmd.name] = toServerEntry(settings);
    return entries;
  });
  const runs =
    settings.command !== undefined ? shellLine([settings.command, ...settings.args]) : shownUrl(settings.url!);
  io.stdout(
    `${say(lang, `已把 MCP 服务器「${plainText(cmd.name)}」加入 ${path}。`, `Added the MCP server "${plainText(cmd.name)}" to ${path}.`)}\n` +
      `${say(lang, settings.transport === 'stdio' ? '它会运行这条命令：' : `它连接（${settings.transport}）：`, settings.transport === 'stdio' ? 'It runs this command:' : `It connects (${settings.transport}) to:`)}\n` +
      `  ${whatRuns({ command: runs })}\n`,
  );
  const keys = [...Object.keys(cmd.env).map((k) => `env ${k}`), ...Object.keys(cmd.headers).map((k) => `header ${k}`)];
  if (keys.length)
    io.stdout(
      `${say(lang, `已设置（值保存在 config.json，不显示）：${keys.join(', ')}`, `Set (values kept in config.json, not shown): ${keys.join(', ')}`)}\n`,
    );
  io.stderr(
    io.style.dim(
      `${say(lang, `正在连接（最多 ${CONNECT_WAIT_MS / 1000} 秒）…`, `Connecting (up to ${CONNECT_WAIT_MS / 1000} s)…`)}\n`,
    ),
  );
  const [view] = await connect(config, [settings]);
  if (view) showOutcome(view, lang, io);
  // A rule written for this name before (by hand, for an earlier server) already trusts it: say so, never "it asks".
  io.stdout(
    `${view?.trusted ? say(lang, `你的权限规则已经信任「${cmd.name}」：它的工具调用前不会询问。`, `Your permission rules already trust "${cmd.name}": its tools run without asking.`) : trustHint(cmd.name, lang)}\n`,
  );
  return 0;
}

/** Whether the server just added connected, with its tools, or why not with what it said. */
function showOutcome(v: McpServerView, lang: Lang, io: CliIo): void {
  if (v.state === 'connected') {
    io.stdout(
      `${io.style.green(say(lang, `已连接：${v.tools.length} 个工具。`, `Connected: ${v.tools.length} tool${v.tools.length === 1 ? '' : 's'}.`))}\n`,
    );
    // Tools left out (too many, schemas too big, malformed) are said here, not found out later.
    if (v.warning) io.stdout(`${io.style.red(say(lang, '注意', 'Warning'))}: ${plainText(v.warning)}\n`);
    return;
  }
  if (v.state === 'connecting') {
    io.stdout(
      `${say(lang, `${CONNECT_WAIT_MS / 1000} 秒内没有连上；已保存，下次启动时会再连接。`, `Not connected within ${CONNECT_WAIT_MS / 1000} s; it is saved and will connect when Zhixing starts.`)}\n`,
    );
    return;
  }
  io.stdout(`${serverLines(v, lang, io.style).join('\n')}\n`);
  io.stdout(
    `${say(lang, '已保存，但没有连上：修好后用 zhixing mcp list 再看。', 'It is saved but did not connect: once it is fixed, zhixing mcp list shows it again.')}\n`,
  );
}

async function list(config: Config, json: boolean, lang: Lang, io: CliIo): Promise<number> {
  // Read as this process started (its warnings about bad entries already said).
  const servers = config.mcpServers;
  if (!servers.length) {
    if (json) io.stdout(jsonLine({ servers: [] }));
    else
      io.stdout(
        `${say(lang, '没有配置 MCP 服务器。添加一个：zhixing mcp add NAME -- 命令 [参数…]', 'No MCP servers are configured. Add one: zhixing mcp add NAME -- CMD [ARGS…]')}\n`,
      );
    return 0;
  }
  if (!json && servers.some((s) => s.enabled))
    io.stderr(
      io.style.dim(
        `${say(lang, `正在连接（最多 ${CONNECT_WAIT_MS / 1000} 秒）…`, `Connecting (up to ${CONNECT_WAIT_MS / 1000} s)…`)}\n`,
      ),
    );
  const views = await connect(config, servers);
  // Only the view's own fields: whatever a manager adds, never a secret's value.
  if (json) return (io.stdout(jsonLine({ servers: views.map(mcpPublicView) })), 0);
  io.stdout(`${views.map((v) => serverLines(v, lang, io.style).join('\n')).join('\n\n')}\n`);
  return 0;
}

function change(action: 'remove' | 'enable' | 'disable', name: string, path: string, lang: Lang, io: CliIo): number {
  updateConfigKey(path, 'mcpServers', (current) => {
    const entries = entriesOf(current);
    if (!(name in entries)) {
      const names = Object.keys(entries);
      throw new Usage(
        say(
          lang,
          `没有名为「${name.slice(0, 40)}」的 MCP 服务器。${names.length ? `已有的：${names.join('、')}。` : '还没有配置任何服务器。'}`,
          `There is no MCP server "${name.slice(0, 40)}". ${names.length ? `The servers are: ${names.join(', ')}.` : 'None is configured.'}`,
        ),
      );
    }
    if (action === 'remove') {
      delete entries[name];
      return entries;
    }
    const entry = { ...(entries[name] as Entries) };
    // Claude Code writes `disabled`; one switch is kept, Zhixing's.
    delete entry.disabled;
    if (action === 'enable') delete entry.enabled;
    else entry.enabled = false;
    entries[name] = entry;
    return entries;
  });
  // Its tools' rules go with it: a server added later under this name must not inherit its trust.
  let removedRules: string[] = [];
  if (action === 'remove') {
    updateConfigKey(path, 'permissions', (current) => {
      if (typeof current !== 'object' || current === null || Array.isArray(current)) return current;
      const out = withoutServerRules(current as Rules, name);
      removedRules = out.removed;
      return out.rules;
    });
  }
  const rulesNote = removedRules.length
    ? say(
        lang,
        `（也删除了它的权限规则：${removedRules.join('、')}）`,
        ` (and its permission rules: ${removedRules.join(', ')})`,
      )
    : '';
  const done = {
    remove: say(lang, `已删除 MCP 服务器「${name}」${rulesNote}。`, `Removed the MCP server "${name}"${rulesNote}.`),
    enable: say(
      lang,
      `已启用 MCP 服务器「${name}」：Zhixing 下次启动时会连接它。`,
      `Enabled the MCP server "${name}": Zhixing connects it when it next starts.`,
    ),
    disable: say(
      lang,
      `已停用 MCP 服务器「${name}」：它的工具不再提供。`,
      `Disabled the MCP server "${name}": its tools are no longer offered.`,
    ),
  }[action];
  io.stdout(`${plainText(done)}\n`);
  return 0;
}
