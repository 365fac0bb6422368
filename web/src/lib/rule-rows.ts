/**
 * The permission page's rows, to and from the rules object the API takes: one row per tool, with
 * one decision or a list of patterns. Rows the user has not touched that only show a default are
 * left out of what is saved, so a default stays a default.
 */
import type { PermissionSettings, RuleDecision, ToolRule } from './types';

export interface PatternRow {
  key: number;
  pattern: string;
  decision: RuleDecision;
}

export interface ToolRow {
  key: number;
  tool: string;
  /** One decision for every call, or by pattern. */
  byPattern: boolean;
  decision: RuleDecision;
  patterns: PatternRow[];
  /** Shows a built-in default the user has not changed. */
  isDefault: boolean;
}

let nextKey = 0;
export const newKey = (): number => ++nextKey;

function rowOf(tool: string, rule: ToolRule, isDefault: boolean): ToolRow {
  if (typeof rule === 'string')
    return { key: newKey(), tool, byPattern: false, decision: rule, patterns: [], isDefault };
  const patterns = Object.entries(rule).map(([pattern, decision]) => ({ key: newKey(), pattern, decision }));
  return { key: newKey(), tool, byPattern: true, decision: 'ask', patterns, isDefault };
}

/** The rows for the settings: every rule in effect, the user's first as they wrote them, then the defaults. */
export function rowsOf(s: PermissionSettings): ToolRow[] {
  const mine = Object.entries(s.rules).map(([tool, rule]) => rowOf(tool, rule, false));
  const defaults = Object.entries(s.defaults).map(([tool, rule]) => rowOf(tool, rule, true));
  return [...mine, ...defaults];
}

/** The user's rules the rows describe. Empty tool names and patterns go to the server as they are, so its check names them. */
export function rulesOf(rows: ToolRow[]): Record<string, ToolRule> {
  const rules: Record<string, ToolRule> = {};
  for (const row of rows) {
    if (row.isDefault) continue;
    rules[row.tool.trim()] = row.byPattern
      ? Object.fromEntries(row.patterns.map((p) => [p.pattern, p.decision]))
      : row.decision;
  }
  return rules;
}
