/**
 * What a turn tells its trust record (see permission/turn-trust.ts): the user's words and the outside
 * text already in the conversation when it starts, and what each finished call brought in.
 */
import { say, type Lang } from '../i18n.js';
import { createTurnTrust, withoutFences, type TurnTrust } from '../permission/turn-trust.js';
import type { ToolResult } from '../tools/registry.js';
import type { PermissionRecord } from '../tools/tool.js';
import { bringsOutsideText } from '../tools/untrusted.js';
import type { Store } from '../store/store.js';
import type { TurnOptions } from './run-turn.js';

/** The turn's trust record: the user's words of the session, and outside text already in its history. */
export function trustOf(store: Store, opts: Pick<TurnOptions, 'sessionId' | 'text' | 'lang'>): TurnTrust {
  const earlier = store.messages
    .toolsCalled(opts.sessionId)
    .filter((tool) => bringsOutsideText(tool))
    .map((tool) => ({ tool, from: say(opts.lang, '本会话之前', 'earlier in this conversation') }));
  const earlierTexts = store.messages.userTexts(opts.sessionId);
  // Text quoted in a fence in an earlier message (piped in, pasted) is still in the model's context.
  if (earlierTexts.some((t) => withoutFences(t) !== t)) earlier.push({ tool: say(opts.lang, '引用的文本', 'quoted text'), from: say(opts.lang, '本会话之前的消息', 'an earlier message of this conversation') });
  return createTurnTrust({ lang: opts.lang, turnText: opts.text, earlierTexts, earlier });
}

/** What a finished call tells the trust record: outside text that came in, a search's result links. */
export function observe(trust: TurnTrust, tool: string, source: string | undefined, result: ToolResult, records: PermissionRecord[]): void {
  if (!bringsOutsideText(tool, source)) return;
  // A store read back empty brought nothing in: only our own words ("The todo list is empty").
  if (result.ok && (tool === 'memory_search' ? Number(result.metadata?.hits) === 0 : tool === 'todo_list' && Number(result.metadata?.shown) === 0)) return;
  // A failed call brought nothing in when it was refused, or when its error is our own words (a fetch that
  // failed, a policy refusal); an MCP server's error and a stopped command's output are someone else's.
  if (!result.ok && (records.some((r) => r.decision === 'deny') || !(tool === 'shell' || source?.startsWith('mcp:')))) return;
  const input = (result.input ?? {}) as Record<string, unknown>;
  const from = (tool === 'memory_search' && result.metadata?.scope === 'all' ? 'scope: all' : undefined)
    ?? ([input.url, input.path, input.query, input.command].find((v) => typeof v === 'string') as string | undefined);
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
  if (count > 0) trust.entered({ tool: say(lang, '自动回忆的记忆', 'recalled memories'), from: say(lang, `${count} 条`, `${count}`) });
}
