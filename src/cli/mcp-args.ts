import { parseArgs } from 'node:util';
import { MCP_SERVER_NAME, MCP_SERVER_NAME_RULE } from '../config/mcp-settings.js';
import { plainText } from './terminal-text.js';
import { parseError, usage } from './arg-errors.js';
import type { Command } from './command.js';

const ACTIONS = ['serve', 'add', 'list', 'remove', 'enable', 'disable'];
const HELP_LINE =
  'zhixing mcp add NAME -- CMD [ARGS…] · zhixing mcp add --transport http NAME URL · zhixing mcp list · zhixing mcp remove NAME · zhixing mcp serve';

const badName = (name: string): Command => {
  // Shown as typed but never as the terminal would read it: a name can hold escape sequences.
  const shown = plainText(name.slice(0, 40));
  return usage(
    `"${shown}" cannot name a server: use ${MCP_SERVER_NAME_RULE.en}.`,
    `「${shown}」不能作为服务器名：请用 ${MCP_SERVER_NAME_RULE.zh}。`,
  );
};

function pairs(items: string[], separator: '=' | ':', flag: string): Record<string, string> | Command {
  const out: Record<string, string> = {};
  for (const item of items) {
    const at = item.indexOf(separator);
    const key = at > 0 ? item.slice(0, at).trim() : '';
    if (!key) {
      const shape = separator === '=' ? 'KEY=VALUE' : '"Name: value"';
      return usage(
        `${flag} takes ${shape}, not "${item.slice(0, 60)}".`,
        `${flag} 的格式是 ${shape}，不是「${item.slice(0, 60)}」。`,
      );
    }
    out[key] = item.slice(at + 1).trim();
  }
  return out;
}

