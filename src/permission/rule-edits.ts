/**
 * Changes to the user's permission rules as the REPL and the web page make them: one tool's decision,
 * one pattern's, or a rule removed. Pure functions over the rules object; the permission service
 * checks and saves the result (`setRules`).
 */

import type { PermissionService } from './permission.js';
import type { PermissionRule, PermissionRules, RuleValue } from '../contract/permission.js';

export type RuleDecision = PermissionRule;
export type ToolRule = RuleValue;
export type Rules = PermissionRules;

/** What the REPL, the API and the web page need of the permission service to list and edit rules. */
export type RulesEditing = Pick<PermissionService, 'rules' | 'effective' | 'setRules' | 'remembered' | 'forget'>;

/** A plain decision acts as the pattern `*`. */
const ANY = '*';

/**
 * `rules` with `tool` (or one of its patterns) set to `decision`. A pattern added to a tool that has
 * one decision, its own or the default's (`effective`), keeps that decision as `*`, so only the
 * pattern's calls change. A decision without a pattern for a tool that has patterns sets its `*`:
 * `allow shell` must not sweep away `"curl *": "deny"` beside it (`remove` takes them all).
 */
export function withRule(
  rules: Rules,
  effective: Rules,
  tool: string,
  decision: RuleDecision,
  pattern?: string,
): Rules {
  const current = rules[tool];
  if (pattern === undefined)
    return typeof current === 'object'
      ? { ...rules, [tool]: { ...current, [ANY]: decision } }
      : { ...rules, [tool]: decision };
  const base = rules[tool] ?? effective[tool];
  const patterns = typeof base === 'string' ? { [ANY]: base } : { ...base };
  return { ...rules, [tool]: { ...patterns, [pattern]: decision } };
}

/** `rules` without `tool`'s rule, or without one of its patterns (the tool goes when none is left). */
export function withoutRule(rules: Rules, tool: string, pattern?: string): { rules: Rules; removed: boolean } {
  const current = rules[tool];
  if (current === undefined) return { rules, removed: false };
  const { [tool]: _gone, ...rest } = rules;
  if (pattern === undefined) return { rules: rest, removed: true };
  if (typeof current === 'string' || !(pattern in current)) return { rules, removed: false };
  const { [pattern]: _p, ...left } = current;
  return { rules: Object.keys(left).length ? { ...rest, [tool]: left } : rest, removed: true };
}

/** The rules that apply because the user set none for that key. */
export function defaultsOf(effective: Rules, rules: Rules): Rules {
  return Object.fromEntries(Object.entries(effective).filter(([tool]) => !(tool in rules)));
}

/**
 * `rules` without the rules of one MCP server's tools (`<server>__…`), for when the server is removed:
 * a later server given the same name must not inherit the trust given to this one. Server names hold no
 * `__`, so the prefix names this server alone.
 */
export function withoutServerRules(rules: Rules, server: string): { rules: Rules; removed: string[] } {
  const prefix = `${server}__`;
  const removed = Object.keys(rules).filter((key) => key.startsWith(prefix));
  if (!removed.length) return { rules, removed };
  return { rules: Object.fromEntries(Object.entries(rules).filter(([key]) => !key.startsWith(prefix))), removed };
}
