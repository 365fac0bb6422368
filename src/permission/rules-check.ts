import type { PermissionRule, PermissionRules, RuleValue } from '../contract/permission.js';
import { UserError } from '../contract/user-error.js';

const DECISIONS: readonly string[] = ['allow', 'ask', 'deny'];
/** Longer keys than this are not a tool name or a pattern anyone writes, but pasted data. */
const MAX_KEY_CHARS = 1_000;
/** How much of a bad key a message repeats. */
const SHOWN_KEY_CHARS = 60;

/** One entry of `permissions` that cannot be used, in both languages. */
export interface RuleProblem {
  /** The entry's key; absent when `permissions` as a whole is unusable. */
  key?: string;
  en: string;
  zh: string;
}

const isDecision = (v: unknown): v is PermissionRule => typeof v === 'string' && DECISIONS.includes(v);
const shown = (key: string) => JSON.stringify(key.length > SHOWN_KEY_CHARS ? `${key.slice(0, SHOWN_KEY_CHARS)}…` : key);
const badKey = (key: string) => key.trim() === '' || key.length > MAX_KEY_CHARS;

/**
 * Reads a `permissions` object entry by entry: the usable entries, and a problem for each that is not.
 * A tool's map with one bad pattern is dropped whole, never half-applied: without its deny, the rest
 * of a map (`"*": "allow"`) could allow what the user meant to refuse.
 */
export function checkRules(raw: unknown): { rules: PermissionRules; problems: RuleProblem[] } {
  const rules: PermissionRules = {};
  const problems: RuleProblem[] = [];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return {
      rules,
      problems: [
        {
          en: 'must be an object of tool names to "allow", "ask", "deny" or a map of patterns to those',
          zh: '必须是一个对象：工具名对应 "allow"、"ask"、"deny"，或对应「模式 → 决定」的映射',
        },
      ],
    };
  }
  for (const [key, value] of Object.entries(raw)) {
    if (badKey(key)) {
      problems.push({
        key,
        en: `the tool name ${shown(key)} is empty or too long`,
        zh: `工具名 ${shown(key)} 为空或过长`,
      });
      continue;
    }
    const checked = checkValue(value);
    if ('problem' in checked) problems.push({ key, en: checked.problem, zh: zhOf(checked.problem) });
    else rules[key] = checked.value;
  }
  return { rules, problems };
}

function checkValue(value: unknown): { value: RuleValue } | { problem: string } {
  if (isDecision(value)) return { value };
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { problem: 'must be "allow", "ask", "deny" or a map of patterns to one of those' };
  const map: Record<string, PermissionRule> = {};
  for (const [pattern, decision] of Object.entries(value)) {
    if (badKey(pattern)) return { problem: `the pattern ${shown(pattern)} is empty or too long` };
    if (!isDecision(decision))
      return { problem: `the pattern ${shown(pattern)} must be set to "allow", "ask" or "deny"` };
    map[pattern] = decision;
  }
  if (Object.keys(map).length === 0)
    return { problem: 'is an empty map: give at least one pattern, e.g. {"*": "ask"}' };
  return { value: map };
}

/** The Chinese of checkValue's sentences. */
function zhOf(en: string): string {
  const pattern = /^the pattern (".*") (is empty or too long|must be set to .*)$/.exec(en);
  if (pattern)
    return pattern[2]!.startsWith('is')
      ? `模式 ${pattern[1]} 为空或过长`
      : `模式 ${pattern[1]} 必须设为 "allow"、"ask" 或 "deny"`;
  if (en.startsWith('is an empty map')) return '是空映射：至少给一个模式，例如 {"*": "ask"}';
  return '必须是 "allow"、"ask"、"deny"，或「模式 → 决定」的映射';
}

/** Thrown by `setRules` for rules that cannot be used: nothing was applied or written. */
export class PermissionRulesError extends UserError<'invalid_permissions'> {
  override name = 'PermissionRulesError';
  constructor(readonly problems: RuleProblem[]) {
    const key = (p: RuleProblem) => (p.key !== undefined ? `"${p.key}" ` : '');
    super(
      'invalid_permissions',
      `The permission rules were not saved: ${problems.map((p) => `${key(p)}${p.en}`).join('; ')}.`,
      `权限规则有误，没有保存：${problems.map((p) => `${key(p)}${p.zh}`).join('；')}。`,
    );
  }
}