export function parseMcp(argv: string[]): Command {
  const [action, ...rest] = argv;
  if (action === undefined || !ACTIONS.includes(action)) {
    return usage(
      `${action === undefined ? 'zhixing mcp needs a subcommand' : `zhixing mcp has no "${action.slice(0, 40)}"`}: ${HELP_LINE}.`,
      `${action === undefined ? 'zhixing mcp 需要一个子命令' : `zhixing mcp 没有「${action.slice(0, 40)}」`}：${HELP_LINE}。`,
    );
  }
  // Everything after `--` is the server's command line, its options included.
  const dash = rest.indexOf('--');
  const own = dash === -1 ? rest : rest.slice(0, dash);
  const commandLine = dash === -1 ? [] : rest.slice(dash + 1);
  const options = {
    serve: { yes: { type: 'boolean', short: 'y' }, offline: { type: 'boolean' } },
    add: {
      transport: { type: 'string', short: 't' },
      env: { type: 'string', short: 'e', multiple: true },
      header: { type: 'string', short: 'H', multiple: true },
      timeout: { type: 'string' },
      'max-total': { type: 'string' },
    },
    list: { json: { type: 'boolean' } },
    remove: {},
    enable: {},
    disable: {},
  } as const;
  let parsed;
  try {
    parsed = parseArgs({
      args: own,
      strict: true,
      allowPositionals: true,
      options: options[action as keyof typeof options],
    });
  } catch (err) {
    return parseError(err, Object.keys(options[action as keyof typeof options]));
  }
  const v = parsed.values as Record<string, unknown>;
  const words = parsed.positionals;
  if (action === 'serve' || action === 'list') {
    if (words.length || commandLine.length)
      return usage(`zhixing mcp ${action} takes no arguments.`, `zhixing mcp ${action} 不接受参数。`);
    return action === 'serve'
      ? { kind: 'mcp', action, yes: v.yes === true, offline: v.offline === true }
      : { kind: 'mcp', action, json: v.json === true };
  }
  const name = words[0];
  if (name === undefined)
    return usage(`zhixing mcp ${action} needs the server's name.`, `zhixing mcp ${action} 需要服务器的名字。`);
  if (action !== 'add') {
    if (words.length > 1 || commandLine.length)
      return usage(`zhixing mcp ${action} takes one name.`, `zhixing mcp ${action} 只接受一个名字。`);
    return { kind: 'mcp', action, name } as Command;
  }
  if (!MCP_SERVER_NAME.test(name)) return badName(name);
  const transportWord = (v.transport as string | undefined) ?? (commandLine.length ? 'stdio' : 'http');
  const transport = ({ stdio: 'stdio', http: 'http', 'streamable-http': 'http', sse: 'sse' } as const)[
    transportWord as 'stdio'
  ];
  if (!transport)
    return usage(
      `--transport is stdio, http or sse, not "${transportWord.slice(0, 40)}".`,
      `--transport 只能是 stdio、http 或 sse，不是「${transportWord.slice(0, 40)}」。`,
    );
  // `mcp add x node -e 1` without `--`: the server's own options were read as ours.
  const forgotDashes = dash === -1 && v.transport === undefined && words.length > 1 && !/^https?:\/\//i.test(words[1]!);
  const dashesHint = usage(
    `Put -- before the server's command, so its options stay its own: zhixing mcp add ${name} -- ${plainText(words.slice(1).join(' ').slice(0, 80))} …`,
    `请在服务器的命令前加上 --，它的选项才不会被当成 zhixing 的：zhixing mcp add ${name} -- ${plainText(words.slice(1).join(' ').slice(0, 80))} …`,
  );
  const env = pairs((v.env as string[] | undefined) ?? [], '=', '--env');
  if ('kind' in env) return forgotDashes ? dashesHint : (env as Command);
  const headers = pairs((v.header as string[] | undefined) ?? [], ':', '--header');
  if ('kind' in headers) return forgotDashes ? dashesHint : (headers as Command);
  let timeoutMs: number | undefined;
  if (v.timeout !== undefined) {
    timeoutMs = Number(v.timeout);
    if (!/^\d+$/.test(String(v.timeout)) || timeoutMs < 1 || timeoutMs > 3_600_000)
      return usage('--timeout is milliseconds, from 1 to 3600000.', '--timeout 是毫秒数，1 到 3600000。');
  }
  let maxTotalMs: number | undefined;
  if (v['max-total'] !== undefined) {
    maxTotalMs = Number(v['max-total']);
    if (!/^\d+$/.test(String(v['max-total'])) || maxTotalMs < 1 || maxTotalMs > 3_600_000)
      return usage('--max-total is milliseconds, from 1 to 3600000.', '--max-total 是毫秒数，1 到 3600000。');
  }
  const limits = { timeoutMs, ...(maxTotalMs !== undefined ? { maxTotalMs } : {}) };
  if (transport === 'stdio') {
    const [command, ...args] = commandLine.length ? commandLine : words.slice(1);
    if (!command)
      return usage(
        `Give the command that starts the server: zhixing mcp add ${name} -- npx -y @modelcontextprotocol/server-everything`,
        `请给出启动服务器的命令：zhixing mcp add ${name} -- npx -y @modelcontextprotocol/server-everything`,
      );
    if (commandLine.length && words.length > 1)
      return usage('Put the whole command after --.', '请把完整的命令放在 -- 之后。');
    return { kind: 'mcp', action, name, transport, command, args, env, headers, ...limits };
  }
  const url = words[1];
  if (!url || words.length > 2 || commandLine.length)
    return forgotDashes
      ? dashesHint
      : usage(
          `Give the server's URL: zhixing mcp add --transport ${transport} ${name} http://127.0.0.1:3001/mcp`,
          `请给出服务器的 URL：zhixing mcp add --transport ${transport} ${name} http://127.0.0.1:3001/mcp`,
        );
  let parsedUrl: URL | undefined;
  try {
    parsedUrl = new URL(url);
  } catch {
    parsedUrl = undefined;
  }
  if (!parsedUrl || !['http:', 'https:'].includes(parsedUrl.protocol))
    return forgotDashes
      ? dashesHint
      : usage(`"${url.slice(0, 80)}" is not an http(s) URL.`, `「${url.slice(0, 80)}」不是 http(s) 网址。`);
  return { kind: 'mcp', action, name, transport, args: [], url, env, headers, ...limits };
}
