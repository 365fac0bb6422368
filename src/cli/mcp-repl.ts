/**
 * `/mcp` in the REPL: the MCP servers with their state, and `/mcp reconnect|enable|disable NAME`.
 * Changes go through the app's manager, which saves them to config.json.
 */
import { say, type Lang } from '../i18n.js';
import type { McpManager, McpServerView } from '../mcp/types.js';
import { failedLine, serverLines } from './mcp-view.js';
import type { Style } from './style.js';
import { plainText } from './terminal-text.js';

/** How long a reconnect or an enable waits to show how it went; Ctrl-C stops waiting sooner. */
const WAIT_MS = 10_000;
export const MCP_VERBS = ['reconnect ', 'enable ', 'disable '];

export interface McpReplResult {
  text: string;
  error?: boolean;
}

const usage = (lang: Lang) =>
  say(
    lang,
    '用法：/mcp · /mcp reconnect 名称 · /mcp enable 名称 · /mcp disable 名称',
    'Usage: /mcp · /mcp reconnect NAME · /mcp enable NAME · /mcp disable NAME',
  );

export async function mcpCommand(
  mcp: McpManager,
  arg: string,
  lang: Lang,
  style: Style,
  signal?: AbortSignal,
): Promise<McpReplResult> {
  const [verb = '', name = '', ...extra] = arg.split(/\s+/).filter(Boolean);
  if (!verb) return { text: listing(mcp.list(), lang, style) };
  if (!['reconnect', 'enable', 'disable'].includes(verb) || !name || extra.length)
    return { text: usage(lang), error: true };
  if (!mcp.get(name)) {
    const names = mcp.list().map((v) => v.name);
    return {
      text: say(
        lang,
        `没有名为「${plainText(name.slice(0, 40))}」的 MCP 服务器。${names.length ? `已有的：${names.join('、')}。` : '还没有配置任何服务器。'}`,
        `There is no MCP server "${plainText(name.slice(0, 40))}". ${names.length ? `The servers are: ${names.join(', ')}.` : 'None is configured.'}`,
      ),
      error: true,
    };
  }
  let view: McpServerView | undefined;
  if (verb === 'reconnect') view = await mcp.reconnect(name);
  else view = await mcp.setEnabled(name, verb === 'enable');
  if (verb !== 'disable' && view?.enabled) {
    // Show how it went, not just "connecting": at most WAIT_MS, less when the user presses Ctrl-C.
    const stopped = new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
    await Promise.race([mcp.ready(WAIT_MS), stopped]);
    view = mcp.get(name) ?? view;
  }
  const done = {
    reconnect: say(lang, '已重新连接。', 'Reconnected.'),
    enable: say(lang, '已启用（已保存到 config.json）。', 'Enabled (saved to config.json).'),
    disable: say(
      lang,
      '已停用（已保存到 config.json），它的工具不再提供。',
      'Disabled (saved to config.json): its tools are no longer offered.',
    ),
  }[verb as 'reconnect'];
  return { text: [done, ...(view ? serverLines(view, lang, style) : [])].join('\n'), error: view?.state === 'failed' };
}

function listing(views: McpServerView[], lang: Lang, style: Style): string {
  if (!views.length) {
    return say(
      lang,
      '没有配置 MCP 服务器。在终端里添加：zhixing mcp add 名称 -- 命令 [参数…]',
      'No MCP servers are configured. Add one from a shell: zhixing mcp add NAME -- CMD [ARGS…]',
    );
  }
  return [...views.map((v) => serverLines(v, lang, style).join('\n')), style.dim(usage(lang))].join('\n\n');
}

/**
 * Says, once each, the servers that have failed since it last looked: the REPL calls it before each
 * prompt, so a failure is never silent and never cuts into a line being typed.
 */
export function failureNotices(mcp: Pick<McpManager, 'list'>): (lang: Lang) => string | undefined {
  // A server is told of when it enters `failed`; once it leaves that state, a new failure is told again.
  const told = new Set<string>();
  return (lang) => {
    const views = mcp.list();
    const fresh = views.filter((v) => v.state === 'failed' && !told.has(v.name));
    for (const v of views) {
      if (v.state === 'failed') told.add(v.name);
      else told.delete(v.name);
    }
    return failedLine(fresh, lang);
  };
}
