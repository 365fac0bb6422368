/**
 * How the CLI and the REPL show MCP servers. Everything a server or config.json gave (its error, its
 * stderr, even its command line) is someone else's text: shown through plainText, never obeyed by
 * the terminal.
 */
import { say, type Lang } from '../i18n.js';
import type { McpServerState } from '../contract/mcp-server.js';
import type { McpServerView } from '../mcp/types.js';
import type { Style } from './style.js';
import { plainText } from './terminal-text.js';

/** Stderr lines shown under a failed server: enough to see why, few enough to read. */
export const STDERR_SHOWN = 8;
/** A line a server wrote is cut here: a minified stack trace is one line of 100 KB. */
const LINE_CHARS = 300;

const cut = (s: string) => {
  const plain = plainText(s).replace(/\s*\n\s*/g, ' ');
  return plain.length > LINE_CHARS ? `${plain.slice(0, LINE_CHARS)}…` : plain;
};

export function stateWord(state: McpServerState, lang: Lang): string {
  return {
    connecting: say(lang, '连接中', 'connecting'),
    connected: say(lang, '已连接', 'connected'),
    failed: say(lang, '失败', 'failed'),
    disabled: say(lang, '已停用', 'disabled'),
  }[state];
}

function colored(state: McpServerState, text: string, style: Style): string {
  if (state === 'connected') return style.green(text);
  if (state === 'failed') return style.red(text);
  return style.dim(text);
}

/** A command line as a shell would take it back: each word quoted only when it needs it. */
export const shellLine = (words: string[]): string =>
  words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`)).join(' ');

/** A URL as shown: without credentials, query or fragment (they may hold tokens). */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    const hidden = u.username || u.password || u.search || u.hash;
    return `${u.origin}${u.pathname}${hidden ? ' (…)' : ''}`;
  } catch {
    return url;
  }
}

/** What runs: the whole command line of a local server, or an HTTP server's URL. */
export const whatRuns = (v: Pick<McpServerView, 'command' | 'url'>): string => cut(v.command ?? shownUrl(v.url ?? ''));

/** The rule that trusts a server, and where to put it. */
export function trustHint(name: string, lang: Lang): string {
  return say(
    lang,
    `它的工具每次调用前都会先问你，直到你信任它：在 config.json 的 "permissions" 里加上 "${name}__*": "allow"，或在对话中输入 /permissions allow ${name}__*`,
    `Its tools ask before each call until you trust it: add "${name}__*": "allow" to "permissions" in config.json, or type /permissions allow ${name}__* in the REPL.`,
  );
}

/** One server in a few lines: name, state, what runs, its tools, and why it failed with what it last said. */
export function serverLines(v: McpServerView, lang: Lang, style: Style): string[] {
  const tools =
    v.state === 'connected'
      ? say(lang, ` · ${v.tools.length} 个工具`, ` · ${v.tools.length} tool${v.tools.length === 1 ? '' : 's'}`)
      : '';
  const trusted = v.trusted ? say(lang, ' · 已信任', ' · trusted') : '';
  const lines = [
    `${style.bold(plainText(v.name))}  ${colored(v.state, stateWord(v.state, lang), style)}${tools}${trusted}`,
  ];
  lines.push(`  ${style.dim(v.transport === 'stdio' ? say(lang, '命令', 'command') : v.transport)}  ${whatRuns(v)}`);
  const keys = [...v.envKeys.map((k) => `env ${k}`), ...v.headerKeys.map((k) => `header ${k}`)];
  if (keys.length)
    lines.push(`  ${style.dim(say(lang, '已设置（值不显示）', 'set (values not shown)'))}  ${cut(keys.join(', '))}`);
  if (v.state === 'connected' && v.tools.length)
    lines.push(`  ${style.dim(say(lang, '工具', 'tools'))}  ${cut(v.tools.join(', '))}`);
  if (v.error) lines.push(`  ${style.red(say(lang, '原因', 'error'))}  ${cut(v.error)}`);
  if (v.warning) lines.push(`  ${style.red(say(lang, '注意', 'warning'))}  ${cut(v.warning)}`);
  if (v.state === 'failed' && v.stderr.length) {
    lines.push(`  ${style.dim(say(lang, '它最后在 stderr 写的：', 'its last stderr lines:'))}`);
    for (const line of v.stderr.slice(-STDERR_SHOWN)) lines.push(`    ${style.dim('|')} ${cut(line)}`);
  }
  return lines;
}

/** One line naming the servers that failed, or nothing: a failure is never silent. */
export function failedLine(views: McpServerView[], lang: Lang): string | undefined {
  const failed = views.filter((v) => v.state === 'failed');
  if (!failed.length) return undefined;
  const names = failed.map((v) => `${plainText(v.name)} (${cut(v.error ?? '?').slice(0, 120)})`).join('; ');
  return say(
    lang,
    `MCP 服务器连接失败：${names}。/mcp 查看详情。`,
    `MCP server${failed.length === 1 ? '' : 's'} failed: ${names}. /mcp shows why.`,
  );
}
