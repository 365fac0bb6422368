/**
 * What a turn tells its trust record (see permission/turn-trust.ts): the user's words and the outside
 * text already in the conversation when it starts, and what each finished call brought in.
 */
import { say, type Lang } from '../i18n.js';
import { withoutFences } from '../markdown-fence.js';
import { createTurnTrust, type TurnTrust, type UntrustedSource } from '../permission/turn-trust.js';
import type { ToolResult } from '../tools/registry.js';
import type { PermissionRecord } from '../contract/permission.js';
import { bringsOutsideText } from '../tools/untrusted.js';
import type { Tool } from '../tools/tool.js';
import type { Store } from '../store/store.js';

/** The turn's trust record: the user's words of the session, and outside text already in its history. */
export function trustOf(
  store: Store,
  opts: { sessionId: string; text: string; lang: Lang; inPrompt?: UntrustedSource[] },
): TurnTrust {
  const called = store.messages.toolsCalled(opts.sessionId);
  const earlier: UntrustedSource[] = called.tools
    .filter((tool) => bringsOutsideText(tool))
    .map((tool) => ({ tool, from: say(opts.lang, '本会话之前', 'earlier in this conversation') }));
  earlier.push(...(opts.inPrompt ?? []));
  // Text an earlier turn read in its prompt or tool descriptions lives on in what it answered.
  for (const s of store.turns.outsideOf(opts.sessionId))
    earlier.push({
      ...s,
      from: `${s.from ?? s.tool}, ${say(opts.lang, '本会话之前', 'earlier in this conversation')}`,
    });
  // A project's skill loaded earlier is still in the conversation, wherever this turn runs from.
  if (called.projectSkills.length) earlier.push({ tool: 'skill', from: called.projectSkills.join(', ') });
  const earlierTexts = store.messages.userTexts(opts.sessionId);
  // Text quoted in a fence in an earlier message (piped in, pasted) is still in the model's context.
  if (earlierTexts.some((t) => withoutFences(t) !== t))
    earlier.push({
      tool: say(opts.lang, '引用的文本', 'quoted text'),
      from: say(opts.lang, '本会话之前的消息', 'an earlier message of this conversation'),
    });
  return createTurnTrust({ lang: opts.lang, turnText: opts.text, earlierTexts, earlier });
}

/**
 * Outside text in the system prompt: the descriptions of a project's skills (a cloned folder's
 * files). A shipped or the user's own skill is theirs.
 */
export function promptSources(skills: Array<{ name: string; source?: string }>, lang: Lang): UntrustedSource[] {
  const project = skills.filter((s) => s.source === 'project').map((s) => s.name);
  return project.length
    ? [{ tool: say(lang, '这个项目的技能', "this project's skills"), from: project.join(', '), kept: true }]
    : [];
}

/**
 * The tools a request offers the model: descriptions written by an MCP server across the network are
 * outside text from the first request that carries them (a server may connect, or add tools, in the
 * middle of a turn). A local server's descriptions are as trusted as its code, which runs with the
 * user's rights anyway.
 */
export function describedInto(trust: TurnTrust, tools: Pick<Tool, 'remoteServer'>[], lang: Lang): boolean {
  const known = new Set(trust.sources().map((s) => s.describes));
  let added = false;
  for (const server of new Set(tools.map((t) => t.remoteServer))) {
    if (server === undefined || known.has(server)) continue;
    added = true;
    trust.entered({
      tool: say(lang, 'MCP 服务器的工具说明', "an MCP server's tool descriptions"),
      from: server,
      describes: server,
      kept: true,
    });
  }
  return added;
}

/** What a finished call tells the trust record: outside text that came in, a search's result links. */
export function observe(
  trust: TurnTrust,
  tool: string,
  source: string | undefined,
  result: ToolResult,
  records: PermissionRecord[],
): void {
  // A project's skill (a cloned folder's file) is outside text; a shipped or the user's own one is not.
  if (tool === 'skill' && result.ok && result.metadata?.source === 'project') {
    trust.entered({ tool, from: String(result.metadata.name ?? '') });
    return;
  }
  if (!bringsOutsideText(tool, source)) return;
  // A store read back empty brought nothing in: only our own words ("The todo list is empty").
  if (
    result.ok &&
    (tool === 'memory_search'
      ? Number(result.metadata?.hits) === 0
      : tool === 'todo_list' && Number(result.metadata?.shown) === 0)
  )
    return;
  // A call that failed before anything was allowed to go out (refused, or stopped by a check of ours)
  // brought nothing in. One that went out brought in what its error quotes: a stopped command's output,
  // an MCP server's error, or a message marked as quoting outside words (a server's status line, content
  // type or redirect target); otherwise its error is our own words (a policy refusal, a timeout).
  if (
    !result.ok &&
    (!records.some((r) => r.decision === 'allow') ||
      !(result.outside || tool === 'shell' || source?.startsWith('mcp:')))
  )
    return;
  const input = (result.input ?? {}) as Record<string, unknown>;
  const from =
    (tool === 'memory_search' && result.metadata?.scope === 'all' ? 'scope: all' : undefined) ??
    ([input.url, input.path, input.query, input.command].find((v) => typeof v === 'string') as string | undefined);
  trust.entered({ tool, ...(from !== undefined && { from }) });
  if (!result.ok || tool !== 'web_search') return;
  const results = result.metadata?.results;
  // The card's metadata is dropped past its size cap; the result lines (`   https://…`) say the same links.
  const links = Array.isArray(results)
    ? results.map((r: { url?: unknown } | null) => r?.url).filter((u): u is string => typeof u === 'string')
    : [...result.output.matchAll(/^ {3}(https?:\/\/\S+)$/gm)].map((m) => m[1]!);
  trust.searchResults(links);
}

/** Memories recalled into the system message at the turn's start: stored text an earlier, steered turn may have written. */
export function recalledInto(trust: TurnTrust, count: number, lang: Lang): void {
  if (count > 0)
    trust.entered({
      tool: say(lang, '自动回忆的记忆', 'recalled memories'),
      from: say(lang, `${count} 条`, `${count}`),
      kept: true,
    });
}

/** Keeps in the turn's row the sources that no tool part of the history records (see TurnsRepo.noteOutside). */
export function keepOutside(store: Store, turnId: string, trust: TurnTrust): void {
  const kept = trust
    .sources()
    .filter((s) => s.kept)
    .map(({ tool, from, describes }) => ({
      tool,
      ...(from !== undefined && { from }),
      ...(describes !== undefined && { describes }),
    }));
  if (kept.length) store.turns.noteOutside(turnId, kept);
}
