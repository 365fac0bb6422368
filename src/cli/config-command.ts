import { maskKey, safeUrl, type Config, type SettingOrigin } from '../config/config.js';
import { say, type Lang } from '../i18n.js';
import type { EmbeddingStatus } from '../contract/memory.js';
import type { SandboxInfo } from '../shell/sandbox.js';
import { noSandboxText } from './sandbox-notice.js';
import { shellLine, shownUrl } from './mcp-view.js';
import type { CliIo } from './cli-io.js';
import { jsonLine, plainText } from './terminal-text.js';

/** One line of `zhixing config`: a setting by its environment name, what it is in effect, and where that came from. */
interface Row {
  name: string;
  /** A number, a shown text (a masked key, a safe URL), or null when unset. */
  value: string | number | null;
  origin: SettingOrigin;
}

/** Where a value came from, in words. The setting's own name is repeated only when another name set it (OPENAI_API_KEY). */
function originText(origin: SettingOrigin, row: string, lang: Lang): string {
  const zh = lang === 'zh';
  const other = (name: string) => (name !== row ? ` (${name})` : '');
  switch (origin.from) {
    case 'environment':
      return (zh ? '环境变量' : 'environment') + other(origin.name);
    case 'cwd-env':
      return `./.env${other(origin.name)}`;
    case 'home-env':
      return origin.path + other(origin.name);
    case 'config-file':
      return `${origin.path} ("${origin.key}")`;
    case 'preset':
      return zh ? `${origin.provider} 预设` : `${origin.provider} preset`;
    case 'option':
      return zh ? `命令行 ${origin.option}` : `command line ${origin.option}`;
    default:
      return zh ? '默认' : 'default';
  }
}

/** Every setting in effect, in the order a user thinks of them: the model service first. */
function rows(config: Config): Row[] {
  const o = (name: string): SettingOrigin => config.origins[name] ?? { from: 'default' };
  const offline = config.mode === 'offline';
  // Offline, the provider and model are the planner's, whatever is configured: they come from the mode.
  const modeOrigin = o('ZHIXING_OFFLINE');
  return [
    { name: 'mode', value: config.mode, origin: modeOrigin },
    { name: 'ZHIXING_PROVIDER', value: config.provider, origin: offline ? modeOrigin : o('ZHIXING_PROVIDER') },
    { name: 'ZHIXING_BASE_URL', value: config.baseUrl ? safeUrl(config.baseUrl) : null, origin: o('ZHIXING_BASE_URL') },
    { name: 'ZHIXING_API_KEY', value: maskKey(config.apiKey) ?? null, origin: o('ZHIXING_API_KEY') },
    { name: 'ZHIXING_MODEL', value: config.model, origin: offline ? modeOrigin : o('ZHIXING_MODEL') },
    { name: 'ZHIXING_HOME', value: config.home, origin: o('ZHIXING_HOME') },
    { name: 'workspace', value: config.workspace, origin: o('workspace') },
    { name: 'ZHIXING_LANG', value: config.lang ?? null, origin: o('ZHIXING_LANG') },
    { name: 'ZHIXING_MAX_STEPS', value: config.maxSteps, origin: o('ZHIXING_MAX_STEPS') },
    { name: 'ZHIXING_CONTEXT_WINDOW', value: config.contextWindow, origin: o('ZHIXING_CONTEXT_WINDOW') },
    { name: 'ZHIXING_COMPACTION', value: config.compaction ? 1 : 0, origin: o('ZHIXING_COMPACTION') },
    { name: 'ZHIXING_TURN_TIMEOUT_MS', value: config.turnTimeoutMs, origin: o('ZHIXING_TURN_TIMEOUT_MS') },
    { name: 'ZHIXING_REQUEST_TIMEOUT_MS', value: config.requestTimeoutMs, origin: o('ZHIXING_REQUEST_TIMEOUT_MS') },
    { name: 'ZHIXING_HEADERS_TIMEOUT_MS', value: config.headersTimeoutMs, origin: o('ZHIXING_HEADERS_TIMEOUT_MS') },
    { name: 'ZHIXING_MAX_RETRIES', value: config.maxRetries, origin: o('ZHIXING_MAX_RETRIES') },
    { name: 'ZHIXING_TOOL_TIMEOUT_MS', value: config.toolTimeoutMs, origin: o('ZHIXING_TOOL_TIMEOUT_MS') },
    { name: 'ZHIXING_MAX_REPLY_CHARS', value: config.maxReplyChars, origin: o('ZHIXING_MAX_REPLY_CHARS') },
    { name: 'ZHIXING_GEOCODING_URL', value: safeUrl(config.geocodingUrl), origin: o('ZHIXING_GEOCODING_URL') },
    { name: 'ZHIXING_WEATHER_URL', value: safeUrl(config.weatherUrl), origin: o('ZHIXING_WEATHER_URL') },
    // web_search's service: which one and where; its key only as set or not, like the server's token.
    {
      name: 'ZHIXING_SEARCH_PROVIDER',
      value: config.web.search?.provider ?? null,
      origin: o('ZHIXING_SEARCH_PROVIDER'),
    },
    {
      name: 'ZHIXING_SEARCH_URL',
      value: config.web.search ? safeUrl(config.web.search.url) : null,
      origin: o('ZHIXING_SEARCH_URL'),
    },
    {
      name: 'ZHIXING_SEARCH_API_KEY',
      value: config.web.search?.apiKey ? '(set)' : null,
      origin: o('ZHIXING_SEARCH_API_KEY'),
    },
    // What web_fetch and the browser may reach, and which browser the browser tools drive.
    {
      name: 'ZHIXING_ALLOW_PRIVATE_NETWORK',
      value: config.web.allowPrivateNetwork ? 1 : 0,
      origin: o('ZHIXING_ALLOW_PRIVATE_NETWORK'),
    },
    { name: 'ZHIXING_CHROMIUM_PATH', value: config.web.chromiumPath ?? null, origin: o('ZHIXING_CHROMIUM_PATH') },
    {
      name: 'ZHIXING_BROWSER_CDP_URL',
      value: config.web.browserCdpUrl ? safeUrl(config.web.browserCdpUrl) : null,
      origin: o('ZHIXING_BROWSER_CDP_URL'),
    },
    { name: 'ZHIXING_SHELL_NETWORK', value: config.shell.network ? 1 : 0, origin: o('ZHIXING_SHELL_NETWORK') },
    // The server's token is never shown, not even masked: a part of it is a part of a password.
    { name: 'ZHIXING_TOKEN', value: config.token ? '(set)' : null, origin: o('ZHIXING_TOKEN') },
  ];
}

