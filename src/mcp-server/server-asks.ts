import { join } from 'node:path';
import type { Bus } from '../bus/bus.js';
import { CONFIG_FILE } from '../config/paths.js';
import { say, type Lang } from '../i18n.js';
import type { PermissionService } from '../permission/permission.js';
import type { PermissionRecord } from '../contract/permission.js';

/**
 * The asks of calls an MCP client made. Nobody sits at this end to answer them (the client is another
 * program), so an ask is refused as unanswered the moment it is announced, never left waiting; `--yes`
 * approves them before they get here. Sessions are registered while their calls run.
 */
export interface ServerAsks {
  /** Refuses the asks of a session (every call in it) until the returned function is called. */
  own(sessionId: string): () => void;
  stop(): void;
}

export function createServerAsks(deps: {
  bus: Bus;
  permission: Pick<PermissionService, 'refuseUnanswered'>;
}): ServerAsks {
  // A count, not a flag: two calls of one MCP connection may run at once in its session.
  const owned = new Map<string, number>();
  const off = deps.bus.on('permission.asked', (ask) => {
    if (owned.has(ask.sessionId)) deps.permission.refuseUnanswered(ask.id);
  });
  return {
    own(sessionId) {
      owned.set(sessionId, (owned.get(sessionId) ?? 0) + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const n = (owned.get(sessionId) ?? 1) - 1;
        if (n > 0) owned.set(sessionId, n);
        else owned.delete(sessionId);
      };
    },
    stop: off,
  };
}

/** The request that nobody could answer, or that only a person may approve, among a call's permission records. */
export function unansweredAsk(records: PermissionRecord[]): PermissionRecord | undefined {
  return records.find((r) => r.by === 'no-host' || (r.by === 'yes' && r.decision === 'deny'));
}

const shownTarget = (target: string) => (target.length > 120 ? `${target.slice(0, 119)}…` : target);

/**
 * Why a call was refused in server mode and how to let it run: which tool, what it would have done,
 * what made it ask, and the two ways to allow it (a rule in config.json, or `--yes`).
 */
export function serverRefusalText(
  lang: Lang,
  tool: string,
  record: PermissionRecord,
  home: string,
  options: { stdio: boolean } = { stdio: true },
): string {
  const file = join(home, CONFIG_FILE);
  const target = shownTarget(record.target);
  const asking = record.parts?.filter((p) => p.decision !== 'allow').map((p) => p.text) ?? [];
  const example =
    tool === 'shell'
      ? `"shell": { "${(asking[0] ?? 'git status').replace(/["\\]/g, '')}": "allow" }`
      : `"${tool}": "allow"`;
  const why = record.reason ?? (record.rule ? `the rule ${record.rule} says ask` : undefined);
  if (record.by === 'yes') {
    return say(
      lang,
      `${tool} 没有运行：${target} 只能由用户本人批准（${why ?? '无法事先看清它会运行什么'}），--yes 也不能代替。`,
      `${tool} was not run: ${target} can only be approved by a person (${why ?? 'what it runs cannot be read beforehand'}); --yes does not approve it.`,
    );
  }
  // `--yes` is a flag of `zhixing mcp serve` (stdio); over HTTP only a rule can allow it.
  const yes = options.stdio
    ? say(
        lang,
        '；或者用 `zhixing mcp serve --yes` 启动服务器，让需要批准的调用直接运行',
        '; or start the server with `zhixing mcp serve --yes` so calls that would ask run',
      )
    : '';
  return say(
    lang,
    `${tool} 没有运行：它要 ${target}，这需要批准${why ? `（${why}）` : ''}，而知行作为 MCP 服务器运行时没有人可以批准。` +
      `要允许它，请在 ${file} 的 "permissions" 里加一条规则，例如 ${example}${yes}。`,
    `${tool} was not run: it would act on ${target}, which needs approval${why ? ` (${why})` : ''}, and nobody can approve it while Zhixing runs as an MCP server. ` +
      `To allow it, add a rule under "permissions" in ${file}, e.g. ${example}${yes}.`,
  );
}