/** What an unset value means, in words. */
function unsetText(name: string, lang: Lang): string {
  const zh = lang === 'zh';
  if (name === 'ZHIXING_LANG') return zh ? '（跟随你写的语言）' : '(follows the language you write in)';
  return zh ? '（无）' : '(none)';
}

/** Why the mode is what it is, when the settings alone do not say. */
function modeNote(config: Config, lang: Lang): string {
  const zh = lang === 'zh';
  if (config.mode === 'llm') return zh ? ' —— 使用模型服务' : ' — using the model service';
  if (config.origins.ZHIXING_OFFLINE?.from !== 'default')
    return zh ? ' —— 规则规划器（强制离线）' : ' — the rule-based planner (offline forced)';
  return zh ? ' —— 规则规划器（没有配置模型服务）' : ' — the rule-based planner (no model service configured)';
}

/**
 * `zhixing config [--json]`: the configuration in effect and where each value came from, with the
 * key masked (`sk-…abcd`). Values are shown as plain text: a setting can hold anything.
 */
export function runConfigShow(
  config: Config,
  json: boolean,
  io: CliIo,
  lang: Lang,
  sandbox?: SandboxInfo,
  embeddings?: EmbeddingStatus,
): number {
  const all = rows(config);
  if (json) {
    const settings = Object.fromEntries(
      all.filter((r) => r.name !== 'mode').map((r) => [r.name, { value: r.value, ...r.origin }]),
    );
    const contained = sandbox && {
      kind: sandbox.kind,
      ok: sandbox.ok,
      ...(sandbox.reason ? { reason: sandbox.reason } : {}),
      network: sandbox.network ?? 'off',
      ...(sandbox.networkReason ? { networkReason: sandbox.networkReason } : {}),
    };
    const memory = embeddings && {
      search: embeddings.kind === 'none' ? 'lexical' : 'hybrid',
      ...(config.embedding ? { model: config.embedding.model } : {}),
    };
    io.stdout(
      jsonLine({
        mode: config.mode,
        settings,
        permissions: config.permissions,
        ...(memory ? { memory } : {}),
        ...(contained ? { sandbox: contained } : {}),
        warnings: config.warnings,
      }),
    );
    return 0;
  }
  const shown = all.map((r) => ({
    name: r.name,
    value:
      r.value === null
        ? unsetText(r.name, lang)
        : plainText(String(r.value)) + (r.name === 'mode' ? modeNote(config, lang) : ''),
    origin: r.name === 'mode' && r.origin.from === 'default' ? '' : originText(r.origin, r.name, lang),
  }));
  const nameWidth = Math.max(...shown.map((r) => r.name.length));
  const valueWidth = Math.max(...shown.filter((r) => r.origin).map((r) => r.value.length));
  for (const r of shown) {
    const line = r.origin
      ? `${r.name.padEnd(nameWidth)}  ${r.value.padEnd(valueWidth)}  ${io.style.dim(plainText(r.origin))}`
      : `${r.name.padEnd(nameWidth)}  ${r.value}`;
    io.stdout(`${line.trimEnd()}\n`);
  }
  if (embeddings) io.stdout(`${'memory'.padEnd(nameWidth)}  ${plainText(memorySearchText(embeddings, lang))}\n`);
  // One rule a line, as the permission records name them (`shell › curl *`), decisions lined up.
  const rules = Object.entries(config.permissions)
    .flatMap(([tool, value]) =>
      typeof value === 'string'
        ? [[tool, value]]
        : Object.entries(value).map(([pattern, rule]) => [`${tool} › ${pattern}`, rule]),
    )
    .map(([name, rule]) => [plainText(name!), rule!] as const);
  const ruleWidth = Math.max(0, ...rules.map(([name]) => name.length));
  rules.forEach(([name, rule], i) =>
    io.stdout(`${(i === 0 ? 'permissions' : '').padEnd(nameWidth)}  ${name.padEnd(ruleWidth)}  ${rule}\n`),
  );
  // The MCP servers configured, one a line with what runs; their state takes connecting, which `mcp list` does.
  const servers = config.mcpServers;
  const serverWidth = Math.max(0, ...servers.map((s) => s.name.length));
  servers.forEach((s, i) => {
    const runs = s.command ? shellLine([s.command, ...s.args]) : shownUrl(s.url ?? '');
    const off = s.enabled ? '' : ` ${io.style.dim(say(lang, '（已停用）', '(disabled)'))}`;
    io.stdout(
      `${(i === 0 ? 'mcp' : '').padEnd(nameWidth)}  ${s.name.padEnd(serverWidth)}  ${plainText(runs).replace(/\s*\n\s*/g, ' ')}${off}\n`,
    );
  });
  if (servers.length)
    io.stdout(
      `${''.padEnd(nameWidth)}  ${io.style.dim(say(lang, 'zhixing mcp list 会连接它们并显示状态', 'zhixing mcp list connects them and shows their state'))}\n`,
    );
  if (sandbox) io.stdout(`${'shell network'.padEnd(nameWidth)}  ${plainText(shellNetworkText(sandbox, lang))}\n`);
  // Said only when it matters: with a working sandbox there is nothing for the user to do.
  if (sandbox && !sandbox.ok) io.stdout(`${'sandbox'.padEnd(nameWidth)}  ${plainText(noSandboxText(sandbox, lang))}\n`);
  return 0;
}

/** Which network shell commands get, in words: none, user-mode with nothing local, or the host's. */
export function shellNetworkText(info: SandboxInfo, lang: Lang): string {
  if (info.network === 'user-mode')
    return say(lang, '用户态网络（pasta），无法访问本机和局域网地址', 'user-mode (pasta), no local addresses');
  if (info.network === 'host')
    return say(lang, '本机网络（包括本机和局域网地址）', "host (this machine's own network, local addresses included)");
  if (info.networkReason)
    return say(
      lang,
      `关闭：设置里开启了网络，但用户态网络无法启用（${info.networkReason}；apt-get install passt）`,
      `off: ${info.networkReason} (apt-get install passt)`,
    );
  return say(lang, '关闭', 'off');
}

/** How memories are searched: by words only, or also by meaning through an embedding model. */
export function memorySearchText(e: EmbeddingStatus, lang: Lang): string {
  if (e.kind === 'none') {
    return say(
      lang,
      '仅关键词搜索（没有配置向量模型：设置 ZHIXING_EMBEDDING_MODEL 即可开启）',
      'lexical search only (no embedding model: set ZHIXING_EMBEDDING_MODEL to turn it on)',
    );
  }
  const model = e.model ? ` ${e.model}` : '';
  return (
    say(lang, `关键词和语义搜索（${e.kind}${model}）`, `lexical and semantic search (${e.kind}${model})`) +
    (e.error ? ` · ${e.error}` : '')
  );
}
